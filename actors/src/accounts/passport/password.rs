//! Password sign-in (core-platform.md §2.3, §2.5, §4.13, §5.2, §7.2, §8.1).
//!
//! - Hashes are argon2id (OWASP's parameters: 19 MiB, 2 passes, 1 lane) in PHC strings; hashing
//!   and verifying run on threads of their own, as many as the machine's cores, each in its own
//!   reused working memory ([`HashPool`]): a burst of logins queues there (up to
//!   [`HASH_QUEUE_MAX`], beyond that refused as busy) and never holds an async worker.
//! - Passwords travel base64-encoded (the spec's "transformed"): the server decodes, checks the
//!   rules of §5.2 on a new one, and keeps only the hash.
//! - A wrong password counts against the phone typed (known or not) and the client's address;
//!   from [`ACCOUNT_FAILURES_BEFORE_CAPTCHA`] failures of the phone or
//!   [`ADDRESS_FAILURES_BEFORE_CAPTCHA`] of the address within [`FAILURE_WINDOW_MS`], a login
//!   needs a solved security check: without one it answers 20125, with a bad one 20128
//!   ([`gate`]). A right password clears the phone's count.
//! - An unknown phone, a phone whose account has no password and a wrong password get the same
//!   answer after the same work (a verify against a dummy hash), and a forgot-password code for
//!   an unknown phone is counted against the SMS limits alike but not sent.
//! - Forgot password: the SMS code buys a ticket ([`FORGET_TICKET_TTL_MS`], single use, bound
//!   to its phone), the ticket sets the new password. Setting a password ends the account's
//!   other logins (all of them when it replaces one: "log in again"; the caller's own login is
//!   kept when a logged-in player sets a first password).
//!
//! The failure counts and tickets live in memory: a restart forgets them (a new security check
//! is asked of no one; tickets are re-earned with a code).

use std::collections::HashMap;
use std::sync::Arc;

use argon2::{Algorithm, Argon2, Params, Version};
use base64::Engine;
use parking_lot::Mutex;
use rand::Rng;
use storage::{LoginSession, User};

use super::{check_code, random_hex, secs_until, validate_code, validate_phone, Delivery, NewLogin, Passport, Verdict};
use crate::accounts::captcha::{CaptchaAnswer, CaptchaChallenge, CaptchaProvider, SandboxCaptcha};
use crate::ctx::blocking;
use crate::error::{DomainError, DomainResult};

/// argon2id memory in KiB (OWASP: 19 MiB with 2 passes and 1 lane).
pub const ARGON2_MEMORY_KIB: u32 = 19 * 1024;
pub const ARGON2_PASSES: u32 = 2;
pub const ARGON2_LANES: u32 = 1;
/// Failures of one phone within the window before a security check is needed.
pub const ACCOUNT_FAILURES_BEFORE_CAPTCHA: u32 = 3;
/// Failures from one address within the window before a security check is needed.
pub const ADDRESS_FAILURES_BEFORE_CAPTCHA: u32 = 10;
/// The window failures count in (from the first failure of a run).
pub const FAILURE_WINDOW_MS: i64 = 3_600_000;
/// A forgot-password ticket lives this long.
pub const FORGET_TICKET_TTL_MS: i64 = 10 * 60_000;
/// A login password longer than this (decoded) is wrong without hashing it.
const PASSWORD_MAX_BYTES: usize = 64;
/// Failure records and tickets kept at most (beyond, the expired go, then all).
const RECORDS_MAX: usize = 200_000;
/// The hash an unknown phone (or an account without a password) is verified against: the same
/// parameters as every hash, of a random password nobody kept, so the answer takes as long as a
/// wrong password's from the first call on.
const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$ecu4IGHukQ85V8qoX14R1w$1A+VDI8y/4Z5EIjmkytO2AMVwMCqAzkVAZhWZ6eYTIc";
/// The symbols the strong pattern allows.
const SYMBOLS: &str = "~!@#$%^&*_?.";

