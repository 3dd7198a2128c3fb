//! The purchases scenario (issue 10): orders created at a set rate and paid through the dev
//! sandbox provider, each the way a browser and a payer's phone do it.
//!
//! 1. **Logins.** `players` buyers log in through the real calls, `concurrency` at a time.
//! 2. **Window.** Every `1/rate` s one order, round-robin over the buyers, on a task of its own:
//!    `payment/goods` (its own `Idempotency-Key`, paid by `wechat`: a QR order), then
//!    `qrcode/generate`, then at once the browser's long poll (`payment/order/polling`) and the
//!    payer's `确认支付` on the sandbox's pay page (`/api/dev/pay/{order_no}/confirm`), after which
//!    the sandbox posts its signed notice to the platform's callback route. An order due while
//!    `max_in_flight` are under way is not sent (counted: the harness could not keep up).
//! 3. **Figures.** Order creation latency (the `payment/goods` call), and payment → fulfilment:
//!    from sending the confirm to the long poll answering the fulfilled order (the sandbox's
//!    notice, its verification, the settling transaction and the poll's wake-up, all inside it),
//!    so it bounds the callback → fulfilment time from above. With `server_pid`, the server's CPU
//!    over the window and its drain.
//! 4. **Ledger.** `GET /api/dev/ledger/check` replays every user's ledger against the balances.
//!
//! The run passes (exit 0) when every order created was fulfilled and the ledger check found
//! nothing; the targets (creation p99 ≤ 20 ms, fulfilment p99 ≤ 50 ms) are reported beside.
//! Loopback only, bounded by `rate × window` orders and the `timeout` deadline.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};

use crate::client::{http_client, Browser, Failure};
use crate::config::PurchaseConfig;
use crate::logins::{login_all, Calls, Login};
use crate::probe::{self, wall_us};
use crate::report::{PhaseRow, TargetRow};
use crate::stats::{Samples, Summary};

/// The issue's targets, ms.
pub const CREATE_P99_MS: f64 = 20.0;
pub const FULFIL_P99_MS: f64 = 50.0;

/// QR-poll answers that mean "poll again": 20142 waiting, 20143 scanned.
const POLL_AGAIN: [i64; 2] = [20142, 20143];

/// The run's result.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PurchaseReport {
    pub url: String,
    pub players: usize,
    pub rate: f64,
    pub goods_code: String,
    pub window_s: f64,
    /// From the window's start to the last order's end.
    pub drain_s: f64,
    pub setup: Vec<PhaseRow>,
    /// Orders due in the window (`rate × window`).
    pub due: u64,
    /// Due while `max_in_flight` were under way: not sent.
    pub not_sent: u64,
    /// `payment/goods` answered with an order.
    pub created: u64,
    /// The long poll answered the paid order.
    pub fulfilled: u64,
    /// Created orders the run did not see fulfilled (a failed step after the creation).
    pub unfulfilled: u64,
    /// Orders created a second over the window.
    pub created_per_s: f64,
    pub create: Option<Summary>,
    pub fulfil: Option<Summary>,
    /// Every call's latency.
    pub calls: Vec<(String, Summary)>,
    /// (call, cause, count).
    pub errors: Vec<(String, String, usize)>,
    pub ledger_users: u64,
    /// `(uid, asset, replayed, stored)` of each balance its ledger does not replay to.
    pub ledger_mismatches: Vec<(i64, String, i64, i64)>,
    /// Whether the ledger check ran at all.
    pub ledger_checked: bool,
    /// The server's CPU over the window and drain, % of one core.
    pub server_cpu_pct: Option<f64>,
    pub targets: Vec<TargetRow>,
    pub elapsed_s: f64,
    /// Every call, fulfilment and error over time, for the HTML report (not in the JSON).
    #[serde(skip)]
    pub timeline: Option<crate::timeline::Timeline>,
}

