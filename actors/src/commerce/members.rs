//! The platform's membership calls (commerce.md §4.7, §6, §7 "User assets and membership"):
//! the member info with the memberships that lapsed, and the member play-time grant.
//!
//! A grant is received once per player, kind and period (the UTC+8 day; the UTC+8 month for
//! the vvip monthly grant) as free play time with its ledger entry; what is left of it when it
//! expires (the daily one at the next 0:00 UTC+8, the monthly one after 31 days) is taken back,
//! with its entry, the next time the player's holdings are read.

use crate::commerce::service::Commerce;
use storage::member::MemberGrant;
use storage::Entitlement;

use crate::commerce::member::{grant_plans, type_matches};
use crate::error::{DomainError, DomainResult};
use crate::play::holdings::{Holdings, MEMBERSHIP_KINDS};
use crate::view::Changed;

/// What a member grant call received.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberGrantReceived {
    /// Minutes received by this call (the daily grant, plus the monthly one when due).
    pub minutes: i64,
    /// ms: when the daily grant is void.
    pub expires_at: i64,
    pub grants: Vec<MemberGrant>,
}

impl Commerce {
    /// The membership in use, the memberships that lapsed (latest first), and now (ms).
    pub async fn member_info(&self, uid: i64) -> DomainResult<(Holdings, Vec<Entitlement>, i64)> {
        let holdings = self.play().holdings(uid).await?;
        let now = self.clock().now_ms();
        let lapsed = self.ctx.db(move |s| s.member.lapsed(uid, &MEMBERSHIP_KINDS, now)).await?;
        Ok((holdings, lapsed, now))
    }

    /// Receives today's member play time for the membership `asked` (vip, vvip, hvip): the
    /// daily grant, and the vvip monthly grant when this month's is still due. Refused when the
    /// player does not hold that membership, or received today's already.
    pub async fn receive_member_playtime(&self, uid: i64, asked: &str) -> DomainResult<MemberGrantReceived> {
        let holdings = self.play().holdings(uid).await?;
        let using = holdings.member_type();
        if !holdings.is_member() || !type_matches(asked, using) {
            return Err(DomainError::MemberGrantNotHeld);
        }
        let now = self.clock().now_ms();
        let plans = grant_plans(using, now);
        let received = self
            .ctx
            .db(move |s| {
                let mut out = vec![];
                for p in plans {
                    let (g, fresh) = s.member.claim_grant(uid, p.kind, &p.period, p.minutes, p.expires_at, now)?;
                    out.push((g, fresh));
                    if !fresh {
                        // today's was received: nothing more is due by this call
                        break;
                    }
                }
                Ok(out)
            })
            .await?;
        let Some((daily, true)) = received.first().cloned() else {
            return Err(DomainError::MemberGrantReceived);
        };
        let fresh: Vec<MemberGrant> = received.into_iter().filter(|(_, f)| *f).map(|(g, _)| g).collect();
        self.ctx.bus.publish(&uid, &crate::view::Push::Changed(Changed::Balance));
        self.play().play_time_added(uid).await?;
        Ok(MemberGrantReceived {
            minutes: fresh.iter().map(|g| g.minutes).sum(),
            expires_at: daily.expires_at,
            grants: fresh,
        })
    }
}
