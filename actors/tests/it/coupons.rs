//! Coupons through the real platform, a real SQLite store and the sandbox payment provider, on
//! paused tokio time: a coupon held by its order, used once when the order is paid (with its
//! ledger entry), released when the order expires; one coupon on concurrent orders; another
//! user's coupon, thresholds and goods refused; coin payment with a coupon; the limited-time
//! activity's coupons received once.

use crate::common;

use std::time::Duration;

use actors::commerce::paytype::PayMethod;
use actors::commerce::service::{Purchase, Submitted};
use actors::{DomainError, Platform};
use common::{commerce_platform, settle, user, ORDER_TTL};
use futures_util::future::join_all;
use storage::OrderState;

fn buy(code: &str, method: PayMethod, coupon: Option<i64>, key: &str) -> Purchase {
    Purchase {
        goods_id: 0,
        goods_code: Some(code.into()),
        count: 1,
        pay_method: method,
        coupon_id: coupon,
        idempotency_key: key.into(),
        ad_id: None,
    }
}

/// Passes paused time in seconds, a second at a time, letting every task run.
async fn pass_secs(secs: u64) {
    for _ in 0..secs {
        tokio::time::advance(Duration::from_millis(995)).await;
        settle().await;
    }
}

/// The id of the user's coupon of kind `sid`.
fn coupon_of(p: &Platform, uid: i64, sid: &str) -> i64 {
    p.store()
        .coupons
        .coupons(uid)
        .unwrap()
        .into_iter()
        .find(|c| c.spec.sid == sid)
        .unwrap()
        .id
}

fn coupon(p: &Platform, id: i64) -> storage::Coupon {
    p.store().coupons.coupon(id).unwrap().unwrap()
}

fn order(s: Submitted) -> storage::Order {
    match s {
        Submitted::Order(o) | Submitted::Exchanged(o) => o,
    }
}

fn ledger_holds(p: &Platform, uid: i64) {
    let diff = p.store().commerce.ledger_mismatches(uid).unwrap();
    assert!(diff.is_empty(), "the ledger replays to the balances: {diff:?}");
}

// A new player holds the welcome coupons. An order with one is priced with it and holds it (a
// second order cannot use it); expiring unpaid releases it; the next order with it is paid
// through the sandbox and uses it, once, with its ledger entry; then it is refused.
#[tokio::test(start_paused = true)]
async fn a_coupon_is_held_used_once_when_paid_and_released_when_its_order_expires() {
    let p = commerce_platform("coupon-flow", 0).await;
    let uid = user(&p, "13910000001").await;
    assert_eq!(p.store().coupons.coupons(uid).unwrap().len(), 3, "the welcome coupons");
    let c5 = coupon_of(&p, uid, "welcome_time_5");

    let first = order(
        p.commerce
            .submit(uid, buy("time_600", PayMethod::Wechat, Some(c5), "k1"))
            .await
            .unwrap(),
    );
    assert_eq!(
        (first.order.amount_fen, first.order.retail_total, first.order.coupon_id),
        (500, 1000, Some(c5))
    );
    assert_eq!(coupon(&p, c5).reserved_by.as_deref(), Some(first.order.order_no.as_str()));
    // The same submit again is the same order.
    let again = order(
        p.commerce
            .submit(uid, buy("time_600", PayMethod::Wechat, Some(c5), "k1"))
            .await
            .unwrap(),
    );
    assert_eq!(again.order.order_no, first.order.order_no);
    // Another order cannot take it, and the list shows it unavailable.
    assert_eq!(
        p.commerce.submit(uid, buy("time_600", PayMethod::Wechat, Some(c5), "k2")).await,
        Err(DomainError::CouponUnusable)
    );
    let goods = p.commerce.goods_item(Some("time_600".into()), None).await.unwrap().goods;
    let q = p.commerce.coupon_quote(Some(uid), &goods, 1, None).await.unwrap();
    assert_eq!(q.offered.iter().find(|o| o.coupon.id == c5).unwrap().usable, 0);

    pass_secs(ORDER_TTL + 1).await;
    assert_eq!(
        p.commerce.order_of(uid, &first.order.order_no).await.unwrap().state,
        OrderState::Expired
    );
    assert_eq!(coupon(&p, c5).reserved_by, None, "released with the expiry");
    assert_eq!(coupon(&p, c5).status, 0);

    let second = order(
        p.commerce
            .submit(uid, buy("time_600", PayMethod::Wechat, Some(c5), "k3"))
            .await
            .unwrap(),
    );
    let no = second.order.order_no.clone();
    p.commerce.qrcode(uid, &no, "http://h").await.unwrap();
    p.commerce.sandbox_open(&no).await.unwrap();
    p.commerce.sandbox_confirm(&no).unwrap();
    pass_secs(3).await;
    assert_eq!(p.commerce.order_of(uid, &no).await.unwrap().state, OrderState::Fulfilled);
    let used = coupon(&p, c5);
    assert_eq!(
        (used.status, used.used_order.as_deref(), used.reserved_by),
        (1, Some(no.as_str()), None)
    );
    assert_eq!(p.passport().user(uid).await.unwrap().play_time_paid, 600);
    let uses: Vec<_> = p
        .store()
        .commerce
        .ledger(uid)
        .unwrap()
        .into_iter()
        .filter(|e| e.asset == "coupons")
        .map(|e| (e.delta, e.reason, e.reference))
        .collect();
    assert_eq!(
        uses,
        [(3, "welcome".to_owned(), String::new()), (-1, "coupon_use".to_owned(), no.clone())]
    );
    ledger_holds(&p, uid);
    assert_eq!(
        p.commerce.submit(uid, buy("time_600", PayMethod::Wechat, Some(c5), "k4")).await,
        Err(DomainError::CouponUnusable),
        "used once"
    );
}

