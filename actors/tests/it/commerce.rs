//! The money path through the real platform, a real SQLite store and the sandbox payment
//! provider, on paused tokio time: order expiry, a payment whose notice arrives after the
//! expiry, the QR polling states through a sandbox scan and confirm, and a paid acceleration
//! that moves a queued player to the better lane at once.

use crate::common;

use std::time::Duration;

use actors::commerce::payment::{Delivery, DeliveryPlan};
use actors::commerce::paytype::PayMethod;
use actors::commerce::service::{Purchase, Submitted};
use actors::config::PaymentConfig;
use actors::{DomainError, Platform};
use common::{commerce_platform, online, settle, user, ORDER_TTL, QR_TTL};
use storage::OrderState;

fn purchase(code: &str, method: PayMethod, key: &str) -> Purchase {
    Purchase {
        goods_id: 0,
        goods_code: Some(code.into()),
        count: 1,
        pay_method: method,
        coupon_id: None,
        idempotency_key: key.into(),
        ad_id: None,
    }
}

async fn order_no(p: &Platform, uid: i64, code: &str, key: &str) -> String {
    match p.commerce.submit(uid, purchase(code, PayMethod::Wechat, key)).await.unwrap() {
        Submitted::Order(o) => o.order.order_no,
        other => panic!("a QR order, got {other:?}"),
    }
}

async fn state(p: &Platform, uid: i64, no: &str) -> OrderState {
    p.commerce.order_of(uid, no).await.unwrap().state
}

/// Passes paused time in seconds, a second at a time, letting every task run (`settle`
/// sleeps 5 ms of it).
async fn pass_secs(secs: u64) {
    for _ in 0..secs {
        tokio::time::advance(Duration::from_millis(995)).await;
        settle().await;
    }
}

// An unpaid order expires on its timer: its poll then answers 20140 `invalid`, the sandbox
// takes no payment for it, and nothing was granted or charged.
#[tokio::test(start_paused = true)]
async fn an_unpaid_order_expires() {
    let p = commerce_platform("expiry", 0).await;
    let uid = user(&p, "13900000001").await;
    let no = order_no(&p, uid, "time_300", "k1").await;
    let qr = p.commerce.qrcode(uid, &no, "http://127.0.0.1:8080").await.unwrap();
    assert_eq!(qr.qrcode, format!("http://127.0.0.1:8080/api/dev/pay/{no}"));

    pass_secs(ORDER_TTL - 1).await;
    assert_eq!(state(&p, uid, &no).await, OrderState::Created, "not before its time");
    pass_secs(2).await;
    assert_eq!(state(&p, uid, &no).await, OrderState::Expired);
    assert_eq!(
        p.commerce.poll_order(uid, &no, &qr.ticket).await,
        Err(DomainError::QrTimeout { invalid: true })
    );
    assert_eq!(
        p.commerce.sandbox_confirm(&no),
        Err(DomainError::OrderClosed),
        "the provider was told to close it"
    );
    assert_eq!(
        p.commerce.qrcode(uid, &no, "http://h").await.map(|_| ()),
        Err(DomainError::OrderClosed)
    );
    let user = p.passport().user(uid).await.unwrap();
    assert_eq!(user.play_time_paid, 0);
    assert!(p.store().commerce.ledger_mismatches(uid).unwrap().is_empty());
}

// A payment made just before the expiry whose notice comes after it (the sandbox sends it
// late): the order ends paid and fulfilled, once; a second late copy changes nothing.
#[tokio::test(start_paused = true)]
async fn a_late_notice_of_a_timely_payment_settles_once() {
    let p = commerce_platform("late", 0).await;
    let uid = user(&p, "13900000002").await;
    let no = order_no(&p, uid, "coin_600", "k1").await;
    p.commerce.qrcode(uid, &no, "http://h").await.unwrap();
    pass_secs(ORDER_TTL - 10).await;
    p.commerce.sandbox_open(&no).await.unwrap();
    p.commerce.sandbox_pay().unwrap().set_plan(DeliveryPlan {
        delivery: Delivery::Late,
        delay_ms: 60_000,
    });
    p.commerce.sandbox_confirm(&no).unwrap();
    pass_secs(20).await;
    assert_eq!(
        state(&p, uid, &no).await,
        OrderState::Expired,
        "expired while its notice was in flight"
    );
    assert_eq!(p.commerce.wallet(uid).await.unwrap().coins, 0);
    pass_secs(50).await;
    let order = p.commerce.order_of(uid, &no).await.unwrap();
    assert_eq!(order.state, OrderState::Fulfilled, "paid in time: the payment stands");
    assert!(order.paid_at.unwrap() < order.order.expires_at);
    assert_eq!(p.commerce.wallet(uid).await.unwrap().coins, 600, "granted once");
    // The provider sends the same notice again: a duplicate.
    let n = actors::commerce::payment::Notice {
        order_no: no.clone(),
        trade_no: order.trade_no.clone().unwrap(),
        amount_fen: 600,
        paid_at: order.paid_at.unwrap(),
        status: "SUCCESS".into(),
    };
    let sig = actors::commerce::payment::sign(PaymentConfig::default().sandbox_key.as_bytes(), &n.encode());
    p.commerce.payment_notice("sandbox", &n.encode(), &sig).await.unwrap();
    assert_eq!(p.commerce.wallet(uid).await.unwrap().coins, 600, "still once");
    let log = p.store().commerce.callbacks(&no).unwrap();
    assert_eq!(
        log.iter().map(|c| c.outcome.as_str()).collect::<Vec<_>>(),
        ["paid and fulfilled", "duplicate: already fulfilled"]
    );
    assert!(p.store().commerce.ledger_mismatches(uid).unwrap().is_empty());
}

