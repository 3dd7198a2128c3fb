//! The security check a password login needs after repeated failures (core-platform.md §4.13,
//! §7.2 `captcha/senseboot/register`, §8.1 20125 / 20128), GeeTest-like: the site registers a
//! challenge with the provider, the person solves it on the provider's widget, which hands back
//! a `validate` token (and a `seccode`); the login sends them and the server asks the provider
//! whether they are good. A token is good once and for a short while.
//!
//! The sandbox provider serves its own challenge page on the same server in dev mode
//! (`facade/src/routes/dev_captcha.rs`): it shows a short code that a person (or a test) types;
//! solved, the page hands the token to the login dialog. A shown code takes
//! [`SOLVE_TRIES`] wrong answers, then the challenge is burnt; both it and a token expire.

use std::collections::HashMap;

use parking_lot::Mutex;
use rand::Rng;

/// How long a registered challenge can be solved.
pub const CHALLENGE_TTL_MS: i64 = 5 * 60_000;
/// How long a solved challenge's token is good for a login.
pub const VALIDATE_TTL_MS: i64 = 2 * 60_000;
/// Wrong answers a challenge takes before it is burnt.
pub const SOLVE_TRIES: u32 = 3;
/// Challenges kept at most (beyond, registering fails until old ones expire).
const CHALLENGES_MAX: usize = 100_000;
/// Letters of a shown code (no 0/O, 1/I look-alikes).
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const CODE_LEN: usize = 4;

/// What the widget is started with (`/api/passport/captcha/senseboot/register`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptchaChallenge {
    /// The site's id at the provider.
    pub gt: String,
    pub challenge: String,
    /// The provider's newer widget.
    pub new_captcha: bool,
    /// 1: the provider is up (0: its fallback mode, which this server does not accept).
    pub success: i32,
    /// Where the sandbox's challenge page is (None for a real provider, whose widget is its
    /// script).
    pub page_url: Option<String>,
}

/// What the widget handed back, as the login resends it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CaptchaAnswer {
    pub challenge: String,
    pub validate: String,
    pub seccode: String,
}

impl CaptchaAnswer {
    /// Whether the login carried a captcha result at all.
    pub fn is_empty(&self) -> bool {
        self.challenge.is_empty() && self.validate.is_empty() && self.seccode.is_empty()
    }
}

pub trait CaptchaProvider: Send + Sync + 'static {
    /// A new challenge (None: the provider cannot give one now).
    fn register(&self, now_ms: i64) -> Option<CaptchaChallenge>;
    /// Whether the answer is a solved challenge's live token; spends it either way (a token is
    /// good once).
    fn verify(&self, answer: &CaptchaAnswer, now_ms: i64) -> bool;
}

/// The sandbox's record of one challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    /// Shown on the page, waiting for the code.
    Shown { code: String, tries: u32, expires_at: i64 },
    /// Solved: the token the login may spend.
    Solved { validate: String, expires_at: i64 },
}

/// What a person's answer on the sandbox page came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solve {
    /// Right: the token to hand to the login.
    Solved { validate: String, seccode: String },
    /// Wrong: this many tries left (0: burnt).
    Wrong { tries_left: u32 },
    /// Unknown, expired, burnt or already solved.
    Gone,
}

/// The seccode the widget sends beside a token (GeeTest's form).
pub fn seccode_of(validate: &str) -> String {
    format!("{validate}|jordan")
}

/// One step of a challenge's life on an answer. Pure: `entry` is updated (None: forget it).
fn solve_step(entry: &mut Option<Entry>, answer: &str, now: i64, new_validate: String) -> Solve {
    match entry {
        Some(Entry::Shown { code, tries, expires_at }) if *expires_at > now => {
            if answer.trim().eq_ignore_ascii_case(code) {
                let validate = new_validate;
                *entry = Some(Entry::Solved {
                    validate: validate.clone(),
                    expires_at: now + VALIDATE_TTL_MS,
                });
                let seccode = seccode_of(&validate);
                return Solve::Solved { validate, seccode };
            }
            *tries += 1;
            let tries_left = SOLVE_TRIES.saturating_sub(*tries);
            if tries_left == 0 {
                *entry = None;
            }
            Solve::Wrong { tries_left }
        }
        _ => {
            *entry = None;
            Solve::Gone
        }
    }
}

/// Whether a login's answer spends a live token of this challenge. Pure: the entry is spent
/// (None) whatever the verdict.
fn verify_step(entry: &mut Option<Entry>, answer: &CaptchaAnswer, now: i64) -> bool {
    let good = matches!(entry, Some(Entry::Solved { validate, expires_at })
        if *expires_at > now && !validate.is_empty() && *validate == answer.validate && answer.seccode == seccode_of(validate));
    *entry = None;
    good
}

/// The dev sandbox provider.
pub struct SandboxCaptcha {
    gt: String,
    entries: Mutex<HashMap<String, Entry>>,
}

impl Default for SandboxCaptcha {
    fn default() -> Self {
        SandboxCaptcha {
            gt: crate::secrets::random_hex(16),
            entries: Mutex::new(HashMap::new()),
        }
    }
}

impl SandboxCaptcha {
    /// The code the page shows for a live, unsolved challenge.
    pub fn shown(&self, challenge: &str, now_ms: i64) -> Option<String> {
        match self.entries.lock().get(challenge) {
            Some(Entry::Shown { code, expires_at, .. }) if *expires_at > now_ms => Some(code.clone()),
            _ => None,
        }
    }