/// The strong pattern of §5.2: 8–16 characters, only letters, digits and `~!@#$%^&*_?.`, with
/// at least one letter, one digit and one of those symbols.
pub fn is_strong_password(p: &str) -> bool {
    let n = p.chars().count();
    (8..=16).contains(&n)
        && p.chars().all(|c| c.is_ascii_alphanumeric() || SYMBOLS.contains(c))
        && p.chars().any(|c| c.is_ascii_alphabetic())
        && p.chars().any(|c| c.is_ascii_digit())
        && p.chars().any(|c| SYMBOLS.contains(c))
}

/// The new-password rule: required ('登录密码不能为空'), then the strong pattern.
pub fn check_new_password(p: &str) -> DomainResult<()> {
    if p.is_empty() {
        return Err(DomainError::NewPasswordEmpty);
    }
    if !is_strong_password(p) {
        return Err(DomainError::NewPasswordWeak);
    }
    Ok(())
}

/// A password as sent (base64 of its UTF-8), decoded.
fn decode(sent: &str) -> Option<String> {
    let bytes = base64::engine::general_purpose::STANDARD.decode(sent.trim()).ok()?;
    String::from_utf8(bytes).ok()
}

fn argon2_with(params: Params) -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The bytes of a hash's output.
const HASH_LEN: usize = 32;

thread_local! {
    /// The argon2 working memory of this thread, kept between hashes: the pool's threads hash
    /// in the same 19 MiB each time instead of allocating (and the allocator keeping) a new
    /// block per hash on whatever thread runs it.
    static BLOCKS: std::cell::RefCell<Vec<argon2::Block>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// argon2id of `password` and `salt` under `params` into `out`, in this thread's memory.
fn hash_into(params: Params, password: &[u8], salt: &[u8], out: &mut [u8]) -> Result<(), String> {
    let count = params.block_count();
    BLOCKS.with(|b| {
        let mut blocks = b.borrow_mut();
        if blocks.len() < count {
            blocks.resize(count, argon2::Block::default());
        }
        argon2_with(params)
            .hash_password_into_with_memory(password, salt, out, &mut blocks[..count])
            .map_err(|e| e.to_string())
    })
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD_NO_PAD.encode(bytes)
}

/// The PHC string of a password (random 16-byte salt): `$argon2id$v=19$m=…,t=…,p=…$salt$hash`.
pub fn hash_password(password: &str) -> Result<String, String> {
    let salt: [u8; 16] = rand::rng().random();
    let params = Params::new(ARGON2_MEMORY_KIB, ARGON2_PASSES, ARGON2_LANES, Some(HASH_LEN)).map_err(|e| e.to_string())?;
    let mut out = [0u8; HASH_LEN];
    hash_into(params, password.as_bytes(), &salt, &mut out)?;
    Ok(format!(
        "$argon2id$v=19$m={ARGON2_MEMORY_KIB},t={ARGON2_PASSES},p={ARGON2_LANES}${}${}",
        b64(&salt),
        b64(&out)
    ))
}

/// The parameters, salt and hash of an argon2id PHC string (v=19), if it is one.
fn parse_phc(phc: &str) -> Option<(Params, Vec<u8>, Vec<u8>)> {
    let mut parts = phc.split('$');
    let (empty, alg, version, params, salt, hash) = (
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
    );
    if !empty.is_empty() || alg != "argon2id" || version != "v=19" || parts.next().is_some() {
        return None;
    }
    let (mut m, mut t, mut p) = (None, None, None);
    for kv in params.split(',') {
        let (k, v) = kv.split_once('=')?;
        let v: u32 = v.parse().ok()?;
        match k {
            "m" => m = Some(v),
            "t" => t = Some(v),
            "p" => p = Some(v),
            _ => return None,
        }
    }
    let decode = |s: &str| base64::engine::general_purpose::STANDARD_NO_PAD.decode(s).ok();
    let (salt, hash) = (decode(salt)?, decode(hash)?);
    let params = Params::new(m?, t?, p?, Some(hash.len())).ok()?;
    Some((params, salt, hash))
}

/// Whether `password` is the one of a PHC string (its own parameters are used); compared in
/// constant time.
pub fn verify_password(password: &str, phc: &str) -> bool {
    let Some((params, salt, want)) = parse_phc(phc) else { return false };
    let mut got = vec![0u8; want.len()];
    if hash_into(params, password.as_bytes(), &salt, &mut got).is_err() {
        return false;
    }
    got.iter().zip(&want).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

/// How much lower than the server's other threads the hashing threads run (nice steps): a
/// burst of password logins takes what the cores have left after the queue's pushes and
/// hand-offs (CFS gives a thread 10 steps nicer about a tenth of the other's share when they
/// contend), instead of half a 2-core machine from them.
pub const HASH_THREAD_NICER_BY: i32 = 10;

/// This thread's nice value (Linux: a thread's nice value is its own).
#[cfg(target_os = "linux")]
pub fn this_threads_nice() -> i32 {
    // SAFETY: gettid and getpriority take no pointers; `who` is this thread's own id.
    unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }
}

/// Lowers the calling thread's scheduling priority by [`HASH_THREAD_NICER_BY`] (at most to 19;
/// elsewhere than Linux nothing).
fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    {
        let nice = (this_threads_nice() + HASH_THREAD_NICER_BY).min(19);
        // SAFETY: gettid and setpriority take no pointers; `who` is this thread's own id.
        let rc = unsafe { libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, nice) };
        if rc != 0 {
            tracing::warn!(error = %std::io::Error::last_os_error(), "password hashing threads keep the default priority");
        }
    }
}

