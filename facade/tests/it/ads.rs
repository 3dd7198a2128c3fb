//! The ad slots over real HTTP (commerce.md §2.2, §2.8, §2.9, §2.15, §8 70109): the client's
//! read, the operator's replacement (token route, dev route), a section ad's per-user pay-times
//! limit enforced on the purchase path with nothing written beyond it, bad input answered with
//! the envelope, and the product app's first-login gift granted once through the ledger.

use crate::common;

use common::{code, config, config_with, ledger_holds, profile, temp_dir, uid, Client};
use serde_json::{json, Value};

const TOKEN: &str = "an-operator-token-for-the-ad-slots";
const APP_UA: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) slyAndroid/3.2.0";

/// The operator's client: the token on every call.
fn operator(srv: &facade::Running, token: &str) -> Client {
    let mut c = Client::new(srv.addr, "operator");
    c.headers.push(("x-operator-token".into(), token.into()));
    c
}

fn items(slots: &Value, key: &str) -> Vec<Value> {
    slots["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == key)
        .unwrap_or_else(|| panic!("slot {key} in {slots}"))["items"]
        .as_array()
        .unwrap()
        .clone()
}

/// A purchase with the client's session and an `Idempotency-Key`.
async fn submit(c: &Client, key: &str, body: Value) -> Value {
    let (cookies, csrf) = common::session(c);
    let mut resp = awc::Client::default()
        .post(format!("{}/api/payment/goods", c.base))
        .insert_header(("cookie", cookies))
        .insert_header(("x-csrf-token", csrf))
        .insert_header(("Idempotency-Key", key.to_owned()))
        .send_json(&body)
        .await
        .unwrap();
    serde_json::from_slice(&resp.body().await.unwrap()).unwrap()
}

fn coins(c: u32) -> storage::GoodsGrant {
    storage::GoodsGrant::Coins { amount: c.into() }
}

// A guest reads the seeded slots in the order asked (a slot without items is there, empty);
// malformed keys are 400 with the envelope, never a 500.
#[actix_rt::test]
async fn slots_are_read_in_order_and_bad_keys_are_refused() {
    let dir = temp_dir("ads-read");
    let srv = facade::start(config(&dir, 0, 60)).await.unwrap();
    let mut guest = Client::new(srv.addr, "guest");
    let (status, r) = guest
        .get("/api/web/v1/ad/slots?keys=gift_playtime_useup,no_such_slot,header_user_pannel")
        .await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    let keys: Vec<&str> = r["data"].as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["gift_playtime_useup", "no_such_slot", "header_user_pannel"]);
    assert!(items(&r, "no_such_slot").is_empty());
    let useup = items(&r, "gift_playtime_useup");
    assert_eq!(useup.len(), 1);
    assert_eq!(
        (
            &useup[0]["target_type"],
            &useup[0]["target_value"],
            &useup[0]["pay_times"],
            &useup[0]["need_login"]
        ),
        (&json!(5), &json!("useup_60"), &json!(2), &json!(true)),
        "the seeded section ad buys a real goods: {useup:?}"
    );
    assert_eq!(useup[0]["out_of_pay_times"], false);
    assert_eq!(items(&r, "header_user_pannel")[0]["target_value"], "buyMember");

    for bad in [
        "",
        "keys=",
        "keys=Header",
        "keys=a;b",
        "keys=a,,b",
        &format!("keys={}", vec!["a"; 17].join(",")),
    ] {
        let (status, r) = guest.get(&format!("/api/web/v1/ad/slots?{bad}")).await;
        assert_eq!(
            (status, code(&r), r["message"].as_str()),
            (400, 40000, Some("请求参数错误")),
            "{bad}: {r}"
        );
    }
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// The operator's token route replaces a slot (no or a wrong token: 40006, nothing changes); an
// item named by id keeps its ad, the others are retired; bad items and foreign ids are 400; the
// dev route does the same in dev mode; an emptied slot reads empty.
#[actix_rt::test]
async fn the_operator_sets_a_slot() {
    let dir = temp_dir("ads-ops");
    let mut cfg = config(&dir, 0, 60);
    cfg.operator_token_sha256 = Some(actors::accounts::passport::secret_hash(TOKEN));
    let srv = facade::start(cfg).await.unwrap();
    let mut guest = Client::new(srv.addr, "guest");
    let (_, before) = guest.get("/api/web/v1/ad/slots?keys=header_right,member_expire").await;
    let seeded = items(&before, "header_right");

    let body = json!({"key": "header_right", "items": [
        {"title": "畅玩时长5小时 限购1次", "target_type": 5, "target_value": "time_300", "need_login": true, "pay_times": 1, "sort": 2},
        {"title": "充值云游币", "target_type": 3, "target_value": "buyCoin", "sort": 1, "image": "/ads/time.svg"},
    ]});
    for token in ["", "wrong"] {
        let (status, r) = operator(&srv, token).post("/api/ops/ad/slot", body.clone()).await;
        assert_eq!((status, code(&r)), (403, 40006), "{r}");
        // the token first, the body after: a malformed body without it is 40006 too
        let (status, r) = operator(&srv, token).post("/api/ops/ad/slot", json!({"items": "x"})).await;
        assert_eq!((status, code(&r)), (403, 40006), "{r}");
    }
    let (_, same) = guest.get("/api/web/v1/ad/slots?keys=header_right").await;
    assert_eq!(items(&same, "header_right"), seeded, "a refused call changes nothing");

    let mut ops = operator(&srv, TOKEN);
    let (status, set) = ops.post("/api/ops/ad/slot", body).await;
    assert_eq!((status, code(&set)), (200, 0), "{set}");
    let (_, read) = guest.get("/api/web/v1/ad/slots?keys=header_right").await;
    let now = items(&read, "header_right");
    assert_eq!(
        now.iter().map(|i| i["title"].as_str().unwrap()).collect::<Vec<_>>(),
        ["充值云游币", "畅玩时长5小时 限购1次"],
        "in sort order, the seeded ad retired"
    );
    let coin_id = now[0]["id"].as_i64().unwrap();

    // an update by id keeps the ad; the other is retired
    let (_, r) = ops
        .post(
            "/api/ops/ad/slot",
            json!({"key": "header_right", "items": [
            {"id": coin_id, "title": "充值云游币 送好礼", "target_type": 3, "target_value": "buyCoin"}]}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let (_, read) = guest.get("/api/web/v1/ad/slots?keys=header_right").await;
    let now = items(&read, "header_right");
    assert_eq!(
        (now.len(), now[0]["id"].as_i64(), now[0]["title"].as_str()),
        (1, Some(coin_id), Some("充值云游币 送好礼"))
    );

    let (_, other) = guest.get("/api/web/v1/ad/slots?keys=member_expire").await;
    let foreign = items(&other, "member_expire")[0]["id"].clone();
    let item = |extra: Value| {
        let mut i = json!({"title": "广告", "target_type": 5, "target_value": "time_300"});
        i.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        json!({"key": "header_right", "items": [i]})
    };
    for bad in [
        item(json!({"id": foreign})),
        item(json!({"target_type": 9})),
        item(json!({"target_type": 3, "target_value": "buyCoin", "pay_times": 2})),
        item(json!({"pay_times": -1})),
        item(json!({"title": ""})),
        item(json!({"image": "//elsewhere.example/x.png"})),
        item(json!({"start_at": 10, "end_at": 5})),
        item(json!({"unknown_field": 1})),
        json!({"key": "Header Right", "items": []}),
        json!({"key": "header_right"}),
        json!({"key": "header_right", "items": vec![json!({"title": "a", "target_type": 3, "target_value": "buyCoin"}); 21]}),
    ] {
        let (status, r) = ops.post("/api/ops/ad/slot", bad.clone()).await;
        assert_eq!((status, code(&r)), (400, 40000), "{bad}: {r}");
    }
    let (status, r) = ops.post_raw("/api/ops/ad/slot", "{not json").await;
    assert_eq!((status, code(&r)), (400, 40000), "{r}");
    let (_, read) = guest.get("/api/web/v1/ad/slots?keys=header_right").await;
    assert_eq!(
        items(&read, "header_right")[0]["id"].as_i64(),
        Some(coin_id),
        "refusals changed nothing"
    );

    // the dev route (dev mode) empties it
    let (_, r) = guest.post("/api/dev/ad/slot", json!({"key": "header_right", "items": []})).await;
    assert_eq!(code(&r), 0, "{r}");
    let (_, read) = guest.get("/api/web/v1/ad/slots?keys=header_right").await;
    assert!(items(&read, "header_right").is_empty());
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// A section ad of limit 2: two purchases through it succeed (coins and a payable QR order
// alike), the third is refused with 70109 and writes nothing (no order, no debit, the same
// ledger); the same submit again answers its order; another user's limit is their own; the
// slot then reads out of pay times for the first user only; an ad of another goods is 70110.
#[actix_rt::test]
async fn a_section_ad_refuses_purchases_beyond_its_pay_times() {
    let dir = temp_dir("ads-limit");
    let srv = facade::start(config(&dir, 0, 60)).await.unwrap();
    let (_, r) = Client::new(srv.addr, "op")
        .post(
            "/api/dev/ad/slot",
            json!({"key": "gift_playtime_useup", "items": [
            {"title": "续玩时长1小时 限购2次", "target_type": 5, "target_value": "useup_60", "need_login": true, "pay_times": 2}]}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let ad = r["data"]["items"][0]["id"].as_i64().unwrap();

    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15800000301").await;
    let ua = uid(&mut a).await;
    srv.platform.store().commerce.grant(ua, &[coins(3000)], "grant", "", 0).unwrap();
    let buy = |method: &str, ad_id: i64| json!({"goods_id": 0, "goods_code": "useup_60", "goods_num": 1, "pay_method": method, "confirm": 0, "ad_id": ad_id});

    let first = submit(&a, "a-1", buy("yunyoubi", ad)).await;
    assert_eq!((code(&first), &first["data"]["state"]), (0, &json!("fulfilled")), "{first}");
    let second = submit(&a, "a-2", buy("wechat", ad)).await;
    assert_eq!(
        (code(&second), &second["data"]["state"]),
        (0, &json!("created")),
        "a payable order counts: {second}"
    );

    let entries = srv.platform.store().commerce.ledger(ua).unwrap().len();
    let before = profile(&mut a).await;
    for (key, method) in [("a-3", "yunyoubi"), ("a-4", "wechat")] {
        let third = submit(&a, key, buy(method, ad)).await;
        assert_eq!(
            (code(&third), third["message"].as_str()),
            (70109, Some("该商品购买次数已达上限")),
            "{method}: {third}"
        );
    }
    let (status, _) = a.post("/api/payment/goods", buy("alipay", ad)).await;
    assert_eq!(status, 409, "70109 is a conflict");
    let after = profile(&mut a).await;
    assert_eq!(
        (&after["balance"], &after["play_time_paid"]),
        (&before["balance"], &before["play_time_paid"]),
        "nothing debited or granted"
    );
    assert_eq!(srv.platform.store().commerce.ledger(ua).unwrap().len(), entries, "no ledger entry");
    let (_, bills) = a.get("/api/v3/user/order?page=1&page_size=100").await;
    assert_eq!(bills["data"]["total"], 2, "no third order");
    ledger_holds(&srv, ua);
    // the same submit again answers its order, limit or not
    let repeated = submit(&a, "a-2", buy("wechat", ad)).await;
    assert_eq!(
        (code(&repeated), &repeated["data"]["order_no"]),
        (0, &second["data"]["order_no"]),
        "{repeated}"
    );

    // another user's limit is their own
    let mut b = Client::new(srv.addr, "dev-b");
    b.login("15800000302").await;
    let ub = uid(&mut b).await;
    let rb = submit(&b, "b-1", buy("wechat", ad)).await;
    assert_eq!(code(&rb), 0, "another user's limit is their own: {rb}");

    let (_, slots) = a.get("/api/web/v1/ad/slots?keys=gift_playtime_useup").await;
    let item = &items(&slots, "gift_playtime_useup")[0];
    assert_eq!(
        (&item["paid_times"], &item["out_of_pay_times"]),
        (&json!(2), &json!(true)),
        "{item}"
    );
    let (_, slots) = b.get("/api/web/v1/ad/slots?keys=gift_playtime_useup").await;
    let item = &items(&slots, "gift_playtime_useup")[0];
    assert_eq!(
        (&item["paid_times"], &item["out_of_pay_times"]),
        (&json!(1), &json!(false)),
        "{item}"
    );
    let (_, slots) = Client::new(srv.addr, "guest")
        .get("/api/web/v1/ad/slots?keys=gift_playtime_useup")
        .await;
    assert_eq!(
        items(&slots, "gift_playtime_useup")[0]["out_of_pay_times"],
        false,
        "a guest has bought nothing"
    );

    // the ad buys useup_60 only; an unknown ad is refused too
    for (goods, ad_id) in [("useup_180", ad), ("useup_60", 999_999)] {
        let r = submit(
            &b,
            &format!("b-{goods}-{ad_id}"),
            json!({"goods_id": 0, "goods_code": goods, "goods_num": 1, "pay_method": "wechat", "ad_id": ad_id}),
        )
        .await;
        assert_eq!(code(&r), 70110, "{goods} {ad_id}: {r}");
    }
    ledger_holds(&srv, ub);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// With first_app_login_minutes configured, a user who never logged in from the product's app
// sees them in first_login_app_playtime; their first login from the app grants them once, free
// play time with its ledger entry, and the profile then says 0; a second app login grants
// nothing. Without the setting the profile says 0 and an app login grants nothing.
#[actix_rt::test]
async fn the_first_app_login_grants_its_play_time_once() {
    let dir = temp_dir("ads-app");
    let srv = facade::start(config_with(&dir, 0, 60, "first_app_login_minutes = 30"))
        .await
        .unwrap();
    let phone = "15800000311";
    let mut web = Client::new(srv.addr, "dev-web");
    web.login(phone).await;
    let u = uid(&mut web).await;
    let p = profile(&mut web).await;
    assert_eq!(p["first_login_app_playtime"], 30, "{p}");
    let free = p["play_time_free"].as_i64().unwrap();

    let mut app = Client::new(srv.addr, "dev-app");
    app.headers.push(("user-agent".into(), APP_UA.into()));
    app.login(phone).await;
    let p = profile(&mut app).await;
    assert_eq!(
        (p["play_time_free"].as_i64(), &p["first_login_app_playtime"]),
        (Some(free + 30), &json!(0)),
        "{p}"
    );
    let mut again = Client::new(srv.addr, "dev-app-2");
    again.headers.push(("user-agent".into(), APP_UA.into()));
    again.login(phone).await;
    assert_eq!(
        profile(&mut again).await["play_time_free"].as_i64(),
        Some(free + 30),
        "granted once"
    );
    assert_eq!(profile(&mut web).await["first_login_app_playtime"], 0);
    let entries = srv.platform.store().commerce.ledger(u).unwrap();
    assert_eq!(entries.iter().filter(|e| e.reason == "first_app_login").count(), 1, "{entries:?}");
    ledger_holds(&srv, u);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);

    let dir = temp_dir("ads-app-none");
    let srv = facade::start(config(&dir, 0, 60)).await.unwrap();
    let mut app = Client::new(srv.addr, "dev-app");
    app.headers.push(("user-agent".into(), APP_UA.into()));
    app.login(phone).await;
    let p = profile(&mut app).await;
    assert_eq!(p["first_login_app_playtime"], 0, "not configured: {p}");
    let u = p["uid"].as_i64().unwrap();
    assert!(srv
        .platform
        .store()
        .commerce
        .ledger(u)
        .unwrap()
        .iter()
        .all(|e| e.reason != "first_app_login"));
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// Twenty purchases through a section ad of limit 3 at once, coins covering them all: exactly
// three are made, the rest are 70109, and the ledger replays to the balances.
#[actix_rt::test]
async fn concurrent_purchases_through_an_ad_stop_at_its_limit() {
    let dir = temp_dir("ads-race");
    let srv = facade::start(config(&dir, 0, 60)).await.unwrap();
    let (_, r) = Client::new(srv.addr, "op")
        .post(
            "/api/dev/ad/slot",
            json!({"key": "header_right", "items": [
            {"title": "畅玩时长5小时 限购3次", "target_type": 5, "target_value": "time_300", "pay_times": 3}]}),
        )
        .await;
    let ad = r["data"]["items"][0]["id"].as_i64().unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15800000321").await;
    let u = uid(&mut a).await;
    srv.platform.store().commerce.grant(u, &[coins(20 * 600)], "grant", "", 0).unwrap();
    let body = json!({"goods_id": 0, "goods_code": "time_300", "goods_num": 1, "pay_method": "yunyoubi", "ad_id": ad});
    let answers = futures_util::future::join_all((0..20).map(|i| {
        let (a, body) = (&a, body.clone());
        async move { submit(a, &format!("race-{i}"), body).await }
    }))
    .await;
    let made = answers.iter().filter(|r| code(r) == 0).count();
    let refused = answers.iter().filter(|r| code(r) == 70109).count();
    assert_eq!((made, refused), (3, 17), "{answers:?}");
    assert_eq!(profile(&mut a).await["balance"], 17 * 600);
    ledger_holds(&srv, u);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
