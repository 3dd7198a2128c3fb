//! Coupons over real HTTP against a real server and SQLite: the coupons of a purchase and the
//! check with one applied, a purchase with a coupon paid through the sandbox's pay page (the
//! coupon used once, in the backpack's used coupons, the ledger right), refusals (another
//! player's coupon, below the threshold, other goods, bad input), and the limited-time coupon
//! activity received once. Paused-time cases (a coupon released by an expiring order, one
//! coupon on concurrent orders) are in `actors/tests/it/coupons.rs`.

use crate::common;

use std::time::Duration;

use common::{code, config_with, ledger_holds, temp_dir, uid, urlencode, Client};
use serde_json::{json, Value};

/// The id of the caller's listed coupon of kind `sid`.
fn id_of(list: &Value, sid: &str) -> i64 {
    list["data"]["data"].as_array().unwrap().iter().find(|c| c["sid"] == sid).unwrap()["id"]
        .as_i64()
        .unwrap()
}

// The coupons of a purchase with their usable values, the check with one applied, the order
// priced with it and paid on the sandbox's page: the coupon is used once (the backpack shows it
// used, the totals drop), the ledger replays; the used coupon and refusals change nothing.
#[actix_rt::test]
async fn a_purchase_with_a_coupon_is_priced_paid_and_uses_it_once() {
    let dir = temp_dir("coupons");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut c = Client::new(srv.addr, "dev-a");
    c.login("15810000001").await;
    let uid = uid(&mut c).await;

    let (_, list) = c.get("/api/v3/payment/coupon/list?goods_code=time_600&goods_num=1").await;
    assert_eq!(code(&list), 0, "{list}");
    let shown: Vec<(String, i64)> = list["data"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["sid"].as_str().unwrap().to_owned(), c["usable"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        shown,
        [
            ("welcome_time_5".to_owned(), 1),
            ("welcome_time_3".to_owned(), 1),
            ("welcome_member_10".to_owned(), -2)
        ],
        "usable first, the largest first; not for this goods -2"
    );
    assert_eq!(list["data"]["usable_num"], 2);
    let c5 = id_of(&list, "welcome_time_5");
    let (_, below) = c.get("/api/v3/payment/coupon/list?goods_code=time_300&goods_num=1").await;
    assert_eq!(
        below["data"]["data"].as_array().unwrap().iter().find(|x| x["id"] == c5).unwrap()["usable"],
        -1,
        "below the threshold"
    );

    let (_, none) = c.get("/api/v3/payment/coupon/check?goods_code=time_600&goods_num=1").await;
    assert_eq!(
        (
            &none["data"]["pay_money"],
            &none["data"]["discount_money"],
            &none["data"]["usable_num"]
        ),
        (&json!(1000), &json!(0), &json!(2))
    );
    let (_, check) = c
        .get(&format!(
            "/api/v3/payment/coupon/check?goods_code=time_600&goods_num=1&coupon_id={c5}"
        ))
        .await;
    assert_eq!(
        (
            &check["data"]["pay_money"],
            &check["data"]["discount_money"],
            &check["data"]["savings"]
        ),
        (&json!(500), &json!(500), &json!(500)),
        "{check}"
    );
    assert_eq!(check["data"]["use_coupons"][0]["id"], c5);
    for (path, expected) in [
        (
            format!("/api/v3/payment/coupon/check?goods_code=time_300&goods_num=1&coupon_id={c5}"),
            20260,
        ),
        (
            format!("/api/v3/payment/coupon/check?goods_code=coin_600&goods_num=1&coupon_id={c5}"),
            20261,
        ),
        (
            "/api/v3/payment/coupon/check?goods_code=time_600&goods_num=1&coupon_id=424242".to_owned(),
            20184,
        ),
        (
            "/api/v3/payment/coupon/check?goods_code=time_600&goods_num=1&coupon_id=x".to_owned(),
            40000,
        ),
        ("/api/v3/payment/coupon/list?goods_code=time_600&goods_num=0".to_owned(), 20183),
    ] {
        let (status, r) = c.get(&path).await;
        assert_eq!(code(&r), expected, "{path}: {r}");
        assert!(status < 500);
    }

    // Another player cannot use it.
    let mut other = Client::new(srv.addr, "dev-b");
    other.login("15810000002").await;
    let (_, r) = other
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "time_600", "goods_num": 1, "pay_method": "wechat", "coupon_id": c5}),
        )
        .await;
    assert_eq!(code(&r), 20184, "{r}");

    let (_, order) = c
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "time_600", "goods_num": 1, "pay_method": "wechat", "coupon_id": c5}),
        )
        .await;
    assert_eq!(
        (&order["data"]["payable"], &order["data"]["coupon_id"], &order["data"]["savings"]),
        (&json!(500), &json!(c5), &json!(500)),
        "{order}"
    );
    let no = order["data"]["order_no"].as_str().unwrap().to_owned();
    let params = serde_json::to_string(&json!({"order_no": no})).unwrap();
    let (_, qr) = c
        .get(&format!(
            "/api/v3/qrcode/generate?action=scan_payment&params={}",
            urlencode(&params)
        ))
        .await;
    let url = qr["data"]["qrcode"].as_str().unwrap().to_owned();
    let page = awc::Client::default().get(&url).send().await.unwrap().body().await.unwrap();
    assert!(String::from_utf8_lossy(&page).contains("需支付 ¥5.00"));
    awc::Client::default().post(format!("{url}/confirm")).send().await.unwrap();
    let mut paid = false;
    for _ in 0..400 {
        let (_, q) = c.get(&format!("/api/payment/query?deposit_order_id={no}")).await;
        if q["data"]["status"] == "success" {
            paid = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(paid, "the sandbox's notice settled the order");

    let (_, used) = c.get("/api/v3/user/card/list?card_type=3&status=1").await;
    assert_eq!(used["data"]["total"], 1, "{used}");
    let card = &used["data"]["data"][0];
    assert_eq!(
        (&card["id"], &card["card_type"], &card["status"]),
        (&json!(c5), &json!(3), &json!(1))
    );
    assert_eq!(card["coupon"]["face_value"], 500);
    assert!(card["used_at"].is_i64());
    let (_, unused) = c.get("/api/v3/user/card/list?card_type=3").await;
    assert_eq!(unused["data"]["total"], 2);
    let (_, totals) = c.get("/api/v3/user/card/total").await;
    assert_eq!(totals["data"]["coupon"], 2);
    let (_, again) = c
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "time_600", "goods_num": 1, "pay_method": "alipay", "coupon_id": c5}),
        )
        .await;
    assert_eq!(code(&again), 20184, "used once: {again}");
    let (_, p) = c.get("/api/user/profile").await;
    assert_eq!(p["data"]["play_time_paid"], 600);
    ledger_holds(&srv, uid);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// The limited-time coupon activity: its times, status and first 2 goods; its coupons received
