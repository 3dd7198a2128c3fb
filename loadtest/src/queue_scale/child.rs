//! A socket-holding child (`loadtest queue-scale-child`, started by the parent, never by hand).
//!
//! It receives its share of the socket players' logins on stdin, opens their WebSockets from its
//! own source address, records every pushed rank and READY with its wall-clock receipt time, and
//! during the window answers each READY with `cancelConfirm` after the hold, which frees the
//! machine for the next player in the queue. Commands and reports are `wire` lines; the parent
//! merges the reports of all children. Everything runs on one actix-rt thread: the callbacks of
//! the sockets' reading tasks share the state through an `Rc<RefCell<_>>`.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::{BufRead, BufWriter, Write};
use std::net::IpAddr;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::json;
use tokio::sync::Semaphore;

use super::analysis::{RankRec, ReadyRec};
use super::wire::{Command, Event, Seat};
use crate::client::{http_client, Browser, Failure, Incoming, Listener};
use crate::config::loopback_base;
use crate::probe::{own_cpu_ticks, own_open_fds, wall_us};

pub const USAGE: &str =
    "usage: loadtest queue-scale-child --url URL [--bind IP] [--hold-ms 1000] [--hold-jitter-ms 100] (started by queue-scale)";

/// The few fields of a pushed GameState the child reads.
#[derive(Deserialize)]
struct Pushed {
    id: Option<i64>,
    status: Option<i64>,
    sort: Option<u64>,
    #[serde(rename = "hasGameOnline")]
    online: Option<bool>,
    /// When READY began (the admission), server clock ms.
    #[serde(rename = "responseTime")]
    ready_at: Option<i64>,
    /// When the push was written, server clock ms.
    #[serde(rename = "serverTime")]
    server_time: Option<i64>,
}

const QUEUE: i64 = 1;
const READY: i64 = 3;

#[derive(Default)]
struct State {
    seats: Vec<Seat>,
    /// Whether each seat's first push came, and whether it was admitted.
    seen: Vec<bool>,
    admitted: Vec<bool>,
    listeners: Vec<Listener>,
    initial_exact: usize,
    initial_other: usize,
    freeing: bool,
    guard: u64,
    guard_hit: bool,
    ready: Vec<ReadyRec>,
    ranks: Vec<RankRec>,
    frees: Vec<(i64, i64)>,
    errors: BTreeMap<(String, String), usize>,
    closed: usize,
    cpu_at_window: u64,
    cpu_in_window: u64,
    rng: u64,
}

impl State {
    fn error(&mut self, step: &str, f: &Failure) {
        *self.errors.entry((step.to_string(), f.to_string())).or_default() += 1;
    }

    /// Uniform in [0, n) (xorshift; the jitter needs no better).
    fn random(&mut self, n: u64) -> u64 {
        let mut x = self.rng.max(1);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng = x;
        if n == 0 {
            0
        } else {
            x % n
        }
    }
}

/// The reports to the parent (stdout), shared by the callbacks.
#[derive(Clone)]
struct Out(Rc<RefCell<BufWriter<std::io::Stdout>>>);

impl Out {
    fn send(&self, e: &Event) {
        let mut w = self.0.borrow_mut();
        let _ = writeln!(w, "{}", e.line());
    }
    fn flush(&self) {
        let _ = self.0.borrow_mut().flush();
    }
}

struct Child {
    base: String,
    http: awc::Client,
    hold: Duration,
    jitter: Duration,
    st: Rc<RefCell<State>>,
    out: Out,
}

/// Runs a child from its arguments (after `queue-scale-child`); the exit status.
pub fn main(args: impl IntoIterator<Item = String>) -> i32 {
    let mut args = args.into_iter();
    let (mut url, mut bind, mut hold, mut jitter) = (None, None, Duration::from_millis(1000), Duration::from_millis(100));
    while let Some(flag) = args.next() {
        let Some(value) = args.next() else {
            eprintln!("{USAGE}");
            return 2;
        };
        let ms = |v: &str| v.parse::<u64>().map(Duration::from_millis).ok();
        match (flag.as_str(), value) {
            ("--url", v) => url = Some(v),
            ("--bind", v) => bind = v.parse::<IpAddr>().ok(),
            ("--hold-ms", v) => hold = ms(&v).unwrap_or(hold),
            ("--hold-jitter-ms", v) => jitter = ms(&v).unwrap_or(jitter),
            _ => {
                eprintln!("{USAGE}");
                return 2;
            }
        }
    }
    let Some(base) = url.as_deref().and_then(|u| loopback_base(u).ok()) else {
        eprintln!("{USAGE}");
        return 2;
    };
    actix_rt::System::new().block_on(run(base, bind, hold, jitter))
}