// A payment confirmed after the order expired is never taken (the provider closed it), so an
// order is paid-and-fulfilled or expired-and-uncharged, never both.
#[tokio::test(start_paused = true)]
async fn no_payment_after_the_expiry() {
    let p = commerce_platform("after", 0).await;
    let uid = user(&p, "13900000003").await;
    let no = order_no(&p, uid, "coin_600", "k1").await;
    p.commerce.qrcode(uid, &no, "http://h").await.unwrap();
    pass_secs(ORDER_TTL + 1).await;
    assert_eq!(p.commerce.sandbox_confirm(&no), Err(DomainError::OrderClosed));
    pass_secs(5).await;
    assert_eq!(state(&p, uid, &no).await, OrderState::Expired);
    assert_eq!(p.commerce.wallet(uid).await.unwrap().coins, 0);
}

// The QR poll through a real sandbox scan and confirm: waiting (20142) after the poll's
// time, scanned (20143) at the scan and once a QR, then the paid order the moment the notice
// settles it; the QR itself runs out (20140 `timeout`) while the order lives on.
#[tokio::test(start_paused = true)]
async fn polling_follows_the_sandbox() {
    let p = commerce_platform("polling", 0).await;
    let uid = user(&p, "13900000004").await;
    let no = order_no(&p, uid, "time_600", "k1").await;
    let qr = p.commerce.qrcode(uid, &no, "http://h").await.unwrap();

    assert_eq!(p.commerce.poll_order(uid, &no, &qr.ticket).await, Err(DomainError::QrWaiting));
    assert_eq!(
        p.commerce.poll_order(uid, &no, "forged").await,
        Err(DomainError::QrTimeout { invalid: false })
    );

    // A poll under way answers the scan at once.
    let (p2, no2, t2) = (p.clone(), no.clone(), qr.ticket.clone());
    let pending = tokio::spawn(async move { p2.commerce.poll_order(uid, &no2, &t2).await });
    settle().await;
    assert!(!pending.is_finished(), "nothing to tell yet");
    p.commerce.sandbox_open(&no).await.unwrap();
    settle().await;
    assert_eq!(pending.await.unwrap(), Err(DomainError::QrScanned));

    // Told once: the next poll waits, and answers the payment when the notice comes.
    let (p2, no2, t2) = (p.clone(), no.clone(), qr.ticket.clone());
    let pending = tokio::spawn(async move { p2.commerce.poll_order(uid, &no2, &t2).await });
    pass_secs(3).await;
    assert!(!pending.is_finished());
    p.commerce.sandbox_confirm(&no).unwrap();
    settle().await;
    let paid = pending.await.unwrap().expect("paid");
    assert_eq!(paid.state, OrderState::Fulfilled);
    assert_eq!(p.passport().user(uid).await.unwrap().play_time_paid, 600);
    assert!(p.commerce.payment_query(uid, &no).await.unwrap().1);

    // Another order's QR runs out before the order does.
    let other = order_no(&p, uid, "time_300", "k2").await;
    let qr = p.commerce.qrcode(uid, &other, "http://h").await.unwrap();
    pass_secs(QR_TTL + 1).await;
    assert_eq!(
        p.commerce.poll_order(uid, &other, &qr.ticket).await,
        Err(DomainError::QrTimeout { invalid: false })
    );
    assert_eq!(state(&p, uid, &other).await, OrderState::Created);
    let fresh = p.commerce.qrcode(uid, &other, "http://h").await.unwrap();
    p.commerce.sandbox_cancel(&other).await.unwrap();
    assert_eq!(
        p.commerce.poll_order(uid, &other, &fresh.ticket).await,
        Err(DomainError::QrCancelled)
    );
    assert!(!p.commerce.payment_query(uid, &other).await.unwrap().1);
}

// A paid queue acceleration (a fast-entry card) moves the queued player ahead at once:
// granted by the same path as the operator's grant, then the lane upgrade.
#[tokio::test(start_paused = true)]
async fn a_paid_acceleration_moves_the_queued_player() {
    let p = commerce_platform("accelerate", 0).await;
    let a = user(&p, "13900000005").await;
    let b = user(&p, "13900000006").await;
    let c = user(&p, "13900000007").await;
    for uid in [a, b, c] {
        p.play.start_game(uid, "d", 1, Some(1), &[]).await.unwrap();
    }
    assert_eq!(online(&p, c).await.sort, 3);
    p.store()
        .commerce
        .grant(c, &[storage::GoodsGrant::Coins { amount: 1000 }], "grant", "", 0)
        .unwrap();
    let Submitted::Exchanged(order) = p
        .commerce
        .submit(c, purchase("accelerate_1d", PayMethod::Yunyoubi, "acc"))
        .await
        .unwrap()
    else {
        panic!("paid with coins")
    };
    assert_eq!(order.state, OrderState::Fulfilled);
    settle().await;
    let v = online(&p, c).await;
    assert!(v.is_fast > 0, "on a fast lane: {v:?}");
    assert_eq!(v.sort, 1, "ahead of the normal lane");
    assert_eq!(p.commerce.wallet(c).await.unwrap().coins, 700);
    assert!(p.store().commerce.ledger_mismatches(c).unwrap().is_empty());
}