/// A job of the hash pool.
type HashJob = Box<dyn FnOnce() + Send>;

/// Password hashing's own threads: `width` of them, started once and kept, each hashing in its
/// own reused working memory. A job waits its turn in the queue (an async wait for its answer:
/// no async worker is held); beyond [`HASH_QUEUE_MAX`] waiting, a call is refused at once
/// (50000, "busy") rather than held for seconds.
pub struct HashPool {
    jobs: std::sync::mpsc::SyncSender<HashJob>,
}

/// Hash jobs that may wait at most.
pub const HASH_QUEUE_MAX: usize = 64;

/// How many hashing threads a machine of `cores` gets: all but one, never none.
pub fn hash_threads_for(cores: usize) -> usize {
    cores.saturating_sub(1).max(1)
}

impl HashPool {
    pub fn new(width: usize) -> HashPool {
        let width = width.max(1);
        let (tx, rx) = std::sync::mpsc::sync_channel::<HashJob>(HASH_QUEUE_MAX);
        let rx = Arc::new(std::sync::Mutex::new(rx));
        for i in 0..width {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new().name(format!("yoo-hash-{i}")).spawn(move || {
                lower_this_threads_priority();
                loop {
                    let job = match rx.lock() {
                        Ok(r) => r.recv(),
                        Err(_) => return,
                    };
                    match job {
                        // a job that panics loses its answer (its caller hears an error), not the thread
                        Ok(job) => {
                            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                        }
                        // the pool was dropped
                        Err(_) => return,
                    }
                }
            });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "password hashing thread not started");
            }
        }
        HashPool { jobs: tx }
    }

    /// One core fewer than the machine has (at least one thread), so that a burst of password
    /// logins always leaves a core to the async workers that push ranks and hand machines over
    /// (BENCHMARKS.md, "Queue scale with 50 password logins a second").
    pub fn per_core() -> HashPool {
        HashPool::new(hash_threads_for(std::thread::available_parallelism().map_or(2, |n| n.get())))
    }

    pub async fn run<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> DomainResult<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: HashJob = Box::new(move || {
            let _ = tx.send(f());
        });
        self.jobs.try_send(job).map_err(|e| match e {
            std::sync::mpsc::TrySendError::Full(_) => DomainError::Internal("password hashing busy".into()),
            std::sync::mpsc::TrySendError::Disconnected(_) => DomainError::Internal("password hashing stopped".into()),
        })?;
        rx.await.map_err(|e| DomainError::Internal(format!("hash pool: {e}")))
    }
}

/// Failed password logins of one phone or one address: a run of them from `since`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Failures {
    pub count: u32,
    pub since: i64,
}

impl Failures {
    /// The failures that still count at `now`.
    pub fn live(&self, now: i64) -> u32 {
        if self.count == 0 || now - self.since >= FAILURE_WINDOW_MS {
            0
        } else {
            self.count
        }
    }

    /// One more failure at `now` (a run older than the window starts again).
    pub fn fail(&mut self, now: i64) {
        if self.live(now) == 0 {
            *self = Failures { count: 0, since: now };
        }
        self.count += 1;
    }
}

