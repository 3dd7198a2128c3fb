//! A real server on 127.0.0.1:0 with its own SQLite directory, and a small client that keeps
//! cookies and sends the CSRF header the way the browser does.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use actix_web::web::Bytes;
use awc::ws::Frame;
use facade::config::ServerConfig;
use facade::proto::{Envelope, MessageType, Notification};
use futures_util::{SinkExt, StreamExt};
use prost::Message;
use serde_json::{json, Value};

pub fn temp_dir(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!("yoo-facade-{name}-{}-{nanos}", std::process::id()))
}

pub fn config(data_dir: &std::path::Path, machines: usize, countdown_secs: u64) -> ServerConfig {
    config_with(data_dir, machines, countdown_secs, "")
}

/// `config` with extra `[game]` lines.
pub fn config_with(data_dir: &std::path::Path, machines: usize, countdown_secs: u64, game_extra: &str) -> ServerConfig {
    let machines: Vec<String> = (0..machines).map(|i| format!("\"m{i}\"")).collect();
    ServerConfig::parse(&format!(
        r#"
mode = "dev"
bind = "127.0.0.1:0"
data_dir = "{}"
frontend_dir = "/nonexistent"
workers = 1
# The tests log one phone in on several devices within a minute (tests/abuse.rs checks the limits),
# every client from 127.0.0.1: no security check in front of codes (tests/sms_check.rs checks it).
[sms]
resend_secs = 0
captcha_phone_per_hour = 0
captcha_ip_per_hour = 0
[game]
connect_countdown_secs = {countdown_secs}
connect_delay_ms = 50
sms_fail_numbers = ["19900000000"]
{game_extra}
[[nodes]]
id = 1
name = "测试一区"
status = 1
machines = [{}]
[[nodes]]
id = 2
name = "维护区"
status = 0
"#,
        data_dir.display(),
        machines.join(",")
    ))
    .unwrap()
}

pub struct Client {
    pub base: String,
    transport: Transport,
    pub cookies: HashMap<String, String>,
    pub device: String,
    /// Extra headers sent with every request (a user agent, an operator token).
    pub headers: Vec<(String, String)>,
}

/// Over a real socket, or in this thread through the same app ([`facade::InProcess`]), where a
/// test may pause tokio's clock.
enum Transport {
    Http(awc::Client),
    InProcess(std::rc::Rc<facade::InProcess>),
}

impl Client {
    pub fn new(addr: std::net::SocketAddr, device: &str) -> Self {
        Client {
            base: format!("http://{addr}"),
            transport: Transport::Http(awc::Client::default()),
            cookies: HashMap::new(),
            device: device.into(),
            headers: vec![],
        }
    }

    /// A client of an in-process server: the same calls, no socket.
    pub fn in_process(srv: &std::rc::Rc<facade::InProcess>, device: &str) -> Self {
        Client {
            base: String::new(),
            transport: Transport::InProcess(srv.clone()),
            cookies: HashMap::new(),
            device: device.into(),
            headers: vec![],
        }
    }

    fn http(&self) -> &awc::Client {
        match &self.transport {
            Transport::Http(c) => c,
            Transport::InProcess(_) => panic!("an in-process server has no socket"),
        }
    }

    fn cookie_header(&self) -> String {
        self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ")
    }

