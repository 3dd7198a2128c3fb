//! The platform's certification and minors calls (core-platform.md §2.15, §4.9, §5.3, §6,
//! §7.5, §8.2): the start's pre-check, the certification (checked by the identity provider,
//! sealed at rest, once plus one recertification), youth mode, and the rules a minor's game
//! follows: no start outside the hours minors may play (20151), and a game still running when the
//! window closes is told a minute before (130135) and ended at the close.

use storage::accounts::Certification;

use crate::beijing::days_from_civil;
#[cfg(test)]
use crate::beijing::{civil_from_days, DAY_MS, OFFSET_MS};
use crate::error::{CertFault, DomainError, DomainResult};
use crate::identity::{idcard, minors};
use crate::rooms::view::UserFlags;
use crate::view::Notice;

/// The pre-check's answer (§4.9).
pub const AUTH_PASS: i32 = 0;
pub const AUTH_CONFIRM: i32 = 1;
pub const AUTH_DENY: i32 = 2;

/// Youth mode's status (§3.1): 0 off, 2 a minor.
pub const YOUTH_MINOR: i32 = 2;

/// A certification as its owner sees it: masked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdAuth {
    pub real_name: String,
    pub id_no: String,
    pub certified_at: i64,
    pub recerts_left: i32,
    pub minor: bool,
}

/// The form's rules (§5.3), first failure first.
pub fn check_form(real_name: &str, id_no: &str) -> Result<(), CertFault> {
    let (name, id) = (real_name.trim(), id_no.trim());
    if name.is_empty() {
        return Err(CertFault::NameEmpty);
    }
    if name.chars().count() < 2 {
        return Err(CertFault::NameShort);
    }
    if id.is_empty() {
        return Err(CertFault::IdEmpty);
    }
    if !(15..=18).contains(&id.len()) || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(CertFault::IdMalformed);
    }
    Ok(())
}

impl Identities {
    fn id_auth(&self, c: &Certification, now: i64) -> IdAuth {
        let vault = &self.ctx.slot::<crate::identity::Identity>().vault;
        IdAuth {
            real_name: vault.open(&c.name_sealed).map(|n| idcard::mask_name(&n)).unwrap_or_default(),
            id_no: vault.open(&c.id_sealed).map(|n| idcard::mask_id(&n)).unwrap_or_default(),
            certified_at: c.certified_at,
            recerts_left: c.recerts_left,
            minor: c.adult_at > now,
        }
    }

    /// The caller's certification, masked (None: not certified).
    pub async fn idauth(&self, uid: i64) -> DomainResult<Option<IdAuth>> {
        let now = self.ctx.clock.now_ms();
        let c = self.ctx.db(move |s| s.accounts.certification(uid)).await?;
        Ok(c.map(|c| self.id_auth(&c, now)))
    }

    /// The start's pre-check (§4.9): PASS for the certified, else the configured answer.
    pub async fn pre_check(&self, uid: i64) -> DomainResult<i32> {
        if self.idauth(uid).await?.is_some() {
            return Ok(AUTH_PASS);
        }
        Ok(match self.ctx.slot::<crate::identity::Identity>().config.pre_check.as_str() {
            "deny" => AUTH_DENY,
            "confirm" => AUTH_CONFIRM,
            _ => AUTH_PASS,
        })
    }

    /// Youth mode: 2 while the certified person is under 18, else 0.
    pub async fn youth_mode(&self, uid: i64) -> DomainResult<i32> {
        Ok(if self.idauth(uid).await?.is_some_and(|a| a.minor) {
            YOUTH_MINOR
        } else {
            0
        })
    }

