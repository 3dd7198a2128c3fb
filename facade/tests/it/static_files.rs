//! The built frontend over HTTP: precompressed variants by Accept-Encoding, cache headers, no
//! path out of the build, and the envelope for unknown `/api` paths.

use crate::common;

use std::path::{Path, PathBuf};

use awc::http::StatusCode;
use serde_json::Value;

const SCRIPT: &str = "assets/index-AbC_12-x.js";

/// A fake build: index.html, a hashed script with `.br`/`.gz` siblings (marker bytes: the server
/// never decodes them), a favicon, a hidden manifest, and a secret file next to (outside) it.
fn fake_dist(root: &Path) -> PathBuf {
    let dist = root.join("dist");
    std::fs::create_dir_all(dist.join("assets")).unwrap();
    std::fs::create_dir_all(dist.join(".vite")).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><title>index</title>").unwrap();
    std::fs::write(dist.join("index.html.br"), "BR-INDEX").unwrap();
    std::fs::write(dist.join(SCRIPT), "console.log('plain')").unwrap();
    std::fs::write(dist.join(format!("{SCRIPT}.br")), "BR-BYTES").unwrap();
    std::fs::write(dist.join(format!("{SCRIPT}.gz")), "GZ-BYTES").unwrap();
    std::fs::write(dist.join("assets/only-plain-Zz09Zz09.css"), "body{}").unwrap();
    std::fs::write(dist.join("favicon.svg"), "<svg/>").unwrap();
    std::fs::write(dist.join(".vite/manifest.json"), "{\"secret\":1}").unwrap();
    std::fs::write(root.join("secret.txt"), "SECRET").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("secret.txt"), dist.join("link.txt")).unwrap();
    dist
}

async fn server(name: &str) -> (facade::Running, PathBuf, String) {
    let root = common::temp_dir(name);
    let dist = fake_dist(&root);
    let mut cfg = common::config(&root.join("data"), 1, 60);
    cfg.frontend_dir = dist.clone();
    let running = facade::start(cfg).await.unwrap();
    let base = format!("http://{}", running.addr);
    (running, root, base)
}

