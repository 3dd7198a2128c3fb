//! The activities' records and repository (commerce.md §2.16, §4.13): the recharge-gift tiers, the
//! lottery (prizes with weights and stock, draws), and invites (who invited whom, and when each
//! reward was granted). `pick_prize`, the pure rule a draw applies inside its transaction, is here
//! so that it is unit-tested without a database.
//!
//! What a fulfilled order triggers (the recharge gift, the inviter's advanced reward) is the
//! domain's decision ([`OrderRules`], implemented by `actors::commerce::fulfil`): the store reads
//! the facts in the fulfilling transaction ([`OrderFacts`]), asks the rules, and writes what they
//! decided in the same transaction, once per order and once per invitee.

use crate::model::{GoodsGrant, Order};
use crate::Result;

/// What the store reads of a fulfilled order's context, in the fulfilling transaction.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderFacts {
    /// The goods is sold in the coin shop (section `shop_card_coin`).
    pub coin_shop: bool,
    /// The tiers of the recharge-gift activity running now (None: none runs).
    pub recharge_tiers: Option<Vec<RechargeTier>>,
    /// The buyer was invited and their inviter has not had the advanced reward yet.
    pub invite_open: bool,
}

/// What fulfilling an order triggers, as the domain decided it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FollowUps {
    /// Coins given with a coin recharge (0: none).
    pub recharge_bonus: i64,
    /// The buyer's inviter gets the advanced reward.
    pub invite_advanced: bool,
}

/// The domain's rules for what an order's fulfilment triggers.
pub trait OrderRules: Send + Sync {
    fn follow_ups(&self, order: &Order, facts: &OrderFacts) -> FollowUps;
}

/// Rules under which an order triggers nothing (storage tests of the order itself).
pub struct NoFollowUps;

impl OrderRules for NoFollowUps {
    fn follow_ups(&self, _: &Order, _: &OrderFacts) -> FollowUps {
        FollowUps::default()
    }
}

/// One tier of the recharge gift: a coin recharge paying at least `min_fen` gets `bonus_coins`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RechargeTier {
    pub min_fen: i64,
    pub bonus_coins: i64,
}

/// The recharge-gift activity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RechargeGive {
    pub title: String,
    /// ms; the activity runs from `starts_at` (inclusive) to `ends_at` (exclusive).
    pub starts_at: i64,
    pub ends_at: i64,
    /// Lowest first.
    pub tiers: Vec<RechargeTier>,
}

/// A prize of a lottery's rotary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LotteryItem {
    pub id: i64,
    pub name: String,
    pub image: String,
    /// Relative chance (0: never drawn).
    pub weight: i64,
    /// Prizes left; None: unlimited.
    pub stock: Option<i64>,
    /// What the prize grants; None: nothing (a consolation slot).
    pub grant: Option<GoodsGrant>,
}

/// A lottery and its prizes in rotary order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lottery {
    pub id: i64,
    pub title: String,
    /// Free draws per day (UTC+8) per user.
    pub daily_chances: i64,
    pub starts_at: i64,
    pub ends_at: i64,
    pub items: Vec<LotteryItem>,
}

/// The prize a roll lands on: prizes with a positive weight and stock left share the roll by
/// weight (the roll is taken modulo their total weight); None when no prize can be drawn.
pub fn pick_prize(items: &[LotteryItem], roll: u64) -> Option<usize> {
    let open = |i: &LotteryItem| i.weight > 0 && i.stock.is_none_or(|s| s > 0);
    let total: u64 = items.iter().filter(|i| open(i)).map(|i| i.weight as u64).sum();
    if total == 0 {
        return None;
    }
    let mut at = roll % total;
    for (n, item) in items.iter().enumerate().filter(|(_, i)| open(i)) {
        let w = item.weight as u64;
        if at < w {
            return Some(n);
        }
        at -= w;
    }
    None
}

/// One draw of a lottery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LotteryDraw {
    pub id: i64,
    pub lottery_id: i64,
    pub uid: i64,
    /// The drawer's phone (shown masked in the list of everyone's draws).
    pub cellphone: String,
    pub item_id: i64,
    pub item_name: String,
    pub at: i64,
}