/// Whether a login needs a solved security check now.
pub fn captcha_needed(phone: Failures, address: Failures, now: i64) -> bool {
    phone.live(now) >= ACCOUNT_FAILURES_BEFORE_CAPTCHA || address.live(now) >= ADDRESS_FAILURES_BEFORE_CAPTCHA
}

/// The security check in front of a password login: open when none is needed; when one is,
/// 20125 without a result, 20128 when the provider does not take it (`verify` spends it).
pub fn gate(needed: bool, answer: &CaptchaAnswer, verify: impl FnOnce(&CaptchaAnswer) -> bool) -> DomainResult<()> {
    if !needed {
        return Ok(());
    }
    if answer.is_empty() {
        return Err(DomainError::CaptchaRequired);
    }
    if !verify(answer) {
        return Err(DomainError::CaptchaFailed);
    }
    Ok(())
}

struct Ticket {
    phone: String,
    expires_at: i64,
}

/// What a password login is given.
#[derive(Debug, Clone, Default)]
pub struct PasswordLogin {
    /// The phone typed.
    pub user_name: String,
    /// The password as sent (base64).
    pub password: String,
    pub device_no: String,
    /// The client's address, for the address's failure count.
    pub ip: String,
    /// The security check's result, on a retry after 20125 / 20128.
    pub captcha: CaptchaAnswer,
}

/// Which ways into the account are set (`/api/v3/user/binding/state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BindingState {
    pub phone: bool,
    pub password: bool,
}

/// What a password update did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PasswordSet {
    /// A first password (set mode, '设置成功'); false: one replaced ('密码修改成功，请重新登录').
    pub first: bool,
    /// Logins it ended.
    pub ended: usize,
}

/// The passport's password state.
pub(super) struct Passwords {
    pool: HashPool,
    tickets: Mutex<HashMap<String, Ticket>>,
    captcha: Arc<dyn CaptchaProvider>,
    sandbox: Option<Arc<SandboxCaptcha>>,
}

impl Default for Passwords {
    fn default() -> Self {
        let sandbox = Arc::new(SandboxCaptcha::default());
        Passwords {
            pool: HashPool::per_core(),
            tickets: Mutex::new(HashMap::new()),
            captcha: sandbox.clone(),
            sandbox: Some(sandbox),
        }
    }
}

impl Passport {
    /// The dev sandbox's security check (None with a real provider).
    pub fn captcha_sandbox(&self) -> Option<&Arc<SandboxCaptcha>> {
        self.passwords.sandbox.as_ref()
    }

    /// Whether a security check's result is a solved challenge's live token (spent either way).
    pub(super) fn verify_captcha(&self, answer: &CaptchaAnswer, now: i64) -> bool {
        self.passwords.captcha.verify(answer, now)
    }

    /// A new security-check challenge for the widget.
    pub fn captcha_register(&self) -> DomainResult<CaptchaChallenge> {
        self.passwords
            .captcha
            .register(self.clock.now_ms())
            .ok_or(DomainError::CaptchaFailed)
    }

    /// Runs password work (hash, verify) on the bounded pool.
    pub async fn hash_work<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> DomainResult<T> {
        self.passwords.pool.run(f).await
    }

