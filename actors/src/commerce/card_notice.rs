//! The card notice of the popup chain (commerce.md §2.8, §4.7): which unused cards and coupons
//! are told as new (received since the newest told, at most 3 days ago) and which as near
//! expiry, and up to which reception time they count as told. The rule is [`notice`], a pure
//! function; [`Commerce::card_notice`] reads the holdings, applies it and moves the mark.

use storage::{Coupon, FastEnterCard};

use crate::commerce::coupon;
use crate::commerce::service::Commerce;
use crate::error::DomainResult;
use crate::play::holdings::NEAR_EXPIRY_MS;

/// One unused holding the notice tells of.
#[derive(Debug, Clone, PartialEq)]
pub enum Told {
    Card(FastEnterCard),
    Coupon(Coupon),
}

/// What the notice tells, read at `now_ms`.
#[derive(Debug, Clone, PartialEq)]
pub struct CardNoticeView {
    /// Received since the last notice, newest first.
    pub newest: Vec<Told>,
    /// About to expire, soonest first.
    pub near_expiry: Vec<Told>,
    pub now_ms: i64,
}

/// An unused card's (id, expires_at, near expiry), none when not usable at `now`.
fn card_unused(c: &FastEnterCard, now: i64) -> Option<(i64, i64, bool)> {
    (c.status == 0 && c.expires_at > now).then(|| (c.id, c.expires_at, c.expires_at - now <= NEAR_EXPIRY_MS))
}

/// The rule: of `cards` and `coupons` at `now`, with the mark `told` (the newest reception
/// told before), the view and the new mark (none: unchanged). A new user's welcome coupons are
/// the registration gift: never told as new, but they count as told.
pub fn notice(cards: Vec<FastEnterCard>, coupons: Vec<Coupon>, new_user: bool, told: i64, now: i64) -> (CardNoticeView, Option<i64>) {
    let recent = (now - NEAR_EXPIRY_MS).max(told + 1);
    let welcome = |c: &Coupon| new_user && c.source == coupon::WELCOME_SOURCE;
    let welcomed = coupons.iter().filter(|c| welcome(c)).map(|c| c.created_at).max();
    // (received, id, expires_at, near expiry, item) of every unused holding
    let mut unused: Vec<(i64, i64, i64, bool, Told)> = Vec::new();
    for c in cards {
        if let Some((id, exp, near)) = card_unused(&c, now) {
            unused.push((c.created_at, id, exp, near, Told::Card(c)));
        }
    }
    for c in coupons {
        if !welcome(&c) && coupon::status_at(&c, now) == 0 {
            let near = coupon::near_expiration(&c, now);
            unused.push((c.created_at, c.id, c.expires_at, near, Told::Coupon(c)));
        }
    }
    let mut near: Vec<_> = unused.iter().filter(|u| u.3).cloned().collect();
    near.sort_by_key(|u| (u.2, u.1));
    let mut newest: Vec<_> = unused.into_iter().filter(|u| u.0 >= recent).collect();
    newest.sort_by_key(|u| (std::cmp::Reverse(u.0), std::cmp::Reverse(u.1)));
    // told up to the newest told, not up to now: a holding received as this was read is told
    // next time
    let mark = newest.first().map(|u| u.0).max(welcomed);
    let view = CardNoticeView {
        newest: newest.into_iter().map(|u| u.4).collect(),
        near_expiry: near.into_iter().map(|u| u.4).collect(),
        now_ms: now,
    };
    (view, mark)
}

impl Commerce {
    /// The card notice for `uid` (`new_user`: the caller's first popup chain); marks what it
    /// tells as told.
    pub async fn card_notice(&self, uid: i64, new_user: bool) -> DomainResult<CardNoticeView> {
        let (cards, now) = self.play().backpack(uid).await?;
        let (coupons, _) = self.my_coupons(uid).await?;
        let told = self.card_notice_told(uid).await?;
        let (view, mark) = notice(cards, coupons, new_user, told, now);
        if let Some(latest) = mark {
            self.mark_card_notice(uid, latest).await?;
        }
        Ok(view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 24 * 3600 * 1000;

    fn card(id: i64, status: i32, created_at: i64, expires_at: i64) -> FastEnterCard {
        FastEnterCard {
            id,
            uid: 1,
            goods_title: String::new(),
            status,
            expires_at,
            created_at,
            used_at: None,
            used_session: None,
            source: String::new(),
            play_type: 0,
            minutes: 0,
            remain_give_times: 0,
            given_to: None,
            given_from: None,
        }
    }

    fn ids(v: &[Told]) -> Vec<i64> {
        v.iter()
            .map(|t| match t {
                Told::Card(c) => c.id,
                Told::Coupon(c) => c.id,
            })
            .collect()
    }

    #[test]
    fn which_cards_are_new_and_near_expiry() {
        let now = 100 * DAY;
        let far = now + 30 * DAY;
        // (cards, told, newest ids, near ids, new mark)
        type Row = (Vec<FastEnterCard>, i64, Vec<i64>, Vec<i64>, Option<i64>);
        let table: Vec<Row> = vec![
            (vec![], 0, vec![], vec![], None),
            // received an hour ago, never told: new
            (vec![card(1, 0, now - 3_600_000, far)], 0, vec![1], vec![], Some(now - 3_600_000)),
            // already told
            (vec![card(1, 0, now - 3_600_000, far)], now - 3_600_000, vec![], vec![], None),
            // older than the notice's window
            (vec![card(1, 0, now - NEAR_EXPIRY_MS - 1, far)], 0, vec![], vec![], None),
            // used or ran out: never told
            (vec![card(1, 1, now - 10, far), card(2, 0, now - 10, now)], 0, vec![], vec![], None),
            // newest first; near expiry soonest first, not marked when not new
            (
                vec![
                    card(1, 0, now - 20, far),
                    card(2, 0, now - 10, far),
                    card(3, 0, now - 10 * DAY, now + DAY),
                    card(4, 0, now - 10 * DAY, now + 10),
                ],
                0,
                vec![2, 1],
                vec![4, 3],
                Some(now - 10),
            ),
        ];
        for (cards, told, newest, near, mark) in table {
            let (view, got) = notice(cards, vec![], false, told, now);
            assert_eq!(ids(&view.newest), newest);
            assert_eq!(ids(&view.near_expiry), near);
            assert_eq!(got, mark);
        }
    }
}