/// What a draw did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrawOutcome {
    /// The prize, granted with its ledger entry in the same transaction.
    Won(LotteryDraw),
    /// The user has no draw left today.
    NoChances,
    /// No prize is left.
    SoldOut,
    /// No such lottery, or it is not running.
    Closed,
}

/// A reward of the invite activity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InviteReward {
    pub name: String,
    pub grant: GoodsGrant,
}

/// The invite activity's rewards: basic when the invitee registers, advanced when the invitee
/// completes a first purchase; each granted to the inviter once per invitee.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InviteConfig {
    pub basic: Vec<InviteReward>,
    pub advanced: Vec<InviteReward>,
}

/// One invite: the invitee registered with the inviter's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invite {
    pub invitee: i64,
    pub invitee_phone: String,
    pub inviter: i64,
    pub at: i64,
    /// When the basic reward was granted.
    pub basic_at: Option<i64>,
    /// When the advanced reward was granted (the invitee's first purchase).
    pub advanced_at: Option<i64>,
}

/// What recording an invite did (the facts the store can tell; whether an invite may be bound
/// at all is the domain's rule, `actors::activity::rules::invite_allowed`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BindOutcome {
    /// Recorded; the inviter got the basic reward.
    Bound(Invite),
    /// The invitee was invited already.
    AlreadyInvited,
    /// No user has this code.
    UnknownInviter,
}

/// The activities' storage. Every grant writes its ledger entry in the same transaction.
pub trait ActivityRepo: Send + Sync {
    /// The recharge-gift activity, if one is configured.
    fn recharge_give(&self) -> Result<Option<RechargeGive>>;
    /// A lottery and its prizes.
    fn lottery(&self, id: i64) -> Result<Option<Lottery>>;
    /// One draw for `uid`, `roll` choosing the prize (see [`pick_prize`]): refused when the user
    /// drew `daily_chances` times since `day_start`; a prize's stock never goes below 0.
    fn draw(&self, uid: i64, lottery_id: i64, day_start: i64, roll: u64, now: i64) -> Result<DrawOutcome>;
    /// Draws since `day_start` by `uid`.
    fn draws_today(&self, uid: i64, lottery_id: i64, day_start: i64) -> Result<i64>;
    /// Draws of a lottery, newest first, all users' or one's; and their total.
    fn draws(&self, lottery_id: i64, uid: Option<i64>, offset: u64, limit: u32) -> Result<(Vec<LotteryDraw>, u64)>;
    /// The invite rewards.
    fn invite_config(&self) -> Result<InviteConfig>;
    /// Records that `invitee` registered with `inviter`'s code and grants the basic reward.
    fn bind_invite(&self, invitee: i64, inviter: i64, now: i64) -> Result<BindOutcome>;
    /// The users `inviter` invited, newest first, and their total.
    fn invites(&self, inviter: i64, offset: u64, limit: u32) -> Result<(Vec<Invite>, u64)>;
    /// Who invited `invitee`.
    fn invite_of(&self, invitee: i64) -> Result<Option<Invite>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: i64, weight: i64, stock: Option<i64>) -> LotteryItem {
        LotteryItem {
            id,
            name: format!("p{id}"),
            image: String::new(),
            weight,
            stock,
            grant: None,
        }
    }

    #[test]
    fn prizes_share_the_roll_by_weight() {
        let items = vec![item(1, 1, None), item(2, 3, Some(10)), item(3, 0, None)];
        let mut hits = [0; 3];
        for roll in 0..400u64 {
            hits[pick_prize(&items, roll).expect("a prize")] += 1;
        }
        assert_eq!(hits, [100, 300, 0]);
    }

    #[test]
    fn a_prize_out_of_stock_is_never_drawn() {
        let items = vec![item(1, 5, Some(0)), item(2, 1, Some(1))];
        for roll in 0..50u64 {
            assert_eq!(pick_prize(&items, roll), Some(1));
        }
        assert_eq!(pick_prize(&[item(1, 5, Some(0)), item(2, 0, None)], 7), None);
        assert_eq!(pick_prize(&[], 7), None);
        assert_eq!(pick_prize(&[item(1, 2, Some(-3))], u64::MAX), None);
    }
}
