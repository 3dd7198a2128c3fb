// Generates the WebSocket protocol types from the server's ../facade/proto/yoo.proto (the one
// source of truth), with the protoc that ships in the protoc-bin-vendored crate, exactly as
// facade/build.rs does. The harness keeps its own copy of the types: it never links the server.
fn main() -> std::io::Result<()> {
    let protoc = protoc_bin_vendored::protoc_bin_path().map_err(std::io::Error::other)?;
    std::env::set_var("PROTOC", protoc);
    println!("cargo:rerun-if-changed=../facade/proto/yoo.proto");
    prost_build::compile_protos(&["../facade/proto/yoo.proto"], &["../facade/proto/"])
}
