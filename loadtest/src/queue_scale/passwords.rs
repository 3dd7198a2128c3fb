//! The password-login side load of the queue-scale scenario (issue 11): while the window runs,
//! `password_logins_per_sec` full password logins a second (`POST /api/passport/password/login`
//! with the right password, spread evenly), over a pool of `password_accounts` accounts of their
//! own, prepared before the queue fills: each logs in once with an SMS code (which creates the
//! account), then sets its password through the forgot-password calls (the code from the dev
//! outbox, `verify` for the ticket, `update`). The passwords are right, so the security check
//! (20125 after failures) never comes in; a right password also clears the phone's count.
//!
//! The forgot-password code is the phone's second code within a minute: the server must allow
//! it (`[sms] resend_secs = 0`, as the benchmark script sets).

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use crate::client::{http_client, Browser, Failure};
use crate::config::QueueConfig;
use crate::logins::{login_all, Calls, Login};
use crate::report::PhaseRow;
use crate::stats::{Samples, Summary};

/// Logins in flight at most; beyond it, a due login is counted as not sent (the server is not
/// keeping up, and an unbounded pile would measure the harness).
const IN_FLIGHT_MAX: usize = 256;

/// The envelope code of a call the server refused because it is busy.
pub const BUSY_CODE: i64 = 50000;

/// A prepared account: its phone and password.
#[derive(Debug, Clone)]
pub struct Account {
    pub phone: String,
    pub password: String,
}

/// What the side load measured over the window.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PasswordFigures {
    /// Logins a second asked for.
    pub per_sec: f64,
    /// Accounts prepared (with a password), of those asked for.
    pub accounts: usize,
    pub accounts_asked: usize,
    /// Logins due in the window, sent, answered with code 0, failed.
    pub due: usize,
    pub sent: usize,
    pub ok: usize,
    pub errors: usize,
    /// Refused at once with `BUSY_CODE` by the server's bounded hashing pool: load it shed by
    /// design (the client shows '服务繁忙，请稍后再试'), counted apart from the errors.
    pub refused_busy: usize,
    /// Due but not sent: `IN_FLIGHT_MAX` logins were already in flight.
    pub not_sent: usize,
    /// Sent and answered logins a second over the window.
    pub ok_per_sec: f64,
    /// Latency of the successful logins.
    pub latency: Option<Summary>,
    /// Failures by cause.
    pub causes: BTreeMap<String, usize>,
}

/// The password of account `i`: 8–16 characters with letters, digits and a symbol.
pub fn password(i: usize) -> String {
    format!("Pw{i:05}!x")
}

