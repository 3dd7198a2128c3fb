//! Auto-renewal over real HTTP against a real server and SQLite (commerce.md §1, §2.5, §4.2):
//! paying the first period of an auto-renew membership by Alipay signs an agreement (the
//! sandbox's pay page says so); a day before the membership ends (paused time) the renewal is
//! charged through the provider at the retail price, once a period, and the membership grows by
//! a period; a payer who cancels on the provider's side is charged nothing more and the
//! agreement ends; a player cancels on the site; another's agreement is refused. The ledger
//! holds throughout.

use crate::common;

use std::time::Duration;

use common::{code, config_with, ledger_holds, temp_dir, uid, urlencode, Client};
use serde_json::{json, Value};

const DAY_MS: i64 = 86_400_000;

/// Waits until `f` holds, bounded by real time (on paused tokio time each sleep returns at once,
/// so a count of sleeps would bound nothing but this machine's speed).
async fn until(what: &str, mut f: impl AsyncFnMut() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while std::time::Instant::now() < deadline {
        if f().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
        tokio::task::yield_now().await;
    }
    panic!("{what} did not happen");
}

/// Buys the auto-renew VIP by Alipay through the sandbox page; the order number.
async fn buy_renewing_vip(srv: &facade::Running, c: &mut Client) -> String {
    let (_, o) = c
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "vip_renew", "goods_num": 1, "pay_method": "alipay", "confirm": 0}),
        )
        .await;
    assert_eq!(code(&o), 0, "{o}");
    assert_eq!(o["data"]["payable"], 1500, "the first month's price: {o}");
    let no = o["data"]["order_no"].as_str().unwrap().to_owned();
    let params = urlencode(&json!({"order_no": no}).to_string());
    let (_, qr) = c.get(&format!("/api/v3/qrcode/generate?action=scan_payment&params={params}")).await;
    let url = qr["data"]["qrcode"].as_str().unwrap_or_else(|| panic!("{qr}")).to_owned();
    let page = awc::Client::default().get(&url).send().await.unwrap().body().await.unwrap();
    let page = String::from_utf8_lossy(&page).to_string();
    assert!(page.contains("支付即同意签约自动续费"), "pay and sign: {page}");
    let mut confirmed = awc::Client::default().post(format!("{url}/confirm")).send().await.unwrap();
    let confirmed = String::from_utf8_lossy(&confirmed.body().await.unwrap()).to_string();
    assert!(
        confirmed.contains("支付成功"),
        "{confirmed} {:?}",
        srv.platform.commerce.sandbox_pay().unwrap().order(&no)
    );
    until("the first period paid", async || {
        let (_, q) = c.get(&format!("/api/payment/query?deposit_order_id={no}")).await;
        q["data"]["status"] == "success"
    })
    .await;
    no
}

async fn agreements(c: &mut Client) -> Vec<Value> {
    let (_, l) = c.get("/api/v3/user/agreement/list").await;
    assert_eq!(code(&l), 0, "{l}");
    l["data"].as_array().unwrap().clone()
}

async fn vip_end(c: &mut Client) -> i64 {
    let (_, i) = c.get("/api/v3/user/member/info").await;
    i["data"]["member_info"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["type"] == "vip")
        .map_or(0, |x| x["expired_at"].as_i64().unwrap())
}