    /// Logs in with the phone and password (module doc).
    pub async fn password_login(&self, l: &PasswordLogin) -> DomainResult<(User, NewLogin)> {
        let phone = l.user_name.trim();
        validate_phone(phone)?;
        if l.password.is_empty() {
            return Err(DomainError::PasswordEmpty);
        }
        let now = self.clock.now_ms();
        let keys = [format!("pw:phone:{phone}"), format!("pw:ip:{}", l.ip)];
        let runs = self.runs.get(&keys).await?;
        let needed = captcha_needed(runs[0], runs[1], now);
        gate(needed, &l.captcha, |a| self.passwords.captcha.verify(a, now))?;

        let store = self.store.clone();
        let p = phone.to_string();
        let found = blocking(move || -> storage::Result<Option<(User, Option<String>)>> {
            let Some(user) = store.users.find_by_phone(&p)? else {
                return Ok(None);
            };
            let hash = store.passwords.hash(user.uid)?;
            Ok(Some((user, hash)))
        })
        .await?;
        let password = decode(&l.password).filter(|p| !p.is_empty() && p.len() <= PASSWORD_MAX_BYTES);
        let (user, hash) = match found {
            Some((user, Some(hash))) => (Some(user), hash),
            // no account, or no password: the same work against a hash nobody can match
            _ => (None, DUMMY_HASH.to_string()),
        };
        let typed = password.clone().unwrap_or_default();
        let right = self.hash_work(move || verify_password(&typed, &hash)).await?;
        let (Some(user), true, Some(_)) = (user, right, password) else {
            self.runs.count(&keys, now).await?;
            metrics::counter!("yoo_password_logins_total", "outcome" => "wrong").increment(1);
            return Err(DomainError::PasswordWrong);
        };
        self.runs.clear(&keys[0]).await?;
        metrics::counter!("yoo_password_logins_total", "outcome" => "ok").increment(1);
        let device: String = l.device_no.chars().take(64).collect();
        self.login_uid(user.uid, &device).await
    }

    /// The forgot-password code (§2.5): under the SMS limits of the login code; a phone without
    /// an account is counted alike and gets no message, and a known phone's message goes in the
    /// background: the same answer at the same time (a gateway failure is not reported: the
    /// send is taken back and the player asks again).
    pub async fn forget_send_code(&self, phone: &str, ip: Option<&str>, captcha: &CaptchaAnswer) -> DomainResult<()> {
        validate_phone(phone)?;
        let store = self.store.clone();
        let p = phone.to_string();
        let known = blocking(move || store.users.find_by_phone(&p)).await?.is_some();
        let delivery = if known { Delivery::Background } else { Delivery::Skip };
        self.send_code_inner(phone, ip, captcha, delivery).await
    }

    /// Checks the code of a phone (the login code's tries and lock apply) and spends it.
    async fn spend_code(&self, phone: &str, code: &str) -> DomainResult<()> {
        validate_phone(phone)?;
        validate_code(code)?;
        let now = self.clock.now_ms();
        let hash = self.code_hash(phone, code);
        let limits = self.limits.clone();
        let verdict = self
            .update_guard(phone, vec![], move |g, _| (true, check_code(&limits, g, &hash, now)))
            .await?;
        match verdict {
            Verdict::Ok => self.code_used(phone).await,
            Verdict::Wrong => Err(DomainError::CodeWrong),
            Verdict::Locked(at) => Err(DomainError::LoginLocked {
                retry_after_secs: secs_until(at, now),
            }),
        }
    }

    /// The phone and code are right: a ticket that sets the phone's password once within
    /// [`FORGET_TICKET_TTL_MS`].
    pub async fn forget_verify(&self, phone: &str, code: &str) -> DomainResult<String> {
        self.spend_code(phone, code).await?;
        let now = self.clock.now_ms();
        let ticket = random_hex(24);
        let mut tickets = self.passwords.tickets.lock();
        if tickets.len() >= RECORDS_MAX {
            tickets.retain(|_, t| t.expires_at > now);
            if tickets.len() >= RECORDS_MAX {
                tickets.clear();
            }
        }
        tickets.insert(
            ticket.clone(),
            Ticket {
                phone: phone.to_string(),
                expires_at: now + FORGET_TICKET_TTL_MS,
            },
        );
        Ok(ticket)
    }

