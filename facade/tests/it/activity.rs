//! The activities over real HTTP against a real server and SQLite (commerce.md §2.16): the
//! recharge gift granted once per order whatever the payment notices do, concurrent lottery
//! draws against the daily chances, invites bound at registration with each reward once, and
//! the ledger replaying to the balances after each.

use crate::common;

use std::time::Duration;

use common::{code, config_with, ledger_holds, session, temp_dir, uid, urlencode, Client};
use futures_util::future::join_all;
use serde_json::{json, Value};

fn entries(srv: &facade::Running, uid: i64, reason: &str) -> Vec<storage::LedgerEntry> {
    let all = srv.platform.store().commerce.ledger(uid).unwrap();
    all.into_iter().filter(|e| e.reason == reason).collect()
}

/// Waits (real time: the server runs on its own) until `f` holds.
async fn until(what: &str, mut f: impl FnMut() -> bool) {
    for _ in 0..400 {
        if f() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{what} did not happen");
}

/// Buys `goods_code` by QR: the order, its QR, the sandbox page's confirm with the operator's
/// chosen delivery of the notices; returns the order number once the poll sees it fulfilled.
async fn buy_by_qr(c: &mut Client, goods_code: &str, delivery: &str) -> String {
    let mut operator = Client::new(c.base.trim_start_matches("http://").parse().unwrap(), "operator");
    let (_, r) = operator
        .post("/api/dev/pay/delivery", json!({"delivery": delivery, "delay_ms": 200}))
        .await;
    assert_eq!(r["data"]["delivery"], delivery);
    let (_, o) = c
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": goods_code, "goods_num": 1, "pay_method": "wechat", "confirm": 0}),
        )
        .await;
    assert_eq!(code(&o), 0, "{o}");
    let no = o["data"]["order_no"].as_str().unwrap().to_owned();
    let params = serde_json::to_string(&json!({"order_no": no})).unwrap();
    let (_, qr) = c
        .get(&format!(
            "/api/v3/qrcode/generate?action=scan_payment&params={}",
            urlencode(&params)
        ))
        .await;
    assert_eq!(code(&qr), 0, "{qr}");
    let url = qr["data"]["qrcode"].as_str().unwrap().to_owned();
    let ticket = qr["data"]["ticket"].as_str().unwrap().to_owned();
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
    no
}

// A coin recharge of 3000 fen (the lowest tier) gets 300 bonus coins once, though its notice
// is delivered twice; a recharge below every tier gets none; a coin exchange of another goods
// gets none. The activity's title and tiers are served for the coin tooltip.
#[actix_rt::test]
async fn the_recharge_gift_is_granted_once_per_order() {
    let dir = temp_dir("recharge-gift");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut c = Client::new(srv.addr, "dev-a");
    let (_, give) = c.get("/api/activity/recharge_give").await;
    assert_eq!(code(&give), 0, "{give}");
    assert!(give["data"]["title"].as_str().unwrap().contains("充值"), "{give}");
    assert_eq!(give["data"]["status"], 1);
    assert_eq!(give["data"]["tiers"][0], json!({"min_fen": 3000, "bonus_coins": 300}));

    c.login("15800001001").await;
    let uid = uid(&mut c).await;
    let big = buy_by_qr(&mut c, "coin_3000", "twice").await;
    let store = srv.platform.store().clone();
    let no = big.clone();
    until("the second notice", || store.commerce.callbacks(&no).unwrap().len() == 2).await;
    let (_, bal) = c.get("/api/v3/user/balance").await;
    assert_eq!(bal["data"]["balance"], 3300, "3000 coins and the 300 bonus, once");
    let gifts = entries(&srv, uid, "recharge_give");
    assert_eq!(gifts.len(), 1, "{gifts:?}");
    assert_eq!((gifts[0].delta, gifts[0].reference.as_str()), (300, big.as_str()));

    buy_by_qr(&mut c, "coin_600", "normal").await;
    let (_, bal) = c.get("/api/v3/user/balance").await;
    assert_eq!(bal["data"]["balance"], 3900, "600 fen is below every tier");
    // Coins spent on play time are no recharge.
    let (_, x) = c
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "time_1800", "goods_num": 1, "pay_method": "yunyoubi", "confirm": 0}),
        )
        .await;
    assert_eq!(code(&x), 0, "{x}");
    assert_eq!(entries(&srv, uid, "recharge_give").len(), 1);
    ledger_holds(&srv, uid);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// 50 draws at once by a player with 3 chances a day: exactly 3 are drawn (each granted with
