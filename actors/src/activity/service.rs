//! The platform's activity calls (commerce.md §2.16, §7): the recharge gift, the lottery and the
//! invite activity, `uid` first, typed answers. Grants happen in storage, each with its ledger
//! entry in the transaction that decides it (a draw, an invite binding, an order's fulfilment).

use rand::Rng;
use storage::activity::{BindOutcome, DrawOutcome, Invite, InviteConfig, Lottery, LotteryDraw, RechargeGive};

use crate::activity::rules::{invite_uid, status_ms};
use crate::beijing::day_start as cst_day_start;
use crate::error::DomainResult;

/// A lottery as the rotary shows it, with the caller's draws left today.
#[derive(Debug, Clone, PartialEq)]
pub struct LotteryView {
    pub lottery: Lottery,
    pub status: i32,
    /// None for a guest.
    pub chances_left: Option<i64>,
}

/// The caller's invite summary.
#[derive(Debug, Clone, PartialEq)]
pub struct InviteSummary {
    pub config: InviteConfig,
    pub invited: u64,
    /// Invitees whose first purchase gave the advanced reward.
    pub advanced: u64,
}

impl Activities {
    /// The recharge-gift activity and its status now.
    pub async fn recharge_give(&self) -> DomainResult<Option<(RechargeGive, i32)>> {
        let now = self.ctx.clock.now_ms();
        let give = self.ctx.db(|s| s.activity.recharge_give()).await?;
        Ok(give.map(|g| {
            let status = status_ms(g.starts_at, g.ends_at, now);
            (g, status)
        }))
    }

    /// A lottery with its status and the caller's draws left today (UTC+8).
    pub async fn lottery(&self, uid: Option<i64>, id: i64) -> DomainResult<Option<LotteryView>> {
        let now = self.ctx.clock.now_ms();
        let day = cst_day_start(now);
        self.ctx
            .db(move |s| {
                let Some(lottery) = s.activity.lottery(id)? else {
                    return Ok(None);
                };
                let chances_left = match uid {
                    Some(uid) => Some((lottery.daily_chances - s.activity.draws_today(uid, id, day)?).max(0)),
                    None => None,
                };
                let status = status_ms(lottery.starts_at, lottery.ends_at, now);
                Ok(Some(LotteryView {
                    lottery,
                    status,
                    chances_left,
                }))
            })
            .await
    }

    /// One draw: a chance is spent and the prize granted in one transaction.
    pub async fn draw(&self, uid: i64, lottery_id: i64) -> DomainResult<DrawOutcome> {
        let now = self.ctx.clock.now_ms();
        let roll: u64 = rand::rng().random();
        let day = cst_day_start(now);
        self.ctx.db(move |s| s.activity.draw(uid, lottery_id, day, roll, now)).await
    }

    /// A page of a lottery's draws: the caller's (`mine`) or everyone's.
    pub async fn draws(&self, lottery_id: i64, uid: Option<i64>, offset: u64, limit: u32) -> DomainResult<(Vec<LotteryDraw>, u64)> {
        self.ctx.db(move |s| s.activity.draws(lottery_id, uid, offset, limit)).await
    }

    /// The invite rewards and the caller's counts.
    pub async fn invite_summary(&self, uid: i64) -> DomainResult<InviteSummary> {
        self.ctx
            .db(move |s| {
                let config = s.activity.invite_config()?;
                let (all, invited) = s.activity.invites(uid, 0, 10_000)?;
                let advanced = all.iter().filter(|i| i.advanced_at.is_some()).count() as u64;
                Ok(InviteSummary { config, invited, advanced })
            })
            .await
    }

    /// The invite rewards.
    pub async fn invite_config(&self) -> DomainResult<InviteConfig> {
        self.ctx.db(|s| s.activity.invite_config()).await
    }

    /// Records that a new user registered with an invite code (the inviter gets the basic
    /// reward); a malformed or unknown code, the user's own, or a second invite is refused.
    pub async fn bind_invite(&self, invitee: i64, code: &str) -> DomainResult<InviteBinding> {
        let Some(inviter) = invite_uid(code) else {
            return Ok(InviteBinding::UnknownInviter);
        };
        if !super::rules::invite_allowed(invitee, inviter) {
            return Ok(InviteBinding::SelfInvite);
        }
        let now = self.ctx.clock.now_ms();
        let recorded = self.ctx.db(move |s| s.activity.bind_invite(invitee, inviter, now)).await?;
        Ok(match recorded {
            BindOutcome::Bound(invite) => InviteBinding::Bound(invite),
            BindOutcome::AlreadyInvited => InviteBinding::AlreadyInvited,
            BindOutcome::UnknownInviter => InviteBinding::UnknownInviter,
        })
    }

    /// A page of the users the caller invited.
    pub async fn invites(&self, uid: i64, offset: u64, limit: u32) -> DomainResult<(Vec<Invite>, u64)> {
        self.ctx.db(move |s| s.activity.invites(uid, offset, limit)).await
    }
}

/// What binding an invite code did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InviteBinding {
    /// Recorded; the inviter got the basic reward.
    Bound(Invite),
    /// The code is the invitee's own.
    SelfInvite,
    /// The invitee was invited already.
    AlreadyInvited,
    /// The code is malformed or no user has it.
    UnknownInviter,
}

/// The calls of the activity feature: activities, missions, ads.
#[derive(Clone)]
pub struct Activities {
    pub(crate) ctx: std::sync::Arc<crate::ctx::Ctx>,
}

/// The features activities calls (ARCHITECTURE.md lists the arrows).
impl Activities {
    pub(crate) fn play(&self) -> crate::play::service::Play {
        crate::play::service::Play { ctx: self.ctx.clone() }
    }
}
