//! The contract: the OpenAPI document the server serves, and how it answers at the HTTP layer
//! (raw TCP): what answers in the envelope, and the documented exceptions the HTTP dispatcher
//! writes itself before any application code runs.

use crate::common;

use std::time::{Duration, Instant};

use common::{config, temp_dir, Client};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn server(name: &str) -> facade::Running {
    facade::start(config(&temp_dir(name), 1, 60)).await.unwrap()
}

/// A response read off the wire: status, lowercase headers, body.
struct Raw {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// Writes `request` as is and reads until the server closes the connection (or 10 s pass).
async fn raw(addr: std::net::SocketAddr, request: &[u8]) -> Raw {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(request).await.unwrap();
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
    parse(&buf)
}

fn parse(buf: &[u8]) -> Raw {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n").expect("a response head") + 4;
    let head = String::from_utf8_lossy(&buf[..end]).to_string();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Raw {
        status,
        headers,
        body: buf[end..].to_vec(),
    }
}

// The served document is the generated one, lists every route with its refusal codes per status,
// and the codes in it come from the one error mapping.
#[actix_rt::test]
async fn openapi_document_lists_every_route_and_its_codes() {
    let srv = server("openapi").await;
    let mut c = Client::new(srv.addr, "d");
    let (status, doc) = c.get("/api/openapi.json").await;
    assert_eq!(status, 200);
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc, serde_json::to_value(facade::openapi::document(true)).unwrap());
    let paths = doc["paths"].as_object().unwrap();
    for p in [
        "/api/passport/login/sendcode",
        "/api/passport/login",
        "/api/user/logout",
        "/api/user/profile",
        "/api/fetchToken",
        "/echo",
        "/api/web/v1/game/list",
        "/api/japi/yoo/game/info",
        "/api/japi/yoo/common/config/list",
        "/api/japi/yoo/game/queueRules",
        "/api/japi/yoo/game/selectNode",
        "/api/japi/yoo/game/start",
        "/api/japi/yoo/game/changeGame",
        "/api/japi/yoo/game/floatBall",
        "/api/japi/yoo/game/confirmConnect",
        "/api/japi/yoo/game/cancelConfirm",
        "/api/japi/yoo/game/cancelQue",
        "/api/japi/yoo/game/over",
        "/api/node/{id}/ping",
        "/api/japi/yoo/game/gameChannelSize",
        "/api/japi/yoo/game/move",
        "/api/v3/user/card/list",
        "/api/v3/user/card/activate",
        "/api/member/fast_enter/monthly_records",
        "/api/member/fast_enter/receive",
        "/api/dev/sms/outbox",
        "/api/dev/grant",
        "/api/openapi.json",
        "/api/japi/yoo/v2/room/relay",
        "/api/japi/yoo/v2/room/loginRelayRoom",
        "/api/japi/yoo/v2/room/list",
        "/api/japi/yoo/room/chat/send",
        "/api/japi/yoo/mike/list",
        "/api/japi/yoo/mikeReq/switchMikeReq",
        "/api/japi/yoo/control/rotation",
        "/api/japi/yoo/blacklist/kick",
        "/api/japi/social/black/list",
        "/api/dev/userFlags",
        "/api/japi/yoo/game/startTip",
        "/api/japi/yoo/game/loadTip",
        "/api/japi/yoo/game/gameDuration",
        "/api/japi/yoo/game/node",
        "/api/japi/yoo/share/game/links",
        "/api/ops/game/tip",
        "/api/ops/game/loadTips",
        "/api/dev/game/tip",
        "/api/dev/game/loadTips",
    ] {
        assert!(paths.contains_key(p), "{p} missing from the document");
    }
    let start = &doc["paths"]["/api/japi/yoo/game/start"]["post"];
    let conflict = &start["responses"]["409"];
    let enum_codes = conflict["content"]["application/json"]["schema"]["properties"]["code"]["enum"]
        .as_array()
        .unwrap();
    assert!(enum_codes.contains(&Value::from(130116)), "{conflict}");
    let listed: Vec<&Value> = start["x-codes"].as_array().unwrap().iter().collect();
    let other_game = listed.iter().find(|c| c["code"] == 130116).unwrap();
    assert_eq!(other_game["message"], "您当前正在运行其他游戏");
    assert_eq!(other_game["cause"], "OtherGameActive");
    assert!(listed.iter().any(|c| c["code"] == 40003), "a logged-in POST lists the CSRF refusal");
    // the envelope of a success is described with its data
    let ok = &start["responses"]["200"]["content"]["application/json"]["schema"]["$ref"];
    assert_eq!(ok, "#/components/schemas/Envelope_LiveState");
    srv.handle.stop(false).await;
}

// The queue rules the browser shows are the domain's lanes and weights, served.
#[actix_rt::test]
async fn queue_rules_are_served_from_the_domain() {
    let srv = server("rules").await;
    let mut c = Client::new(srv.addr, "d");
    let (status, body) = c.get("/api/japi/yoo/game/queueRules").await;
    assert_eq!(status, 200);
    let lanes = body["data"]["lanes"].as_array().unwrap();
    assert_eq!(lanes.len(), actors::play::lanes::ALL_LANES.len());
    for lane in actors::play::lanes::ALL_LANES {
        let served = lanes.iter().find(|l| l["isFast"] == lane.code()).unwrap();
        assert_eq!(served["weight"], lane.weight());
        assert!(!served["name"].as_str().unwrap().is_empty());
    }
    assert_eq!(body["data"]["totalWeight"], actors::play::lanes::total_weight());
    srv.handle.stop(false).await;
}