    /// Sets the phone's password with a ticket of that phone (spent); `caller` is the login
    /// asking, if any (kept when it sets its own first password).
    pub async fn forget_update(
        &self,
        phone: &str,
        password: &str,
        ticket: &str,
        caller: Option<&LoginSession>,
    ) -> DomainResult<PasswordSet> {
        validate_phone(phone)?;
        if password.trim().is_empty() {
            return Err(DomainError::NewPasswordEmpty);
        }
        let new = decode(password).ok_or(DomainError::NewPasswordWeak)?;
        check_new_password(&new)?;
        let now = self.clock.now_ms();
        {
            let mut tickets = self.passwords.tickets.lock();
            match tickets.get(ticket) {
                Some(t) if t.expires_at > now && t.phone == phone => {
                    tickets.remove(ticket);
                }
                _ => return Err(DomainError::PasswordTicketInvalid),
            }
        }
        let hash = self.hash_work(move || hash_password(&new)).await?.map_err(DomainError::Internal)?;
        let store = self.store.clone();
        let p = phone.to_string();
        let caller = caller.cloned();
        let outcome = blocking(move || -> storage::Result<Option<(bool, Vec<String>)>> {
            let Some(user) = store.users.find_by_phone(&p)? else {
                return Ok(None);
            };
            let first = store.passwords.hash(user.uid)?.is_none();
            let keep = caller.filter(|c| first && c.uid == user.uid).map(|c| c.token_hash);
            let ended = store.passwords.set(user.uid, &hash, keep.as_deref(), now)?;
            Ok(Some((first, ended)))
        })
        .await?;
        let Some((first, ended)) = outcome else {
            return Err(DomainError::PasswordTicketInvalid);
        };
        self.runs.clear(&format!("pw:phone:{phone}")).await?;
        self.end_logins_for_password(&ended);
        Ok(PasswordSet { first, ended: ended.len() })
    }

    /// Ends logins a password change ended, here and in every process of a cluster: no cached
    /// session survives, their socket tokens are void, their sockets close.
    fn end_logins_for_password(&self, token_hashes: &[String]) {
        if token_hashes.is_empty() {
            return;
        }
        self.logins_ended(token_hashes, &super::Ended::Closed);
        metrics::counter!("yoo_logins_ended_total", "reason" => storage::passwords::REVOKED_PASSWORD).increment(token_hashes.len() as u64);
    }