struct Answer {
    status: StatusCode,
    headers: awc::http::header::HeaderMap,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

async fn get(base: &str, path: &str, headers: &[(&str, &str)]) -> Answer {
    let client = awc::Client::default();
    let mut req = client.get(format!("{base}{path}"));
    for (k, v) in headers {
        req = req.insert_header((*k, *v));
    }
    let mut resp = req.send().await.unwrap();
    let body = resp.body().await.unwrap();
    Answer {
        status: resp.status(),
        headers: resp.headers().clone(),
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

// A hashed script is sent as its brotli (else gzip) sibling when accepted, with its own type,
// `Content-Encoding`, `Vary: Accept-Encoding` and the year-long immutable cache.
#[actix_rt::test]
async fn hashed_scripts_are_precompressed_and_immutable() {
    let (running, root, base) = server("static-enc").await;
    let path = format!("/{SCRIPT}");

    let br = get(&base, &path, &[("accept-encoding", "gzip, deflate, br")]).await;
    assert_eq!(br.status, StatusCode::OK);
    assert_eq!(br.body, "BR-BYTES");
    assert_eq!(br.header("content-encoding"), Some("br"));
    assert!(
        br.header("content-type").unwrap().contains("javascript"),
        "{:?}",
        br.header("content-type")
    );
    assert_eq!(br.header("vary"), Some("Accept-Encoding"));
    assert_eq!(br.header("cache-control"), Some("public, max-age=31536000, immutable"));
    assert_eq!(br.header("content-length"), Some("8"));

    let gz = get(&base, &path, &[("accept-encoding", "gzip")]).await;
    assert_eq!((gz.body.as_str(), gz.header("content-encoding")), ("GZ-BYTES", Some("gzip")));

    let refused = get(&base, &path, &[("accept-encoding", "br;q=0, gzip;q=0.5")]).await;
    assert_eq!(
        (refused.body.as_str(), refused.header("content-encoding")),
        ("GZ-BYTES", Some("gzip"))
    );

    let star = get(&base, &path, &[("accept-encoding", "*")]).await;
    assert_eq!(star.header("content-encoding"), Some("br"));

    let plain = get(&base, &path, &[]).await;
    assert_eq!(plain.body, "console.log('plain')");
    assert_eq!(plain.header("content-encoding"), None);
    assert_eq!(plain.header("vary"), Some("Accept-Encoding"), "caches must key on the encoding");
    assert_eq!(plain.header("cache-control"), Some("public, max-age=31536000, immutable"));

    // a range is of the plain bytes, never of a compressed variant
    let range = get(&base, &path, &[("accept-encoding", "br"), ("range", "bytes=0-6")]).await;
    assert_eq!((range.status, range.body.as_str()), (StatusCode::PARTIAL_CONTENT, "console"));
    assert_ne!(range.header("content-encoding"), Some("br"));

    // a file without siblings is sent plain; the encodings still vary the cache
    let css = get(&base, "/assets/only-plain-Zz09Zz09.css", &[("accept-encoding", "br, gzip")]).await;
    assert_eq!(
        (css.status, css.body.as_str(), css.header("content-encoding")),
        (StatusCode::OK, "body{}", None)
    );
    assert!(css.header("content-type").unwrap().starts_with("text/css"));

    running.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(root);
}

// The index answers every page route with `no-cache` (compressed when accepted, revalidated by
// its ETag); unhashed files are `no-cache` too; a missing asset is a 404, not the index.
#[actix_rt::test]
async fn the_index_is_revalidated_and_missing_assets_are_404() {
    let (running, root, base) = server("static-cache").await;
    for path in ["/", "/index.html", "/game/detail/3", "/user/playtime/available"] {
        let a = get(&base, path, &[]).await;
        assert_eq!(a.status, StatusCode::OK, "{path}");
        assert_eq!(a.body, "<!doctype html><title>index</title>", "{path}");
        assert_eq!(a.header("cache-control"), Some("no-cache"), "{path}");
        assert!(a.header("content-type").unwrap().starts_with("text/html"), "{path}");
        assert_eq!(a.header("vary"), Some("Accept-Encoding"), "{path}");
    }
    let br = get(&base, "/game", &[("accept-encoding", "br")]).await;
    assert_eq!((br.body.as_str(), br.header("content-encoding")), ("BR-INDEX", Some("br")));

    let first = get(&base, "/", &[]).await;
    let etag = first.header("etag").expect("an etag").to_string();
    let again = get(&base, "/", &[("if-none-match", &etag)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);

    let icon = get(&base, "/favicon.svg", &[]).await;
    assert_eq!((icon.status, icon.body.as_str()), (StatusCode::OK, "<svg/>"));
    assert_eq!(icon.header("cache-control"), Some("no-cache"));

    let missing = get(&base, "/assets/index-Gone1234.js", &[]).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_ne!(missing.body, "<!doctype html><title>index</title>");

    running.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(root);
}

// No path reaches a file outside the build (dot segments, encoded dots, backslashes, hidden
// names, a symlink out): each answers the index or a 404, never the secret.
#[actix_rt::test]
async fn no_path_escapes_the_build() {
    let (running, root, base) = server("static-escape").await;
    for path in [
        "/../secret.txt",
        "/assets/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/%2E%2E/secret.txt",
        "/..%2fsecret.txt",
        "/..%5csecret.txt",
        "/assets/..\\..\\secret.txt",
        "/.vite/manifest.json",
        "/link.txt",
    ] {
        let a = get(&base, path, &[]).await;
        assert!(
            !a.body.contains("SECRET") && !a.body.contains("secret\":1"),
            "{path} leaked: {}",
            a.body
        );
        assert!(
            a.status == StatusCode::OK && a.body.contains("<title>index</title>") || a.status.is_client_error(),
            "{path}: {} {}",
            a.status,
            a.body
        );
    }
    running.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(root);
}

// Unknown `/api` paths, and any method but GET/HEAD outside the API, still get the 40004
// envelope; the built files never answer for them.
#[actix_rt::test]
async fn unknown_api_paths_get_the_envelope() {
    let (running, root, _base) = server("static-api").await;
    let mut client = common::Client::new(running.addr, "dev-static");
    for path in ["/api/nope", "/api/", "/api/assets/index-AbC_12-x.js"] {
        let (status, env) = client.get(path).await;
        assert_eq!((status, env["code"].clone()), (404, Value::from(40004)), "{path}: {env}");
        assert_eq!(env["message"], "接口不存在");
    }
    let (status, env) = client.post("/api/japi/yoo/nope", serde_json::json!({})).await;
    assert_eq!((status, env["code"].clone()), (404, Value::from(40004)));
    let (status, env) = client.post("/index.html", serde_json::json!({})).await;
    assert_eq!((status, env["code"].clone()), (404, Value::from(40004)));
    running.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(root);
}