#[actix_rt::test]
async fn auto_renewal_signs_renews_each_period_and_ends() {
    let dir = temp_dir("agreements");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15900000001").await;
    let ua = uid(&mut a).await;
    let mut b = Client::new(srv.addr, "dev-b");
    b.login("15900000002").await;
    let ub = uid(&mut b).await;

    let (_, none) = a.get("/api/v3/user/agreement/list").await;
    assert_eq!(none["data"], json!([]));
    let first = buy_renewing_vip(&srv, &mut a).await;
    let list = agreements(&mut a).await;
    assert_eq!(list.len(), 1, "{list:?}");
    let ag = list[0]["agreement_no"].as_str().unwrap().to_owned();
    let end = vip_end(&mut a).await;
    assert_eq!(
        (
            list[0]["state"].as_i64(),
            list[0]["periods"].as_i64(),
            list[0]["amount_fen"].as_i64()
        ),
        (Some(1), Some(1), Some(2500)),
        "renewing at the retail price: {list:?}"
    );
    assert_eq!(list[0]["next_at"].as_i64(), Some(end - DAY_MS), "a day before the VIP ends");
    assert!(agreements(&mut b).await.is_empty(), "B has none");
    let (_, twice) = a
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "vip_renew", "goods_num": 1, "pay_method": "alipay", "confirm": 0}),
        )
        .await;
    assert_eq!(
        (code(&twice), twice["message"].as_str()),
        (20189, Some("您已开通该商品的自动续费，无需重复开通")),
        "a second renewal of the same goods would charge each period twice"
    );
    let (_, theirs) = b.post("/api/v3/user/agreement/cancel", json!({"agreement_no": ag})).await;
    assert_eq!((code(&theirs), theirs["message"].as_str()), (20188, Some("自动续费协议不存在")));

    // B signs and cancels on the site: nothing renews (checked on paused time below).
    buy_renewing_vip(&srv, &mut b).await;
    let bg = agreements(&mut b).await[0]["agreement_no"].as_str().unwrap().to_owned();
    let (_, unsigned) = Client::new(srv.addr, "operator")
        .post(&format!("/api/dev/pay/agreement/{bg}/unsign"), json!({}))
        .await;
    assert_eq!(unsigned["data"], true, "the sandbox held it signed: {unsigned}");
    let (_, cancelled) = b.post("/api/v3/user/agreement/cancel", json!({"agreement_no": bg})).await;
    assert_eq!((code(&cancelled), cancelled["data"]["state"].as_i64()), (0, Some(2)), "{cancelled}");
    let (_, again) = b.post("/api/v3/user/agreement/cancel", json!({"agreement_no": bg})).await;
    assert_eq!(code(&again), 0, "cancelling again changes nothing");
    for bad in [
        json!({"agreement_no": ""}),
        json!({"agreement_no": "nope"}),
        json!({"agreement_no": "x".repeat(100)}),
    ] {
        let (_, r) = b.post("/api/v3/user/agreement/cancel", bad.clone()).await;
        assert_eq!(code(&r), 20188, "{bad}: {r}");
    }
    let (status, r) = b.post("/api/v3/user/agreement/cancel", json!({})).await;
    assert_eq!((status, code(&r)), (400, 40000));
    let b_end = vip_end(&mut b).await;

    // A day before the end: the second period is charged, once, and the VIP grows by 31 days.
    // (On paused time the test reads the platform directly: an HTTP client's timeouts would
    // fire as time jumps.)
    tokio::time::pause();
    let p = srv.platform.clone();
    let now = p.clock().now_ms();
    tokio::time::advance(Duration::from_millis(u64::try_from(end - DAY_MS - now).unwrap() + 1_000)).await;
    until("the renewal", async || p.commerce.agreements(ua).await.unwrap()[0].periods == 2).await;
    let vip_now = async || {
        let (h, _, _) = p.commerce.member_info(ua).await.unwrap();
        h.entitlements.iter().find(|e| e.kind == "vip").map_or(0, |e| e.expires_at)
    };
    assert_eq!(vip_now().await, end + 31 * DAY_MS);
    let (orders, total) = p.commerce.orders(ua, None, 1, 100).await.unwrap();
    assert_eq!(total, 2, "one renewal order");
    let renewal = orders.iter().find(|o| o.order.order_no != first).unwrap();
    assert_eq!((renewal.order.amount_fen, renewal.state), (2500, storage::OrderState::Fulfilled));
    assert_eq!(p.commerce.agreements(ua).await.unwrap()[0].next_at, end + 31 * DAY_MS - DAY_MS);

    // The payer cancels in the payment app: the next renewal is refused, nothing is charged,
    // the agreement ends.
    assert!(p.commerce.sandbox_pay().unwrap().signed(&ag));
    p.commerce.sandbox_pay().unwrap().payer_unsign(&ag);
    tokio::time::advance(Duration::from_millis(31 * DAY_MS as u64)).await;
    until("the refused renewal", async || {
        p.commerce.agreements(ua).await.unwrap()[0].state == 2
    })
    .await;
    assert_eq!(vip_now().await, end + 31 * DAY_MS, "no third period");
    let a_now = &p.commerce.agreements(ua).await.unwrap()[0];
    assert_eq!((a_now.periods, a_now.next_at), (2, 0));
    let (orders, _) = p.commerce.orders(ua, None, 1, 100).await.unwrap();
    assert_eq!(orders.len(), 3, "the refused renewal's order");
    assert!(
        orders.iter().any(|o| o.state == storage::OrderState::Cancelled),
        "closed, not charged"
    );
    assert!(p.clock().now_ms() > b_end, "B's VIP has ended by now");
    assert_eq!(
        p.commerce.orders(ub, None, 1, 100).await.unwrap().1,
        1,
        "no renewal after B's cancel"
    );
    ledger_holds(&srv, ua);
    ledger_holds(&srv, ub);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