/// Base64 (standard alphabet, padded) of `s`'s UTF-8: how the client sends a password.
pub fn b64(s: &str) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in s.as_bytes().chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Prepares the accounts: the code login of each, then its password. The row says how it went;
/// failures go to `calls`' errors.
pub async fn prepare(cfg: &QueueConfig, base: &str, run_tag: &str, calls: &Rc<RefCell<Calls>>) -> (Vec<Account>, PhaseRow) {
    let started = Instant::now();
    let k = cfg.password_accounts;
    let first = cfg.password_first_index();
    let concurrency = cfg.concurrency.min(50);
    let http = http_client(concurrency, None);
    let phone = |i: usize| cfg.phone(first + i);
    let (logins, _) = login_all(base, &http, k, concurrency, phone, &format!("pw-{run_tag}"), calls).await;
    let slots = Arc::new(Semaphore::new(concurrency));
    let mut tasks = Vec::new();
    for (i, login) in logins.into_iter().enumerate() {
        let Some(login) = login else { continue };
        let Ok(permit) = slots.clone().acquire_owned().await else { break };
        let (base, http, calls) = (base.to_string(), http.clone(), calls.clone());
        let account = Account {
            phone: phone(i),
            password: password(i),
        };
        tasks.push(actix_rt::spawn(async move {
            let _permit = permit;
            set_password(login, &base, http, &account, &calls).await.ok().map(|_| account)
        }));
    }
    let mut out = Vec::with_capacity(k);
    for t in tasks {
        if let Ok(Some(a)) = t.await {
            out.push(a);
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let row = PhaseRow {
        phase: "password accounts".into(),
        ok: out.len(),
        failed: k - out.len(),
        seconds: secs,
        per_sec: out.len() as f64 / secs.max(1e-9),
    };
    (out, row)
}

/// The forgot-password calls of a logged-in player: the code (delivered in the background: the
/// outbox is read until it holds one more), the ticket, the password.
async fn set_password(login: Login, base: &str, http: awc::Client, a: &Account, calls: &RefCell<Calls>) -> Result<(), Failure> {
    let mut b = login.browser(base, http);
    let path = format!("/api/dev/sms/outbox?phone={}", a.phone);
    let before = b.get(&path).await?.as_array().map_or(0, Vec::len);
    Calls::timed(
        calls,
        "forget sendcode",
        b.post("/api/passport/passwordForget/sendcode", &json!({ "phone": a.phone })),
    )
    .await?;
    let deadline = Instant::now() + Duration::from_secs(10);
    let code = loop {
        let o = Calls::timed(calls, "sms outbox", b.get(&path)).await?;
        if o.as_array().map_or(0, Vec::len) > before {
            break o[0]["code"].as_str().unwrap_or_default().to_string();
        }
        if Instant::now() > deadline {
            let f = Failure::Unexpected("no forgot-password code within 10 s".into());
            *calls
                .borrow_mut()
                .errors
                .entry(("forget sendcode".into(), f.to_string()))
                .or_default() += 1;
            return Err(f);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let verified = Calls::timed(
        calls,
        "forget verify",
        b.post("/api/password/forget/verify", &json!({ "cellphone": a.phone, "code": code })),
    )
    .await?;
    let ticket = verified["ticket"].as_str().unwrap_or_default().to_string();
    let body = json!({ "cellphone": a.phone, "password": b64(&a.password), "ticket": ticket });
    Calls::timed(calls, "forget update", b.post("/api/password/forget/update", &body)).await?;
    Ok(())
}

/// The side load: from now until `stop` is set, login `i` is due at `i / per_sec` and goes to
/// account `i % accounts`, each from a browser without cookies over one pool of its own. Returns
/// when `stop` is set and the logins in flight have ended (at most 10 s more).
pub async fn side_load(base: String, accounts: Vec<Account>, per_sec: f64, stop: Rc<Cell<bool>>, asked: usize) -> PasswordFigures {
    let mut f = PasswordFigures {
        per_sec,
        accounts: accounts.len(),
        accounts_asked: asked,
        ..Default::default()
    };
    if accounts.is_empty() || per_sec <= 0.0 {
        return f;
    }
    let http = http_client(IN_FLIGHT_MAX, None);
    let samples: Rc<RefCell<Samples>> = Rc::default();
    let causes: Rc<RefCell<BTreeMap<String, usize>>> = Rc::default();
    let busy = Rc::new(Cell::new(0usize));
    let in_flight = Rc::new(Cell::new(0usize));
    let t0 = tokio::time::Instant::now();
    let began = Instant::now();
    let mut tasks = Vec::new();
    let mut i = 0usize;
    loop {
        tokio::time::sleep_until(t0 + Duration::from_secs_f64(i as f64 / per_sec)).await;
        if stop.get() {
            break;
        }
        f.due += 1;
        if in_flight.get() >= IN_FLIGHT_MAX {
            f.not_sent += 1;
            i += 1;
            continue;
        }
        f.sent += 1;
        let a = &accounts[i % accounts.len()];
        let mut b = Browser::with_client(&base, &format!("pwl-{i}"), http.clone());
        let body = json!({ "user_name": a.phone, "password": b64(&a.password), "device_no": b.device() });
        let (samples, causes, busy, in_flight) = (samples.clone(), causes.clone(), busy.clone(), in_flight.clone());
        in_flight.set(in_flight.get() + 1);
        tasks.push(actix_rt::spawn(async move {
            let sent = Instant::now();
            let r: Result<Value, Failure> = b.post("/api/passport/password/login", &body).await;
            match r {
                Ok(_) => samples.borrow_mut().record(sent.elapsed()),
                Err(Failure::Api(BUSY_CODE)) => busy.set(busy.get() + 1),
                Err(e) => *causes.borrow_mut().entry(e.to_string()).or_default() += 1,
            }
            in_flight.set(in_flight.get() - 1);
        }));
        i += 1;
    }
    let window = began.elapsed().as_secs_f64();
    let _ = tokio::time::timeout(Duration::from_secs(10), futures_util::future::join_all(tasks)).await;
    let s = samples.borrow();
    f.ok = s.len();
    f.latency = s.summary();
    f.causes = causes.borrow().clone();
    f.errors = f.causes.values().sum();
    f.refused_busy = busy.get();
    // Logins still in flight after 10 s: failed, as a browser would have given up.
    let unanswered = f.sent - f.ok - f.errors - f.refused_busy;
    if unanswered > 0 {
        f.causes.insert("no answer within 10 s of the window's end".into(), unanswered);
        f.errors += unanswered;
    }
    f.ok_per_sec = f.ok as f64 / window.max(1e-9);
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_and_passwords() {
        assert_eq!(b64("abc123!@"), "YWJjMTIzIUA=");
        assert_eq!(b64("ab"), "YWI=");
        assert_eq!(b64("abc"), "YWJj");
        for i in [0, 7, 199, 99_999] {
            let p = password(i);
            assert!((8..=16).contains(&p.len()), "{p}");
            assert!(p.bytes().any(|c| c.is_ascii_digit()) && p.bytes().any(|c| c.is_ascii_alphabetic()) && p.contains('!'));
        }
    }
}