    fn keep_cookies<'a>(&mut self, set_cookies: impl Iterator<Item = &'a actix_web::http::header::HeaderValue>) {
        for v in set_cookies {
            let s = v.to_str().unwrap();
            let pair = s.split(';').next().unwrap();
            let (k, val) = pair.split_once('=').unwrap();
            if val.is_empty() || s.contains("Max-Age=0") {
                self.cookies.remove(k);
            } else {
                self.cookies.insert(k.to_string(), val.to_string());
            }
        }
    }

    /// The browser's headers: cookies, the device (on a POST), the CSRF token from its cookie
    /// (else x-skip-csrf), and the extra ones.
    fn browser_headers(&self, post: bool) -> Vec<(String, String)> {
        let mut h = vec![("cookie".to_string(), self.cookie_header())];
        if post {
            h.push(("Yoo-Uuid".to_string(), self.device.clone()));
        }
        h.extend(self.headers.iter().cloned());
        h.push(match self.cookies.get("_csrfToken") {
            Some(t) => ("x-csrf-token".into(), t.clone()),
            None => ("x-skip-csrf".into(), "true".into()),
        });
        h
    }

    /// One request with the browser's headers: (HTTP status, envelope).
    async fn send(&mut self, method: actix_web::http::Method, path: &str, body: Option<&str>) -> (u16, Value) {
        let headers = self.browser_headers(body.is_some());
        let (status, set_cookies, bytes) = match &self.transport {
            Transport::Http(http) => {
                let mut req = http.request(method, format!("{}{path}", self.base));
                for (k, v) in &headers {
                    req = req.insert_header((k.as_str(), v.as_str()));
                }
                let mut resp = match body {
                    Some(b) => {
                        req.insert_header(("content-type", "application/json"))
                            .send_body(b.to_string())
                            .await
                    }
                    None => req.send().await,
                }
                .unwrap();
                let set: Vec<_> = resp.headers().get_all("set-cookie").cloned().collect();
                (resp.status().as_u16(), set, resp.body().await.unwrap())
            }
            Transport::InProcess(srv) => {
                let mut req = actix_web::test::TestRequest::default()
                    .method(method)
                    .uri(path)
                    .peer_addr("127.0.0.1:40000".parse().unwrap());
                for (k, v) in headers {
                    req = req.insert_header((k, v));
                }
                if let Some(b) = body {
                    req = req.insert_header(("content-type", "application/json")).set_payload(b.to_string());
                }
                let (status, h, bytes) = srv.call(req.to_request()).await;
                (status.as_u16(), h.get_all("set-cookie").cloned().collect(), bytes)
            }
        };
        self.keep_cookies(set_cookies.iter());
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    /// GET returning (HTTP status, envelope), with the browser's CSRF header like every call.
    pub async fn get(&mut self, path: &str) -> (u16, Value) {
        self.send(actix_web::http::Method::GET, path, None).await
    }

    /// POST a raw body with the browser's headers (CSRF from the cookie, else x-skip-csrf).
    pub async fn post_raw(&mut self, path: &str, body: &str) -> (u16, Value) {
        self.send(actix_web::http::Method::POST, path, Some(body)).await
    }

    pub async fn post(&mut self, path: &str, body: Value) -> (u16, Value) {
        self.post_raw(path, &body.to_string()).await
    }

    pub async fn login(&mut self, phone: &str) -> Value {
        let (_, r) = self.post("/api/passport/login/sendcode", json!({"phone": phone})).await;
        assert_eq!(r["code"], 0, "{r}");
        let (_, outbox) = self.get(&format!("/api/dev/sms/outbox?phone={phone}")).await;
        let code = outbox["data"][0]["code"].as_str().unwrap().to_string();
        let device = self.device.clone();
        let (_, r) = self
            .post(
                "/api/passport/login",
                json!({"cellphone": phone, "code": code, "device_no": device}),
            )
            .await;
        assert_eq!(r["code"], 0, "{r}");
        r
    }

    pub async fn socket(&mut self) -> Socket {
        let token = self.socket_token().await;
        let base = self.base.clone();
        Client::socket_at(&base, &token).await.expect("the socket opens")
    }

    /// A socket token (`/api/fetchToken`).
    pub async fn socket_token(&mut self) -> String {
        let (_, t) = self.get("/api/fetchToken").await;
        t["data"]["access_token"].as_str().unwrap().to_string()
    }

    /// A socket opened at `base` (`http://addr`) with `token`; None when the server refuses it.
    pub async fn socket_at(base: &str, token: &str) -> Option<Socket> {
        let (_, framed) = awc::Client::default()
            .ws(format!("{base}/echo?access_token={token}"))
            .connect()
            .await
            .ok()?;
        Some(Socket { framed })
    }
}

pub struct Socket {
    framed: actix_codec::Framed<awc::BoxedSocket, awc::ws::Codec>,
}

