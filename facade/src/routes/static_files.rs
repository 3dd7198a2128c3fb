//! The built frontend (`frontend_dir`, Vite's `dist/`), and the envelope for unknown `/api` paths.
//!
//! - Hashed assets (`/assets/NAME-HASH.js`) never change under their name: `Cache-Control:
//!   public, max-age=31536000, immutable`. Every other file, and the app's `index.html` that
//!   answers every page route, is `no-cache` (revalidated with its ETag).
//! - Scripts, styles and the other text files are sent precompressed: the build writes a `.br`
//!   and a `.gz` sibling of each (`frontend/vite.config.ts`), and the one the browser accepts is
//!   sent with `Content-Encoding` (brotli first); `Vary: Accept-Encoding` on all of them. A range
//!   request gets the plain file (a range of compressed bytes is not what it asked for).
//! - A path never leaves the build: `..`, `.`, hidden names (`.vite/`) and backslashes are not
//!   files, and a file whose real path (symlinks resolved) is outside the build is not served.
//! - A missing `/assets/` file is a 404, not the index: a stale page's lazy chunk then fails to
//!   load and the page reloads (core-platform.md §2.2).

use std::path::{Path, PathBuf};

use actix_files::NamedFile;
use actix_web::http::header::{self, ContentEncoding, HeaderValue};
use actix_web::http::Method;
use actix_web::{web, HttpRequest, HttpResponse};

use crate::envelope::ApiError;
use crate::state::AppState;

/// Hashed assets: cached for a year and never revalidated.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// The index and the unhashed files: revalidated on every use.
pub const NO_CACHE: &str = "no-cache";

/// Extensions the build precompresses (and that get `Vary: Accept-Encoding`).
const COMPRESSIBLE: &[&str] = &["js", "mjs", "css", "html", "svg", "json", "txt", "map", "wasm"];

/// Unknown `/api` paths (and any method but GET/HEAD) get the envelope; every other GET is a file
/// of the build or a page of the single-page app.
pub async fn fallback(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let path = req.path();
    if path.starts_with("/api/") || path == "/api" || !(req.method() == Method::GET || req.method() == Method::HEAD) {
        return Err(ApiError::not_found());
    }
    let dist = &state.frontend_dir;
    let file = match resolve(dist, path) {
        Some(f) => f,
        None if path.starts_with("/assets/") => return Ok(plain_404("not found")),
        None => dist.join("index.html"),
    };
    match serve(&req, &file, dist).await {
        Some(res) => Ok(res),
        None => Ok(plain_404("frontend not built: run `make run` (it builds frontend/dist)")),
    }
}

fn plain_404(text: &'static str) -> HttpResponse {
    HttpResponse::NotFound()
        .content_type("text/plain; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, NO_CACHE))
        .body(text)
}

/// The file of the build a URL path names, if there is one. Segments that could climb out or
/// name hidden files make the path name no file.
pub fn resolve(dist: &Path, path: &str) -> Option<PathBuf> {
    let mut rel = PathBuf::new();
    for seg in path.split('/').filter(|s| !s.is_empty()) {
        if seg.starts_with('.') || seg.contains('\\') || seg.contains('\0') {
            return None;
        }
        rel.push(seg);
    }
    if rel.as_os_str().is_empty() {
        return None;
    }
    let candidate = dist.join(&rel);
    if !candidate.is_file() {
        return None;
    }
    // a symlink inside the build must not reach outside it
    let root = dist.canonicalize().ok()?;
    let real = candidate.canonicalize().ok()?;
    real.starts_with(&root).then_some(candidate)
}

/// Which precompressed variants the request accepts: (brotli, gzip). `q=0` refuses one; `*`
/// accepts both unless named with `q=0`.
pub fn accepted(req: &HttpRequest) -> (bool, bool) {
    let (mut br, mut gz, mut star) = (None, None, None);
    for value in req.headers().get_all(header::ACCEPT_ENCODING) {
        let Ok(s) = value.to_str() else { continue };
        for item in s.split(',') {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q=").or_else(|| p.trim().strip_prefix("Q=")))
                .filter_map(|v| v.trim().parse::<f32>().ok())
                .next_back()
                .unwrap_or(1.0);
            let ok = q > 0.0;
            match coding.as_str() {
                "br" => br = Some(ok),
                "gzip" | "x-gzip" => gz = Some(ok),
                "*" => star = Some(ok),
                _ => {}
            }
        }
    }
    let star = star.unwrap_or(false);
    (br.unwrap_or(star), gz.unwrap_or(star))
}

/// A hashed asset of the build: under `assets/`, named `NAME-HASH.EXT` with a hash of 8 or more
/// letters, digits, `_` or `-`.
pub fn is_hashed_asset(dist: &Path, file: &Path) -> bool {
    let Ok(rel) = file.strip_prefix(dist) else { return false };
    if rel.components().next().and_then(|c| c.as_os_str().to_str()) != Some("assets") {
        return false;
    }
    let Some(name) = file.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    // the name without its extension: a chunk's name may have dots of its own (mobx.esm-HASH.js)
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    // Vite's hash is the last 8 characters after a '-' (the hash itself may contain '-')
    stem.len() > 9
        && stem.as_bytes()[stem.len() - 9] == b'-'
        && stem[stem.len() - 8..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The file (or its precompressed sibling) with its type, encoding and cache headers; `None` when
/// it cannot be opened.
async fn serve(req: &HttpRequest, file: &Path, dist: &Path) -> Option<HttpResponse> {
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let compressible = COMPRESSIBLE.contains(&ext.as_str());
    let mime = actix_files::file_extension_to_mime(&ext);
    let mut chosen: Option<NamedFile> = None;
    if compressible && !req.headers().contains_key(header::RANGE) {
        let (br, gz) = accepted(req);
        for (ok, suffix, enc) in [(br, "br", ContentEncoding::Brotli), (gz, "gz", ContentEncoding::Gzip)] {
            if !ok {
                continue;
            }
            let mut sibling = file.as_os_str().to_owned();
            sibling.push(".");
            sibling.push(suffix);
            if let Ok(f) = NamedFile::open_async(PathBuf::from(sibling)).await {
                chosen = Some(f.set_content_encoding(enc));
                break;
            }
        }
    }
    let named = match chosen {
        Some(f) => f,
        None => NamedFile::open_async(file).await.ok()?,
    };
    let mut res = named.set_content_type(mime).disable_content_disposition().into_response(req);
    let cache = if is_hashed_asset(dist, file) { IMMUTABLE } else { NO_CACHE };
    let headers = res.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if compressible {
        headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    }
    Some(res)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    // Vite's NAME-HASH.EXT under assets/, dots in the name included; nothing else.
    #[test]
    fn hashed_assets_are_told_by_their_name() {
        let dist = Path::new("/d");
        for (file, hashed) in [
            ("/d/assets/index-BsEEG1gn.js", true),
            ("/d/assets/mobx.esm-D8ISizGe.js", true),
            ("/d/assets/index-MyCQaSoF.css", true),
            ("/d/assets/to-binary-DTVmIpGW.js", true),
            ("/d/assets/logo.svg", false),
            ("/d/index.html", false),
            ("/d/covers/index-BsEEG1gn.js", false),
        ] {
            assert_eq!(super::is_hashed_asset(dist, Path::new(file)), hashed, "{file}");
        }
    }
}