    /// A person's answer on the page.
    pub fn solve(&self, challenge: &str, answer: &str, now_ms: i64) -> Solve {
        let mut entries = self.entries.lock();
        let mut entry = entries.remove(challenge);
        let out = solve_step(&mut entry, answer, now_ms, crate::secrets::random_hex(16));
        if let Some(e) = entry {
            entries.insert(challenge.to_string(), e);
        }
        out
    }
}

impl CaptchaProvider for SandboxCaptcha {
    fn register(&self, now_ms: i64) -> Option<CaptchaChallenge> {
        let mut entries = self.entries.lock();
        entries.retain(|_, e| match e {
            Entry::Shown { expires_at, .. } | Entry::Solved { expires_at, .. } => *expires_at > now_ms,
        });
        if entries.len() >= CHALLENGES_MAX {
            return None;
        }
        let mut rng = rand::rng();
        let code: String = (0..CODE_LEN)
            .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
            .collect();
        let challenge = crate::secrets::random_hex(16);
        entries.insert(
            challenge.clone(),
            Entry::Shown {
                code,
                tries: 0,
                expires_at: now_ms + CHALLENGE_TTL_MS,
            },
        );
        Some(CaptchaChallenge {
            gt: self.gt.clone(),
            page_url: Some(format!("/api/dev/captcha/page?gt={}&challenge={challenge}", self.gt)),
            challenge,
            new_captcha: true,
            success: 1,
        })
    }

    fn verify(&self, answer: &CaptchaAnswer, now_ms: i64) -> bool {
        if answer.challenge.is_empty() || answer.challenge.len() > 64 {
            return false;
        }
        let mut entries = self.entries.lock();
        let mut entry = entries.remove(&answer.challenge);
        verify_step(&mut entry, answer, now_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(code: &str) -> Option<Entry> {
        Some(Entry::Shown {
            code: code.into(),
            tries: 0,
            expires_at: 1_000,
        })
    }

    fn answer(challenge: &str, validate: &str) -> CaptchaAnswer {
        CaptchaAnswer {
            challenge: challenge.into(),
            validate: validate.into(),
            seccode: seccode_of(validate),
        }
    }

    // Shown → solved (case-insensitive) → spent once: a second spend, a late spend, a wrong
    // token or seccode all fail, and any verify spends the entry.
    #[test]
    fn a_challenge_is_solved_then_spent_once() {
        let mut e = shown("AB3K");
        assert_eq!(
            solve_step(&mut e, " ab3k ", 10, "v1".into()),
            Solve::Solved {
                validate: "v1".into(),
                seccode: "v1|jordan".into()
            }
        );
        assert_eq!(
            solve_step(&mut e.clone(), "AB3K", 11, "v2".into()),
            Solve::Gone,
            "solved: no second solve"
        );
        let solved = e.clone();
        assert!(verify_step(&mut e, &answer("c", "v1"), 20));
        assert_eq!(e, None);
        assert!(!verify_step(&mut e, &answer("c", "v1"), 21), "spent");
        let mut late = solved.clone();
        assert!(!verify_step(&mut late, &answer("c", "v1"), 10 + VALIDATE_TTL_MS), "expired");
        let mut wrong = solved.clone();
        assert!(!verify_step(&mut wrong, &answer("c", "v9"), 20));
        assert_eq!(wrong, None, "a wrong token burns it");
        let mut bad_seccode = solved;
        let mut a = answer("c", "v1");
        a.seccode = "v1".into();
        assert!(!verify_step(&mut bad_seccode, &a, 20));
    }

    // Wrong answers count down to a burnt challenge; an expired one is gone; an unsolved one
    // does not verify.
    #[test]
    fn wrong_answers_burn_and_time_expires() {
        let mut e = shown("AB3K");
        assert!(!verify_step(&mut e.clone(), &answer("c", ""), 10), "unsolved");
        assert_eq!(solve_step(&mut e, "XXXX", 10, "v".into()), Solve::Wrong { tries_left: 2 });
        assert_eq!(solve_step(&mut e, "XXXX", 10, "v".into()), Solve::Wrong { tries_left: 1 });
        assert_eq!(solve_step(&mut e, "XXXX", 10, "v".into()), Solve::Wrong { tries_left: 0 });
        assert_eq!(e, None);
        assert_eq!(solve_step(&mut e, "AB3K", 10, "v".into()), Solve::Gone);
        let mut old = shown("AB3K");
        assert_eq!(solve_step(&mut old, "AB3K", 1_000, "v".into()), Solve::Gone);
    }

    // The sandbox end to end: register, read the code the page shows, solve, verify once.
    #[test]
    fn sandbox_register_solve_verify() {
        let s = SandboxCaptcha::default();
        let c = s.register(0).unwrap();
        assert_eq!((c.success, c.new_captcha, c.gt.len()), (1, true, 32));
        assert!(c.page_url.as_deref().unwrap().contains(&c.challenge));
        let code = s.shown(&c.challenge, 0).unwrap();
        assert_eq!(code.len(), CODE_LEN);
        let Solve::Solved { validate, seccode } = s.solve(&c.challenge, &code, 1) else {
            panic!("not solved")
        };
        assert_eq!(s.shown(&c.challenge, 1), None);
        let a = CaptchaAnswer {
            challenge: c.challenge.clone(),
            validate,
            seccode,
        };
        assert!(s.verify(&a, 2));
        assert!(!s.verify(&a, 3), "single use");
        assert!(!s.verify(&CaptchaAnswer::default(), 3));
    }
}
