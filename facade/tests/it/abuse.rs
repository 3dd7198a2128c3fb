//! The server tried as an attacker would (issue 7): each test attacks one of the abuse paths
//! that were found open, over the real HTTP and WebSocket interfaces, and checks it is closed.
//! The figures the attacks measure are printed (`cargo test -p facade --test it abuse:: -- --nocapture`).

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use actors::accounts::passport::SmsLimits;
use common::{code, config, temp_dir, Client};
use facade::config::ServerConfig;
use serde_json::{json, Value};

/// The shared test config with the default SMS limits (the shared one relaxes the resend),
/// without the security check in front of codes (tests/sms_check.rs).
fn strict(dir: &std::path::Path) -> ServerConfig {
    let mut c = config(dir, 1, 60);
    c.sms = SmsLimits {
        captcha_phone_per_hour: 0,
        captcha_ip_per_hour: 0,
        ..SmsLimits::default()
    };
    c
}

async fn serve(name: &str, edit: impl FnOnce(&mut ServerConfig)) -> (facade::Running, std::path::PathBuf) {
    let dir = temp_dir(name);
    let mut c = strict(&dir);
    edit(&mut c);
    (facade::start(c).await.unwrap(), dir)
}

async fn stop(srv: facade::Running, dir: std::path::PathBuf) {
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The newest code in the dev outbox.
async fn outbox_code(c: &mut Client, phone: &str) -> Option<String> {
    let (_, o) = c.get(&format!("/api/dev/sms/outbox?phone={phone}")).await;
    o["data"][0]["code"].as_str().map(String::from)
}

// The attack that sent 1,787 SMS a minute to one phone: ask for a code, burn it with a login
// (or wrong guesses), ask again. Now one code goes out, and every further ask answers 20114 with
// the spec's text and retry_after; the empty phone has its own code (20116), not 20110.
#[actix_rt::test]
async fn sms_resend_holds_whatever_happens_to_the_code() {
    let (srv, dir) = serve("abuse-sms", |_| {}).await;
    let mut c = Client::new(srv.addr, "attacker");
    let phone = "13700000001";
    let started = Instant::now();
    let (mut sent, mut refused) = (0, 0);
    while started.elapsed() < Duration::from_secs(2) {
        let (s, r) = c.post("/api/passport/login/sendcode", json!({"phone": phone})).await;
        match code(&r) {
            0 => sent += 1,
            20114 => {
                refused += 1;
                assert_eq!((s, r["message"].as_str()), (429, Some("验证码发送过于频繁，请稍后再试")));
                let retry = r["data"]["retry_after"].as_u64().unwrap();
                assert!((57..=60).contains(&retry), "{r}");
            }
            _ => panic!("{r}"),
        }
        // Burn the code: alternately by a successful login and by five wrong guesses.
        if let Some(code_sent) = outbox_code(&mut c, phone).await {
            if sent % 2 == 1 {
                let _ = c
                    .post(
                        "/api/passport/login",
                        json!({"cellphone": phone, "code": code_sent, "device_no": "x"}),
                    )
                    .await;
                c.cookies.clear();
            } else {
                for _ in 0..5 {
                    let _ = c.post("/api/passport/login", json!({"cellphone": phone, "code": "000000x"})).await;
                }
            }
        }
    }
    eprintln!(
        "sms to one phone: {sent} sent, {refused} refused in {:?} (the next after 60 s: 1 a minute, 5 an hour; was 1,787 a minute)",
        started.elapsed()
    );
    assert_eq!(sent, 1, "one code until the resend interval passes");
    assert!(refused > 5);

    let (s, r) = c.post("/api/passport/login/sendcode", json!({"phone": ""})).await;
    assert_eq!((s, code(&r), r["message"].as_str()), (400, 20116, Some("手机号不能为空")));
    stop(srv, dir).await;
}

// Guessing: a code takes 5 wrong tries, and 10 wrong codes in a row (across codes) lock the
// phone's login for an hour (20117 with retry_after), the right code included, and its codes.
// The attack measured ~180 guesses a second; now at most 10 guesses reach a live code per lock.
#[actix_rt::test]
async fn guessing_is_bounded_across_codes() {
    let (srv, dir) = serve("abuse-guess", |c| c.sms.resend_secs = 0).await;
    let mut c = Client::new(srv.addr, "attacker");
    let phone = "13700000002";
    let started = Instant::now();
    let (mut guesses, mut locked) = (0, None);
    'attack: for _ in 0..20 {
        let (_, r) = c.post("/api/passport/login/sendcode", json!({"phone": phone})).await;
        if code(&r) == 20117 {
            locked = Some(r);
            break;
        }
        assert_eq!(code(&r), 0, "{r}");
        let real = outbox_code(&mut c, phone).await.unwrap();
        for g in 0..5 {
            let guess = format!("{:06}", (real.parse::<u32>().unwrap() + 1 + g) % 1_000_000);
            let (s, r) = c
                .post("/api/passport/login", json!({"cellphone": phone, "code": guess, "device_no": "x"}))
                .await;
            guesses += 1;
            match code(&r) {
                20113 => {}
                20117 => {
                    assert_eq!((s, r["message"].as_str()), (429, Some("验证码错误次数过多，请稍后再试")));
                    locked = Some(r);
                    break 'attack;
                }
                _ => panic!("{r}"),
            }
        }
    }
    let locked = locked.expect("the phone locks");
    eprintln!(
        "wrong guesses before the lock: {guesses} in {:?} (was ~180 a second, unbounded)",
        started.elapsed()
    );
    assert_eq!(guesses, 10);
    assert_eq!(locked["data"]["retry_after"], 3600);
    let (_, r) = c.post("/api/passport/login/sendcode", json!({"phone": phone})).await;
    assert_eq!(code(&r), 20117, "no code for a locked phone: {r}");
    stop(srv, dir).await;
}

