// Generates the stream protocol types from proto/stream.proto (shared with the frontend), with
// the protoc that ships in the protoc-bin-vendored crate (nothing to install).
fn main() -> std::io::Result<()> {
    let protoc = protoc_bin_vendored::protoc_bin_path().map_err(std::io::Error::other)?;
    std::env::set_var("PROTOC", protoc);
    println!("cargo:rerun-if-changed=proto/stream.proto");
    prost_build::compile_protos(&["proto/stream.proto"], &["proto/"])
}
