//! Real-name certification over real HTTP (core-platform.md §2.15, §4.9, §5.3, §7.5): the
//! pre-check, the form's refusals with the spec's texts, the identity check's mismatch, the
//! masked certification, one recertification, youth mode for a minor; and, against the real
//! binary with its logs at trace, that no name or ID number is anywhere in the database files,
//! the logs or `/metrics`.

use crate::common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

use common::{code, config, get_text, temp_dir, Client};
use serde_json::json;

fn id_born(y: i64, m: i64, d: i64) -> String {
    let first17 = format!("110101{y:04}{m:02}{d:02}123");
    format!("{first17}{}", actors::identity::idcard::check_char(first17.as_bytes()) as char)
}

#[actix_rt::test]
async fn certify_refusals_masking_recertification_and_youth_mode() {
    let dir = temp_dir("identity");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let mut c = Client::new(srv.addr, "dev-a");
    c.login("13700000051").await;
    let (_, pre) = c.get("/api/v3/user/authorize/pre-check?after_auth_check=1").await;
    assert_eq!(pre["data"]["auth_type"], 0, "{pre}");
    assert!(c.get("/api/user/v1/info/idauth").await.1["data"]["idauth"].is_null());

    for (name, id, want, text) in [
        ("", "x", 20155, "姓名不能为空"),
        ("张", "x", 20156, "姓名不能少于2个字符"),
        ("张三", " ", 20157, "身份证号不能为空"),
        ("张三", "12345", 20158, "身份证号格式不正确"),
        ("张三", "11010119900101123", 20158, "身份证号格式不正确"),
    ] {
        let (status, r) = c.post("/api/user/v1/info/idauth", json!({"real_name": name, "id_no": id})).await;
        assert_eq!((status, code(&r), r["message"].as_str().unwrap()), (400, want, text));
    }
    let adult = id_born(1990, 3, 4);
    let (_, ok) = c
        .post("/api/user/v1/info/idauth", json!({"real_name": "张三丰", "id_no": adult}))
        .await;
    assert_eq!(code(&ok), 0, "{ok}");
    let auth = &ok["data"]["idauth"];
    assert_eq!(
        (auth["real_name"].as_str(), auth["minor"].as_bool(), auth["recerts_left"].as_i64()),
        (Some("张**"), Some(false), Some(1))
    );
    assert_eq!(auth["id_no"], format!("1101**********{}", &adult[14..]));
    assert_eq!(c.get("/api/v3/user/authorize/pre-check").await.1["data"]["auth_type"], 0);
    assert_eq!(c.get("/api/v3/user/youth-mode/info").await.1["data"]["status"], 0);

    // the one recertification (as a minor now), then none
    let (_, kid) = c
        .post(
            "/api/user/v1/info/idauth",
            json!({"real_name": "张三丰", "id_no": id_born(2014, 6, 1)}),
        )
        .await;
    assert_eq!((code(&kid), kid["data"]["idauth"]["minor"].as_bool()), (0, Some(true)), "{kid}");
    assert_eq!(c.get("/api/v3/user/youth-mode/info").await.1["data"]["status"], 2);
    let (_, none) = c
        .post("/api/user/v1/info/idauth", json!({"real_name": "张三丰", "id_no": adult}))
        .await;
    assert_eq!(
        (code(&none), none["message"].as_str().unwrap()),
        (20161, "每个账号仅有一次重新认证机会")
    );

    // a guest gets nothing; another user sees only their own
    let mut guest = Client::new(srv.addr, "guest");
    assert_eq!(code(&guest.get("/api/user/v1/info/idauth").await.1), 20119);
    let mut other = Client::new(srv.addr, "dev-b");
    other.login("13700000052").await;
    assert!(other.get("/api/user/v1/info/idauth").await.1["data"]["idauth"].is_null());
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every file under `dir`, as bytes.
fn files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files(&p));
        } else if let Ok(b) = std::fs::read(&p) {
            out.push((p.display().to_string(), b));
        }
    }
    out
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[actix_rt::test]
async fn no_name_or_id_number_in_the_database_the_logs_or_metrics() {
    let dir = temp_dir("identity-at-rest");
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("server.toml");
    std::fs::write(
        &cfg,
        format!(
            "mode = \"dev\"\nbind = \"127.0.0.1:0\"\ndata_dir = \"{}\"\nfrontend_dir = \"/nonexistent\"\nworkers = 1\n[sms]\nresend_secs = 0\ncaptcha_phone_per_hour = 0\ncaptcha_ip_per_hour = 0\n[identity]\nsandbox_mismatch = [\"{}\"]\n",
            dir.join("data").display(),
            id_born(1980, 1, 1)
        ),
    )
    .unwrap();
    let log = std::fs::File::create(dir.join("server.log")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_yoo-server"))
        .arg("--config")
        .arg(&cfg)
        .env("RUST_LOG", "trace")
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .expect("server starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // the listening line, after whatever the trace-level log wrote before it
    let mut line = String::new();
    let addr: std::net::SocketAddr = loop {
        let mut l = String::new();
        assert!(stdout.read_line(&mut l).unwrap() > 0, "the server exited: {line}");
        line.push_str(&l);
        if let Some(a) = l.trim().strip_prefix("listening on http://").and_then(|a| a.parse().ok()) {
            break a;
        }
        if let Some(a) = l.trim().rsplit("http://").next().and_then(|a| a.parse().ok()) {
            break a;
        }
    };

    let (name, id) = ("欧阳明月", id_born(1995, 8, 9));
    let mut c = Client::new(addr, "dev-a");
    c.login("13700000053").await;
    // a refused one (the identity check says no) and the one that certifies
    let (_, no) = c
        .post("/api/user/v1/info/idauth", json!({"real_name": name, "id_no": id_born(1980, 1, 1)}))
        .await;
    assert_eq!(code(&no), 20159);
    let (_, yes) = c.post("/api/user/v1/info/idauth", json!({"real_name": name, "id_no": id})).await;
    assert_eq!(code(&yes), 0, "{yes}");
    let metrics = get_text(&format!("http://{addr}/metrics")).await;
    let _ = child.kill();
    let _ = child.wait();
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();

    let mut places = files(&dir.join("data"));
    places.push(("server.log".into(), std::fs::read(dir.join("server.log")).unwrap()));
    places.push(("stdout".into(), [line.into_bytes(), rest].concat()));
    places.push(("/metrics".into(), metrics.into_bytes()));
    let logged: usize = places
        .iter()
        .filter(|(p, _)| p == "stdout" || p == "server.log")
        .map(|(_, b)| b.len())
        .sum();
    assert!(logged > 2000, "the trace-level log was written ({logged} bytes)");
    for secret in [id.as_str(), &id_born(1980, 1, 1), name, &id[6..14]] {
        for (place, bytes) in &places {
            assert!(!contains(bytes, secret.as_bytes()), "{secret} found in {place}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Minors' charge limits at the payment (core-platform.md §8.2): a 12-year-old's QR payment
/// within 50 yuan asks to confirm first (20160), then goes on; over 50 yuan it is refused (20151,
/// the rule's text); coins spent are not money paid; a child under 8 pays nothing; an adult is
/// not asked.
#[actix_rt::test]
async fn minors_charge_limits() {
    let dir = temp_dir("identity-charge");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let mut kid = Client::new(srv.addr, "dev-kid");
    kid.login("13700000054").await;
    let (_, r) = kid
        .post(
            "/api/user/v1/info/idauth",
            json!({"real_name": "小明同学", "id_no": id_born(2014, 6, 1)}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let buy = |goods: &str, method: &str, confirm: i64| json!({"goods_id": 0, "goods_code": goods, "goods_num": 1, "pay_method": method, "confirm": confirm});

    let (status, ask) = kid.post("/api/payment/goods", buy("time_1800", "wechat", 0)).await;
    assert_eq!((status, code(&ask)), (409, 20160), "{ask}");
    assert!(ask["message"].as_str().unwrap().contains("监护人"));
    let (_, ok) = kid.post("/api/payment/goods", buy("time_1800", "wechat", 1)).await;
    assert_eq!(code(&ok), 0, "{ok}");
    let (status, over) = kid.post("/api/payment/goods", buy("time_6000", "wechat", 1)).await;
    assert_eq!((status, code(&over)), (403, 20151), "{over}");
    assert!(over["message"].as_str().unwrap().contains("单次充值金额不得超过50元"));
    // coins: an exchange, not a payment (refused only for want of coins)
    let (_, coins) = kid.post("/api/payment/goods", buy("time_300", "yunyoubi", 0)).await;
    assert_ne!(code(&coins), 20160, "{coins}");

    let mut child = Client::new(srv.addr, "dev-child");
    child.login("13700000055").await;
    child
        .post(
            "/api/user/v1/info/idauth",
            json!({"real_name": "小小同学", "id_no": id_born(2020, 1, 1)}),
        )
        .await;
    let (_, none) = child.post("/api/payment/goods", buy("time_300", "wechat", 1)).await;
    assert_eq!(code(&none), 20151, "{none}");
    assert!(none["message"].as_str().unwrap().contains("未满8周岁"));

    let mut adult = Client::new(srv.addr, "dev-adult");
    adult.login("13700000056").await;
    adult
        .post(
            "/api/user/v1/info/idauth",
            json!({"real_name": "张三丰", "id_no": id_born(1990, 1, 1)}),
        )
        .await;
    assert_eq!(code(&adult.post("/api/payment/goods", buy("time_6000", "wechat", 0)).await.1), 0);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// QR certification (core-platform.md §2.15 in-car variant, §4.9): the screen's QR names a
/// ticket of its account; only a phone signed in to that account may open it (20144 for any
/// other, for the screen's poll too); the poll hears the scan once (20143), then the
/// certification the phone made with the ordinary form (the ticket is spent); a second ticket
/// cancelled on the phone answers 20141.
#[actix_rt::test]
async fn qr_certification_from_a_phone_of_the_same_account() {
    let dir = temp_dir("identity-qr");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let mut car = Client::new(srv.addr, "car");
    car.login("13700000061").await;
    let mut phone = Client::new(srv.addr, "phone");
    phone.login("13700000061").await;
    let mut other = Client::new(srv.addr, "other");
    other.login("13700000062").await;
    let mut guest = Client::new(srv.addr, "guest");

    let (_, g) = guest.get("/api/v3/qrcode/generate?action=idauth").await;
    assert_eq!(code(&g), 20119, "{g}");
    let (status, bad) = car.get("/api/v3/qrcode/generate?action=nope").await;
    assert_eq!((status, code(&bad)), (400, 40000));
    let (_, qr) = car.get("/api/v3/qrcode/generate?action=idauth").await;
    assert_eq!(code(&qr), 0, "{qr}");
    let ticket = qr["data"]["ticket"].as_str().unwrap().to_owned();
    assert_eq!(qr["data"]["qrcode"], format!("{}/qrcode/certification?ticket={ticket}", car.base));
    assert_eq!(qr["data"]["expires_in"], 300);

    let body = json!({"ticket": ticket});
    for path in ["idauth/scan", "polling", "idauth/cancel"] {
        let (status, r) = other.post(&format!("/api/v3/qrcode/{path}"), body.clone()).await;
        assert_eq!((status, code(&r)), (403, 20144), "another account: {path} {r}");
    }
    let (_, unknown) = phone.post("/api/v3/qrcode/idauth/scan", json!({"ticket": "x"})).await;
    assert_eq!(code(&unknown), 20144);

    let (_, scanned) = phone.post("/api/v3/qrcode/idauth/scan", body.clone()).await;
    assert_eq!(code(&scanned), 0, "{scanned}");
    let (_, told) = car.post("/api/v3/qrcode/polling", body.clone()).await;
    assert_eq!(code(&told), 20143, "scanned, told once: {told}");
    let (_, certified) = phone
        .post(
            "/api/user/v1/info/idauth",
            json!({"real_name": "李四", "id_no": id_born(1991, 5, 6)}),
        )
        .await;
    assert_eq!(code(&certified), 0, "{certified}");
    let (_, done) = car.post("/api/v3/qrcode/polling", body.clone()).await;
    assert_eq!((code(&done), done["data"]["success"].as_bool()), (0, Some(true)), "{done}");
    assert_eq!(done["data"]["idauth"]["real_name"], "李*", "masked: {done}");
    let (_, spent) = car.post("/api/v3/qrcode/polling", body.clone()).await;
    assert_eq!(code(&spent), 20144, "spent: {spent}");

    // a ticket the phone cancels
    let (_, qr2) = car.get("/api/v3/qrcode/generate?action=idauth").await;
    let body2 = json!({"ticket": qr2["data"]["ticket"]});
    let (_, c) = phone.post("/api/v3/qrcode/idauth/cancel", body2.clone()).await;
    assert_eq!(code(&c), 0);
    let (_, cancelled) = car.post("/api/v3/qrcode/polling", body2).await;
    assert_eq!(code(&cancelled), 20141, "{cancelled}");
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