    /// Certifies the caller (§5.3 form rules, the identity check, sealed at rest); a second
    /// time uses the one recertification. A minor is marked as one for the rooms' rules.
    pub async fn certify(&self, uid: i64, real_name: &str, id_no: &str) -> DomainResult<IdAuth> {
        check_form(real_name, id_no).map_err(DomainError::CertForm)?;
        let (name, id) = (real_name.trim().to_string(), id_no.trim().to_ascii_uppercase());
        let birth = idcard::birth_date(&id).ok_or(DomainError::CertForm(CertFault::IdMalformed))?;
        if let Some(existing) = self.ctx.db(move |s| s.accounts.certification(uid)).await? {
            if existing.recerts_left <= 0 {
                return Err(DomainError::CertNoRecert);
            }
        }
        let matches = self
            .ctx
            .slot::<crate::identity::Identity>()
            .check
            .verify(&name, &id)
            .await
            .map_err(|e| DomainError::Internal(format!("identity check: {e}")))?;
        if !matches {
            return Err(DomainError::CertMismatch);
        }
        let now = self.ctx.clock.now_ms();
        let adult_at = adult_at(birth);
        let c = Certification {
            uid,
            name_sealed: self.ctx.slot::<crate::identity::Identity>().vault.seal(&name),
            id_sealed: self.ctx.slot::<crate::identity::Identity>().vault.seal(&id),
            adult_at,
            certified_at: now,
            recerts_left: 1,
        };
        let stored = match self.ctx.db_raw(move |s| s.accounts.certify(&c)).await? {
            Ok(c) => c,
            Err(storage::Error::Conflict(_)) => return Err(DomainError::CertNoRecert),
            Err(e) => return Err(e.into()),
        };
        let auth = self.id_auth(&stored, now);
        let user = self.ctx.db(move |s| s.users.get(uid)).await?.ok_or(DomainError::NotLoggedIn)?;
        self.rooms()
            .set_user_flags(
                uid,
                UserFlags {
                    status: user.status,
                    minor: auth.minor,
                    relay_banned: user.relay_banned,
                },
            )
            .await?;
        Ok(auth)
    }

    /// Whether the caller may start a game now (a start's first check): 20150 when play needs
    /// certification and there is none; 20151 for a minor outside the hours. For a minor inside
    /// them, the window's end (ms).
    pub async fn play_allowed(&self, uid: i64) -> DomainResult<Option<i64>> {
        let auth = self.idauth(uid).await?;
        let id = &self.ctx.slot::<crate::identity::Identity>().config;
        match auth {
            None if id.required_to_play => Err(DomainError::NotCertified),
            Some(a) if a.minor => match minors::window_end(self.ctx.clock.now_ms(), &id.holidays) {
                Some(end) => Ok(Some(end)),
                None => Err(DomainError::MinorPlayLimit),
            },
            _ => Ok(None),
        }
    }
}

/// 0:00 Beijing of the 18th birthday (ms); one born on 29 February comes of age on 1 March of a
/// common year.
pub fn adult_at(birth: (i64, i64, i64)) -> i64 {
    let y = birth.0 + 18;
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let (m, d) = if birth.1 == 2 && birth.2 == 29 && !leap {
        (3, 1)
    } else {
        (birth.1, birth.2)
    };
    crate::beijing::day_start_of(days_from_civil(y, m, d))
}

/// How often a waiting poll looks again (the certification itself happens on the phone's call).
const QR_AUTH_LOOK_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

impl Identities {
    /// A QR certification ticket of the caller's account (`qrcode/generate` action=idauth).
    pub fn qr_auth_new(&self, uid: i64) -> String {
        let ticket = crate::secrets::random_hex(16);
        self.ctx
            .slot::<crate::identity::Identity>()
            .qr
            .create(uid, ticket, self.ctx.clock.now_ms())
    }

    /// The phone of the ticket's account opened it (20144 for any other account).
    pub fn qr_auth_scan(&self, uid: i64, ticket: &str) -> DomainResult<()> {
        self.ctx
            .slot::<crate::identity::Identity>()
            .qr
            .scan(ticket, uid, self.ctx.clock.now_ms())
    }