// The per-address limit over HTTP: the peer address counts, whatever the phone.
#[actix_rt::test]
async fn one_address_gets_a_bounded_number_of_codes() {
    let (srv, dir) = serve("abuse-ip", |c| c.sms.ip_per_hour = 3).await;
    let mut c = Client::new(srv.addr, "attacker");
    for i in 0..3 {
        let (_, r) = c
            .post("/api/passport/login/sendcode", json!({"phone": format!("1370000010{i}")}))
            .await;
        assert_eq!(code(&r), 0, "{r}");
    }
    let (s, r) = c.post("/api/passport/login/sendcode", json!({"phone": "13700000109"})).await;
    assert_eq!((s, code(&r)), (429, 20114), "{r}");
    assert!(r["data"]["retry_after"].as_u64().unwrap() <= 3600);
    stop(srv, dir).await;
}

// Behind a trusted proxy the per-address limit counts each client's forwarded address (two
// clients do not share one budget); a client that is not the proxy cannot dodge the limit by
// sending its own X-Forwarded-For.
#[actix_rt::test]
async fn the_address_limit_counts_forwarded_clients_of_a_trusted_proxy_only() {
    let send = |addr: std::net::SocketAddr, xff: &'static str, phone: String| async move {
        let mut resp = awc::Client::default()
            .post(format!("http://{addr}/api/passport/login/sendcode"))
            .insert_header(("x-skip-csrf", "true"))
            .insert_header(("x-forwarded-for", xff))
            .send_json(&json!({ "phone": phone }))
            .await
            .unwrap();
        let v: Value = resp.json().await.unwrap();
        code(&v)
    };
    // The test's client connects from 127.0.0.1: here it plays the trusted proxy.
    let (srv, dir) = serve("abuse-proxy", |c| {
        c.sms.ip_per_hour = 2;
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    for (i, client) in ["198.51.100.1", "198.51.100.1", "198.51.100.2", "198.51.100.2"]
        .into_iter()
        .enumerate()
    {
        assert_eq!(
            send(srv.addr, client, format!("1370000030{i}")).await,
            0,
            "{client}: own budget of 2"
        );
    }
    assert_eq!(
        send(srv.addr, "198.51.100.1", "13700000309".into()).await,
        20114,
        "the first client's budget is spent"
    );
    stop(srv, dir).await;
    // Without the proxy trusted, forged headers change nothing: one budget for the peer.
    let (srv, dir) = serve("abuse-forged-xff", |c| c.sms.ip_per_hour = 2).await;
    for (i, forged) in ["198.51.100.1", "198.51.100.2"].into_iter().enumerate() {
        assert_eq!(send(srv.addr, forged, format!("1370000040{i}")).await, 0);
    }
    assert_eq!(
        send(srv.addr, "198.51.100.3", "13700000409".into()).await,
        20114,
        "a forged header is not a new address"
    );
    stop(srv, dir).await;
}

// The limits and try counters survive a restart of the server on the same database.
#[actix_rt::test]
async fn sms_limits_survive_a_restart() {
    let dir = temp_dir("abuse-restart");
    let srv = facade::start(strict(&dir)).await.unwrap();
    let mut c = Client::new(srv.addr, "d");
    let (_, r) = c.post("/api/passport/login/sendcode", json!({"phone": "13700000201"})).await;
    assert_eq!(code(&r), 0);
    srv.handle.stop(false).await;
    let _ = srv.done.await;
    let srv = facade::start(strict(&dir)).await.unwrap();
    let mut c = Client::new(srv.addr, "d");
    let (_, r) = c.post("/api/passport/login/sendcode", json!({"phone": "13700000201"})).await;
    assert_eq!(code(&r), 20114, "the resend interval outlives the process: {r}");
    stop(srv, dir).await;
}

/// Reads what the server sends until it closes the connection or `limit` passes; returns the
/// bytes and whether it closed.
fn read_until_closed(s: &mut TcpStream, limit: Duration) -> (Vec<u8>, bool) {
    s.set_read_timeout(Some(Duration::from_millis(100))).unwrap();
    let (started, mut got, mut buf) = (Instant::now(), vec![], [0u8; 4096]);
    while started.elapsed() < limit {
        match s.read(&mut buf) {
            Ok(0) => return (got, true),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(_) => return (got, true),
        }
    }
    (got, false)
}

// A body that never finishes (headers and half the body, then silence) is cut after the body
// timeout (1 s here): the server answers 408 in the envelope and closes the connection, for a
// Content-Length body and a chunked one, on a route that reads its body and one that does not.
// Before, 2,000 such requests held 2,000 file descriptors for ever.
#[actix_rt::test]
async fn half_sent_bodies_are_cut_after_the_timeout() {
    let (srv, dir) = serve("abuse-body", |c| c.body_timeout_secs = 1).await;
    let addr = srv.addr;
    let outcome = tokio::task::spawn_blocking(move || {
        let heads = [
            "POST /api/passport/login/sendcode HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"phone\":",
            "POST /api/japi/yoo/game/floatBall HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
            "POST /api/passport/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"cel",
            "GET /api/web/v1/game/list HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab",
        ];
        // Many at once, as the attack did: every one is closed within the timeout and a margin.
        let mut conns = vec![];
        for i in 0..200 {
            let mut s = TcpStream::connect(addr).unwrap();
            s.write_all(heads[i % heads.len()].as_bytes()).unwrap();
            conns.push(s);
        }
        let started = Instant::now();
        let mut answers = vec![];
        for s in conns.iter_mut() {
            let left = Duration::from_secs(4).saturating_sub(started.elapsed());
            answers.push(read_until_closed(s, left));
        }
        (answers, started.elapsed())
    })
    .await
    .unwrap();
    let (answers, took) = outcome;
    let closed = answers.iter().filter(|(_, closed)| *closed).count();
    eprintln!(
        "half-sent bodies: {closed} of {} connections closed by the server in {took:?} (body timeout 1 s)",
        answers.len()
    );
    assert_eq!(closed, answers.len(), "every half-sent body's connection is closed");
    for (bytes, _) in &answers {
        let text = String::from_utf8_lossy(bytes);
        assert!(text.starts_with("HTTP/1.1 408"), "{text}");
        assert!(text.to_ascii_lowercase().contains("connection: close"), "{text}");
        let body: Value = serde_json::from_str(text.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        assert_eq!((code(&body), body["message"].as_str()), (40008, Some("请求超时，请稍后重试")));
    }
    // A WebSocket handshake never has a body: one with a (never ending) body is refused and cut.
    let (answer, closed) = tokio::task::spawn_blocking(move || {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(
            b"GET /echo?access_token=x HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
              Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
        )
        .unwrap();
        read_until_closed(&mut s, Duration::from_secs(4))
    })
    .await
    .unwrap();
    assert!(
        closed && String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 400"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    // A body over 256 KiB is refused (413) without being read to its end.
    let (answer, closed) = tokio::task::spawn_blocking(move || {
        let mut s = TcpStream::connect(addr).unwrap();
        let head = "POST /api/passport/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n";
        s.write_all(head.as_bytes()).unwrap();
        let _ = s.write_all(&vec![b' '; 300 * 1024]);
        read_until_closed(&mut s, Duration::from_secs(4))
    })
    .await
    .unwrap();
    let text = String::from_utf8_lossy(&answer);
    assert!(closed && text.starts_with("HTTP/1.1 413") && text.contains("40013"), "{text}");
    // A body sent in time still works.
    let mut c = Client::new(addr, "d");
    let (_, r) = c.post("/api/passport/login/sendcode", json!({"phone": "13700000301"})).await;
    assert_eq!(code(&r), 0, "{r}");
    stop(srv, dir).await;
}

// The binary without a configuration refuses to start (dev mode is chosen explicitly), with a
// message that says how to choose; `--dev` starts dev mode.
#[test]
fn the_binary_without_config_does_not_start() {
    let bin = env!("CARGO_BIN_EXE_yoo-server");
    let dir = temp_dir("abuse-noconfig");
    let out = std::process::Command::new(bin)
        .args(["--bind", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no configuration given") && err.contains("--dev") && err.contains("--config"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).is_empty(), "nothing was served");
    assert!(!dir.exists(), "no database was opened");

    let mut dev = std::process::Command::new(bin)
        .args(["--dev", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Logs go to stdout too: the listening line is among the first few.
    let lines = std::io::BufRead::lines(std::io::BufReader::new(dev.stdout.take().unwrap()));
    let listening = lines
        .take(20)
        .map_while(Result::ok)
        .any(|l| l.starts_with("yoo-server listening on http://127.0.0.1:"));
    assert!(listening, "--dev starts");
    dev.kill().unwrap();
    dev.wait().unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

/// Opens the socket of a client's login, with an `Origin`.
async fn socket_with_origin(c: &mut Client, origin: Option<&str>) -> Result<actix_codec::Framed<awc::BoxedSocket, awc::ws::Codec>, u16> {
    let (_, t) = c.get("/api/fetchToken").await;
    let token = t["data"]["access_token"].as_str().unwrap().to_string();
    let mut req = awc::Client::default().ws(format!("{}/echo?access_token={token}", c.base));
    if let Some(o) = origin {
        req = req.origin(o);
    }
    match req.connect().await {
        Ok((_, framed)) => Ok(framed),
        Err(awc::error::WsClientError::InvalidResponseStatus(s)) => Err(s.as_u16()),
        Err(e) => panic!("{e}"),
    }
}

// Logging out closes that login's open sockets at once, and only them: two logins of one
// user, a socket each; the logout of one closes its socket within milliseconds, the other stays.
#[actix_rt::test]
async fn logout_closes_only_that_logins_sockets_at_once() {
    use futures_util::{SinkExt, StreamExt};
    let (srv, dir) = serve("abuse-logout", |c| c.sms.resend_secs = 0).await;
    let (mut a, mut b) = (Client::new(srv.addr, "phone-a"), Client::new(srv.addr, "phone-b"));
    a.login("13700000401").await;
    b.login("13700000401").await;
    let mut sa = socket_with_origin(&mut a, None).await.unwrap();
    let mut sb = socket_with_origin(&mut b, None).await.unwrap();
    // Each socket first gets the current state.
    for s in [&mut sa, &mut sb] {
        tokio::time::timeout(Duration::from_secs(5), s.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
    }
    let started = Instant::now();
    let (_, r) = a.post("/api/user/logout", json!({"r": 0.1})).await;
    assert_eq!(code(&r), 0);
    let closed = loop {
        match tokio::time::timeout(Duration::from_secs(2), sa.next())
            .await
            .expect("closed at once")
        {
            Some(Ok(awc::ws::Frame::Close(_))) | None | Some(Err(_)) => break started.elapsed(),
            Some(Ok(_)) => continue,
        }
    };
    eprintln!("logout to socket close: {closed:?}");
    assert!(closed < Duration::from_secs(1), "{closed:?}");
    sb.send(awc::ws::Message::Ping(actix_web::web::Bytes::from_static(b"still")))
        .await
        .unwrap();
    let pong = loop {
        match tokio::time::timeout(Duration::from_secs(5), sb.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap()
        {
            awc::ws::Frame::Pong(p) => break p,
            awc::ws::Frame::Close(_) => panic!("the other login's socket was closed"),
            _ => continue,
        }
    };
    assert_eq!(&pong[..], b"still");
    let (_, p) = b.get("/api/user/profile").await;
    assert_eq!(code(&p), 0, "the other login is alive");
    stop(srv, dir).await;
}

// The WebSocket upgrade checks Origin: a foreign page is refused with 403 and the envelope
// (its token is not spent), a site origin and the page's own origin are accepted; a client
// that sends no Origin (not a browser) is accepted.
#[actix_rt::test]
async fn websocket_origin_is_checked() {
    let (srv, dir) = serve("abuse-origin", |_| {}).await;
    let mut c = Client::new(srv.addr, "d");
    c.login("13700000501").await;
    let (_, t) = c.get("/api/fetchToken").await;
    let token = t["data"]["access_token"].as_str().unwrap().to_string();
    let mut resp = awc::Client::default()
        .get(format!("{}/echo?access_token={token}", c.base))
        .insert_header(("origin", "https://evil.example"))
        .insert_header(("upgrade", "websocket"))
        .insert_header(("connection", "upgrade"))
        .insert_header(("sec-websocket-version", "13"))
        .insert_header(("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ=="))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 403);
    let body: Value = serde_json::from_slice(&resp.body().await.unwrap()).unwrap();
    assert_eq!(
        (code(&body), body["message"].as_str()),
        (40003, Some("请求校验失败，请刷新页面后重试"))
    );
    assert_eq!(socket_with_origin(&mut c, Some("http://evil.example:8080")).await.err(), Some(403));
    assert_eq!(socket_with_origin(&mut c, Some("null")).await.err(), Some(403));
    // The token refused above was not spent.
    let ok = awc::Client::default()
        .ws(format!("{}/echo?access_token={token}", c.base))
        .origin("http://localhost:8080")
        .connect()
        .await;
    assert!(ok.is_ok(), "a site origin opens the socket");
    let own = format!("http://{}", srv.addr);
    assert!(socket_with_origin(&mut c, Some(&own)).await.is_ok(), "the page's own origin");
    assert!(socket_with_origin(&mut c, None).await.is_ok(), "no Origin: not a browser");
    stop(srv, dir).await;
}

// Every state-changing call needs the CSRF header whatever its method: a cross-site GET of
// /api/member/fast_enter/receive (the browser sends the SameSite=Lax cookie on a top-level
// GET, but no header) is refused and claims nothing; guests' sendcode and login need
// `x-skip-csrf: true` (login CSRF).
#[actix_rt::test]
async fn cross_site_calls_are_refused_whatever_the_method() {
    let (srv, dir) = serve("abuse-csrf", |_| {}).await;
    let mut c = Client::new(srv.addr, "d");
    let phone = "13700000601";
    c.login(phone).await;
    let (_, g) = c
        .post("/api/dev/grant", json!({"cellphone": phone, "kind": "vip", "days": 30}))
        .await;
    assert_eq!(code(&g), 0, "{g}");
    let cookies = format!("yoo_sid={}; _csrfToken={}", c.cookies["yoo_sid"], c.cookies["_csrfToken"]);
    let http = awc::Client::default();
    for path in ["/api/member/fast_enter/receive", "/api/user/profile", "/api/fetchToken"] {
        let mut resp = http
            .get(format!("{}{path}", c.base))
            .insert_header(("cookie", cookies.clone()))
            .insert_header(("sec-fetch-site", "cross-site"))
            .send()
            .await
            .unwrap();
        let body: Value = serde_json::from_slice(&resp.body().await.unwrap()).unwrap();
        assert_eq!((resp.status().as_u16(), code(&body)), (403, 40003), "{path}: {body}");
    }
    let (_, records) = c.get("/api/member/fast_enter/monthly_records").await;
    assert_eq!(records["data"]["records"], json!([]), "nothing was claimed: {records}");
    assert_eq!(records["data"]["receivable"], true);
    let (_, claimed) = c.get("/api/member/fast_enter/receive").await;
    assert_eq!(code(&claimed), 0, "with the header the member claims: {claimed}");

    // Guests: no header, no code sent and no login (a cross-site form cannot add it).
    for (path, body) in [
        ("/api/passport/login/sendcode", json!({"phone": "13700000602"})),
        (
            "/api/passport/login",
            json!({"cellphone": "13700000602", "code": "123456", "device_no": "x"}),
        ),
    ] {
        let mut resp = http
            .post(format!("{}{path}", c.base))
            .insert_header(("content-type", "application/json"))
            .send_body(body.to_string())
            .await
            .unwrap();
        let body: Value = serde_json::from_slice(&resp.body().await.unwrap()).unwrap();
        assert_eq!((resp.status().as_u16(), code(&body)), (403, 40003), "{path}: {body}");
    }
    let mut guest = Client::new(srv.addr, "g");
    assert_eq!(outbox_code(&mut guest, "13700000602").await, None, "no code was sent");
    stop(srv, dir).await;
}

// Sessions and CSRF tokens are stored hashed: a copy of the database holds neither cookie,
// and the stored values used as cookies let no one in; pending codes are stored keyed-hashed.
#[actix_rt::test]
async fn a_copy_of_the_database_lets_no_one_in() {
    let (srv, dir) = serve("abuse-db", |_| {}).await;
    let mut c = Client::new(srv.addr, "d");
    c.login("13700000701").await;
    let (sid, csrf) = (c.cookies["yoo_sid"].clone(), c.cookies["_csrfToken"].clone());
    let (_, r) = c.post("/api/passport/login/sendcode", json!({"phone": "13700000702"})).await;
    assert_eq!(code(&r), 0);
    let pending = outbox_code(&mut c, "13700000702").await.unwrap();

    let db = rusqlite::Connection::open(dir.join("yoo.db")).unwrap();
    let rows: Vec<(String, String)> = db
        .prepare("SELECT token_hash, csrf_hash FROM login_sessions")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows.len(), 1);
    let dump: String = db
        .prepare("SELECT quote(token_hash) || quote(csrf_hash) || quote(device_no) FROM login_sessions")
        .unwrap()
        .query_row([], |r| r.get(0))
        .unwrap();
    assert!(!dump.contains(&sid) && !dump.contains(&csrf), "no cookie value is stored");
    let guards: String = db
        .query_row(
            "SELECT group_concat(coalesce(code_hash, '') || sends, ';') FROM sms_guards",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(!guards.contains(&pending), "no pending code is stored in the clear");

    let (token_hash, csrf_hash) = rows[0].clone();
    let mut thief = Client::new(srv.addr, "thief");
    thief.cookies.insert("yoo_sid".into(), token_hash);
    thief.cookies.insert("_csrfToken".into(), csrf_hash);
    let (s, p) = thief.get("/api/user/profile").await;
    assert_eq!((s, code(&p)), (401, 20119), "the stored hash is no cookie: {p}");
    let (_, p) = c.get("/api/user/profile").await;
    assert_eq!(code(&p), 0, "the real cookie still works");
    stop(srv, dir).await;
}

// Security headers: the page (`/`) and API answers carry nosniff, X-Frame-Options DENY and a
// CSP with script-src 'self' and frame-ancestors 'none'; cookies get Secure when the site is
// HTTPS and not when it is plain HTTP.
#[actix_rt::test]
async fn security_headers_and_secure_cookies() {
    let pages = temp_dir("abuse-pages");
    std::fs::create_dir_all(&pages).unwrap();
    std::fs::write(
        pages.join("index.html"),
        "<!doctype html><title>t</title><script type=module src=/a.js></script>",
    )
    .unwrap();
    let p = pages.clone();
    let (srv, dir) = serve("abuse-headers", move |c| {
        c.frontend_dir = p;
        c.site_origins = vec!["https://yoo.example".into()];
    })
    .await;
    let http = awc::Client::default();
    for path in ["/", "/game/1", "/api/web/v1/game/list", "/api/nope"] {
        let resp = http.get(format!("http://{}{path}", srv.addr)).send().await.unwrap();
        let h = |n: &str| resp.headers().get(n).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        assert_eq!(h("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(h("x-frame-options"), "DENY", "{path}");
        let csp = h("content-security-policy");
        for part in [
            "script-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
            "wss://yoo.example",
        ] {
            assert!(csp.contains(part), "{path}: {csp}");
        }
        assert!(
            !csp.contains("unsafe-eval") && !csp.contains("script-src 'self' 'unsafe-inline'"),
            "{csp}"
        );
        if path == "/" {
            assert!(h("content-type").starts_with("text/html"), "{path}");
        }
    }
    let mut c = Client::new(srv.addr, "d");
    let (_, r) = c.post("/api/passport/login/sendcode", json!({"phone": "13700000801"})).await;
    assert_eq!(code(&r), 0);
    let login_code = outbox_code(&mut c, "13700000801").await.unwrap();
    let resp = http
        .post(format!("http://{}/api/passport/login", srv.addr))
        .insert_header(("content-type", "application/json"))
        .insert_header(("x-skip-csrf", "true"))
        .send_body(json!({"cellphone": "13700000801", "code": login_code, "device_no": "d"}).to_string())
        .await
        .unwrap();
    let cookies: Vec<String> = resp
        .headers()
        .get_all("set-cookie")
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    assert_eq!(cookies.len(), 2);
    assert!(cookies.iter().all(|c| c.contains("Secure")), "{cookies:?}");
    stop(srv, dir).await;
    let _ = std::fs::remove_dir_all(pages);

    // Plain HTTP site (the dev default): no Secure, or the browser would drop the cookies.
    let (srv, dir) = serve("abuse-headers-http", |_| {}).await;
    let mut c = Client::new(srv.addr, "d");
    let (_, r) = c.post("/api/passport/login/sendcode", json!({"phone": "13700000802"})).await;
    assert_eq!(code(&r), 0);
    let login_code = outbox_code(&mut c, "13700000802").await.unwrap();
    let resp = http
        .post(format!("http://{}/api/passport/login", srv.addr))
        .insert_header(("content-type", "application/json"))
        .insert_header(("x-skip-csrf", "true"))
        .send_body(json!({"cellphone": "13700000802", "code": login_code, "device_no": "d"}).to_string())
        .await
        .unwrap();
    let cookies: Vec<String> = resp
        .headers()
        .get_all("set-cookie")
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    assert!(cookies.iter().all(|c| !c.contains("Secure")), "{cookies:?}");
    stop(srv, dir).await;
}

/// The limits lift when their time has passed, over HTTP on paused time (the server in this
/// thread, `facade::InProcess`): the resend interval answers 20114 with the seconds left until
/// the last of them and lets the next code go at 60 s; a phone locked by ten wrong guesses stays
/// locked (20117) until its hour ends, then gets a code and logs in with it.
#[actix_rt::test]
async fn the_limits_lift_when_their_time_has_passed() {
    let dir = temp_dir("abuse-time");
    let srv = std::rc::Rc::new(facade::InProcess::start(strict(&dir)).await.unwrap());
    tokio::time::pause();
    let mut c = Client::in_process(&srv, "attacker");
    let phone = "13700000301";
    let send = async |c: &mut Client| c.post("/api/passport/login/sendcode", json!({"phone": phone})).await.1;
    assert_eq!(code(&send(&mut c).await), 0);
    tokio::time::advance(Duration::from_secs(59)).await;
    let r = send(&mut c).await;
    assert_eq!((code(&r), r["data"]["retry_after"].as_u64()), (20114, Some(1)), "{r}");
    tokio::time::advance(Duration::from_secs(1)).await;
    assert_eq!(code(&send(&mut c).await), 0, "the next code at 60 s");

    // Ten wrong guesses across two codes lock the phone for an hour.
    let mut guesses = 0;
    for round in 0..2 {
        if round > 0 {
            tokio::time::advance(Duration::from_secs(60)).await;
            assert_eq!(code(&send(&mut c).await), 0);
        }
        for _ in 0..5 {
            let (_, r) = c
                .post(
                    "/api/passport/login",
                    json!({"cellphone": phone, "code": "000000", "device_no": "x"}),
                )
                .await;
            guesses += 1;
            assert!([20113, 20117].contains(&code(&r)), "{r}");
        }
    }
    assert_eq!(guesses, 10);
    let locked = send(&mut c).await;
    assert_eq!(code(&locked), 20117, "{locked}");
    let left = locked["data"]["retry_after"].as_u64().unwrap();
    assert!((3500..=3600).contains(&left), "{locked}");
    tokio::time::advance(Duration::from_secs(left - 1)).await;
    assert_eq!(code(&send(&mut c).await), 20117, "a second before the hour ends");
    tokio::time::advance(Duration::from_secs(1)).await;
    assert_eq!(code(&send(&mut c).await), 0, "the hour has ended");
    let real = outbox_code(&mut c, phone).await.unwrap();
    let (_, r) = c
        .post("/api/passport/login", json!({"cellphone": phone, "code": real, "device_no": "x"}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    assert!(c.cookies.contains_key("yoo_sid"), "logged in");
    let _ = std::fs::remove_dir_all(&dir);
}