impl Socket {
    /// The next frame, decoded; panics after `secs`.
    pub async fn next(&mut self, secs: u64) -> Envelope {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(secs), self.framed.next())
                .await
                .expect("a frame in time");
            match frame.expect("socket open").expect("frame") {
                Frame::Binary(b) => return Envelope::decode(b).unwrap(),
                Frame::Close(_) => panic!("socket closed"),
                _ => continue,
            }
        }
    }

    /// The next USER_GAME_STATUS_CHANGE state pushed.
    pub async fn next_state(&mut self, secs: u64) -> Value {
        loop {
            let env = self.next(secs).await;
            if env.r#type == MessageType::Notification as i32 {
                let n = Notification::decode(Bytes::from(env.content)).unwrap();
                assert_eq!(n.code, 130122);
                return serde_json::from_str(&n.data).unwrap();
            }
        }
    }

    /// Waits for a pushed state matching `pred`.
    pub async fn wait_state(&mut self, secs: u64, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let s = self.next_state(secs).await;
            if pred(&s) {
                return s;
            }
        }
    }

    /// Sends a WebSocket ping and returns the payload of the pong that answers it.
    pub async fn control_ping(&mut self, payload: &'static [u8]) -> Bytes {
        self.framed.send(awc::ws::Message::Ping(Bytes::from_static(payload))).await.unwrap();
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(5), self.framed.next())
                .await
                .expect("a frame in time");
            if let Frame::Pong(p) = frame.expect("socket open").expect("frame") {
                return p;
            }
        }
    }

    /// Closes the socket and waits for the server's close frame.
    pub async fn close(mut self) {
        self.framed.send(awc::ws::Message::Close(None)).await.unwrap();
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(5), self.framed.next())
                .await
                .expect("a frame in time");
            match frame {
                Some(Ok(Frame::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Sends one Envelope of `kind` with `content`.
    pub async fn send(&mut self, kind: MessageType, content: Vec<u8>) {
        let env = Envelope {
            r#type: kind as i32,
            content,
            offset: 0,
            epoch: String::new(),
        };
        self.framed
            .send(awc::ws::Message::Binary(env.encode_to_vec().into()))
            .await
            .unwrap();
    }

    /// The next frame, or None when none comes within `ms` (a check that nothing was sent).
    pub async fn next_within(&mut self, ms: u64) -> Option<Envelope> {
        loop {
            let frame = tokio::time::timeout(Duration::from_millis(ms), self.framed.next()).await.ok()?;
            match frame.expect("socket open").expect("frame") {
                Frame::Binary(b) => return Some(Envelope::decode(b).unwrap()),
                Frame::Close(_) => panic!("socket closed"),
                _ => continue,
            }
        }
    }

    /// Skips pushes until the AUTHORIZATION frame (status, value), then requires the close.
    pub async fn authorization_then_close(&mut self, secs: u64) -> (String, String) {
        let auth = loop {
            let env = self.next(secs).await;
            if env.r#type == MessageType::Authorization as i32 {
                break facade::proto::Authorization::decode(Bytes::from(env.content)).unwrap();
            }
        };
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(secs), self.framed.next())
                .await
                .expect("the close in time");
            match frame {
                Some(Ok(Frame::Close(_))) | None | Some(Err(_)) => return (auth.status, auth.value),
                Some(Ok(Frame::Binary(_))) => panic!("a frame after the AUTHORIZATION"),
                Some(Ok(_)) => continue,
            }
        }
    }

    pub async fn ping(&mut self) {
        let env = Envelope {
            r#type: MessageType::Ping as i32,
            content: vec![],
            offset: 0,
            epoch: String::new(),
        };
        self.framed
            .send(awc::ws::Message::Binary(env.encode_to_vec().into()))
            .await
            .unwrap();
    }
}

/// The envelope's code, or -1 when there is none.
pub fn code(v: &Value) -> i64 {
    v["code"].as_i64().unwrap_or(-1)
}

/// The signed-in user's profile data.
pub async fn profile(c: &mut Client) -> Value {
    c.get("/api/user/profile").await.1["data"].clone()
}

/// The signed-in user's id.
pub async fn uid(c: &mut Client) -> i64 {
    profile(c).await["uid"].as_i64().unwrap()
}

/// Fails the test unless the user's ledger replays to every balance they hold.
pub fn ledger_holds(srv: &facade::Running, uid: i64) {
    ledger_holds_in(&srv.platform, uid);
}

pub fn ledger_holds_in(platform: &actors::Platform, uid: i64) {
    let diff = platform.store().commerce.ledger_mismatches(uid).unwrap();
    assert!(diff.is_empty(), "the ledger replays to the balances: {diff:?}");
}

/// The client's cookie header and CSRF token, for requests sent from another connection.
pub fn session(c: &Client) -> (String, String) {
    let cookies = c.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
    (cookies, c.cookies["_csrfToken"].clone())
}

/// Percent-encodes everything but the unreserved characters.
pub fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The body of a GET of a page (HTML, `/metrics`) as text.
pub async fn get_text(url: &str) -> String {
    let mut resp = awc::Client::default().get(url).send().await.unwrap();
    String::from_utf8(resp.body().limit(4 << 20).await.unwrap().to_vec()).unwrap()
}

/// The body of a form POST (the sandbox pages' forms) as text; the status must be 200.
pub async fn post_form_text(url: &str, form: &[(&str, &str)]) -> String {
    let mut resp = awc::Client::default().post(url).send_form(&form).await.unwrap();
    assert_eq!(resp.status(), 200, "{url}");
    String::from_utf8(resp.body().await.unwrap().to_vec()).unwrap()
}
