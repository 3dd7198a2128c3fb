//! Coupon groups paid by bank transfer on paused tokio time (commerce.md §2.14, §4.4): the
//! order waits `bank_limit_secs` (three days) for the transfer; a transfer marked received in
//! time issues the keys once, even when its notice arrives after the expiry; none is taken after
//! it, and the expired group's keys are never redeemable.

use crate::common;

use std::time::Duration;

use actors::commerce::merchants::GroupPurchase;
use actors::commerce::payment::{Delivery, DeliveryPlan};
use actors::commerce::paytype::PayMethod;
use actors::{DomainError, Platform};
use common::{commerce_platform, settle, user};
use storage::OrderState;

const LIMIT: u64 = 3 * 86_400;

async fn bank_group(p: &Platform, uid: i64, key: &str, num: i64) -> String {
    let g = p
        .commerce
        .submit_group(
            uid,
            GroupPurchase {
                goods: vec![(1, num)],
                pay_method: PayMethod::Bank,
                idempotency_key: key.into(),
                confirmed: false,
            },
            "http://127.0.0.1:8080",
        )
        .await
        .unwrap();
    assert_eq!(
        g.pay_url.as_deref(),
        Some(format!("http://127.0.0.1:8080/api/dev/pay/{}", g.order.order.order_no).as_str())
    );
    g.order.order.order_no
}

async fn pass(secs: u64) {
    tokio::time::advance(Duration::from_secs(secs)).await;
    for _ in 0..5 {
        settle().await;
    }
}

#[tokio::test(start_paused = true)]
async fn a_transfer_in_time_issues_the_keys_once_and_none_after_the_limit() {
    let p = commerce_platform("mch-bank", 0).await;
    let buyer = user(&p, "13900000801").await;
    let other = user(&p, "13900000802").await;

    // Marked received just before the limit, its notice late: the payment stands, keys once.
    let paid = bank_group(&p, buyer, "a", 4).await;
    pass(LIMIT - 10).await;
    assert_eq!(p.commerce.order_of(buyer, &paid).await.unwrap().state, OrderState::Created);
    p.commerce.sandbox_open(&paid).await.unwrap();
    p.commerce.sandbox_pay().unwrap().set_plan(DeliveryPlan {
        delivery: Delivery::Late,
        delay_ms: 60_000,
    });
    p.commerce.sandbox_confirm(&paid).unwrap();
    pass(20).await;
    assert_eq!(
        p.commerce.order_of(buyer, &paid).await.unwrap().state,
        OrderState::Expired,
        "expired while its notice was in flight"
    );
    assert!(p.commerce.group_record(buyer, &paid).await.unwrap().keys.is_empty());
    for _ in 0..10 {
        pass(10).await;
    }
    let r = p.commerce.group_record(buyer, &paid).await.unwrap();
    assert_eq!(r.order.state, OrderState::Fulfilled);
    assert_eq!(r.keys.len(), 4);
    p.commerce.redeem_key(other, &r.keys[0].key).await.unwrap();

    // Another group left unpaid past the limit: closed, no transfer taken, its keys never redeemable.
    p.commerce.sandbox_pay().unwrap().set_plan(DeliveryPlan {
        delivery: Delivery::Normal,
        delay_ms: 0,
    });
    let unpaid = bank_group(&p, buyer, "b", 2).await;
    pass(LIMIT + 1).await;
    assert_eq!(p.commerce.order_of(buyer, &unpaid).await.unwrap().state, OrderState::Expired);
    assert_eq!(p.commerce.sandbox_confirm(&unpaid), Err(DomainError::OrderClosed));
    let pending = p.store().merchant.group_keys(&unpaid).unwrap();
    assert_eq!(pending.len(), 2);
    assert_eq!(
        p.commerce.redeem_key(other, &pending[0].key).await.map(|_| ()),
        Err(DomainError::UnknownRedeemKey)
    );
    let (_, paid_now) = p.commerce.group_query(buyer, &unpaid).await.unwrap();
    assert!(!paid_now);
    for uid in [buyer, other] {
        assert!(p.store().commerce.ledger_mismatches(uid).unwrap().is_empty());
    }
}
