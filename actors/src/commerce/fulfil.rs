//! What fulfilling an order triggers, as storage asks it inside the fulfilling transaction
//! (`storage::activity::OrderRules`): the facts are storage's, the decision is the activity
//! rules' (`activity::rules::recharge_gift`, `invite_advanced`); commerce says what the order
//! is (paid with money or coins, a coin recharge).

use storage::activity::{FollowUps, OrderFacts, OrderRules};
use storage::{GoodsGrant, Order};

use crate::activity::rules::{invite_advanced, recharge_gift, Purchase};
use crate::commerce::paytype::PayMethod;

/// The rules every fulfilment of this platform follows.
pub struct Fulfilment;

impl OrderRules for Fulfilment {
    fn follow_ups(&self, order: &Order, facts: &OrderFacts) -> FollowUps {
        let o = &order.order;
        let purchase = Purchase {
            with_money: PayMethod::from_code(&o.pay_method) != Some(PayMethod::Yunyoubi),
            paid_fen: o.amount_fen,
            coin_recharge: facts.coin_shop && matches!(o.grant, GoodsGrant::Coins { .. }),
        };
        FollowUps {
            recharge_bonus: recharge_gift(purchase, facts.recharge_tiers.as_deref()),
            invite_advanced: invite_advanced(purchase, facts.invite_open),
        }
    }
}
