//! The backpack over real HTTP against a real server and SQLite (issue 10, commerce.md §2.13,
//! §4.12): time cards granted, listed by tab, status and page, counted, noticed, used for play
//! time (with the ledger), refused when used, expired, unknown or another's; racing uses of one
//! card: exactly one wins.

use crate::common;

use std::time::Duration;

use common::{code, config_with, ledger_holds, profile, temp_dir, Client};
use futures_util::future::join_all;
use serde_json::{json, Value};

async fn grant(c: &Client, phone: &str, body: Value) -> Value {
    let mut operator = Client::new(c.base.trim_start_matches("http://").parse().unwrap(), "operator");
    let mut b = body;
    b["cellphone"] = json!(phone);
    operator.post("/api/dev/grant", b).await.1
}

fn ids(list: &Value) -> Vec<i64> {
    list["data"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_i64().unwrap())
        .collect()
}

/// Grant, list, count, notice, use, refuse.
#[actix_rt::test]
async fn time_cards_list_use_and_refusals() {
    let dir = temp_dir("backpack");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    let mut b = Client::new(srv.addr, "dev-b");
    a.login("15600000001").await;
    b.login("15600000002").await;
    let uid = profile(&mut a).await["uid"].as_i64().unwrap();
    let (free0, paid0) = {
        let p = profile(&mut a).await;
        (p["play_time_free"].as_i64().unwrap(), p["play_time_paid"].as_i64().unwrap())
    };

    let (_, empty) = a.get("/api/v3/user/card/total").await;
    assert_eq!(
        (empty["data"]["card"].as_i64(), empty["data"]["gift"].as_i64()),
        (Some(0), Some(0)),
        "{empty}"
    );

    let g = grant(&a, "15600000001", json!({"kind": "time_card", "minutes": 120, "days": 7})).await;
    assert_eq!(code(&g), 0, "{g}");
    grant(&a, "15600000001", json!({"kind": "free_time_card", "minutes": 30, "days": 1})).await;
    grant(&a, "15600000001", json!({"kind": "card", "count": 1})).await;
    let bad = grant(&a, "15600000001", json!({"kind": "time_card", "minutes": 0, "days": 7})).await;
    assert_eq!(code(&bad), 40000, "no minutes: {bad}");
    // One that ran out yesterday.
    srv.platform
        .store()
        .assets
        .add_time_card(
            uid,
            storage::NewTimeCard {
                goods_title: "60分钟付费时长卡",
                play_type: 1,
                minutes: 60,
                expires_at: 1_000,
                give_times: 0,
            },
            0,
        )
        .unwrap();

    let (_, total) = a.get("/api/v3/user/card/total").await;
    assert_eq!(total["data"]["card"], 3, "the expired one is not counted: {total}");
    let (_, unused) = a.get("/api/v3/user/card/list?status=0&card_type=1&page=1&page_size=12").await;
    assert_eq!(unused["data"]["total"], 3, "{unused}");
    let cards = unused["data"]["data"].as_array().unwrap();
    assert_eq!(cards[0]["goods_title"], "30分钟免费时长卡", "soonest expiry first: {unused}");
    assert_eq!((cards[0]["play_type"].as_i64(), cards[0]["minutes"].as_i64()), (Some(2), Some(30)));
    assert_eq!(cards[0]["near_expiration"], true);
    let expires = cards[0]["expires_at"].as_i64().unwrap();
    assert_eq!((expires + 8 * 3_600_000 + 1) % 86_400_000, 0, "expires at 23:59:59.999 UTC+8");
    let paid_card = cards.iter().find(|c| c["play_type"] == 1).unwrap()["id"].clone();
    let free_card = cards[0]["id"].clone();
    let fast_card = cards.iter().find(|c| c["play_type"] == 0).unwrap()["id"].clone();

    let (_, expired) = a.get("/api/v3/user/card/list?status=2").await;
    assert_eq!(expired["data"]["total"], 1);
    assert_eq!(
        expired["data"]["data"][0]["status"], 2,
        "an unused card past its expiry reads expired"
    );
    let expired_id = expired["data"]["data"][0]["id"].clone();
    let (_, gifts) = a.get("/api/v3/user/card/list?status=0&card_type=2").await;
    assert_eq!(gifts["data"]["total"], 0);
    let (_, page2) = a.get("/api/v3/user/card/list?status=0&page=2&page_size=2").await;
    assert_eq!((page2["data"]["total"].as_i64(), ids(&page2).len()), (Some(3), 1), "{page2}");
    let (_, paid_only) = a.get("/api/v3/user/card/list?status=0&goods_types=1,4").await;
    assert_eq!(ids(&paid_only), vec![paid_card.as_i64().unwrap()]);
    for q in ["status=7", "page=0", "page_size=500", "card_type=x", "goods_types=a"] {
        let (status, r) = a.get(&format!("/api/v3/user/card/list?{q}")).await;
        assert_eq!((status, code(&r)), (400, 40000), "{q}: {r}");
    }

    let (_, notice) = a.get("/api/v3/user/card/notice").await;
    let newest_cards = notice["data"]["newest_list"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["card_type"] == 1)
        .count();
    assert_eq!(newest_cards, 3, "{notice}");
    assert_eq!(notice["data"]["near_exp_list"][0]["id"], free_card);
    assert_eq!(notice["data"]["near_exp_list"][0]["face_value_txt"], "30分钟");

    // Using the paid card adds 120 paid minutes, once.
    let (_, used) = a.post("/api/v3/user/card/activate", json!({"id": paid_card})).await;
    assert_eq!(code(&used), 0, "{used}");
    assert_eq!(
        (
            used["data"]["goods_title"].as_str(),
            used["data"]["minutes"].as_i64(),
            used["data"]["isFast"].as_i64()
        ),
        (Some("120分钟付费时长卡"), Some(120), Some(0))
    );
    let p = profile(&mut a).await;
    assert_eq!(
        (p["play_time_free"].as_i64(), p["play_time_paid"].as_i64()),
        (Some(free0), Some(paid0 + 120))
    );
    let (_, again) = a.post("/api/v3/user/card/activate", json!({"id": paid_card})).await;
    assert_eq!((code(&again), again["message"].as_str()), (20173, Some("卡券不可用")));
    let (_, late) = a.post("/api/v3/user/card/activate", json!({"id": expired_id})).await;
    assert_eq!(code(&late), 20173, "expired");
    let (_, theirs) = b.post("/api/v3/user/card/activate", json!({"id": free_card})).await;
    assert_eq!((code(&theirs), theirs["message"].as_str()), (20172, Some("卡券不存在")));
    let (_, fast) = a.post("/api/v3/user/card/activate", json!({"id": fast_card})).await;
    assert_eq!(code(&fast), 130120, "a fast-entry card still needs a queued session");
    let (_, free) = a.post("/api/v3/user/card/activate", json!({"id": free_card})).await;
    assert_eq!(free["data"]["minutes"], 30);
    let p = profile(&mut a).await;
    assert_eq!(
        (p["play_time_free"].as_i64(), p["play_time_paid"].as_i64()),
        (Some(free0 + 30), Some(paid0 + 120))
    );

    let (_, used_list) = a.get("/api/v3/user/card/list?status=1").await;
    assert_eq!(used_list["data"]["total"], 2);
    assert!(used_list["data"]["data"][0]["used_at"].as_i64().is_some());
    let (_, total) = a.get("/api/v3/user/card/total").await;
    assert_eq!(total["data"]["card"], 1, "only the fast-entry card is left");
    let uses: Vec<(String, i64)> = srv
        .platform
        .store()
        .commerce
        .ledger(uid)
        .unwrap()
        .into_iter()
        .filter(|e| e.reason == "card_use")
        .map(|e| (e.asset, e.delta))
        .collect();
    assert_eq!(
        uses,
        vec![
            ("play_paid".to_owned(), 120),
            ("time_cards".to_owned(), -1),
            ("play_free".to_owned(), 30),
            ("time_cards".to_owned(), -1),
        ]
    );
    ledger_holds(&srv, uid);
    srv.handle.stop(true).await;
}

