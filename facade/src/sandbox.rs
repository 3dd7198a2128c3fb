//! What the dev-mode sandboxes share (the pay page, the account centre, the OAuth, captcha
//! and app pages stand in for outside providers): the HTML page and its escaping, and the
//! loopback post of a provider's signed notice to this server's own callback route.

use std::net::SocketAddr;

use actix_web::HttpResponse;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub fn page(title: &str, body: &str) -> HttpResponse {
    HttpResponse::Ok().content_type("text/html; charset=utf-8").body(format!(
        "<!doctype html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{}</title></head>\
         <body style=\"font-family:sans-serif;max-width:420px;margin:40px auto;padding:0 16px\">{}</body></html>",
        esc(title),
        body
    ))
}

/// Posts a signed text body to this server's own `path` over TCP (a sandbox provider's callback,
/// as a provider on the internet would); the whole answer, head and body.
pub async fn post_loopback(addr: SocketAddr, path: &str, header: &str, signature: &str, body: &str) -> Result<String, String> {
    let mut s = tokio::net::TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: text/plain\r\n\
         {header}: {signature}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(request.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).await.map_err(|e| e.to_string())?;
    Ok(String::from_utf8_lossy(&answer).into_owned())
}