// its ledger entry), the rest get 20461; the records show the 3 (mine and everyone's, phones
// masked); a guest may not draw, and the activity config reads the lottery as ongoing.
#[actix_rt::test]
async fn fifty_concurrent_draws_spend_exactly_the_chances() {
    const N: usize = 50;
    let dir = temp_dir("lottery");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut guest = Client::new(srv.addr, "guest");
    let (_, list) = guest.post("/api/japi/social/lottery/list", json!({})).await;
    assert_eq!(code(&list), 0, "{list}");
    assert_eq!(list["data"]["id"], 1);
    assert!(list["data"]["lotteryItemList"].as_array().unwrap().len() >= 6);
    assert_eq!(list["data"]["chances"], Value::Null);
    let (_, refused) = guest.post("/api/japi/social/lottery/chance", json!({"id": 1})).await;
    assert_eq!(code(&refused), 20119, "a guest cannot draw: {refused}");
    let (_, cfg) = guest
        .post("/api/japi/yoo/common/config/list", json!({"groupCode": "activity_config"}))
        .await;
    let lottery: Value = serde_json::from_str(cfg["data"]["lottery"].as_str().unwrap()).unwrap();
    assert_eq!(lottery["status"], 1, "{cfg}");

    let mut c = Client::new(srv.addr, "dev-a");
    c.login("15800001002").await;
    let uid = uid(&mut c).await;
    let (_, list) = c.post("/api/japi/social/lottery/list", json!({"id": 1})).await;
    assert_eq!(list["data"]["chances"], 3);
    let (cookies, csrf) = session(&c);
    let answers = join_all((0..N).map(|_| {
        let (base, cookies, csrf) = (c.base.clone(), cookies.clone(), csrf.clone());
        async move {
            let mut resp = awc::Client::default()
                .post(format!("{base}/api/japi/social/lottery/chance"))
                .insert_header(("cookie", cookies))
                .insert_header(("x-csrf-token", csrf))
                .timeout(Duration::from_secs(120))
                .send_json(&json!({"id": 1}))
                .await
                .unwrap();
            serde_json::from_slice::<Value>(&resp.body().await.unwrap()).unwrap()
        }
    }))
    .await;
    let won: Vec<&Value> = answers.iter().filter(|a| code(a) == 0).collect();
    assert_eq!(won.len(), 3, "{answers:?}");
    assert_eq!(answers.iter().filter(|a| code(a) == 20461).count(), N - 3);
    let ids: Vec<i64> = list["data"]["lotteryItemList"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .collect();
    assert!(won.iter().all(|w| ids.contains(&w["data"]["lotteryItemId"].as_i64().unwrap())));
    let (_, list) = c.post("/api/japi/social/lottery/list", json!({"id": 1})).await;
    assert_eq!(list["data"]["chances"], 0);

    let (_, mine) = c.post("/api/japi/social/lottery/record", json!({"id": 1, "type": 1})).await;
    assert_eq!(mine["data"]["totalRows"], 3, "{mine}");
    assert_eq!(mine["data"]["pageSize"], 20);
    assert_eq!(mine["data"]["rows"][0]["phone"], "158****1002");
    let (_, all) = guest.post("/api/japi/social/lottery/record", json!({"id": 1, "type": 2})).await;
    assert_eq!(all["data"]["totalRows"], 3);
    let (_, mine_guest) = guest.post("/api/japi/social/lottery/record", json!({"type": 1})).await;
    assert_eq!(code(&mine_guest), 20119);
    let (_, bad) = c.post("/api/japi/social/lottery/record", json!({"type": 1, "page": -1})).await;
    assert_eq!(code(&bad), 40000);
    let (_, none) = c.post("/api/japi/social/lottery/chance", json!({"id": 999})).await;
    assert_eq!(code(&none), 20460, "no such lottery: {none}");

    // Every prize that grants something wrote its entry, and the balances agree.
    let granted = srv
        .platform
        .store()
        .commerce
        .ledger(uid)
        .unwrap()
        .into_iter()
        .filter(|e| e.reason == "lottery")
        .map(|e| e.reference)
        .collect::<std::collections::BTreeSet<_>>();
    assert!(granted.len() <= 3);
    ledger_holds(&srv, uid);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// A registers; B registers with A's code: A gets the basic reward once. B's first purchase
// gives A the advanced reward, the second nothing. B logging in again with another code, a
// malformed code, and a user registering with the code of the uid it is about to get (its own)
// bind nothing, and the logins still succeed.
#[actix_rt::test]
async fn invite_rewards_are_granted_once_and_self_invites_refused() {
    let dir = temp_dir("invite");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15800001003").await;
    let a_uid = uid(&mut a).await;
    let (_, inv) = a.get("/api/v3/activity/invite").await;
    assert_eq!(code(&inv), 0, "{inv}");
    let a_code = inv["data"]["invite_code"].as_str().unwrap().to_owned();
    assert_eq!(a_code, actors::activity::rules::invite_code(a_uid));
    assert_eq!(inv["data"]["invite_link"], format!("/land/invite?invite_code={a_code}"));
    assert!(!inv["data"]["invite_config"]["basic_rewards"].as_array().unwrap().is_empty());
    assert!(!inv["data"]["invite_config"]["advanced_rewards"].as_array().unwrap().is_empty());
    assert_eq!(inv["data"]["invited_count"], 0);
    let (_, rule) = a.get("/api/v3/activity/invite/rule").await;
    assert!(rule["data"]["content"].as_str().unwrap().contains("不能邀请自己"));
    let before = a.get("/api/user/profile").await.1["data"]["play_time_paid"].as_i64().unwrap();

    let mut b = Client::new(srv.addr, "dev-b");
    login_with_code(&mut b, "15800001004", &a_code).await;
    let b_uid = uid(&mut b).await;
    let after = a.get("/api/user/profile").await.1["data"]["play_time_paid"].as_i64().unwrap();
    assert_eq!(after - before, 120, "the basic reward");
    assert_eq!(entries(&srv, a_uid, "invite_basic").len(), 1);

    // The next user's own code (uids are handed out in order; a login of a known phone may use one up, so this comes first).
    let own = actors::activity::rules::invite_code(b_uid + 1);
    let mut s = Client::new(srv.addr, "dev-s");
    login_with_code(&mut s, "15800001005", &own).await;
    assert_eq!(uid(&mut s).await, b_uid + 1, "the code named the new user itself");
    assert_eq!(srv.platform.store().activity.invite_of(b_uid + 1).unwrap(), None, "no self-invite");

    // B again, with A's code and with another's: B is no new user, nothing is bound twice.
    let mut b2 = Client::new(srv.addr, "dev-b2");
    login_with_code(&mut b2, "15800001004", &a_code).await;
    assert_eq!(entries(&srv, a_uid, "invite_basic").len(), 1);

    // An exchange with coins (which prizes can give) is no first purchase.
    srv.platform
        .store()
        .commerce
        .grant(b_uid, &[storage::GoodsGrant::Coins { amount: 600 }], "grant", "", 0)
        .unwrap();
    let (_, x) = b
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "time_300", "goods_num": 1, "pay_method": "yunyoubi", "confirm": 0}),
        )
        .await;
    assert_eq!(code(&x), 0, "{x}");
    assert!(entries(&srv, a_uid, "invite_advanced").is_empty(), "coins buy no advanced reward");
    buy_by_qr(&mut b, "coin_600", "normal").await;
    buy_by_qr(&mut b, "time_300", "normal").await;
    let adv = entries(&srv, a_uid, "invite_advanced");
    assert!(!adv.is_empty(), "the advanced reward at the first purchase");
    assert!(adv.iter().all(|e| e.reference == format!("invite:{b_uid}:advanced")));
    let kinds: std::collections::BTreeSet<&str> = adv.iter().map(|e| e.asset.as_str()).collect();
    assert_eq!(adv.len(), kinds.len(), "once: one entry per rewarded asset: {adv:?}");

    let (_, rec) = a.get("/api/v3/activity/invite/record").await;
    assert_eq!(rec["data"]["totalRows"], 1, "{rec}");
    assert_eq!(rec["data"]["rows"][0]["phone"], "158****1004");
    assert_eq!(rec["data"]["rows"][0]["status"], 2);
    let (_, only_registered) = a.get("/api/v3/activity/invite/record?status=1").await;
    assert_eq!(only_registered["data"]["totalRows"], 0);
    let (_, bad) = a.get("/api/v3/activity/invite/record?status=9").await;
    assert_eq!(code(&bad), 40000);

    let mut m = Client::new(srv.addr, "dev-m");
    login_with_code(&mut m, "15800001006", "not a code").await;
    let m_uid = uid(&mut m).await;
    assert_eq!(srv.platform.store().activity.invite_of(m_uid).unwrap(), None);

    let (_, inv) = a.get("/api/v3/activity/invite").await;
    assert_eq!(
        (inv["data"]["invited_count"].as_u64(), inv["data"]["advanced_count"].as_u64()),
        (Some(1), Some(1))
    );
    for u in [a_uid, b_uid, b_uid + 1, m_uid] {
        ledger_holds(&srv, u);
    }
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

async fn login_with_code(c: &mut Client, phone: &str, invite_code: &str) {
    let (_, r) = c.post("/api/passport/login/sendcode", json!({"phone": phone})).await;
    assert_eq!(r["code"], 0, "{r}");
    let (_, outbox) = c.get(&format!("/api/dev/sms/outbox?phone={phone}")).await;
    let sms = outbox["data"][0]["code"].as_str().unwrap().to_string();
    let device = c.device.clone();
    let (_, r) = c
        .post(
            "/api/passport/login",
            json!({"cellphone": phone, "code": sms, "device_no": device, "invite_code": invite_code}),
        )
        .await;
    assert_eq!(r["code"], 0, "{r}");
}