/// Fifty uses of one time card at once: exactly one adds its minutes; the rest are refused.
#[actix_rt::test]
async fn racing_uses_of_one_card_and_exactly_one_wins() {
    const N: usize = 50;
    let dir = temp_dir("backpack-race");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15600000011").await;
    let before = profile(&mut a).await["play_time_paid"].as_i64().unwrap();
    grant(&a, "15600000011", json!({"kind": "time_card", "minutes": 60, "days": 3})).await;
    let (_, list) = a.get("/api/v3/user/card/list?status=0").await;
    let id = list["data"]["data"][0]["id"].clone();
    let cookies = a.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
    let csrf = a.cookies["_csrfToken"].clone();
    let answers = join_all((0..N).map(|_| {
        let (base, cookies, csrf, id) = (a.base.clone(), cookies.clone(), csrf.clone(), id.clone());
        async move {
            let mut resp = awc::Client::default()
                .post(format!("{base}/api/v3/user/card/activate"))
                .insert_header(("cookie", cookies))
                .insert_header(("x-csrf-token", csrf))
                .timeout(Duration::from_secs(120))
                .send_json(&json!({"id": id}))
                .await
                .unwrap();
            serde_json::from_slice::<Value>(&resp.body().await.unwrap()).unwrap()
        }
    }))
    .await;
    assert_eq!(answers.iter().filter(|r| code(r) == 0).count(), 1, "one use");
    assert_eq!(answers.iter().filter(|r| code(r) == 20173).count(), N - 1, "the rest refused");
    assert_eq!(
        profile(&mut a).await["play_time_paid"].as_i64(),
        Some(before + 60),
        "the minutes once"
    );
    let uid = profile(&mut a).await["uid"].as_i64().unwrap();
    ledger_holds(&srv, uid);
    srv.handle.stop(true).await;
}

