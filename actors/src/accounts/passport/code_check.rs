//! The security check in front of SMS codes (core-platform.md §8.1: "20125 on sending an SMS
//! code also opens the captcha"), the same check as the password login's (`password::gate`).
//!
//! - Every code request (the login code, the phone bind's, the forgot password's) counts
//!   against the phone it names and the client's address, in runs of an hour from the first
//!   request of a run (`password::FAILURE_WINDOW_MS`).
//! - Beyond `[sms] captcha_phone_per_hour` requests of one phone, or `captcha_ip_per_hour` of
//!   one address, within the run, a request needs a solved security check: without one it
//!   answers 20125, with a bad one 20128, and sends nothing. A solved check lets that one
//!   request through (its result is spent) and the request counts like any other; the SMS
//!   limits apply after it as before.
//! - A code used (a login, a bind or a forgot-password verify that took it) clears its phone's
//!   count: its owner got the code, the phone is not being flooded.
//! - 0 turns either threshold off. A request the phone or code rules refuse (20116, 20111) is
//!   not counted; an in-process request (no address) counts only against its phone.
//!
//! The counts are `runs`' (memory, like the password failures: a restart forgets them, the SMS
//! limits, which survive it, still bound what gets sent; shared by the processes of a cluster).

use super::password::{gate, Failures};
use super::{Passport, SmsLimits};
use crate::accounts::captcha::CaptchaAnswer;
use crate::error::DomainResult;

/// Whether a code request needs a solved security check: the phone's or the address's live
/// requests reached their threshold (a threshold of 0 is off). Pure.
pub fn code_check_needed(l: &SmsLimits, phone: Failures, address: Failures, now: i64) -> bool {
    let over = |limit: u32, f: Failures| limit > 0 && f.live(now) >= limit;
    over(l.captcha_phone_per_hour, phone) || over(l.captcha_ip_per_hour, address)
}

impl Passport {
    /// The check in front of a code request of a valid phone: open, 20125 or 20128 (module
    /// doc); an admitted request is counted.
    pub(super) async fn code_check(&self, phone: &str, ip: Option<&str>, captcha: &CaptchaAnswer) -> DomainResult<()> {
        let now = self.clock.now_ms();
        let mut keys = vec![format!("code:phone:{phone}")];
        if let Some(ip) = ip {
            keys.push(format!("code:ip:{ip}"));
        }
        let runs = self.runs.get(&keys).await?;
        let address = runs.get(1).copied().unwrap_or_default();
        let needed = code_check_needed(&self.limits, runs[0], address, now);
        let passed = gate(needed, captcha, |a| self.verify_captcha(a, now));
        let outcome = match &passed {
            Ok(()) if needed => "solved",
            Ok(()) => "not_needed",
            Err(crate::error::DomainError::CaptchaRequired) => "required",
            Err(_) => "failed",
        };
        metrics::counter!("yoo_sms_code_checks_total", "outcome" => outcome).increment(1);
        passed?;
        self.runs.count(&keys, now).await
    }

    /// A code of the phone was used: its requests start again.
    pub(super) async fn code_used(&self, phone: &str) -> DomainResult<()> {
        self.runs.clear(&format!("code:phone:{phone}")).await
    }
}

#[cfg(test)]
mod tests {
    use super::super::password::FAILURE_WINDOW_MS;
    use super::*;

    fn limits(phone: u32, ip: u32) -> SmsLimits {
        SmsLimits {
            captcha_phone_per_hour: phone,
            captcha_ip_per_hour: ip,
            ..SmsLimits::default()
        }
    }

    fn run(count: u32, since: i64) -> Failures {
        Failures { count, since }
    }

    // The phone's or the address's threshold of live requests asks for the check; a run older
    // than the window does not; 0 turns a threshold off.
    #[test]
    fn thresholds_and_the_window() {
        let l = limits(2, 10);
        let none = Failures::default();
        for (phone, address, now, needed) in [
            (none, none, 0, false),
            (run(1, 0), run(1, 0), 10, false),
            (run(2, 0), none, 10, true),
            (none, run(9, 0), 10, false),
            (none, run(10, 0), 10, true),
            (run(2, 0), run(10, 0), FAILURE_WINDOW_MS, false),
        ] {
            assert_eq!(code_check_needed(&l, phone, address, now), needed, "{phone:?} {address:?} at {now}");
        }
        assert!(!code_check_needed(&limits(0, 0), run(100, 0), run(100, 0), 10), "off");
        assert!(code_check_needed(&limits(0, 1), none, run(1, 0), 10));
    }

    // The production defaults: the third request of a phone within the hour, or the eleventh
    // of an address, needs the check.
    #[test]
    fn the_defaults() {
        let l = SmsLimits::default();
        assert_eq!((l.captcha_phone_per_hour, l.captcha_ip_per_hour), (2, 10));
    }
}