// Ten orders at once with the same coupon: exactly one holds it, the rest are refused and make
// no order.
#[tokio::test(start_paused = true)]
async fn concurrent_orders_with_one_coupon_one_wins() {
    let p = commerce_platform("coupon-race", 0).await;
    let uid = user(&p, "13910000002").await;
    let c3 = coupon_of(&p, uid, "welcome_time_3");
    let answers = join_all((0..10).map(|i| {
        let p = p.clone();
        async move {
            p.commerce
                .submit(uid, buy("time_300", PayMethod::Wechat, Some(c3), &format!("race-{i}")))
                .await
        }
    }))
    .await;
    let won: Vec<_> = answers.iter().filter_map(|a| a.as_ref().ok()).collect();
    assert_eq!(won.len(), 1, "{answers:?}");
    assert!(answers
        .iter()
        .filter(|a| a.is_err())
        .all(|a| a == &Err(DomainError::CouponUnusable)));
    let (orders, total) = p.commerce.orders(uid, None, 1, 100).await.unwrap();
    assert_eq!((total, orders[0].order.amount_fen), (1, 300));
    ledger_holds(&p, uid);
}

// Another player's coupon, a coupon below its threshold or for other goods are refused with
// their codes and change nothing; coins pay the coupon price and use the coupon in the same
// transaction.
#[tokio::test(start_paused = true)]
async fn refusals_and_a_coin_payment_with_a_coupon() {
    let p = commerce_platform("coupon-refusals", 0).await;
    let a = user(&p, "13910000003").await;
    let b = user(&p, "13910000004").await;
    let theirs = coupon_of(&p, b, "welcome_time_3");
    let cases = [
        (buy("time_300", PayMethod::Wechat, Some(theirs), "x1"), DomainError::CouponUnusable),
        (buy("time_300", PayMethod::Wechat, Some(999_999), "x2"), DomainError::CouponUnusable),
        (
            buy("time_300", PayMethod::Wechat, Some(coupon_of(&p, a, "welcome_time_5")), "x3"),
            DomainError::CouponThreshold,
        ),
        (
            buy("time_300", PayMethod::Wechat, Some(coupon_of(&p, a, "welcome_member_10")), "x4"),
            DomainError::CouponNotApplicable,
        ),
        (
            buy("coin_600", PayMethod::Wechat, Some(coupon_of(&p, a, "welcome_time_3")), "x5"),
            DomainError::CouponNotApplicable,
        ),
    ];
    for (purchase, expected) in cases {
        assert_eq!(p.commerce.submit(a, purchase.clone()).await, Err(expected), "{purchase:?}");
    }
    assert_eq!(p.commerce.orders(a, None, 1, 100).await.unwrap().1, 0, "no refusal made an order");
    assert_eq!(coupon(&p, theirs).reserved_by, None);

    p.store()
        .commerce
        .grant(a, &[storage::GoodsGrant::Coins { amount: 1000 }], "grant", "", 0)
        .unwrap();
    let c3 = coupon_of(&p, a, "welcome_time_3");
    let paid = order(
        p.commerce
            .submit(a, buy("time_600", PayMethod::Yunyoubi, Some(c3), "coins"))
            .await
            .unwrap(),
    );
    assert_eq!((paid.state, paid.order.amount_fen), (OrderState::Fulfilled, 700));
    assert_eq!(p.commerce.wallet(a).await.unwrap().coins, 300);
    assert_eq!(coupon(&p, c3).status, 1);
    ledger_holds(&p, a);
    ledger_holds(&p, b);
}

// The limited-time activity: its coupons are received once per player while it runs; an
// activity not started, over or unknown is refused.
#[tokio::test(start_paused = true)]
async fn activity_coupons_are_received_once() {
    let p = commerce_platform("coupon-activity", 0).await;
    let uid = user(&p, "13910000005").await;
    let view = p.commerce.coupon_activity(Some(uid), 1).await.unwrap();
    assert_eq!((view.status, view.received, view.skus.len()), (1, false, 2));
    let got = p.commerce.receive_activity(uid, 1).await.unwrap();
    assert_eq!(
        got.iter().map(|c| c.spec.sid.as_str()).collect::<Vec<_>>(),
        ["act_time_8", "act_vvip_15"]
    );
    assert_eq!(p.commerce.receive_activity(uid, 1).await, Err(DomainError::ActivityReceived));
    assert!(p.commerce.coupon_activity(Some(uid), 1).await.unwrap().received);
    assert_eq!(p.commerce.receive_activity(uid, 2).await, Err(DomainError::ActivityEnded));
    assert_eq!(p.commerce.receive_activity(uid, 3).await, Err(DomainError::ActivityNotStarted));
    assert_eq!(p.commerce.receive_activity(uid, 99).await, Err(DomainError::UnknownActivity));
    let remains = p
        .commerce
        .coupon_remains(uid, &["act_time_8".into(), "act_vvip_15".into(), "nope".into()])
        .await
        .unwrap();
    assert_eq!(remains, [("act_time_8".into(), 1), ("act_vvip_15".into(), 1), ("nope".into(), 0)]);
    assert_eq!(p.store().coupons.coupons(uid).unwrap().len(), 5);
    ledger_holds(&p, uid);
}
