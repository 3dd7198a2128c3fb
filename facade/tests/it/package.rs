//! Queue acceleration paid by QR through the sandbox's notice and with coins, and the daily and
//! night packages (commerce.md §2.7, §2.10, §4.9), over real HTTP against a real server.

use crate::common;

use std::time::Duration;

use common::{code, config_with, ledger_holds, temp_dir, uid, Client};
use serde_json::{json, Value};

async fn start(c: &mut Client) -> Value {
    c.post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1, "nodeDelay": "[]"}))
        .await
        .1
}

async fn float(c: &mut Client) -> Value {
    c.post("/api/japi/yoo/game/floatBall", json!({})).await.1["data"].clone()
}

/// Submits a purchase (idempotency key `key`).
async fn buy(c: &mut Client, code_: &str, pay: &str, key: &str) -> Value {
    let cookies = c.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
    let mut resp = awc::Client::default()
        .post(format!("{}/api/payment/goods", c.base))
        .insert_header(("cookie", cookies))
        .insert_header(("x-csrf-token", c.cookies["_csrfToken"].clone()))
        .insert_header(("Idempotency-Key", key.to_owned()))
        .timeout(Duration::from_secs(30))
        .send_json(&json!({"goods_id": 0, "goods_code": code_, "goods_num": 1, "pay_method": pay, "confirm": 0}))
        .await
        .unwrap();
    serde_json::from_slice(&resp.body().await.unwrap()).unwrap()
}