/// Giving by phone: never to oneself or an unknown phone; once per remaining give; the receiver
/// sees who gave it and can use it; both ledgers replay.
#[actix_rt::test]
async fn giving_a_card_by_phone() {
    let dir = temp_dir("backpack-give");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    let mut b = Client::new(srv.addr, "dev-b");
    a.login("15600000021").await;
    b.login("15600000022").await;
    grant(
        &a,
        "15600000021",
        json!({"kind": "time_card", "minutes": 60, "days": 3, "count": 1}),
    )
    .await;
    grant(&a, "15600000021", json!({"kind": "time_card", "minutes": 30, "days": 3})).await;
    let (_, list) = a.get("/api/v3/user/card/list?status=0").await;
    let cards = list["data"]["data"].as_array().unwrap();
    let giftable = cards.iter().find(|c| c["remain_give_times"] == 1).unwrap()["id"].clone();
    let kept = cards.iter().find(|c| c["remain_give_times"] == 0).unwrap()["id"].clone();

    let (_, me) = a
        .post("/api/v3/user/card/give", json!({"id": giftable, "phone": "15600000021"}))
        .await;
    assert_eq!((code(&me), me["message"].as_str()), (20174, Some("不能赠送给自己")));
    let (_, nobody) = a
        .post("/api/v3/user/card/give", json!({"id": giftable, "phone": "15600000099"}))
        .await;
    assert_eq!((code(&nobody), nobody["message"].as_str()), (20175, Some("该手机号尚未注册")));
    let (_, none_left) = a.post("/api/v3/user/card/give", json!({"id": kept, "phone": "15600000022"})).await;
    assert_eq!(code(&none_left), 20173, "no gives left");
    let (_, malformed) = a.post("/api/v3/user/card/give", json!({"id": giftable, "phone": "1560"})).await;
    assert_eq!(code(&malformed), 20111);
    let (_, theirs) = b
        .post("/api/v3/user/card/give", json!({"id": giftable, "phone": "15600000021"}))
        .await;
    assert_eq!(code(&theirs), 20172);

    let (_, given) = a
        .post("/api/v3/user/card/give", json!({"id": giftable, "phone": "15600000022"}))
        .await;
    assert_eq!(code(&given), 0, "{given}");
    assert_eq!(
        (given["data"]["status"].as_i64(), given["data"]["target_user"]["phone"].as_str()),
        (Some(1), Some("15600000022"))
    );
    let (_, again) = a
        .post("/api/v3/user/card/give", json!({"id": giftable, "phone": "15600000022"}))
        .await;
    assert_eq!(code(&again), 20173, "given already");
    let (_, used) = a.get("/api/v3/user/card/list?status=1").await;
    assert_eq!(used["data"]["data"][0]["target_user"]["phone"], "15600000022");

    let (_, got) = b.get("/api/v3/user/card/list?status=0").await;
    let card = &got["data"]["data"][0];
    assert_eq!(
        (
            card["from_user"]["phone"].as_str(),
            card["minutes"].as_i64(),
            card["remain_give_times"].as_i64()
        ),
        (Some("15600000021"), Some(60), Some(0))
    );
    let before = profile(&mut b).await["play_time_paid"].as_i64().unwrap();
    let (_, use_it) = b.post("/api/v3/user/card/activate", json!({"id": card["id"]})).await;
    assert_eq!(code(&use_it), 0, "{use_it}");
    assert_eq!(profile(&mut b).await["play_time_paid"].as_i64(), Some(before + 60));
    for c in [&mut a, &mut b] {
        let uid = profile(c).await["uid"].as_i64().unwrap();
        ledger_holds(&srv, uid);
    }
    srv.handle.stop(true).await;
}