    /// The phone cancelled the certification.
    pub fn qr_auth_cancel(&self, uid: i64, ticket: &str) -> DomainResult<()> {
        self.ctx
            .slot::<crate::identity::Identity>()
            .qr
            .cancel(ticket, uid, self.ctx.clock.now_ms())
    }

    /// The screen's long poll: the certification once it is done (the ticket is spent), else
    /// 20143 scanned (once), 20141 cancelled, 20140 over, or 20142 after the configured wait (`qr_poll_wait_secs`).
    pub async fn qr_auth_poll(&self, uid: i64, ticket: &str) -> DomainResult<IdAuth> {
        let wait = std::time::Duration::from_secs(self.ctx.slot::<crate::identity::Identity>().config.qr_poll_wait_secs);
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let look = self
                .ctx
                .slot::<crate::identity::Identity>()
                .qr
                .look(ticket, uid, self.ctx.clock.now_ms())?;
            if let Some(done) = self.idauth(uid).await? {
                self.ctx.slot::<crate::identity::Identity>().qr.spend(ticket);
                return Ok(done);
            }
            if look == crate::identity::qr_auth::QrAuthPoll::Scanned {
                return Err(DomainError::QrScanned);
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                return Err(DomainError::QrWaiting);
            }
            tokio::time::sleep(QR_AUTH_LOOK_EVERY.min(deadline - now)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_rules_and_coming_of_age() {
        assert_eq!(check_form(" ", "x"), Err(CertFault::NameEmpty));
        assert_eq!(check_form("张", "x"), Err(CertFault::NameShort));
        assert_eq!(check_form("张三", ""), Err(CertFault::IdEmpty));
        assert_eq!(check_form("张三", "12345678901234"), Err(CertFault::IdMalformed));
        assert_eq!(check_form("张三", "1234567890123456789"), Err(CertFault::IdMalformed));
        assert_eq!(check_form("张三", "11010120080228123-"), Err(CertFault::IdMalformed));
        assert_eq!(check_form("张三", "110101200802281234"), Ok(()));
        // 0:00 Beijing of the 18th birthday is 16:00 UTC the day before
        assert_eq!(adult_at((2008, 11, 24)), days_from_civil(2026, 11, 24) * DAY_MS - OFFSET_MS);
        assert_eq!(civil_from_days((adult_at((2008, 2, 29)) + OFFSET_MS) / DAY_MS), (2026, 3, 1));
        assert_eq!(civil_from_days((adult_at((2004, 2, 29)) + OFFSET_MS) / DAY_MS), (2022, 3, 1));
    }
}

/// The calls of the identity feature: real-name certification and the rules for minors.
#[derive(Clone)]
pub struct Identities {
    pub(crate) ctx: std::sync::Arc<crate::ctx::Ctx>,
}

/// The features identities calls (ARCHITECTURE.md lists the arrows).
impl Identities {
    pub(crate) fn rooms(&self) -> crate::rooms::service::Rooms {
        crate::rooms::service::Rooms { ctx: self.ctx.clone() }
    }
}

/// Play's start gate (`play::ports::StartGate`): certification and the minors' hours.
pub struct CertificationGate;

impl crate::play::ports::StartGate for CertificationGate {
    fn play_allowed(
        &self,
        ctx: std::sync::Arc<crate::ctx::Ctx>,
        uid: i64,
    ) -> futures_util::future::BoxFuture<'static, DomainResult<Option<i64>>> {
        Box::pin(async move { Identities { ctx }.play_allowed(uid).await })
    }

    /// A minor is told a minute before their window closes (130135), then the game ends.
    fn cut_notice(&self) -> Option<crate::play::ports::CutNotice> {
        Some(crate::play::ports::CutNotice {
            lead_ms: minors::CUTOFF_NOTICE_MS,
            notice: Notice::ChildrenLimit {
                msg: minors::CUTOFF_MESSAGE.into(),
                remark: minors::CUTOFF_REMARK.into(),
            },
        })
    }
}
