//! The money path over real HTTP against a real server and SQLite (issue 10): concurrent coin
//! purchases, one order per submit, the sandbox's pay page and its signed notices replayed,
//! reordered and forged, the shop's calls and their refusals. Paused-time cases (expiry, a
//! late notice) are in `actors/tests/it/commerce.rs`.

use crate::common;

use std::time::Duration;

use common::{code, config_with, ledger_holds, session, temp_dir, uid, urlencode, Client};
use futures_util::future::join_all;
use serde_json::{json, Value};

/// A POST with the client's cookies, CSRF token and an `Idempotency-Key`, from a fresh
/// connection (so that many run at once).
async fn submit(base: &str, cookies: &str, csrf: &str, key: &str, body: &Value) -> Value {
    let mut resp = awc::Client::default()
        .post(format!("{base}/api/payment/goods"))
        .insert_header(("cookie", cookies.to_owned()))
        .insert_header(("x-csrf-token", csrf.to_owned()))
        .insert_header(("Idempotency-Key", key.to_owned()))
        .timeout(Duration::from_secs(120))
        .send_json(body)
        .await
        .unwrap();
    serde_json::from_slice(&resp.body().await.unwrap()).unwrap()
}

/// Waits (real time: the server runs on its own) until `f` holds.
async fn until(what: &str, mut f: impl AsyncFnMut() -> bool) {
    for _ in 0..400 {
        if f().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{what} did not happen");
}

// 1,000 coin purchases at once by a player whose coins cover exactly 37: exactly 37 succeed,
// the rest get 20110 with the spec's text, and the ledger replays to the balances.
#[actix_rt::test]
async fn a_thousand_coin_purchases_and_exactly_k_succeed() {
    const N: usize = 1000;
    const K: i64 = 37;
    let dir = temp_dir("coins");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut c = Client::new(srv.addr, "dev-a");
    c.login("15800000001").await;
    let uid = uid(&mut c).await;
    // time_300 costs 600 fen = 600 coins.
    srv.platform
        .store()
        .commerce
        .grant(uid, &[storage::GoodsGrant::Coins { amount: K * 600 + 599 }], "grant", "", 0)
        .unwrap();
    let (cookies, csrf) = session(&c);
    let body = json!({"goods_id": 0, "goods_code": "time_300", "goods_num": 1, "pay_method": "yunyoubi", "confirm": 0});
    let answers = join_all((0..N).map(|i| {
        let (base, cookies, csrf, body) = (c.base.clone(), cookies.clone(), csrf.clone(), body.clone());
        async move { submit(&base, &cookies, &csrf, &format!("buy-{i}"), &body).await }
    }))
    .await;
    let ok = answers.iter().filter(|a| code(a) == 0).count();
    let short: Vec<&Value> = answers.iter().filter(|a| code(a) == 20110).collect();
    assert_eq!(ok as i64, K, "exactly the purchases the coins cover");
    assert_eq!(
        short.len(),
        N - K as usize,
        "the rest are refused: {:?}",
        answers.iter().find(|a| code(a) != 0 && code(a) != 20110)
    );
    assert_eq!(short[0]["message"], "您的云游币余额不足，请先充值");
    assert!(answers
        .iter()
        .filter(|a| code(a) == 0)
        .all(|a| a["data"]["exchanged"] == true && a["data"]["state"] == "fulfilled"));

    let (_, b) = c.get("/api/v3/user/balance").await;
    assert_eq!(b["data"]["balance"], 599);
    let (_, p) = c.get("/api/user/profile").await;
    assert_eq!(p["data"]["play_time_paid"], K * 300);
    assert_eq!(p["data"]["balance"], 599);
    let (_, bills) = c.get("/api/v3/user/order?page=1&page_size=100").await;
    assert_eq!(bills["data"]["total"], K, "one bill per purchase, none for the refused");
    ledger_holds(&srv, uid);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// The same submit sent 2–10 times at once makes one order; its QR opens the sandbox's pay page
// (the poll answers 20143), the confirm's notice is delivered twice, and out of order after
// a stale NOTPAY: one payment, one fulfilment, every notice logged.
#[actix_rt::test]
async fn one_order_per_submit_and_notices_replayed_and_reordered() {
    let dir = temp_dir("once");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut c = Client::new(srv.addr, "dev-a");
    c.login("15800000002").await;
    let uid = uid(&mut c).await;
    let (cookies, csrf) = session(&c);
    let body = json!({"goods_id": 0, "goods_code": "coin_600", "goods_num": 1, "pay_method": "wechat", "confirm": 0});
    let mut orders = vec![];
    for copies in 2..=10 {
        let key = format!("submit-{copies}");
        let answers = join_all((0..copies).map(|_| submit(&c.base, &cookies, &csrf, &key, &body))).await;
        let nos: std::collections::HashSet<&str> = answers.iter().map(|a| a["data"]["order_no"].as_str().unwrap()).collect();
        assert_eq!(nos.len(), 1, "{copies} copies make one order: {answers:?}");
        assert!(answers
            .iter()
            .all(|a| a["data"]["state"] == "created" && a["data"]["payable"] == 600));
        orders.push(nos.into_iter().next().unwrap().to_owned());
    }
    let (_, bills) = c.get("/api/v3/user/order").await;
    assert_eq!(bills["data"]["total"], 9, "one order per key");

    let sandbox = |delivery: &str| json!({"delivery": delivery, "delay_ms": 300});
    let mut operator = Client::new(srv.addr, "operator");
    let mut pay_one = async |no: &str, delivery: &str| {
        let (_, r) = operator.post("/api/dev/pay/delivery", sandbox(delivery)).await;
        assert_eq!(r["data"]["delivery"], delivery);
        let params = serde_json::to_string(&json!({"order_no": no})).unwrap();
        let (_, qr) = c
            .get(&format!(
                "/api/v3/qrcode/generate?action=scan_payment&params={}",
                urlencode(&params)
            ))
            .await;
        assert_eq!(code(&qr), 0, "{qr}");
        let url = qr["data"]["qrcode"].as_str().unwrap().to_owned();
        assert_eq!(
            url,
            format!("{}/api/dev/pay/{no}", c.base),
            "the QR encodes the pay page's absolute address"
        );
        let ticket = qr["data"]["ticket"].as_str().unwrap().to_owned();
        // A person opens the page on a phone.
        let page = awc::Client::default().get(&url).send().await.unwrap().body().await.unwrap();
        let page = String::from_utf8(page.to_vec()).unwrap();
        assert!(
            page.contains("确认支付") && page.contains("取消") && page.contains("需支付 ¥6.00"),
            "{page}"
        );
        let (_, poll) = c
            .post("/api/v3/payment/order/polling", json!({"order_no": no, "ticket": ticket}))
            .await;
        assert_eq!(code(&poll), 20143, "scanned: {poll}");
        let done = awc::Client::default()
            .post(format!("{url}/confirm"))
            .send()
            .await
            .unwrap()
            .body()
            .await
            .unwrap();
        assert!(String::from_utf8_lossy(&done).contains("支付成功"));
        let (_, poll) = c
            .post("/api/v3/payment/order/polling", json!({"order_no": no, "ticket": ticket}))
            .await;
        assert_eq!((code(&poll), &poll["data"]["state"]), (0, &json!("fulfilled")), "paid: {poll}");
        ticket
    };
    pay_one(&orders[0], "twice").await;
    pay_one(&orders[1], "out_of_order").await;
    let store = srv.platform.store().clone();
    let (a, b) = (orders[0].clone(), orders[1].clone());
    until("both second notices", async || {
        store.commerce.callbacks(&a).unwrap().len() == 2 && store.commerce.callbacks(&b).unwrap().len() == 2
    })
    .await;
    let outcomes = |no: &str| {
        store
            .commerce
            .callbacks(no)
            .unwrap()
            .into_iter()
            .map(|c| (c.accepted, c.outcome))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        outcomes(&a),
        [(true, "paid and fulfilled".into()), (true, "duplicate: already fulfilled".into())]
    );
    assert_eq!(
        outcomes(&b),
        [(true, "paid and fulfilled".into()), (true, "status NOTPAY: nothing to do".into())]
    );
    let (_, bal) = c.get("/api/v3/user/balance").await;
    assert_eq!(bal["data"]["balance"], 1200, "two orders, each granted once");
    let (_, q) = c.get(&format!("/api/payment/query?deposit_order_id={a}")).await;
    assert_eq!(q["data"]["status"], "success");
    let (_, q) = c.get(&format!("/api/payment/query?deposit_order_id={}", orders[2])).await;
    assert_eq!(q["data"]["status"], "pending");
    ledger_holds(&srv, uid);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// A forged notice (the sandbox's bad-signature delivery, and one posted by hand) changes
// nothing and is logged; the genuine one that follows pays the order once. A forged notice
// for another order, with the right amount, grants nothing either.
#[actix_rt::test]
async fn forged_notices_change_nothing_and_are_logged() {
    let dir = temp_dir("forged");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut c = Client::new(srv.addr, "dev-a");
    c.login("15800000003").await;
    let uid = uid(&mut c).await;
    let (_, o) = c
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "time_300", "goods_num": 1, "pay_method": "alipay"}),
        )
        .await;
    let no = o["data"]["order_no"].as_str().unwrap().to_owned();

    // By hand: a body with a signature under another key, and one with none.
    let body = format!("order_no={no}&trade_no=FAKE1&amount=600&paid_at=1&status=SUCCESS");
    let sig = actors::commerce::payment::sign(b"guessed key", &body);
    for signature in [sig.as_str(), ""] {
        let mut r = awc::Client::default()
            .post(format!("{}/api/payment/notify/sandbox", c.base))
            .insert_header(("Yoo-Pay-Signature", signature))
            .send_body(body.clone())
            .await
            .unwrap();
        let v: Value = serde_json::from_slice(&r.body().await.unwrap()).unwrap();
        assert_eq!((r.status().as_u16(), code(&v)), (400, 20186), "{v}");
    }
    let (_, q) = c.get(&format!("/api/payment/query?deposit_order_id={no}")).await;
    assert_eq!(q["data"]["status"], "pending");

    // The sandbox forges first, then sends the genuine notice.
    let mut operator = Client::new(srv.addr, "operator");
    operator
        .post("/api/dev/pay/delivery", json!({"delivery": "bad_signature", "delay_ms": 300}))
        .await;
    let params = urlencode(&json!({"order_no": no}).to_string());
    let (_, qr) = c.get(&format!("/api/v3/qrcode/generate?action=scan_payment&params={params}")).await;
    let url = qr["data"]["qrcode"].as_str().unwrap().to_owned();
    awc::Client::default().post(format!("{url}/confirm")).send().await.unwrap();
    let store = srv.platform.store().clone();
    until("the forged notice", async || store.commerce.callbacks(&no).unwrap().len() >= 3).await;
    assert_eq!(
        srv.platform.commerce.order_of(uid, &no).await.unwrap().state,
        storage::OrderState::Created,
        "a forgery pays nothing"
    );
    until("the genuine notice", async || store.commerce.callbacks(&no).unwrap().len() >= 4).await;
    let log = store.commerce.callbacks(&no).unwrap();
    assert_eq!(
        log.iter().map(|c| (c.accepted, c.outcome.as_str())).collect::<Vec<_>>(),
        [
            (false, "bad signature"),
            (false, "bad signature"),
            (false, "bad signature"),
            (true, "paid and fulfilled")
        ]
    );
    let (_, p) = c.get("/api/user/profile").await;
    assert_eq!(p["data"]["play_time_paid"], 300, "paid once");
    ledger_holds(&srv, uid);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// The shop's reads and the submit's refusals: every section lists goods with fen prices and
// the pay methods §4.2 allows; bad input gets the envelope and changes nothing.
#[actix_rt::test]
async fn sections_items_and_refusals() {
    let dir = temp_dir("shop");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut c = Client::new(srv.addr, "dev-a");
    for key in storage::seed::SECTIONS {
        let (_, s) = c.get(&format!("/api/web/v1/section/goods?section_key={key}")).await;
        assert!(!s["data"]["goods"].as_array().unwrap().is_empty(), "{key}: {s}");
    }
    let (_, coins) = c.get("/api/web/v1/section/goods?section_key=shop_card_coin").await;
    let methods: Vec<&str> = coins["data"]["goods"][0]["pay_types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["payCode"].as_str().unwrap())
        .collect();
    assert_eq!(methods, ["wechat", "alipay"], "no coins for coins");
    let (_, vvip) = c.get("/api/web/v1/section/goods?section_key=shop_vvip").await;
    let renew = &vvip["data"]["goods"][0];
    assert_eq!(
        (
            renew["external"]["cycleable"].as_bool(),
            renew["pay_types"].as_array().unwrap().len()
        ),
        (Some(true), 1),
        "auto-renew: alipay only"
    );
    assert_eq!(vvip["data"]["goods"][1]["speci_list"].as_array().unwrap().len(), 3);
    let (_, item) = c.get("/api/v3/shop/goods/item?goods_code=time_600&good_id=0").await;
    assert_eq!(
        (item["data"]["retail_price"].as_i64(), item["data"]["member_price"].as_i64()),
        (Some(1000), Some(900))
    );
    let (_, missing) = c.get("/api/v3/shop/goods/item?goods_code=nope").await;
    assert_eq!(code(&missing), 20180);

    let (_, anon) = c
        .post(
            "/api/payment/goods",
            json!({"goods_id": 101, "goods_num": 1, "pay_method": "wechat"}),
        )
        .await;
    assert_eq!(code(&anon), 20119, "login first");
    c.login("15800000004").await;
    let uid = uid(&mut c).await;
    let buy = |extra: Value| {
        let mut b = json!({"goods_id": 101, "goods_num": 1, "pay_method": "wechat"});
        b.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        b
    };
    for (body, expected) in [
        (buy(json!({"goods_num": 0})), 20183),
        (buy(json!({"goods_num": 101})), 20183),
        (buy(json!({"pay_method": "bank"})), 20182),
        (buy(json!({"pay_method": "qq"})), 20182),
        (buy(json!({"goods_id": 131, "pay_method": "yunyoubi"})), 20182),
        (buy(json!({"coupon_id": 5})), 20184),
        (buy(json!({"goods_id": 999_999})), 20180),
        (buy(json!({"pay_method": 7})), 20110),
        (json!({"goods_id": "x", "goods_num": 1, "pay_method": "wechat"}), 40000),
    ] {
        let (status, r) = c.post("/api/payment/goods", body.clone()).await;
        assert_eq!(code(&r), expected, "{body}: {r}");
        assert!(status < 500);
    }
    let (_, bills) = c.get("/api/v3/user/order").await;
    assert_eq!(bills["data"]["total"], 0, "no refusal made an order");

    // The first price of an auto-renew goods; the member price once a member.
    let (_, quote) = c.get("/api/v3/payment/coupon/check?goods_code=vvip_renew&goods_num=1").await;
    assert_eq!(
        (&quote["data"]["pay_money"], &quote["data"]["savings"]),
        (&json!(3000), &json!(1500))
    );
    let mut operator = Client::new(srv.addr, "operator");
    operator
        .post("/api/dev/grant", json!({"cellphone": "15800000004", "kind": "vip", "days": 30}))
        .await;
    let (_, quote) = c.get("/api/v3/payment/coupon/check?goods_code=time_600&goods_num=2").await;
    assert_eq!(
        (&quote["data"]["pay_money"], &quote["data"]["unit_price"], &quote["data"]["savings"]),
        (&json!(1800), &json!(900), &json!(200))
    );
    let (_, r) = c
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "time_600", "goods_num": 2, "pay_method": "wechat"}),
        )
        .await;
    assert_eq!(
        (&r["data"]["payable"], &r["data"]["savings"]),
        (&json!(1800), &json!(200)),
        "the submit charges the quote"
    );
    let (_, r) = c.post("/api/payment/goods", buy(json!({"pay_method": 1}))).await;
    assert_eq!(
        (code(&r), r["data"]["pay_method"].as_str()),
        (0, Some("alipay")),
        "a pay type number works too"
    );
    let no = r["data"]["order_no"].as_str().unwrap().to_owned();
    let (_, qr) = c.get("/api/v3/qrcode/generate?action=other&params={}").await;
    assert_eq!(code(&qr), 40000);
    let (_, qr) = c
        .get(&format!(
            "/api/v3/qrcode/generate?action=scan_payment&params={}",
            urlencode("{\"order_no\":\"Y0\"}")
        ))
        .await;
    assert_eq!(code(&qr), 20181);
    let (_, other) = {
        let mut d = Client::new(srv.addr, "dev-d");
        d.login("15800000005").await;
        d.get(&format!("/api/payment/query?deposit_order_id={no}")).await
    };
    assert_eq!(code(&other), 20181, "another player's order is not found");
    ledger_holds(&srv, uid);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// A purchase tells the buyer's sockets to re-read the balance, and the member info when it