/// The card notice of the system popup chain (commerce.md §2.8, §4.7): the holdings received in
/// the last 3 days (cards and coupons, named with their worth) and those about to expire, soonest
/// first; another user's holdings never appear; a bad `type` is refused. The common config
/// carries the member expiry popups.
#[actix_rt::test]
async fn card_notice_lists_new_and_near_expiry_cards_and_coupons() {
    let dir = temp_dir("card-notice");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    let mut b = Client::new(srv.addr, "dev-b");
    a.login("15600000011").await;
    b.login("15600000012").await;
    let uid = profile(&mut a).await["uid"].as_i64().unwrap();
    let now = srv.platform.clock().now_ms();
    let day = 86_400_000;
    let spec = storage::seed_coupons::coupon_spec("welcome_time_5").unwrap();
    let store = srv.platform.store();
    // a coupon that ends tomorrow, one that ends in a month, and one received long ago
    let near = store
        .coupons
        .grant_coupons(uid, &[(spec.clone(), now + day)], "grant", now)
        .unwrap()[0]
        .id;
    let later = store
        .coupons
        .grant_coupons(uid, &[(spec.clone(), now + 30 * day)], "grant", now)
        .unwrap()[0]
        .id;
    let old = store
        .coupons
        .grant_coupons(uid, &[(spec, now + 30 * day)], "grant", now - 10 * day)
        .unwrap()[0]
        .id;
    grant(&a, "15600000011", json!({"kind": "time_card", "minutes": 120, "days": 7})).await;

    let (_, notice) = a.get("/api/v3/user/card/notice?type=1").await;
    assert_eq!(code(&notice), 0, "{notice}");
    let items = |key: &str| -> Vec<(i64, i64)> {
        notice["data"][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| (i["card_type"].as_i64().unwrap(), i["id"].as_i64().unwrap()))
            .collect()
    };
    let near_list = items("near_exp_list");
    assert_eq!(near_list, vec![(3, near)], "only the coupon ending tomorrow: {notice}");
    let near_item = &notice["data"]["near_exp_list"][0];
    assert_eq!(
        (
            near_item["name"].as_str(),
            near_item["face_value_txt"].as_str(),
            near_item["near_expiration"].as_bool()
        ),
        (Some("时长满减券"), Some("满10.00元减5.00元"), Some(true))
    );
    let newest = items("newest_list");
    assert!(newest.contains(&(3, near)) && newest.contains(&(3, later)), "{notice}");
    assert!(!newest.contains(&(3, old)), "received 10 days ago: {notice}");
    let card = notice["data"]["newest_list"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["card_type"] == 1)
        .unwrap();
    assert_eq!(
        (card["name"].as_str(), card["face_value_txt"].as_str()),
        (Some("120分钟付费时长卡"), Some("2小时"))
    );
    let welcome = store
        .coupons
        .coupons(uid)
        .unwrap()
        .into_iter()
        .filter(|c| c.source == "welcome")
        .count();
    assert!(welcome > 0);
    assert_eq!(newest.len(), 3, "a new user's welcome coupons were the registration gift: {notice}");

    // Each received holding is told once; the near-expiry ones every time.
    let (_, again) = a.get("/api/v3/user/card/notice").await;
    assert_eq!(again["data"]["newest_list"], json!([]), "{again}");
    assert_eq!(again["data"]["near_exp_list"][0]["id"], near, "{again}");
    grant(&a, "15600000011", json!({"kind": "card", "count": 1})).await;
    let (_, third) = a.get("/api/v3/user/card/notice").await;
    let fresh = third["data"]["newest_list"].as_array().unwrap();
    assert_eq!((fresh.len(), fresh[0]["face_value_txt"].as_str()), (1, Some("1张")), "{third}");

    let (_, theirs) = b.get("/api/v3/user/card/notice").await;
    let ids: Vec<i64> = ["newest_list", "near_exp_list"]
        .iter()
        .flat_map(|k| {
            theirs["data"][*k]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["id"].as_i64().unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(!ids.contains(&near) && !ids.contains(&later), "{theirs}");
    for bad in ["type=2", "type=x"] {
        let (status, r) = a.get(&format!("/api/v3/user/card/notice?{bad}")).await;
        assert_eq!((status, code(&r)), (400, 40000), "{bad}: {r}");
    }
    let (_, guest) = Client::new(srv.addr, "guest").get("/api/v3/user/card/notice").await;
    assert_eq!(code(&guest), 20119);

    // A new user whose first notice (type=1) had nothing to tell: the welcome coupons count as
    // told, so a later notice (another browser, the next day) does not show them either.
    let mut c = Client::new(srv.addr, "dev-c");
    c.login("15600000013").await;
    let (_, first) = c.get("/api/v3/user/card/notice?type=1").await;
    assert_eq!(first["data"]["newest_list"], json!([]), "{first}");
    let (_, later) = c.get("/api/v3/user/card/notice").await;
    assert_eq!(later["data"]["newest_list"], json!([]), "the welcome coupons were told: {later}");

    let (_, config) = a
        .post("/api/japi/yoo/common/config/list", json!({"groupCode": "common_config"}))
        .await;
    let popups: Value = serde_json::from_str(config["data"]["member_expire"].as_str().unwrap()).unwrap();
    assert_eq!(popups[0]["expireType"], 4, "{popups}");
    assert_eq!(popups[1]["expireType"], 8, "{popups}");
    assert!(popups[1]["dayStep"].as_array().unwrap().contains(&json!(1)), "{popups}");
}