// once (the statistics count them); a guest cannot receive; bad ids are refused.
#[actix_rt::test]
async fn the_coupon_activity_is_received_once() {
    let dir = temp_dir("coupon-activity");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut guest = Client::new(srv.addr, "guest");
    let (_, item) = guest.get("/api/v3/shop/activity/item?activity_id=1").await;
    assert_eq!(code(&item), 0, "{item}");
    let d = &item["data"];
    assert_eq!(
        (&d["status"], &d["startTime"], &d["received"]),
        (&json!(1), &json!("2024-01-01 00:00:00"), &json!(false))
    );
    assert_eq!(d["coupons"].as_array().unwrap().len(), 2);
    assert_eq!(d["goods"].as_array().unwrap().len(), 2);
    assert_eq!(d["goods"][0]["extra"]["goods_code"], d["goods"][0]["code"]);
    let (_, r) = guest.post("/api/v3/shop/activity/goods/get", json!({"activity_id": 1})).await;
    assert_ne!(code(&r), 0, "a guest logs in first: {r}");

    let mut c = Client::new(srv.addr, "dev-a");
    c.login("15810000003").await;
    let uid = uid(&mut c).await;
    let (_, got) = c.post("/api/v3/shop/activity/goods/get", json!({"activity_id": 1})).await;
    assert_eq!(got["data"]["data"].as_array().unwrap().len(), 2, "{got}");
    for (body, expected) in [
        (json!({"activity_id": 1}), 20265),
        (json!({"activity_id": 2}), 20264),
        (json!({"activity_id": 3}), 20263),
        (json!({"activity_id": 77}), 20262),
        (json!({"activity_id": "x"}), 40000),
    ] {
        let (status, r) = c.post("/api/v3/shop/activity/goods/get", body.clone()).await;
        assert_eq!(code(&r), expected, "{body}: {r}");
        assert!(status < 500);
    }
    let (_, totals) = c.get("/api/v3/user/card/goods/total?goods_codes=act_time_8,act_vvip_15").await;
    assert_eq!(
        totals["data"],
        json!([{"goods_code": "act_time_8", "remain": 1}, {"goods_code": "act_vvip_15", "remain": 1}])
    );
    let (_, item) = c.get("/api/v3/shop/activity/item?activity_id=1").await;
    assert_eq!(item["data"]["received"], true);
    // time_300 (600 fen): the welcome 3-yuan coupon is the best usable one.
    let (_, check) = c
        .get("/api/v3/shop/activity/goods/coupon/check?activity_id=1&goods_codes=time_300,time_1800")
        .await;
    assert_eq!(
        (&check["data"][0]["price"], &check["data"][0]["coupon_price"]),
        (&json!(600), &json!(300))
    );
    assert_eq!(
        (&check["data"][1]["price"], &check["data"][1]["coupon_price"]),
        (&json!(2800), &json!(2000)),
        "the activity's 8-yuan coupon from 28 yuan"
    );
    let (_, bad) = c.get("/api/v3/shop/activity/goods/coupon/check?activity_id=1&goods_codes=").await;
    assert_eq!(code(&bad), 40000);
    ledger_holds(&srv, uid);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
