//! Memberships over real HTTP against a real server and SQLite: the member info after a
//! purchase, the lapsed memberships, the privilege table, the member play-time grant (once a
//! day, only for the membership held, only the caller's own), with the ledger checked. The
//! grant's day boundary and expiry on injected time are in `storage/src/sqlite/member.rs`.

use crate::common;

use common::{code, config_with, ledger_holds, temp_dir, uid, Client};
use futures_util::future::join_all;
use serde_json::{json, Value};

#[actix_rt::test]
async fn member_info_privileges_and_the_daily_grant() {
    let dir = temp_dir("member");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15700000001").await;
    let ua = uid(&mut a).await;
    let mut b = Client::new(srv.addr, "dev-b");
    b.login("15700000002").await;
    let ub = uid(&mut b).await;

    // The privilege table is open to guests.
    let mut guest = Client::new(srv.addr, "guest");
    let (_, t) = guest.get("/api/v3/member/privileges").await;
    assert_eq!(code(&t), 0, "{t}");
    let rows = t["data"]["list"].as_array().unwrap();
    assert_eq!(rows.len(), 16);
    assert!(rows.iter().all(|r| r["normal"] != json!(true)), "non-members get none");
    let time = rows.iter().find(|r| r["code"] == "time").unwrap();
    assert_eq!(time["vip"], "每日1小时");
    assert!(t["data"]["vvip"].as_array().unwrap().contains(&json!("RedName")));
    assert!(!t["data"]["vip"].as_array().unwrap().contains(&json!("RedName")));
    let (_, i) = guest.get("/api/v3/user/member/info").await;
    assert_eq!(code(&i), 20119, "the member info needs login: {i}");

    // No membership yet: nothing in use, no grant.
    let (_, i) = a.get("/api/v3/user/member/info").await;
    assert_eq!(i["data"]["member_info"]["using"], Value::Null, "{i}");
    assert_eq!(i["data"]["previous_info"], json!([]));
    let (_, r) = a.get("/api/member/playtime/receive?type=vip").await;
    assert_eq!(code(&r), 20231, "{r}");
    assert_eq!(r["message"], "开通会员即可每日领取会员时长");

    // A buys VVIP for a month with coins.
    srv.platform
        .store()
        .commerce
        .grant(ua, &[storage::GoodsGrant::Coins { amount: 4500 }], "grant", "", 0)
        .unwrap();
    let (_, o) = a
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "vvip_1m", "goods_num": 1, "pay_method": "yunyoubi"}),
        )
        .await;
    assert_eq!(o["data"]["state"], "fulfilled", "{o}");
    let (_, i) = a.get("/api/v3/user/member/info").await;
    let now = i["data"]["systemTime"].as_i64().unwrap();
    assert_eq!(i["data"]["member_info"]["using"], "vvip", "{i}");
    assert_eq!(i["data"]["member_info"]["items"][0]["type"], "vvip");
    let expires = i["data"]["member_info"]["items"][0]["expired_at"].as_i64().unwrap();
    assert!((expires - now - 31 * 86_400_000).abs() < 60_000, "31 days: {i}");
    assert_eq!(i["data"]["member_info"]["near_expiration"], false);
    let (_, p) = a.get("/api/user/profile").await;
    assert_eq!(p["data"]["privilege"]["playtime"]["daily_playtime"], 120, "{p}");
    assert_eq!(p["data"]["privilege"]["playtime"]["monthly_playtime"], 1200);
    assert_eq!(p["data"]["privilege"]["discount_goods"], true);
    let free_before = p["data"]["play_time_free"].as_i64().unwrap();

    // The grant names the membership held: vip is not A's.
    let (_, r) = a.get("/api/member/playtime/receive?type=vip").await;
    assert_eq!(code(&r), 20231, "{r}");
    let (_, r) = a.get("/api/member/playtime/receive?type=hvip").await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(r["data"]["play_time"], 1320, "2 h daily + 20 h monthly: {r}");
    assert_eq!(r["data"]["grants"].as_array().unwrap().len(), 2);
    let day_end = r["data"]["expires_at"].as_i64().unwrap();
    assert!(
        day_end > now && day_end - now <= 86_400_000 && (day_end + 8 * 3_600_000) % 86_400_000 == 0,
        "next 0:00 UTC+8: {r}"
    );
    let (_, p) = a.get("/api/user/profile").await;
    assert_eq!(p["data"]["play_time_free"].as_i64().unwrap(), free_before + 1320);
    // Once a day: a second call receives nothing.
    let (_, r) = a.get("/api/member/playtime/receive?type=vvip").await;
    assert_eq!(code(&r), 20230, "{r}");
    let (_, p) = a.get("/api/user/profile").await;
    assert_eq!(p["data"]["play_time_free"].as_i64().unwrap(), free_before + 1320);

    // B cannot receive A's grant (the call only ever names the caller) nor see A's info.
    let (_, r) = b.get("/api/member/playtime/receive?type=vvip").await;
    assert_eq!(code(&r), 20231, "{r}");
    let (_, i) = b.get("/api/v3/user/member/info").await;
    assert_eq!(i["data"]["member_info"]["using"], Value::Null, "{i}");

    // Racing receipts by B, a vip: exactly one gets the hour.
    srv.platform.store().assets.grant_entitlement(ub, "vip", 86_400_000, now).unwrap();
    let (_, p) = b.get("/api/user/profile").await;
    let b_before = p["data"]["play_time_free"].as_i64().unwrap();
    let base = b.base.clone();
    let cookies = b.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
    let csrf = b.cookies["_csrfToken"].clone();
    let answers = join_all((0..12).map(|_| {
        let (base, cookies, csrf) = (base.clone(), cookies.clone(), csrf.clone());
        async move {
            let mut resp = awc::Client::default()
                .get(format!("{base}/api/member/playtime/receive?type=vip"))
                .insert_header(("cookie", cookies))
                .insert_header(("x-csrf-token", csrf))
                .send()
                .await
                .unwrap();
            serde_json::from_slice::<Value>(&resp.body().await.unwrap()).unwrap()
        }
    }))
    .await;
    assert_eq!(answers.iter().filter(|r| code(r) == 0).count(), 1, "{answers:?}");
    assert!(answers.iter().all(|r| code(r) == 0 || code(r) == 20230), "{answers:?}");
    let (_, p) = b.get("/api/user/profile").await;
    assert_eq!(p["data"]["play_time_free"].as_i64().unwrap(), b_before + 60);

    // A membership that ran out is in previous_info.
    srv.platform.store().assets.grant_entitlement(ub, "daily", 1_000, 5_000).unwrap();
    let (_, i) = b.get("/api/v3/user/member/info").await;
    assert_eq!(i["data"]["member_info"]["using"], "vip", "{i}");
    assert_eq!(i["data"]["previous_info"], json!([{"type": "daily", "expired_at": 6_000}]), "{i}");

    ledger_holds(&srv, ua);
    ledger_holds(&srv, ub);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The vip → vvip upgrade (commerce.md §2.4, §2.5 "upgrade view"): offered only to a vip in use,