// granted an entitlement (commerce.md §4.14).
#[actix_rt::test]
async fn a_purchase_tells_the_sockets() {
    use facade::proto::MessageType;
    let dir = temp_dir("notify");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut c = Client::new(srv.addr, "dev-a");
    c.login("15800000006").await;
    let uid = uid(&mut c).await;
    let mut socket = c.socket().await;
    srv.platform
        .store()
        .commerce
        .grant(uid, &[storage::GoodsGrant::Coins { amount: 300 }], "grant", "", 0)
        .unwrap();
    let (_, r) = c
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "queue_1d", "goods_num": 1, "pay_method": "yunyoubi"}),
        )
        .await;
    assert_eq!(r["data"]["state"], "fulfilled", "{r}");
    let mut kinds = vec![];
    while kinds.len() < 2 {
        let env = socket.next(5).await;
        if env.r#type == MessageType::BalanceNotification as i32 || env.r#type == MessageType::MemberInfoNotification as i32 {
            kinds.push(env.r#type);
        }
    }
    assert_eq!(
        kinds,
        [MessageType::BalanceNotification as i32, MessageType::MemberInfoNotification as i32]
    );
    let (_, p) = c.get("/api/user/profile").await;
    assert!(p["data"]["fast_enter_expires_in"].as_i64().unwrap() > 23 * 3600, "{p}");
    assert_eq!(p["data"]["balance"], 0);
    ledger_holds(&srv, uid);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
