//! The merchant area over real HTTP (commerce.md §2.14, §4.2, §4.4, §4.5, §7 "Merchant"): tier
//! prices, one coupon group per idempotency key, a bank transfer marked received on the
//! sandbox's page and settled once by the signed notice (a forged or replayed notice changes
//! nothing), the query's states, the redeem keys it issues and their redeem: once, by another
//! user, unknown, pending, and many at once; a closed merchant area refused.

use crate::common;

use std::time::Duration;

use common::{code, config_with, get_text, ledger_holds, post_form_text, session, temp_dir, uid, Client};
use futures_util::future::join_all;
use serde_json::{json, Value};

/// A coupon-group submit with the session's cookies, CSRF token and an `Idempotency-Key`.
async fn submit(c: &Client, key: &str, pay_method: &str, goods: Value) -> Value {
    let (cookies, csrf) = session(c);
    let mut resp = awc::Client::default()
        .post(format!("{}/api/mch/v1/payment/submit", c.base))
        .insert_header(("cookie", cookies))
        .insert_header(("x-csrf-token", csrf))
        .insert_header(("Idempotency-Key", key.to_owned()))
        .timeout(Duration::from_secs(60))
        .send_json(&json!({"pay_method": pay_method, "goods": goods.to_string()}))
        .await
        .unwrap();
    serde_json::from_slice(&resp.body().await.unwrap()).unwrap()
}