    /// Which ways into the account are set.
    pub async fn binding_state(&self, uid: i64) -> DomainResult<BindingState> {
        let store = self.store.clone();
        blocking(move || -> storage::Result<BindingState> {
            let phone = store.users.get(uid)?.is_some_and(|u| !u.cellphone.is_empty());
            let password = store.passwords.hash(uid)?.is_some();
            Ok(BindingState { phone, password })
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn hashing_leaves_one_core_to_the_async_workers() {
        assert_eq!(hash_threads_for(0), 1);
        assert_eq!(hash_threads_for(1), 1);
        assert_eq!(hash_threads_for(2), 1);
        assert_eq!(hash_threads_for(8), 7);
    }

    #[test]
    fn the_strong_pattern() {
        for ok in ["abc123!@", "Passw0rd.", "a1~bbbbb", "A1?aaaaaaaaaaaaa"] {
            assert!(is_strong_password(ok), "{ok}");
        }
        for weak in [
            "abc12!",
            "abcdefgh",
            "12345678",
            "abcd1234",
            "abc123!@abc123!@x",
            "abc123!@ ",
            "abc123-@",
            "密码abc123!@",
        ] {
            assert!(!is_strong_password(weak), "{weak}");
        }
        assert_eq!(check_new_password(""), Err(DomainError::NewPasswordEmpty));
        assert_eq!(check_new_password("abcd1234"), Err(DomainError::NewPasswordWeak));
        assert_eq!(check_new_password("abcd1234!"), Ok(()));
    }

    // Failures count within the window from the first of a run; a run past the window starts
    // again; the phone's third or the address's tenth live failure asks for the check.
    #[test]
    fn failure_counts_and_the_window() {
        let mut phone = Failures::default();
        let addr = Failures::default();
        phone.fail(0);
        phone.fail(10);
        assert!(!captcha_needed(phone, addr, 20));
        phone.fail(20);
        assert!(captcha_needed(phone, addr, 30));
        assert!(!captcha_needed(phone, addr, FAILURE_WINDOW_MS), "the run aged out");
        phone.fail(FAILURE_WINDOW_MS);
        assert_eq!((phone.count, phone.since, phone.live(FAILURE_WINDOW_MS)), (1, FAILURE_WINDOW_MS, 1));
        let mut addr = Failures::default();
        for t in 0..ADDRESS_FAILURES_BEFORE_CAPTCHA as i64 {
            assert!(!captcha_needed(Failures::default(), addr, t));
            addr.fail(t);
        }
        assert!(captcha_needed(Failures::default(), addr, 100));
    }

    // The gate: open when not needed (the result is not spent); 20125 without a result; 20128
    // when the provider refuses it; open when it takes it.
    #[test]
    fn the_captcha_gate() {
        let some = CaptchaAnswer {
            challenge: "c".into(),
            validate: "v".into(),
            seccode: "s".into(),
        };
        let spent = std::cell::Cell::new(0);
        let verify = |ok: bool| {
            let spent = &spent;
            move |_: &CaptchaAnswer| {
                spent.set(spent.get() + 1);
                ok
            }
        };
        assert_eq!(gate(false, &some, verify(false)), Ok(()));
        assert_eq!(spent.get(), 0);
        assert_eq!(
            gate(true, &CaptchaAnswer::default(), verify(true)),
            Err(DomainError::CaptchaRequired)
        );
        assert_eq!(gate(true, &some, verify(false)), Err(DomainError::CaptchaFailed));
        assert_eq!(gate(true, &some, verify(true)), Ok(()));
        assert_eq!(spent.get(), 2);
    }

    // The forgot code: an unknown phone is counted and gets nothing; a known phone's message
    // goes in the background, and a gateway's refusal is taken back (the phone may ask again).
    #[tokio::test(start_paused = true)]
    async fn the_forgot_code_answers_alike_and_delivers_in_the_background() {
        use crate::accounts::sms::SandboxSms;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!("yoo-password-forget-{}-{nanos}", std::process::id()));
        let store = storage::Store::open_sqlite(&dir).unwrap();
        for phone in ["13800000081", "19900000000"] {
            store.users.get_or_create_by_phone(phone, "p", 0).unwrap();
        }
        let p = Passport::new(
            store.clone(),
            Arc::new(SandboxSms::new(vec!["19900000000".into()])),
            crate::clock::Clock::new(),
            0,
            super::super::SmsLimits::default(),
        );
        p.forget_send_code("13800000089", None, &CaptchaAnswer::default()).await.unwrap();
        assert_eq!(p.sms().outbox("13800000089"), Some(vec![]), "no message for an unknown phone");
        assert_eq!(
            store.sms.guard("13800000089").unwrap().map(|g| g.sends.len()),
            Some(1),
            "counted alike"
        );
        p.forget_send_code("13800000081", None, &CaptchaAnswer::default()).await.unwrap();
        p.forget_send_code("19900000000", None, &CaptchaAnswer::default()).await.unwrap();
        for _ in 0..100 {
            tokio::task::yield_now().await;
            if store.sms.guard("19900000000").unwrap().is_none_or(|g| g.sends.is_empty()) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        assert_eq!(p.sms().outbox("13800000081").map(|o| o.len()), Some(1));
        assert!(
            store.sms.guard("19900000000").unwrap().is_none_or(|g| g.sends.is_empty()),
            "a refused send is taken back"
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn hashes_are_argon2id_with_owasp_parameters() {
        let h = hash_password("abc123!@").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_password("abc123!@", &h));
        assert!(!verify_password("abc123!#", &h));
        assert!(!verify_password("abc123!@", "not a hash"));
        assert_ne!(hash_password("abc123!@").unwrap(), h, "salted");
        assert_eq!(decode("YWJjMTIzIUA="), Some("abc123!@".into()));
        assert_eq!(decode("not base64!"), None);
        assert!(DUMMY_HASH.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(!verify_password("", DUMMY_HASH));
    }

    // A burst wider than the pool runs at most `width` at once, and the async workers stay
    // free meanwhile: a timer on the same runtime keeps firing while every job blocks.
    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn a_burst_queues_on_the_pool_and_the_runtime_stays_free() {
        let pool = Arc::new(HashPool::new(2));
        let (running, peak) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let jobs: Vec<_> = (0..8)
            .map(|_| {
                let (pool, running, peak) = (pool.clone(), running.clone(), peak.clone());
                tokio::spawn(async move {
                    pool.run(move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        peak.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(30));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                    .unwrap()
                })
            })
            .collect();
        let mut ticks = 0;
        let started = std::time::Instant::now();
        while jobs.iter().any(|j| !j.is_finished()) {
            tokio::time::sleep(Duration::from_millis(5)).await;
            ticks += 1;
        }
        for j in jobs {
            j.await.unwrap();
        }
        assert_eq!(peak.load(Ordering::SeqCst), 2, "never wider than the pool");
        assert!(started.elapsed() >= Duration::from_millis(4 * 30), "four rounds of two");
        assert!(ticks >= 10, "the one async worker kept running timers: {ticks}");
    }

    // Hashes made here verify with the argon2 crate's own verifier and the crate's verify
    // here: the same PHC strings (the stored hashes of earlier builds keep working).
    #[test]
    fn phc_strings_match_the_argon2_crate() {
        use argon2::{PasswordHasher, PasswordVerifier};
        let ours = hash_password("abc123!@").unwrap();
        let crate_argon = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(ARGON2_MEMORY_KIB, ARGON2_PASSES, ARGON2_LANES, None).unwrap(),
        );
        assert!(
            PasswordVerifier::<str>::verify_password(&crate_argon, b"abc123!@", &ours).is_ok(),
            "{ours}"
        );
        let theirs = crate_argon
            .hash_password_with_salt(b"xyz789#$", b"0123456789abcdef")
            .unwrap()
            .to_string();
        assert!(verify_password("xyz789#$", &theirs), "{theirs}");
        assert!(!verify_password("xyz789#%", &theirs));
        for bad in [
            "",
            "$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA",
            "$argon2id$v=19$m=x,t=2,p=1$c2FsdA$aGFzaA",
            &format!("{theirs}$x"),
        ] {
            assert!(!verify_password("xyz789#$", bad), "{bad}");
        }
    }

    // The hashing threads run nicer than the thread that started the pool (which keeps its own).
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn hashing_threads_run_at_a_lower_priority() {
        let ours = this_threads_nice();
        let pool = HashPool::new(2);
        let theirs = pool.run(this_threads_nice).await.unwrap();
        assert_eq!(theirs, (ours + HASH_THREAD_NICER_BY).min(19));
        assert_eq!(this_threads_nice(), ours);
    }

    // Beyond the queue's room a call is refused at once (busy), not held; a job that panics
    // does not take its thread with it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn a_full_queue_refuses_at_once() {
        let pool = Arc::new(HashPool::new(1));
        let (release, gate) = std::sync::mpsc::channel::<()>();
        let gate = Arc::new(std::sync::Mutex::new(gate));
        // one job holds the thread (it says so once running) ...
        let (started_tx, started) = tokio::sync::oneshot::channel::<()>();
        let holder = {
            let (pool, gate) = (pool.clone(), gate.clone());
            tokio::spawn(async move {
                pool.run(move || {
                    let _ = started_tx.send(());
                    let _ = gate.lock().unwrap().recv();
                })
                .await
            })
        };
        tokio::time::timeout(Duration::from_secs(10), started)
            .await
            .expect("the first job did not finish")
            .unwrap();
        // ... and HASH_QUEUE_MAX wait behind it: the queue is full (a task counts itself in the
        // same poll that queues its job)
        let queued = Arc::new(AtomicUsize::new(0));
        let mut waiting: Vec<_> = (0..HASH_QUEUE_MAX)
            .map(|_| {
                let (pool, gate, queued) = (pool.clone(), gate.clone(), queued.clone());
                tokio::spawn(async move {
                    queued.fetch_add(1, Ordering::SeqCst);
                    pool.run(move || {
                        let _ = gate.lock().unwrap().recv();
                    })
                    .await
                })
            })
            .collect();
        while queued.load(Ordering::SeqCst) < HASH_QUEUE_MAX {
            tokio::task::yield_now().await;
        }
        let refused = pool.run(|| ()).await;
        assert_eq!(refused, Err(DomainError::Internal("password hashing busy".into())));
        for _ in 0..=HASH_QUEUE_MAX {
            release.send(()).unwrap();
        }
        waiting.push(holder);
        for w in waiting {
            tokio::time::timeout(Duration::from_secs(10), w)
                .await
                .expect("a queued job did not finish")
                .unwrap()
                .unwrap();
        }
        let panicked = pool.run(|| panic!("a job that panics")).await;
        assert!(panicked.is_err());
        let after = tokio::time::timeout(Duration::from_secs(10), pool.run(|| 7))
            .await
            .expect("the next job did not finish");
        assert_eq!(after, Ok(7), "the thread lives on, and there is room again");
    }
}