/// priced per day left, bought by goods code with good_id 0; the days left turn into vvip; the
/// offer then ends; the ledger holds. Guests, non-members and vvip members are refused.
#[actix_rt::test]
async fn a_vip_upgrades_to_vvip_for_the_days_left() {
    let dir = temp_dir("upgrade");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15700000011").await;
    let ua = uid(&mut a).await;
    let mut guest = Client::new(srv.addr, "guest");
    let item = "/api/v3/shop/goods/item?goods_code=vip2vvip&good_id=0";

    let (_, g) = guest.get(item).await;
    assert_eq!(
        (code(&g), g["message"].as_str()),
        (20187, Some("仅VIP会员可补差价升级为VVIP")),
        "{g}"
    );
    let (_, i) = a.get("/api/v3/user/member/info").await;
    assert_eq!(i["data"]["upgrade"], Value::Null, "no membership: {i}");
    let (_, n) = a.get(item).await;
    assert_eq!(code(&n), 20187, "{n}");

    // A holds vip for 10 days and enough coins.
    let store = srv.platform.store();
    let now = srv.platform.clock().now_ms();
    store
        .commerce
        .grant(
            ua,
            &[
                storage::GoodsGrant::from_parts("vip", 10),
                storage::GoodsGrant::Coins { amount: 10_000 },
            ],
            "grant",
            "",
            now,
        )
        .unwrap();
    let (_, i) = a.get("/api/v3/user/member/info").await;
    assert_eq!(i["data"]["upgrade"], json!({"code": "vip2vvip", "up_days": 10}), "{i}");
    let (_, g) = a.get(item).await;
    assert_eq!(code(&g), 0, "{g}");
    assert_eq!(
        g["data"]["up"],
        json!({"up_from": "vip", "up_to": "vvip", "up_days": 10, "unit_price": 65})
    );
    let (_, c) = a.get("/api/v3/payment/coupon/check?goods_code=vip2vvip&goods_num=1").await;
    assert_eq!(
        c["data"]["pay_money"], 650,
        "a day's price × the days left, whatever goods_num says: {c}"
    );

    let (_, o) = a
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "vip2vvip", "goods_num": 1, "pay_method": "yunyoubi"}),
        )
        .await;
    assert_eq!(o["data"]["state"], "fulfilled", "{o}");
    let (_, bal) = a.get("/api/v3/user/balance").await;
    assert_eq!(bal["data"]["balance"], 10_000 - 650, "{bal}");
    let (_, i) = a.get("/api/v3/user/member/info").await;
    assert_eq!(i["data"]["member_info"]["using"], "vvip", "{i}");
    let items = i["data"]["member_info"]["items"].as_array().unwrap();
    let vvip = items.iter().find(|x| x["type"] == "vvip").unwrap()["expired_at"].as_i64().unwrap();
    let day = 86_400_000;
    assert!((vvip - now - 10 * day).abs() < 60_000, "10 days of vvip: {i}");
    assert!(items.iter().all(|x| x["type"] != "vip"), "the vip days were used up: {i}");
    assert_eq!(i["data"]["upgrade"], Value::Null, "nothing left to upgrade: {i}");
    let (_, again) = a
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "vip2vvip", "goods_num": 1, "pay_method": "yunyoubi"}),
        )
        .await;
    assert_eq!(code(&again), 20187, "a vvip has nothing to upgrade: {again}");
    ledger_holds(&srv, ua);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