impl PurchaseReport {
    /// 0 when every created order was fulfilled and the ledger matched; 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        let clean = self.ledger_checked && self.ledger_mismatches.is_empty();
        if clean && self.unfulfilled == 0 && self.created > 0 {
            0
        } else {
            1
        }
    }

    pub fn finish(&mut self) {
        let row = |figure: &str, value: Option<f64>, target: f64| TargetRow {
            figure: figure.into(),
            value,
            target,
            unit: "ms",
            met: value.map(|v| v <= target),
        };
        self.targets = vec![
            row("order creation p99", self.create.map(|s| s.p99_ms), CREATE_P99_MS),
            row("payment → fulfilment p99", self.fulfil.map(|s| s.p99_ms), FULFIL_P99_MS),
        ];
    }

    pub fn table(&self) -> String {
        use std::fmt::Write as _;
        let mut o = String::new();
        let _ = writeln!(
            o,
            "purchases against {}: {} buyers, {} orders/s of {} for {:.0} s (QR paid through the sandbox)",
            self.url, self.players, self.rate, self.goods_code, self.window_s
        );
        crate::report::setup_rows(&mut o, &self.setup);
        let named = [
            ("order creation", self.create.as_ref()),
            ("payment → fulfilment", self.fulfil.as_ref()),
        ];
        crate::report::LatencyTable {
            indent: "  ",
            width: 28,
            decimals: 1,
            header: "call",
            rows: self.calls.iter().map(|(n, s)| (n.as_str(), Some(s))).chain(named).collect(),
        }
        .render(&mut o);
        let _ = writeln!(
            o,
            "orders: {} due, {} not sent (harness behind), {} created ({:.0}/s), {} fulfilled, {} not fulfilled; window {:.1} s + drain {:.1} s",
            self.due, self.not_sent, self.created, self.created_per_s, self.fulfilled, self.unfulfilled, self.window_s, self.drain_s
        );
        if let Some(cpu) = self.server_cpu_pct {
            let _ = writeln!(o, "server CPU over the window and drain: {cpu:.0}% of one core");
        }
        let ledger = if !self.ledger_checked {
            "not checked".to_string()
        } else if self.ledger_mismatches.is_empty() {
            format!("{} users replayed, every balance matches", self.ledger_users)
        } else {
            format!("{} users replayed, {} MISMATCHES", self.ledger_users, self.ledger_mismatches.len())
        };
        let _ = writeln!(o, "ledger: {ledger}");
        for (call, cause, n) in &self.errors {
            let _ = writeln!(o, "error: {call}: {cause} x{n}");
        }
        for t in &self.targets {
            let verdict = match t.met {
                Some(true) => "met",
                Some(false) => "MISSED",
                None => "no data",
            };
            let value = t.value.map_or("-".into(), |v| format!("{v:.1}"));
            let _ = writeln!(o, "target {:<28} {:>8} {} (≤ {} {})", t.figure, value, verdict, t.target, t.unit);
        }
        o
    }
}

/// Runs the scenario; must run inside an actix-rt `System` (see [`run_blocking`]).
pub async fn run(cfg: &PurchaseConfig) -> Result<PurchaseReport, String> {
    let base = cfg.validate()?;
    match tokio::time::timeout(cfg.timeout, scenario(cfg, &base)).await {
        Ok(r) => r,
        Err(_) => Err(format!("purchases: the {} s deadline passed", cfg.timeout.as_secs())),
    }
}

/// [`run`] on a fresh actix-rt `System` on this thread.
pub fn run_blocking(cfg: &PurchaseConfig) -> Result<PurchaseReport, String> {
    actix_rt::System::new().block_on(run(cfg))
}

fn note(msg: &str) {
    crate::progress::println(&format!("purchases: {msg}"));
}

/// What the window's order tasks count.
#[derive(Default)]
struct Tally {
    created: Cell<u64>,
    fulfilled: Cell<u64>,
    in_flight: Cell<usize>,
    fulfil: RefCell<Samples>,
    /// When each order was seen fulfilled.
    fulfilled_at: RefCell<Vec<Instant>>,
}

/// One run's shared state: the settings, the call tally, the report being filled.
struct Run<'a> {
    cfg: &'a PurchaseConfig,
    base: &'a str,
    began: Instant,
    /// Makes idempotency keys and devices unique across runs.
    tag: String,
    calls: Rc<RefCell<Calls>>,
    report: PurchaseReport,
}

async fn scenario(cfg: &PurchaseConfig, base: &str) -> Result<PurchaseReport, String> {
    let mut run = Run {
        cfg,
        base,
        began: Instant::now(),
        tag: format!("pu-{:x}", (wall_us() as u64) % (1 << 36)),
        calls: Rc::new(RefCell::new(Calls::default())),
        report: PurchaseReport {
            url: base.to_string(),
            players: cfg.players,
            rate: cfg.rate,
            goods_code: cfg.goods_code.clone(),
            ..Default::default()
        },
    };
    let buyers = run.logins().await?;
    // Enough connections that orders at the rate never queue for one.
    let http = http_client(cfg.max_in_flight.saturating_mul(2).min(8_000), None);
    let tally = run.window(&buyers, &http).await;
    run.ledger(&http).await;
    Ok(run.figures(&tally))
}

