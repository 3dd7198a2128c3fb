//! What the scenarios that log many users in share: the login of one user through the real
//! calls (`sendcode`, the dev SMS outbox, `login`), many of them through one bounded pool, the
//! cookies a later call needs, and the per-call latency and error tally.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Value};
use tokio::sync::Semaphore;

use crate::client::{Browser, Failure};
use crate::report::PhaseRow;
use crate::stats::Samples;

/// A logged-in user: the cookies its calls need.
#[derive(Clone)]
pub struct Login {
    pub device: String,
    pub sid: String,
    pub csrf: String,
}

impl Login {
    /// A browser that sends this user's cookies, over `http`'s pool.
    pub fn browser(&self, base: &str, http: awc::Client) -> Browser {
        let mut b = Browser::with_client(base, &self.device, http);
        b.set_cookie("yoo_sid", &self.sid);
        b.set_cookie("_csrfToken", &self.csrf);
        b
    }
}

/// Call latencies by name, and failures by (call, cause).
#[derive(Default)]
pub struct Calls {
    pub samples: BTreeMap<&'static str, Samples>,
    pub errors: BTreeMap<(String, String), usize>,
    /// When each call ended: its latency (µs), or none when it failed (the HTML report's timeline).
    pub events: Vec<(Instant, Option<u64>)>,
}

impl Calls {
    /// Awaits `fut`, recording its latency under `name` or its failure.
    pub async fn timed(
        calls: &RefCell<Calls>,
        name: &'static str,
        fut: impl std::future::Future<Output = Result<Value, Failure>>,
    ) -> Result<Value, Failure> {
        let sent = Instant::now();
        let r = fut.await;
        let mut c = calls.borrow_mut();
        let took = sent.elapsed();
        match &r {
            Ok(_) => {
                c.samples.entry(name).or_default().record(took);
                c.events.push((Instant::now(), Some(took.as_micros() as u64)));
            }
            Err(f) => {
                *c.errors.entry((name.to_string(), f.to_string())).or_default() += 1;
                c.events.push((Instant::now(), None));
            }
        }
        r
    }

    /// `msg` followed by every failure seen so far.
    pub fn with_errors(&self, msg: String) -> String {
        let errors: Vec<String> = self.errors.iter().map(|((s, e), n)| format!("{s}: {e} x{n}")).collect();
        format!("{msg} [{}]", errors.join("; "))
    }
}

/// Logs in the users `0..count` (phone `phone(i)`, device `{device_tag}-{i}`), `concurrency`
/// at a time over `http`; `None` for those that failed. The row says how fast it went.
pub async fn login_all(
    base: &str,
    http: &awc::Client,
    count: usize,
    concurrency: usize,
    phone: impl Fn(usize) -> String,
    device_tag: &str,
    calls: &Rc<RefCell<Calls>>,
) -> (Vec<Option<Login>>, PhaseRow) {
    let started = Instant::now();
    let slots = Arc::new(Semaphore::new(concurrency.max(1)));
    let mut tasks = Vec::with_capacity(count);
    let bar = crate::progress::phase("logins", count as u64);
    for index in 0..count {
        let Ok(permit) = slots.clone().acquire_owned().await else {
            break;
        };
        let b = Browser::with_client(base, &format!("{device_tag}-{index}"), http.clone());
        let (phone, calls, bar) = (phone(index), calls.clone(), bar.clone());
        tasks.push(actix_rt::spawn(async move {
            let _permit = permit;
            let r = login(b, &phone, &calls).await;
            bar.done(r.is_ok());
            r
        }));
    }
    let mut out = Vec::with_capacity(tasks.len());
    for t in tasks {
        out.push(t.await.ok().and_then(Result::ok));
    }
    bar.finish();
    let ok = out.iter().filter(|l| l.is_some()).count();
    let secs = started.elapsed().as_secs_f64();
    let row = PhaseRow {
        phase: "logins".into(),
        ok,
        failed: out.len() - ok,
        seconds: secs,
        per_sec: ok as f64 / secs.max(1e-9),
    };
    (out, row)
}

/// One login: `sendcode`, the code from the dev outbox, `login`.
async fn login(mut b: Browser, phone: &str, calls: &RefCell<Calls>) -> Result<Login, Failure> {
    Calls::timed(
        calls,
        "sendcode",
        b.post("/api/passport/login/sendcode", &json!({ "phone": phone })),
    )
    .await?;
    let outbox = Calls::timed(calls, "sms outbox", b.get(&format!("/api/dev/sms/outbox?phone={phone}"))).await?;
    let code = crate::scenario::outbox_code(&outbox).map_err(|(_, f)| f)?;
    let login = json!({ "cellphone": phone, "code": code, "device_no": b.device() });
    Calls::timed(calls, "login", b.post("/api/passport/login", &login)).await?;
    Ok(Login {
        device: b.device().to_string(),
        sid: b.cookie("yoo_sid").unwrap_or_default().to_string(),
        csrf: b.cookie("_csrfToken").unwrap_or_default().to_string(),
    })
}