// HEAD, PUT and TRACE on an API path get 405 with Allow and the envelope 40005 (HEAD: the
// envelope's headers, no body, as HTTP wants); an unknown API path stays 40004.
#[actix_rt::test]
async fn other_methods_get_405_in_the_envelope() {
    let srv = server("methods").await;
    for method in ["PUT", "TRACE", "DELETE"] {
        let r = raw(
            srv.addr,
            format!("{method} /api/user/profile HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").as_bytes(),
        )
        .await;
        assert_eq!((r.status, r.json()["code"].as_i64()), (405, Some(40005)), "{method}");
        assert_eq!(r.json()["message"], "请求方法不支持");
        assert_eq!(r.header("allow"), Some("GET"));
    }
    let r = raw(
        srv.addr,
        b"GET /api/japi/yoo/game/start HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(
        (r.status, r.json()["code"].as_i64(), r.header("allow")),
        (405, Some(40005), Some("POST"))
    );
    let r = raw(srv.addr, b"HEAD /api/user/profile HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").await;
    assert_eq!(
        (r.status, r.header("allow"), r.header("content-type")),
        (405, Some("GET"), Some("application/json"))
    );
    assert!(r.body.is_empty(), "a HEAD answer has no body");
    let r = raw(
        srv.addr,
        b"POST /api/node/7/ping HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
    )
    .await;
    assert_eq!((r.status, r.json()["code"].as_i64()), (405, Some(40005)));
    let r = raw(srv.addr, b"GET /api/nope HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").await;
    assert_eq!((r.status, r.json()["code"].as_i64()), (404, Some(40004)));
    srv.handle.stop(false).await;
}

// A JSON body over the 64 KiB limit gets 413 and the envelope 40013, whether its length is
// announced or it comes chunked; a malformed one 400 and 40000.
#[actix_rt::test]
async fn oversized_and_malformed_bodies_answer_in_the_envelope() {
    let srv = server("bodies").await;
    let big = format!("{{\"phone\":\"{}\"}}", "1".repeat(70 * 1024));
    let req = format!(
        "POST /api/passport/login/sendcode HTTP/1.1\r\nhost: x\r\nconnection: close\r\nx-skip-csrf: true\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{big}",
        big.len()
    );
    let r = raw(srv.addr, req.as_bytes()).await;
    assert_eq!(
        (r.status, r.json()["code"].as_i64()),
        (413, Some(40013)),
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    assert_eq!(r.json()["message"], "请求内容过大");
    let chunked = format!(
        "POST /api/passport/login/sendcode HTTP/1.1\r\nhost: x\r\nconnection: close\r\nx-skip-csrf: true\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n{:x}\r\n{big}\r\n0\r\n\r\n",
        big.len()
    );
    let r = raw(srv.addr, chunked.as_bytes()).await;
    assert_eq!((r.status, r.json()["code"].as_i64()), (413, Some(40013)));
    let r = raw(
        srv.addr,
        b"POST /api/passport/login/sendcode HTTP/1.1\r\nhost: x\r\nconnection: close\r\nx-skip-csrf: true\r\ncontent-type: application/json\r\ncontent-length: 5\r\n\r\n{oops",
    )
    .await;
    assert_eq!((r.status, r.json()["code"].as_i64()), (400, Some(40000)));
    srv.handle.stop(false).await;
}

// The documented exception: a malformed request line or header, a head over the limit and a head
// that never completes are answered by actix-http's dispatcher itself (400, 431, 408) with an
// empty body, before any application code runs; the connection is closed after it.
#[actix_rt::test]
async fn dispatcher_refusals_are_the_documented_exception() {
    let srv = server("dispatcher").await;
    for bad in [
        &b"GARBAGE\r\n\r\n"[..],
        b"GET /api/user/profile HTTP/9.9\r\n\r\n",
        b"GET / HTTP/1.1\r\nbad header\r\n\r\n",
    ] {
        let r = raw(srv.addr, bad).await;
        assert_eq!(r.status, 400, "{}", String::from_utf8_lossy(bad));
        assert!(r.body.is_empty());
    }
    let mut huge = b"GET /api/user/profile HTTP/1.1\r\nhost: x\r\n".to_vec();
    for i in 0..100 {
        huge.extend_from_slice(format!("x-h{i}: {}\r\n", "v".repeat(40)).as_bytes());
    }
    huge.extend_from_slice(b"\r\n");
    let r = raw(srv.addr, &huge).await;
    assert_eq!(r.status, 431);
    assert!(r.body.is_empty());
    // a head that stops half-way is answered 408 once the head timeout (5 s) passes
    let began = Instant::now();
    let r = raw(srv.addr, b"GET /api/user/profile HTTP/1.1\r\nhost: x\r\n").await;
    assert_eq!(r.status, 408);
    assert!(r.body.is_empty());
    assert!(began.elapsed() < Duration::from_secs(9));
    srv.handle.stop(false).await;
}