/// Pays an order on the sandbox's pay page (a person scanning the QR) and waits for the notice
/// to fulfil it.
async fn pay_on_page(c: &mut Client, order_no: &str) {
    let params = serde_json::to_string(&json!({"order_no": order_no})).unwrap();
    let enc: String = params
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    let (_, qr) = c.get(&format!("/api/v3/qrcode/generate?action=scan_payment&params={enc}")).await;
    assert_eq!(code(&qr), 0, "{qr}");
    let url = qr["data"]["qrcode"].as_str().unwrap().to_owned();
    let done = awc::Client::default()
        .post(format!("{url}/confirm"))
        .send()
        .await
        .unwrap()
        .body()
        .await
        .unwrap();
    assert!(String::from_utf8_lossy(&done).contains("支付成功"));
    for _ in 0..400 {
        let (_, q) = c.get(&format!("/api/payment/query?deposit_order_id={order_no}")).await;
        if q["data"]["status"] == "success" {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("order {order_no} not fulfilled");
}

/// Waits (real time: the server runs on its own) until the player's rank and lane are these.
async fn until_rank(c: &mut Client, sort: i64, fast: bool) -> Value {
    let mut last = Value::Null;
    for _ in 0..400 {
        last = float(c).await;
        if last["sort"].as_i64() == Some(sort) && (last["isFast"].as_i64().unwrap_or(0) > 0) == fast {
            return last;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("rank {sort} (fast {fast}) not reached: {last}");
}

/// A player queued behind others buys the acceleration card by QR: the sandbox's notice
/// fulfils the order and the card is used on the queued session at once (member lane, first);
/// another buys a day of fast entry with coins and moves ahead of the normal lane. Cards
/// granted by the operator stay in the backpack. The ledger replays after each.
#[actix_rt::test]
async fn paid_accelerations_move_the_queued_player() {
    let dir = temp_dir("accelerate");
    let srv = facade::start(config_with(&dir, 0, 60, "rank_refresh_ms = 50")).await.unwrap();
    let mut players = vec![];
    for (i, phone) in ["15600000001", "15600000002", "15600000003", "15600000004"].into_iter().enumerate() {
        let mut c = Client::new(srv.addr, &format!("dev-{i}"));
        c.login(phone).await;
        assert_eq!(start(&mut c).await["data"]["sort"], i64::try_from(i).unwrap() + 1);
        players.push(c);
    }
    let [a, _b, c, d] = &mut players[..] else { unreachable!() };

    // C: the acceleration card by QR.
    let order = buy(c, "accelerate_card", "wechat", "acc-c").await;
    assert_eq!(code(&order), 0, "{order}");
    let no = order["data"]["order_no"].as_str().unwrap().to_owned();
    assert_eq!(float(c).await["sort"], 3, "not moved before the payment");
    pay_on_page(c, &no).await;
    let v = until_rank(c, 1, true).await;
    assert_eq!(v["isFast"], 1, "the member lane: {v}");
    assert_eq!(float(a).await["sort"], 2, "the first player is now behind");
    let (_, cards) = c.get("/api/v3/user/card/list?status=0&card_type=1").await;
    assert_eq!(cards["data"]["total"], 0, "the bought card was used: {cards}");
    let c_uid = uid(c).await;
    ledger_holds(&srv, c_uid);

    // D: a day of fast entry with coins.
    let d_uid = uid(d).await;
    srv.platform
        .store()
        .commerce
        .grant(d_uid, &[storage::GoodsGrant::Coins { amount: 1000 }], "grant", "", 0)
        .unwrap();
    let paid = buy(d, "accelerate_1d", "yunyoubi", "acc-d").await;
    assert_eq!((code(&paid), &paid["data"]["state"]), (0, &json!("fulfilled")), "{paid}");
    let v = until_rank(d, 2, true).await;
    assert_eq!(v["isFast"], 1, "{v}");
    let (_, bal) = d.get("/api/v3/user/balance").await;
    assert_eq!(bal["data"]["balance"], 700);
    ledger_holds(&srv, d_uid);

    // The same submit again buys nothing more and moves nobody.
    let again = buy(d, "accelerate_1d", "yunyoubi", "acc-d").await;
    assert_eq!(again["data"]["order_no"], paid["data"]["order_no"]);
    let (_, bal) = d.get("/api/v3/user/balance").await;
    assert_eq!(bal["data"]["balance"], 700);

    // A: cards granted by the operator are not used on their own.
    let mut op = Client::new(srv.addr, "operator");
    let (_, g) = op
        .post("/api/dev/grant", json!({"cellphone": "15600000001", "kind": "card", "count": 1}))
        .await;
    assert_eq!(code(&g), 0, "{g}");
    let fa = float(a).await;
    assert_eq!((fa["isFast"].as_i64(), fa["sort"].as_i64()), (Some(0), Some(3)), "{fa}");
    let a_uid = uid(a).await;
    ledger_holds(&srv, a_uid);
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// night-play/info and /all before and after buying a package, its records by goods_type,
/// the rules, and the refusals (bad type, bad key, no login); one user never sees another's.
#[actix_rt::test]
async fn daily_and_night_packages() {
    let dir = temp_dir("packages");
    let srv = facade::start(config_with(&dir, 2, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15600000011").await;
    let mut b = Client::new(srv.addr, "dev-b");
    b.login("15600000012").await;

    let (_, info) = a.get("/api/v3/user/night-play/info?type=daily").await;
    assert_eq!(
        (
            &info["data"]["status"],
            &info["data"]["exp_hide"],
            &info["data"]["play_time"],
            &info["data"]["name"]
        ),
        (&json!(2), &json!(1), &json!(0), &json!("daily_package")),
        "never bought: {info}"
    );
    let (_, sku) = a.get("/api/web/v1/section/goods?section_key=shop_card_day&page_size=1").await;
    let goods = sku["data"]["goods"].as_array().unwrap();
    assert_eq!(goods.len(), 1, "{sku}");
    assert_eq!((&goods[0]["code"], &goods[0]["face_value"]), (&json!("daily_1d"), &json!(1)));
    let (_, sku) = a.get("/api/web/v1/section/goods?section_key=shop_card_night&page_size=1").await;
    assert_eq!(sku["data"]["goods"][0]["code"], "night_1d");

    let a_uid = uid(&mut a).await;
    srv.platform
        .store()
        .commerce
        .grant(a_uid, &[storage::GoodsGrant::Coins { amount: 2000 }], "grant", "", 0)
        .unwrap();
    let paid = buy(&mut a, "daily_1d", "yunyoubi", "day-1").await;
    assert_eq!(code(&paid), 0, "{paid}");
    let now = srv.platform.clock().now_ms();
    let (_, info) = a.get("/api/v3/user/night-play/info?type=daily").await;
    assert_eq!(
        (&info["data"]["status"], &info["data"]["exp_hide"]),
        (&json!(1), &json!(0)),
        "{info}"
    );
    let exp = info["data"]["expired_at"].as_i64().unwrap();
    assert!(
        exp > now + 23 * 3600 * 1000 && exp <= now + 24 * 3600 * 1000 + 1000,
        "a day: {info}"
    );
    let (_, all) = a.get("/api/v3/user/night-play/all").await;
    assert_eq!(all["data"][0]["type"], "daily");
    assert_eq!((&all["data"][1]["type"], &all["data"][1]["status"]), (&json!("night"), &json!(2)));
    let (_, night) = a.get("/api/v3/user/night-play/info?type=night").await;
    assert_eq!(night["data"]["name"], "night_package");

    let (_, rec) = a.get("/api/v3/user/order?goods_type=27&page=1&page_size=100").await;
    assert_eq!(rec["data"]["total"], 1, "{rec}");
    assert_eq!(
        (&rec["data"]["data"][0]["comment"], &rec["data"]["data"][0]["total_paid"]),
        (&json!("日卡畅玩1天"), &json!(600))
    );
    let (_, rec) = a.get("/api/v3/user/order?goods_type=22&page=1&page_size=100").await;
    assert_eq!(rec["data"]["total"], 0);
    let (_, bal) = a.get("/api/v3/user/balance").await;
    assert_eq!(bal["data"]["balance"], 1400);
    ledger_holds(&srv, a_uid);

    // Another user sees their own packages and records only.
    let (_, binfo) = b.get("/api/v3/user/night-play/info?type=daily").await;
    assert_eq!(binfo["data"]["status"], 2);
    let (_, brec) = b.get("/api/v3/user/order?goods_type=27").await;
    assert_eq!(brec["data"]["total"], 0);

    // Rules, and refusals.
    let (_, rules) = b.get("/api/v3/config/content?key=daily_play").await;
    assert!(rules["data"]["content"].as_str().unwrap().contains("08:00–24:00"), "{rules}");
    let (_, rules) = b.get("/api/v3/config/content?key=allnight_play").await;
    assert!(rules["data"]["content"].as_str().unwrap().contains("23:00"));
    for bad in [
        "/api/v3/config/content?key=other",
        "/api/v3/config/content",
        "/api/v3/user/night-play/info?type=weekly",
    ] {
        let (status, r) = a.get(bad).await;
        assert_eq!((status, code(&r)), (400, 40000), "{bad}: {r}");
    }
    let mut guest = Client::new(srv.addr, "guest");
    for path in ["/api/v3/user/night-play/info?type=daily", "/api/v3/user/night-play/all"] {
        let (_, r) = guest.get(path).await;
        assert_eq!(code(&r), 20119, "{path}: {r}");
    }
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A subscription game refuses a start with 130126 until its package is bought: the game's
/// packages (game_id or gameId), the package item with its durations, the purchase of a
/// duration, and the refusals; another player stays locked out.
#[actix_rt::test]
async fn subscriptions_unlock_their_games() {
    let dir = temp_dir("subscribe");
    let srv = facade::start(config_with(&dir, 2, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15600000021").await;
    let mut b = Client::new(srv.addr, "dev-b");
    b.login("15600000022").await;
    let start19 = json!({"gameId": 19, "nodeId": 1, "nodeDelay": "[]"});
    let (_, r) = a.post("/api/japi/yoo/game/start", start19.clone()).await;
    assert_eq!(code(&r), 130126, "{r}");

    let (_, list) = a.get("/api/shop/goods/game-package?game_id=19").await;
    let packs = list["data"]["data"].as_array().unwrap();
    assert_eq!(packs.len(), 1, "{list}");
    let pack_id = packs[0]["id"].as_i64().unwrap();
    assert_eq!(packs[0]["type"], 9);
    let (_, same) = a.get("/api/shop/goods/game-package?gameId=19").await;
    assert_eq!(same["data"]["data"][0]["id"], pack_id);
    let (_, none) = a.get("/api/shop/goods/game-package?game_id=1").await;
    assert_eq!(none["data"]["data"], json!([]));
    let (_, item) = a.get(&format!("/api/shop/goods/game-package/item?package_id={pack_id}")).await;
    let speci = item["data"]["speci_list"].as_array().unwrap();
    let months: Vec<i64> = speci.iter().map(|s| s["face_value"].as_i64().unwrap()).collect();
    assert_eq!(months, [1, 3, 12], "{item}");
    for bad in [
        "/api/shop/goods/game-package",
        "/api/shop/goods/game-package?game_id=-1",
        "/api/shop/goods/game-package?game_id=x",
        "/api/shop/goods/game-package/item",
        "/api/shop/goods/game-package/item?package_id=x",
    ] {
        let (status, r) = a.get(bad).await;
        assert_eq!((status, code(&r)), (400, 40000), "{bad}: {r}");
    }
    for other in [101, speci[0]["id"].as_i64().unwrap(), 999_999] {
        let (_, r) = a.get(&format!("/api/shop/goods/game-package/item?package_id={other}")).await;
        assert_eq!(code(&r), 20180, "goods {other} is no package: {r}");
    }

    // A buys the first duration with coins: the game starts; B is still refused.
    let a_uid = uid(&mut a).await;
    srv.platform
        .store()
        .commerce
        .grant(a_uid, &[storage::GoodsGrant::Coins { amount: 5000 }], "grant", "", 0)
        .unwrap();
    let first = speci[0]["id"].as_i64().unwrap();
    let cookies = a.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
    let mut resp = awc::Client::default()
        .post(format!("{}/api/payment/goods", a.base))
        .insert_header(("cookie", cookies))
        .insert_header(("x-csrf-token", a.cookies["_csrfToken"].clone()))
        .insert_header(("Idempotency-Key", "sub-1"))
        .send_json(&json!({"goods_id": first, "goods_num": 1, "pay_method": "yunyoubi", "confirm": 0}))
        .await
        .unwrap();
    let paid: Value = serde_json::from_slice(&resp.body().await.unwrap()).unwrap();
    assert_eq!((code(&paid), &paid["data"]["state"]), (0, &json!("fulfilled")), "{paid}");
    let (_, r) = a.post("/api/japi/yoo/game/start", start19.clone()).await;
    assert_eq!(code(&r), 0, "subscribed: {r}");
    let (_, subs) = a.get("/api/v3/user/subscription").await;
    assert_eq!(subs["data"].as_array().unwrap().len(), 1, "{subs}");
    assert_eq!(
        (
            &subs["data"][0]["package_id"],
            &subs["data"][0]["status"],
            &subs["data"][0]["game"]["id"]
        ),
        (&json!(pack_id), &json!(1), &json!(19))
    );
    let (_, none) = b.get("/api/v3/user/subscription").await;
    assert_eq!(none["data"], json!([]), "another player holds none");
    let (_, zone) = b.get(&format!("/api/shop/goods/game-package/zone?package_id={pack_id}")).await;
    assert_eq!(
        (&zone["data"]["package"]["id"], &zone["data"]["games"][0]["id"]),
        (&json!(pack_id), &json!(19)),
        "{zone}"
    );
    let (_, nozone) = b.get("/api/shop/goods/game-package/zone?package_id=101").await;
    assert_eq!(code(&nozone), 20180);
    let (_, bal) = a.get("/api/v3/user/balance").await;
    assert_eq!(bal["data"]["balance"], 5000 - 1800);
    ledger_holds(&srv, a_uid);
    let (_, r) = b.post("/api/japi/yoo/game/start", start19).await;
    assert_eq!(code(&r), 130126);
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The use-up prompt's calls: a game's usable time cards (paid and free, not exclusive, not
/// another player's), using one through card/activate, and the yoodo rule; the refusals.
#[actix_rt::test]
async fn usable_time_cards_and_the_yoodo_rule() {
    let dir = temp_dir("useup");
    let srv = facade::start(config_with(&dir, 2, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15600000031").await;
    let mut b = Client::new(srv.addr, "dev-b");
    b.login("15600000032").await;
    let mut op = Client::new(srv.addr, "operator");
    for (kind, minutes, days) in [("time_card", 120, 7), ("free_time_card", 30, 3), ("exclusive_time_card", 60, 1)] {
        let (_, g) = op
            .post(
                "/api/dev/grant",
                json!({"cellphone": "15600000031", "kind": kind, "minutes": minutes, "days": days, "game_category_id": 1}),
            )
            .await;
        assert_eq!(code(&g), 0, "{g}");
    }
    op.post("/api/dev/grant", json!({"cellphone": "15600000031", "kind": "card", "count": 1}))
        .await;

    let (_, all) = a.get("/api/v3/user/card/available?game_id=1").await;
    assert_eq!(
        all["data"]["total"], 2,
        "paid and free, not the exclusive nor the fast-entry card: {all}"
    );
    let (_, one) = a.get("/api/v3/user/card/available?game_id=1&page_size=1").await;
    let first = &one["data"]["data"][0];
    assert_eq!(
        (one["data"]["total"].as_i64(), first["minutes"].as_i64()),
        (Some(2), Some(30)),
        "soonest expiry first: {one}"
    );
    let (_, none) = b.get("/api/v3/user/card/available?game_id=1").await;
    assert_eq!(none["data"]["total"], 0, "another player's cards are not theirs");
    let (_, stolen) = b.post("/api/v3/user/card/activate", json!({"id": first["id"]})).await;
    assert_eq!(code(&stolen), 20172, "{stolen}");

    let before = a.get("/api/user/profile").await.1["data"]["play_time_free"].as_i64().unwrap();
    let (_, used) = a.post("/api/v3/user/card/activate", json!({"id": first["id"]})).await;
    assert_eq!(code(&used), 0, "{used}");
    let after = a.get("/api/user/profile").await.1["data"]["play_time_free"].as_i64().unwrap();
    assert_eq!(after, before + 30);
    let (_, left) = a.get("/api/v3/user/card/available?game_id=1").await;
    assert_eq!(left["data"]["total"], 1);
    let a_uid = uid(&mut a).await;
    ledger_holds(&srv, a_uid);

    for bad in [
        "/api/v3/user/card/available",
        "/api/v3/user/card/available?game_id=x",
        "/api/v3/user/card/available?game_id=1&page_size=0",
        "/api/v3/user/card/available?game_id=1&page_size=101",
    ] {
        let (status, r) = a.get(bad).await;
        assert_eq!((status, code(&r)), (400, 40000), "{bad}: {r}");
    }
    let (_, unknown) = a.get("/api/v3/user/card/available?game_id=999999").await;
    assert_ne!(code(&unknown), 0, "{unknown}");

    let (_, rule) = a.post("/api/japi/yoo/game/yoodoRule", json!({"gameId": 1})).await;
    assert_eq!(rule["data"]["yoodo"], "60", "{rule}");
    assert!(rule["data"]["yoodoText"].as_str().unwrap().contains("%s"));
    let (_, unknown) = a.post("/api/japi/yoo/game/yoodoRule", json!({"gameId": 999999})).await;
    assert_ne!(code(&unknown), 0);
    let (status, bad) = a.post("/api/japi/yoo/game/yoodoRule", json!({"gameId": "x"})).await;
    assert_eq!((status, code(&bad)), (400, 40000));
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}