impl Run<'_> {
    /// Phase 1: The buyers log in.
    async fn logins(&mut self) -> Result<Vec<Login>, String> {
        let cfg = self.cfg;
        note(&format!("logging in {} buyers", cfg.players));
        let http = http_client(cfg.concurrency, None);
        let (logins, row) = login_all(
            self.base,
            &http,
            cfg.players,
            cfg.concurrency,
            |i| cfg.phone(i),
            &self.tag,
            &self.calls,
        )
        .await;
        self.report.setup.push(row);
        let buyers: Vec<Login> = logins.into_iter().flatten().collect();
        if buyers.is_empty() {
            return Err(self.calls.borrow().with_errors("no buyer could log in".into()));
        }
        Ok(buyers)
    }

    /// Phase 2: Orders at the rate for the window, then the drain; the server's CPU over both.
    async fn window(&mut self, buyers: &[Login], http: &awc::Client) -> Rc<Tally> {
        let (cfg, base) = (self.cfg, self.base);
        note(&format!("window: {} orders/s for {} s", cfg.rate, cfg.window.as_secs()));
        let tally = Rc::new(Tally::default());
        let cpu_before = cfg.server_pid.and_then(probe::cpu_ticks);
        let t0 = tokio::time::Instant::now();
        let due = (cfg.rate * cfg.window.as_secs_f64()).floor() as u64;
        let mut tasks = Vec::with_capacity(due as usize);
        let bar = crate::progress::phase("orders", due);
        for k in 0..due {
            tokio::time::sleep_until(t0 + Duration::from_secs_f64(k as f64 / cfg.rate)).await;
            if tally.in_flight.get() >= cfg.max_in_flight {
                self.report.not_sent += 1;
                bar.done(false);
                continue;
            }
            tally.in_flight.set(tally.in_flight.get() + 1);
            let buyer = &buyers[k as usize % buyers.len()];
            let order = Order {
                shopper: buyer.browser(base, http.clone()),
                poller: buyer.browser(base, http.clone()),
                payer: Browser::with_client(base, "payer", http.clone()),
                key: format!("{}-{k}", self.tag),
                goods_code: cfg.goods_code.clone(),
            };
            let (calls, tally, bar) = (self.calls.clone(), tally.clone(), bar.clone());
            tasks.push(actix_rt::spawn(async move {
                let fulfilled = order.run(&calls, &tally).await;
                bar.done(fulfilled);
                tally.in_flight.set(tally.in_flight.get() - 1);
            }));
        }
        let window_s = t0.elapsed().as_secs_f64();
        for t in tasks {
            let _ = t.await;
        }
        bar.finish();
        let r = &mut self.report;
        r.due = due;
        r.drain_s = t0.elapsed().as_secs_f64() - window_s;
        r.window_s = window_s;
        if let (Some(pid), Some(before)) = (cfg.server_pid, cpu_before) {
            r.server_cpu_pct = probe::cpu_ticks(pid)
                .map(|after| after.saturating_sub(before) as f64 / probe::TICKS_PER_SEC / t0.elapsed().as_secs_f64() * 100.0);
        }
        tally
    }

    /// Phase 3: The whole ledger replayed against the balances.
    async fn ledger(&mut self, http: &awc::Client) {
        note("checking the ledger");
        let mut checker = Browser::with_client(self.base, "ledger-check", http.clone());
        match Calls::timed(&self.calls, "ledger check", checker.get("/api/dev/ledger/check")).await {
            Ok(v) => {
                let r = &mut self.report;
                r.ledger_checked = true;
                r.ledger_users = v["users"].as_u64().unwrap_or(0);
                r.ledger_mismatches = v["mismatches"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|m| {
                        (
                            m["uid"].as_i64().unwrap_or(0),
                            m["asset"].as_str().unwrap_or("").to_string(),
                            m["replayed"].as_i64().unwrap_or(0),
                            m["stored"].as_i64().unwrap_or(0),
                        )
                    })
                    .collect();
            }
            Err(f) => note(&format!("the ledger check failed: {f}")),
        }
    }

    /// Phase 4: The figures, the targets and the timeline.
    fn figures(self, tally: &Tally) -> PurchaseReport {
        let mut report = self.report;
        report.created = tally.created.get();
        report.fulfilled = tally.fulfilled.get();
        report.unfulfilled = report.created - report.fulfilled;
        report.created_per_s = report.created as f64 / report.window_s.max(1e-9);
        report.fulfil = tally.fulfil.borrow().summary();
        let c = self.calls.borrow();
        report.create = c.samples.get("order create").and_then(Samples::summary);
        report.calls = c
            .samples
            .iter()
            .filter(|(k, _)| **k != "order create")
            .filter_map(|(k, s)| Some((k.to_string(), s.summary()?)))
            .collect();
        report.errors = c.errors.iter().map(|((s, e), n)| (s.clone(), e.clone(), *n)).collect();
        report.elapsed_s = self.began.elapsed().as_secs_f64();
        let since = |t: &Instant| t.saturating_duration_since(self.began).as_secs_f64();
        report.timeline = Some(crate::timeline::Timeline {
            latencies: c
                .events
                .iter()
                .filter_map(|(t, us)| Some((since(t), (*us)? as f64 / 1000.0)))
                .collect(),
            done: tally.fulfilled_at.borrow().iter().map(since).collect(),
            done_per_s: None,
            errors: c.events.iter().filter(|e| e.1.is_none()).map(|(t, _)| since(t)).collect(),
            span_s: report.elapsed_s,
            unit: "orders fulfilled".into(),
            errors_untimed: None,
        });
        report.finish();
        report
    }
}