/// A redeem from a fresh connection (so that many run at once).
async fn redeem(base: &str, cookies: &str, csrf: &str, key: &str) -> Value {
    let mut resp = awc::Client::default()
        .post(format!("{base}/api/mch/v1/redeem"))
        .insert_header(("cookie", cookies.to_owned()))
        .insert_header(("x-csrf-token", csrf.to_owned()))
        .send_json(&json!({ "key": key }))
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

// The goods' tiers, a cart priced by them (lines of 0 left out), the same key making one
// order, and the cart's refusals.
#[actix_rt::test]
async fn tier_prices_and_one_order_per_key() {
    let dir = temp_dir("mch-tiers");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut c = Client::new(srv.addr, "dev-a");
    c.login("15800000101").await;
    let (_, info) = c.get("/api/mch/v1/app/info").await;
    assert_eq!(info["data"]["status"], 1);
    let (_, list) = c.get("/api/mch/v1/payment/goods/list?page=1&page_size=10").await;
    assert_eq!(list["data"]["total"], 2);
    let g = &list["data"]["data"];
    assert_eq!(g[0]["skin"], "blue");
    assert_eq!(g[1]["skin"], "golden");
    assert_eq!(g[0]["prices"][1], json!({"min_num": 10, "max_num": 99, "price": 800}));

    let cart = json!([{"id": 1, "num": 10}, {"id": 2, "num": 0}, {"id": 2, "num": 3}]);
    let a = submit(&c, "k1", "wechat", cart.clone()).await;
    assert_eq!(code(&a), 0, "{a}");
    assert_eq!(a["data"]["order"]["payable"], 10 * 800 + 3 * 2700);
    assert_eq!(a["data"]["order"]["savings"], 10 * (900 - 800));
    assert_eq!(a["data"]["order"]["state"], "created");
    assert_eq!(a["data"]["order"]["goods_type"], 26);
    assert_eq!(a["data"]["items"].as_array().unwrap().len(), 2);
    assert_eq!(a["data"]["pay_url"], Value::Null);
    let b = submit(&c, "k1", "wechat", cart.clone()).await;
    assert_eq!(
        b["data"]["order"]["order_no"], a["data"]["order"]["order_no"],
        "the same key, the same order"
    );
    let concurrent = join_all((0..8).map(|_| submit(&c, "k2", "alipay", cart.clone()))).await;
    let nos: std::collections::BTreeSet<String> = concurrent
        .iter()
        .map(|v| v["data"]["order"]["order_no"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(nos.len(), 1, "one order for a key sent at once: {concurrent:?}");
    let (_, rec) = c.get("/api/mch/v1/payment/record?page=1&page_size=20").await;
    assert_eq!(rec["data"]["total"], 2);

    let empty = submit(&c, "k3", "wechat", json!([{"id": 1, "num": 0}])).await;
    assert_eq!((code(&empty), empty["message"].as_str()), (20191, Some("商品列表为空")));
    let over = submit(&c, "k4", "wechat", json!([{"id": 1, "num": 1000}])).await;
    assert_eq!(code(&over), 20192);
    let unknown = submit(&c, "k5", "wechat", json!([{"id": 77, "num": 1}])).await;
    assert_eq!(code(&unknown), 20180);
    for pay in ["yunyoubi", "qq"] {
        let v = submit(&c, "k6", pay, json!([{"id": 1, "num": 1}])).await;
        assert_eq!(code(&v), 20182, "{pay}: {v}");
    }
    let (status, bad) = c
        .post("/api/mch/v1/payment/submit", json!({"pay_method": "bank", "goods": "not json"}))
        .await;
    assert_eq!((status, code(&bad)), (400, 40000), "{bad}");
    // A coupon-group order is not the shop's: its number is unknown to the other's query and the other way round.
    let shop = c
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "time_300", "goods_num": 1, "pay_method": "alipay"}),
        )
        .await
        .1;
    let shop_no = shop["data"]["order_no"].as_str().unwrap();
    let (_, q) = c.get(&format!("/api/mch/v1/payment/query?deposit_order_id={shop_no}")).await;
    assert_eq!(code(&q), 20181);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// A bank transfer: pending until the tester marks it received on the sandbox's page, then
// paid once by the signed notice; a forged notice and a replay of the genuine one change
// nothing; its keys appear in the record; the ledger holds.
#[actix_rt::test]
async fn a_bank_transfer_is_settled_once_and_issues_keys() {
    let dir = temp_dir("mch-bank");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut c = Client::new(srv.addr, "dev-a");
    c.login("15800000102").await;
    let buyer = uid(&mut c).await;
    let a = submit(&c, "bank-1", "bank", json!([{"id": 1, "num": 2}, {"id": 2, "num": 1}])).await;
    assert_eq!(code(&a), 0, "{a}");
    let o = &a["data"]["order"];
    let no = o["order_no"].as_str().unwrap().to_owned();
    assert_eq!(o["pay_method"], "bank");
    assert_eq!(o["payable"], 2 * 900 + 2700);
    assert_eq!(
        o["expires_at"].as_i64().unwrap() - o["created_at"].as_i64().unwrap(),
        3 * 86_400_000,
        "a transfer waits limitTime"
    );
    let url = a["data"]["pay_url"].as_str().unwrap().to_owned();
    assert!(url.ends_with(&format!("/api/dev/pay/{no}")), "{url}");

    let (_, q) = c.get(&format!("/api/mch/v1/payment/query?deposit_order_id={no}")).await;
    assert_eq!(q["data"]["status"], "pending");
    let (_, d) = c.get(&format!("/api/mch/v1/payment/record/detail?order_no={no}")).await;
    assert_eq!(d["data"]["keys"], json!([]), "no key before the transfer");
    assert_eq!(d["data"]["record"]["state"], "created");
    let (_, cfg) = c.get("/api/mch/v1/config/bank_pay_config").await;
    let parsed: Value = serde_json::from_str(cfg["data"]["config"].as_str().unwrap()).unwrap();
    let (_, group) = c
        .post("/api/japi/yoo/common/config/list", json!({"groupCode": "coupon_group"}))
        .await;
    assert_eq!(group["data"]["bank_limit_time"], "259200");
    assert!(group["data"]["rules"].as_str().unwrap().contains("每个兑换码仅可兑换一次"));
    assert_eq!(parsed["limitTime"], 3 * 86_400);
    assert_eq!(parsed["sections"][0]["list"][0]["content"]["list"][0]["copy"], true);

    // A forged notice: refused, logged, nothing paid.
    let body = format!("order_no={no}&trade_no=FAKE&amount=4500&paid_at=1&status=SUCCESS");
    let forged = actors::commerce::payment::sign(b"guessed key", &body);
    let mut r = awc::Client::default()
        .post(format!("{}/api/payment/notify/sandbox", c.base))
        .insert_header(("Yoo-Pay-Signature", forged))
        .send_body(body)
        .await
        .unwrap();
    let v: Value = serde_json::from_slice(&r.body().await.unwrap()).unwrap();
    assert_eq!(code(&v), 20186);
    let (_, q) = c.get(&format!("/api/mch/v1/payment/query?deposit_order_id={no}")).await;
    assert_eq!(q["data"]["status"], "pending");

    // The tester marks the transfer received.
    let page = get_text(&url).await;
    assert!(page.contains("确认已收到转账"), "{page}");
    post_form_text(&format!("{url}/confirm"), &[]).await;
    let store = srv.platform.store().clone();
    until("the transfer's notice", async || {
        c.get(&format!("/api/mch/v1/payment/query?deposit_order_id={no}")).await.1["data"]["status"] == "success"
    })
    .await;
    // The notice's log entry follows the settle's commit: wait for it too.
    until("the notice logged", async || {
        store.commerce.callbacks(&no).unwrap().iter().any(|c| c.accepted)
    })
    .await;
    // Again on the page: refused; the genuine notice replayed: a duplicate.
    let again = post_form_text(&format!("{url}/confirm"), &[]).await;
    assert!(again.contains("支付失败"), "{again}");
    let genuine = store.commerce.callbacks(&no).unwrap().into_iter().find(|c| c.accepted).unwrap();
    let sig = actors::commerce::payment::sign(srv.platform.commerce.payment_config().sandbox_key.as_bytes(), &genuine.payload);
    let mut r = awc::Client::default()
        .post(format!("{}/api/payment/notify/sandbox", c.base))
        .insert_header(("Yoo-Pay-Signature", sig))
        .send_body(genuine.payload.clone())
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "{:?}", r.body().await);
    let outcomes: Vec<(bool, String)> = store
        .commerce
        .callbacks(&no)
        .unwrap()
        .into_iter()
        .map(|c| (c.accepted, c.outcome))
        .collect();
    assert_eq!(
        outcomes.iter().filter(|(_, o)| o == "paid and fulfilled").count(),
        1,
        "settled once: {outcomes:?}"
    );
    assert!(outcomes.iter().any(|(_, o)| o.starts_with("duplicate")), "{outcomes:?}");

    let (_, d) = c.get(&format!("/api/mch/v1/payment/record/detail?order_no={no}")).await;
    assert_eq!(d["data"]["record"]["state"], "fulfilled");
    let keys = d["data"]["keys"].as_array().unwrap();
    assert_eq!(keys.len(), 3, "one key per coupon");
    assert_eq!(keys.iter().filter(|k| k["goods_id"] == 1).count(), 2);
    assert!(keys.iter().all(|k| k["status"] == 1));
    let ledger = store.commerce.ledger(buyer).unwrap();
    assert_eq!(
        ledger
            .iter()
            .filter(|e| e.asset == "redeem_keys")
            .map(|e| e.delta)
            .collect::<Vec<_>>(),
        [3]
    );
    ledger_holds(&srv, buyer);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Buys `n` of goods 1 by bank and marks it received; the order number and its keys.
async fn bought_keys(c: &mut Client, n: i64) -> (String, Vec<String>) {
    let a = submit(c, &format!("buy-{n}"), "bank", json!([{"id": 1, "num": n}])).await;
    let no = a["data"]["order"]["order_no"].as_str().unwrap().to_owned();
    let url = a["data"]["pay_url"].as_str().unwrap().to_owned();
    post_form_text(&format!("{url}/confirm"), &[]).await;
    until("paid", async || {
        c.get(&format!("/api/mch/v1/payment/query?deposit_order_id={no}")).await.1["data"]["status"] == "success"
    })
    .await;
    let (_, d) = c.get(&format!("/api/mch/v1/payment/record/detail?order_no={no}")).await;
    let keys = d["data"]["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["key"].as_str().unwrap().to_owned())
        .collect();
    (no, keys)
}

// A key redeemed by another player gives them the coupon once; again, unknown, or of an
// unpaid group: refused; one key redeemed many times at once by two players: exactly one
// coupon; every ledger holds.
#[actix_rt::test]
async fn keys_are_redeemed_once() {
    let dir = temp_dir("mch-redeem");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut buyer = Client::new(srv.addr, "dev-a");
    buyer.login("15800000103").await;
    let buyer_uid = uid(&mut buyer).await;
    let mut b = Client::new(srv.addr, "dev-b");
    b.login("15800000104").await;
    let b_uid = uid(&mut b).await;
    let mut c = Client::new(srv.addr, "dev-c");
    c.login("15800000105").await;
    let c_uid = uid(&mut c).await;
    let store = srv.platform.store().clone();
    let coupons_before = store.coupons.coupons(b_uid).unwrap().len();

    let (_, keys) = bought_keys(&mut buyer, 3).await;
    // Typed loosely: lower case, without dashes.
    let typed = keys[0].to_lowercase().replace('-', "");
    let (_, r) = b.post("/api/mch/v1/redeem", json!({ "key": typed })).await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(r["data"]["key"], keys[0]);
    assert_eq!(r["data"]["face_value"], 1000);
    let mine = store.coupons.coupons(b_uid).unwrap();
    assert_eq!(mine.len(), coupons_before + 1);
    assert!(mine.iter().any(|x| x.spec.sid == "mch_time_10" && x.status == 0));
    let (_, again) = b.post("/api/mch/v1/redeem", json!({ "key": keys[0] })).await;
    assert_eq!((code(&again), again["message"].as_str()), (20194, Some("兑换码已被使用")));
    let (_, other) = c.post("/api/mch/v1/redeem", json!({ "key": keys[0] })).await;
    assert_eq!(code(&other), 20194);
    for unknown in ["ABCD-EFGH-JKMN-PQRS", "nope", ""] {
        let (_, u) = c.post("/api/mch/v1/redeem", json!({ "key": unknown })).await;
        assert_eq!(code(&u), 20193, "{unknown}: {u}");
    }
    // A key of an unpaid group is not redeemable.
    let pending = submit(&buyer, "unpaid", "bank", json!([{"id": 2, "num": 1}])).await;
    let pending_no = pending["data"]["order"]["order_no"].as_str().unwrap();
    let pending_key = store.merchant.group_keys(pending_no).unwrap()[0].key.clone();
    let (_, p) = c.post("/api/mch/v1/redeem", json!({ "key": pending_key })).await;
    assert_eq!(code(&p), 20193);

    // The same key, 16 times at once from two players: one coupon.
    let (bc, bt) = session(&b);
    let (cc, ct) = session(&c);
    let base = b.base.clone();
    let answers = join_all((0..16).map(|i| {
        let (cookies, csrf) = if i % 2 == 0 { (&bc, &bt) } else { (&cc, &ct) };
        redeem(&base, cookies, csrf, &keys[1])
    }))
    .await;
    assert_eq!(answers.iter().filter(|a| code(a) == 0).count(), 1, "{answers:?}");
    assert_eq!(answers.iter().filter(|a| code(a) == 20194).count(), 15);

    let (_, d) = buyer
        .get(&format!(
            "/api/mch/v1/payment/record/detail?order_no={}",
            store.merchant.redeem_key_of(&keys[0]).unwrap().unwrap().0.order_no
        ))
        .await;
    let statuses: Vec<i64> = d["data"]["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["status"].as_i64().unwrap())
        .collect();
    assert_eq!(statuses.iter().filter(|s| **s == 2).count(), 2);
    // Another's record is not theirs to read.
    let (_, foreign) = b.get(&format!("/api/mch/v1/payment/record/detail?order_no={pending_no}")).await;
    assert_eq!(code(&foreign), 20181);
    for u in [buyer_uid, b_uid, c_uid] {
        ledger_holds(&srv, u);
    }
    let buyer_keys: i64 = store
        .commerce
        .ledger(buyer_uid)
        .unwrap()
        .iter()
        .filter(|e| e.asset == "redeem_keys")
        .map(|e| e.delta)
        .sum();
    assert_eq!(buyer_keys, 1, "three issued, two redeemed");
    let (_, check) = buyer.get("/api/dev/ledger/check").await;
    assert_eq!(check["data"]["mismatches"], json!([]));
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// Closed (`[payment] merchant_open = false`): status 0, the goods and the submit refused.
#[actix_rt::test]
async fn a_closed_merchant_area_is_refused() {
    let dir = temp_dir("mch-closed");
    let srv = facade::start(config_with(&dir, 0, 60, "[payment]\nmerchant_open = false\n"))
        .await
        .unwrap();
    let mut c = Client::new(srv.addr, "dev-a");
    c.login("15800000106").await;
    let (_, info) = c.get("/api/mch/v1/app/info").await;
    assert_eq!(info["data"]["status"], 0);
    let (_, list) = c.get("/api/mch/v1/payment/goods/list").await;
    assert_eq!((code(&list), list["message"].as_str()), (20190, Some("商户功能暂未开放")));
    let v = submit(&c, "x", "bank", json!([{"id": 1, "num": 1}])).await;
    assert_eq!(code(&v), 20190);
    let (_, rec) = c.get("/api/mch/v1/payment/record").await;
    assert_eq!(rec["data"]["total"], 0);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// A coupon group by QR (wechat): the shop's QR and its pay page, the query turning to success,
// the keys issued; its order lives the QR order's time, not the bank transfer's.
#[actix_rt::test]
async fn a_coupon_group_paid_by_qr() {
    let dir = temp_dir("mch-qr");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut c = Client::new(srv.addr, "dev-a");
    c.login("15800000107").await;
    let buyer = uid(&mut c).await;
    let a = submit(&c, "qr-1", "wechat", json!([{"id": 2, "num": 2}])).await;
    let o = &a["data"]["order"];
    let no = o["order_no"].as_str().unwrap().to_owned();
    assert_eq!(
        o["expires_at"].as_i64().unwrap() - o["created_at"].as_i64().unwrap(),
        900_000,
        "a QR order's time"
    );
    let params = common::urlencode(&json!({"order_no": no}).to_string());
    let (_, qr) = c.get(&format!("/api/v3/qrcode/generate?action=scan_payment&params={params}")).await;
    let url = qr["data"]["qrcode"].as_str().unwrap().to_owned();
    let page = get_text(&url).await;
    assert!(page.contains("确认支付") && page.contains("¥54"), "{page}");
    post_form_text(&format!("{url}/confirm"), &[]).await;
    until("paid", async || {
        c.get(&format!("/api/mch/v1/payment/query?deposit_order_id={no}")).await.1["data"]["status"] == "success"
    })
    .await;
    let (_, d) = c.get(&format!("/api/mch/v1/payment/record/detail?order_no={no}")).await;
    assert_eq!(d["data"]["keys"].as_array().unwrap().len(), 2);
    assert!(d["data"]["keys"]
        .as_array()
        .unwrap()
        .iter()
        .all(|k| k["goods_name"] == "30元VVIP会员券"));
    ledger_holds(&srv, buyer);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
