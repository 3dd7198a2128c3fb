//! The order state machine (created → paid → fulfilled, or expired / cancelled / refunded) and
//! what a QR poll answers, as plain functions. Storage carries the transitions out as
//! conditional writes (`storage::CommerceRepo`); these are the rules they follow.

use storage::{Order, OrderState};

/// What happens to an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderEvent {
    /// The provider (or the coins) paid it.
    Pay,
    /// What it grants was granted.
    Fulfil,
    /// Its time ran out unpaid.
    Expire,
    /// The payer cancelled.
    Cancel,
    /// The money went back.
    Refund,
}

/// The state an event leads to; None when it does not apply (nothing changes).
///
/// An expired order still takes a payment made before it expired (`paid_at < expires_at`,
/// checked by storage): the payment raced the expiry and stands.
pub fn next(state: OrderState, event: OrderEvent) -> Option<OrderState> {
    use OrderEvent as E;
    use OrderState as S;
    match (state, event) {
        (S::Created | S::Expired, E::Pay) => Some(S::Paid),
        (S::Paid, E::Fulfil) => Some(S::Fulfilled),
        (S::Created, E::Expire) => Some(S::Expired),
        (S::Created, E::Cancel) => Some(S::Cancelled),
        (S::Paid | S::Fulfilled, E::Refund) => Some(S::Refunded),
        _ => None,
    }
}

/// What a poll of the QR answers (commerce.md §4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PollAnswer {
    /// Paid: success.
    Paid,
    /// QRCODE_SCAN_SUCCESS 20143: the payer opened the pay page.
    Scanned,
    /// QRCODE_WAITING 20142: nothing yet.
    Waiting,
    /// QRCODE_CANCEL 20141: the payer cancelled.
    Cancelled,
    /// QRCODE_TIMEOUT 20140 with status `invalid`: the order is over (expired, refunded); order again.
    Invalid,
    /// QRCODE_TIMEOUT 20140 with status `timeout`: the QR is too old; generate another.
    QrTimeout,
}

/// What a poll answers now for an order, given whether this QR was told of the scan already
/// and whether the QR is over; None: nothing to tell yet (the poll waits).
pub fn poll_answer(order: &Order, told_scanned: bool, qr_over: bool) -> Option<PollAnswer> {
    match order.state {
        OrderState::Paid | OrderState::Fulfilled => Some(PollAnswer::Paid),
        OrderState::Cancelled => Some(PollAnswer::Cancelled),
        OrderState::Expired | OrderState::Refunded => Some(PollAnswer::Invalid),
        OrderState::Created if qr_over => Some(PollAnswer::QrTimeout),
        OrderState::Created if order.scanned_at.is_some() && !told_scanned => Some(PollAnswer::Scanned),
        OrderState::Created => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use storage::{GoodsGrant, NewOrder};
    use OrderEvent as E;
    use OrderState as S;

    // Every (state, event) pair: only the drawn transitions exist.
    #[test]
    fn transitions() {
        let states = [S::Created, S::Paid, S::Fulfilled, S::Expired, S::Cancelled, S::Refunded];
        let events = [E::Pay, E::Fulfil, E::Expire, E::Cancel, E::Refund];
        let allowed = [
            (S::Created, E::Pay, S::Paid),
            (S::Expired, E::Pay, S::Paid),
            (S::Paid, E::Fulfil, S::Fulfilled),
            (S::Created, E::Expire, S::Expired),
            (S::Created, E::Cancel, S::Cancelled),
            (S::Paid, E::Refund, S::Refunded),
            (S::Fulfilled, E::Refund, S::Refunded),
        ];
        for s in states {
            for e in events {
                let expected = allowed.iter().find(|(a, b, _)| *a == s && *b == e).map(|(_, _, to)| *to);
                assert_eq!(next(s, e), expected, "{s:?} + {e:?}");
            }
        }
    }

    fn order(state: OrderState, scanned: bool) -> Order {
        Order {
            order: NewOrder {
                order_no: "Y".into(),
                uid: 1,
                goods_id: 1,
                goods_code: "c".into(),
                goods_type: 2,
                title: "t".into(),
                count: 1,
                amount_fen: 1,
                retail_total: 1,
                pay_method: "wechat".into(),
                coupon_id: None,
                grant: GoodsGrant::Coins { amount: 1 },
                idem_key: "k".into(),
                created_at: 0,
                expires_at: 10,
            },
            state,
            scanned_at: scanned.then_some(5),
            paid_at: None,
            fulfilled_at: None,
            closed_at: None,
            trade_no: None,
        }
    }

    // §4.3's answers, one case a row.
    #[test]
    fn poll_answers() {
        let cases = [
            (S::Created, false, false, false, None),
            (S::Created, true, false, false, Some(PollAnswer::Scanned)),
            (S::Created, true, true, false, None),
            (S::Created, true, false, true, Some(PollAnswer::QrTimeout)),
            (S::Paid, false, false, true, Some(PollAnswer::Paid)),
            (S::Fulfilled, true, true, false, Some(PollAnswer::Paid)),
            (S::Cancelled, false, false, false, Some(PollAnswer::Cancelled)),
            (S::Expired, false, false, false, Some(PollAnswer::Invalid)),
            (S::Refunded, false, false, false, Some(PollAnswer::Invalid)),
        ];
        for (state, scanned, told, over, expected) in cases {
            assert_eq!(
                poll_answer(&order(state, scanned), told, over),
                expected,
                "{state:?} {scanned} {told} {over}"
            );
        }
    }
}