async fn run(base: String, bind: Option<IpAddr>, hold: Duration, jitter: Duration) -> i32 {
    // Commands arrive on a thread reading stdin; its end (the parent gone) ends the child.
    let (tx, mut commands) = tokio::sync::mpsc::unbounded_channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            match Command::parse(&line) {
                Some(c) => {
                    if tx.send(c).is_err() {
                        break;
                    }
                }
                None => eprintln!("queue-scale-child: bad command {line:?}"),
            }
        }
    });
    let rng = wall_us() as u64 ^ ((std::process::id() as u64) << 32);
    let child = Rc::new(Child {
        base,
        // A WebSocket holds its pool connection for life: room for every socket and the calls.
        http: http_client(super::super::config::SOCKETS_PER_CHILD + 64, bind),
        hold,
        jitter,
        st: Rc::new(RefCell::new(State { rng, ..Default::default() })),
        out: Out(Rc::new(RefCell::new(BufWriter::with_capacity(1 << 16, std::io::stdout())))),
    });
    while let Some(cmd) = commands.recv().await {
        match cmd {
            Command::Seat(s) => {
                let mut st = child.st.borrow_mut();
                st.seats.push(s);
                st.seen.push(false);
                st.admitted.push(false);
            }
            Command::Connect(n) => {
                connect_all(&child, n.max(1)).await;
                // Each socket's first push (the state as it stands) follows its handshake.
                let waited = std::time::Instant::now();
                while waited.elapsed() < Duration::from_secs(10) {
                    let all_seen = {
                        let st = child.st.borrow();
                        st.initial_exact + st.initial_other >= st.listeners.len()
                    };
                    if all_seen {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                let st = child.st.borrow();
                let ok = st.listeners.len();
                for ((step, cause), count) in &st.errors {
                    child.out.send(&Event::Error {
                        step: step.clone(),
                        count: *count,
                        cause: cause.clone(),
                    });
                }
                child.out.send(&Event::Connected {
                    ok,
                    failed: st.seats.len() - ok,
                    initial_exact: st.initial_exact,
                    initial_other: st.initial_other,
                    fds: own_open_fds().unwrap_or(0),
                });
                child.out.flush();
            }
            Command::Window { guard } => {
                {
                    let mut st = child.st.borrow_mut();
                    st.errors.clear();
                    st.freeing = true;
                    st.guard = guard;
                    st.cpu_at_window = own_cpu_ticks().unwrap_or(0);
                }
                child.out.send(&Event::WindowOpen);
                child.out.flush();
            }
            Command::Stop => {
                {
                    let mut st = child.st.borrow_mut();
                    st.freeing = false;
                    st.cpu_in_window = own_cpu_ticks().unwrap_or(0).saturating_sub(st.cpu_at_window);
                }
                child.out.send(&Event::Stopped);
                child.out.flush();
            }
            Command::Report => {
                let st = child.st.borrow();
                for r in &st.ready {
                    child.out.send(&Event::Ready(r.r0, r.at_us, r.ready_ms, r.sent_ms));
                }
                for r in &st.ranks {
                    child.out.send(&Event::Rank(r.r0, r.at_us, r.sort, r.sent_ms));
                }
                for &(s, a) in &st.frees {
                    child.out.send(&Event::Freed(s, a));
                }
                for ((step, cause), count) in &st.errors {
                    child.out.send(&Event::Error {
                        step: step.clone(),
                        count: *count,
                        cause: cause.clone(),
                    });
                }
                child.out.send(&Event::Usage {
                    cpu_ticks: st.cpu_in_window,
                    closed: st.closed,
                });
                child.out.send(&Event::End);
                child.out.flush();
            }
        }
    }
    // The parent is gone: close the sockets.
    let listeners = std::mem::take(&mut child.st.borrow_mut().listeners);
    drop(listeners);
    0
}

/// Opens every seat's socket, `n` at a time: `fetchToken` with the seat's login, then `/echo`.
async fn connect_all(child: &Rc<Child>, n: usize) {
    let slots = Arc::new(Semaphore::new(n));
    let count = child.st.borrow().seats.len();
    let mut tasks = Vec::with_capacity(count);
    for idx in 0..count {
        let Ok(permit) = slots.clone().acquire_owned().await else {
            break;
        };
        let child = child.clone();
        tasks.push(actix_rt::spawn(async move {
            let _permit = permit;
            let seat = child.st.borrow().seats[idx].clone();
            let mut b = child.browser(&seat);
            let token = match b.get("/api/fetchToken").await {
                Ok(v) => v["access_token"].as_str().unwrap_or_default().to_string(),
                Err(f) => return child.st.borrow_mut().error("fetchToken", &f),
            };
            let handler_child = child.clone();
            match b.listen(&token, move |ev| handler_child.on_event(idx, ev)).await {
                Ok(l) => child.st.borrow_mut().listeners.push(l),
                Err(f) => child.st.borrow_mut().error("ws connect", &f),
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
}

impl Child {
    fn browser(&self, seat: &Seat) -> Browser {
        let mut b = Browser::with_client(&self.base, &seat.device, self.http.clone());
        b.set_cookie("yoo_sid", &seat.sid);
        b.set_cookie("_csrfToken", &seat.csrf);
        b
    }

    /// A frame of seat `idx`'s socket, on its reading task.
    fn on_event(self: &Rc<Self>, idx: usize, ev: Incoming<'_>) {
        match ev {
            Incoming::Status { data, .. } => {
                let now = wall_us();
                if let Ok(p) = serde_json::from_str::<Pushed>(data) {
                    self.on_state(idx, now, p);
                }
            }
            Incoming::Authorization(s) => {
                self.st.borrow_mut().error("socket", &Failure::Authorization(s));
            }
            Incoming::Closed => self.st.borrow_mut().closed += 1,
            Incoming::Frame { .. } => {}
        }
    }

    fn on_state(self: &Rc<Self>, idx: usize, now: i64, p: Pushed) {
        let mut st = self.st.borrow_mut();
        let (session_id, r0) = (st.seats[idx].session_id, st.seats[idx].r0);
        if p.id != Some(session_id) || p.online != Some(true) {
            return;
        }
        if !st.seen[idx] {
            // The first push is the state as it stands when the socket opens: the rank at start.
            st.seen[idx] = true;
            if p.status == Some(QUEUE) && p.sort == Some(r0) {
                st.initial_exact += 1;
            } else {
                st.initial_other += 1;
                if st.initial_other <= 3 {
                    eprintln!(
                        "queue-scale-child: seat r0={r0}: first push status {:?} sort {:?}",
                        p.status, p.sort
                    );
                }
            }
        }
        match p.status {
            Some(QUEUE) => {
                if let Some(sort) = p.sort {
                    st.ranks.push(RankRec {
                        r0,
                        at_us: now,
                        sort,
                        sent_ms: p.server_time.unwrap_or(0),
                    });
                }
            }
            Some(READY) if !st.admitted[idx] => {
                st.admitted[idx] = true;
                let sent_ms = p.server_time.unwrap_or(0);
                st.ready.push(ReadyRec {
                    r0,
                    at_us: now,
                    ready_ms: p.ready_at.unwrap_or(sent_ms),
                    sent_ms,
                });
                if !st.freeing {
                    return;
                }
                if r0 >= st.guard && !st.guard_hit {
                    // Admissions near the last socket player: free nothing more.
                    st.guard_hit = true;
                    st.freeing = false;
                    self.out.send(&Event::Guard(now));
                    self.out.flush();
                    return;
                }
                let span = self.jitter.as_micros() as u64 * 2;
                let hold = self.hold - self.jitter + Duration::from_micros(st.random(span + 1));
                let seat = st.seats[idx].clone();
                drop(st);
                let me = self.clone();
                actix_rt::spawn(async move { me.free_after(hold, seat).await });
            }
            _ => {}
        }
    }

    /// After `hold`, gives the machine back with `cancelConfirm` (unless the window has ended).
    async fn free_after(self: Rc<Self>, hold: Duration, seat: Seat) {
        tokio::time::sleep(hold).await;
        if !self.st.borrow().freeing {
            return;
        }
        let mut b = self.browser(&seat);
        let sent = wall_us();
        let r = b.post("/api/japi/yoo/game/cancelConfirm", &json!({"id": seat.session_id})).await;
        let answered = wall_us();
        let mut st = self.st.borrow_mut();
        match r {
            Ok(_) => st.frees.push((sent, answered)),
            Err(f) => st.error("cancelConfirm", &f),
        }
    }
}