/// One order, as a browser and the payer's phone make it.
struct Order {
    shopper: Browser,
    poller: Browser,
    payer: Browser,
    key: String,
    goods_code: String,
}

impl Order {
    /// Whether the order was seen fulfilled.
    async fn run(mut self, calls: &RefCell<Calls>, tally: &Tally) -> bool {
        let body = json!({
            "goods_id": 0,
            "goods_code": self.goods_code,
            "goods_num": 1,
            "pay_method": "wechat",
            "confirm": 0,
        });
        let key = [("Idempotency-Key", self.key.as_str())];
        let create = self.shopper.post_with("/api/payment/goods", &body, &key);
        let Ok(order) = Calls::timed(calls, "order create", create).await else {
            return false;
        };
        tally.created.set(tally.created.get() + 1);
        let Some(no) = order["order_no"].as_str().map(str::to_owned) else {
            return false;
        };
        let params = percent_encode(&json!({ "order_no": no }).to_string());
        let qr_path = format!("/api/v3/qrcode/generate?action=scan_payment&params={params}");
        let Ok(qr) = Calls::timed(calls, "qrcode", self.shopper.get(&qr_path)).await else {
            return false;
        };
        let Some(ticket) = qr["ticket"].as_str().map(str::to_owned) else {
            return false;
        };
        let sent = Instant::now();
        let poll = poll_until_paid(&mut self.poller, &no, &ticket);
        let confirm = Calls::timed(calls, "sandbox confirm", async {
            self.payer
                .post_form(&format!("/api/dev/pay/{no}/confirm"))
                .await
                .map(|()| Value::Null)
        });
        let (paid, confirmed) = futures_util::future::join(poll, confirm).await;
        match (paid, confirmed) {
            (Ok(()), Ok(_)) => {
                tally.fulfil.borrow_mut().record(sent.elapsed());
                tally.fulfilled.set(tally.fulfilled.get() + 1);
                tally.fulfilled_at.borrow_mut().push(Instant::now());
                true
            }
            (Err(f), _) => {
                *calls
                    .borrow_mut()
                    .errors
                    .entry(("order polling".into(), f.to_string()))
                    .or_default() += 1;
                calls.borrow_mut().events.push((Instant::now(), None));
                false
            }
            (Ok(()), Err(_)) => false,
        }
    }
}

/// Long-polls the order until it is paid (again on "waiting" and "scanned").
async fn poll_until_paid(b: &mut Browser, order_no: &str, ticket: &str) -> Result<(), Failure> {
    let body = json!({ "order_no": order_no, "ticket": ticket });
    loop {
        match b.post("/api/v3/payment/order/polling", &body).await {
            Ok(_) => return Ok(()),
            Err(Failure::Api(code)) if POLL_AGAIN.contains(&code) => continue,
            Err(f) => return Err(f),
        }
    }
}

/// `s` with every byte but ASCII letters, digits and `-._~` percent-encoded (a query value).
fn percent_encode(s: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_percent_encoded() {
        assert_eq!(percent_encode(r#"{"order_no":"P1-2"}"#), "%7B%22order_no%22%3A%22P1-2%22%7D");
        assert_eq!(percent_encode("中"), "%E4%B8%AD");
    }

    // The verdict: every created order fulfilled and a clean ledger; a mismatch or a lost order fails.
    #[test]
    fn exit_code_needs_every_order_fulfilled_and_a_clean_ledger() {
        let mut r = PurchaseReport {
            created: 10,
            fulfilled: 10,
            ledger_checked: true,
            ..Default::default()
        };
        assert_eq!(r.exit_code(), 0);
        r.unfulfilled = 1;
        assert_eq!(r.exit_code(), 1);
        r.unfulfilled = 0;
        r.ledger_mismatches.push((7, "coins".into(), 500, 501));
        assert_eq!(r.exit_code(), 1);
        r.ledger_mismatches.clear();
        r.ledger_checked = false;
        assert_eq!(r.exit_code(), 1);
    }
}
