//! A socket-holding child (`loadtest room-scale-child`, started by the parent, never by hand).
//!
//! It receives its share of the viewers' logins on stdin; for each it opens `/echo` from its own
//! source address, enters the room (`room/loginRelayRoom`) and watches it from the entry
//! answer's position (ROOM_WATCH). Every ROOM_EVENTS frame is read once per distinct content
//! ([`FrameCache`]) and applied to the viewer ([`Viewer`]: offsets, gaps, chats seen); each chat
//! receipt goes to the child's [`Tally`]. During the window its churners leave (ROOM_UNWATCH,
//! `room/exit`) and come back (enter, watch) at the rate the parent gives. Everything runs on one
//! actix-rt thread; the sockets' reading tasks share the state through an `Rc<RefCell<_>>`.

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufWriter, Write};
use std::net::IpAddr;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::Semaphore;

use super::count::{FrameCache, Tally, Viewer};
use super::frames;
use super::wire::{Command, Event, ViewerSeat, ViewerSums};
use crate::client::{http_client, Browser, Failure, Incoming, Listener};
use crate::config::loopback_base;
use crate::probe::{own_cpu_ticks, own_open_fds, wall_us};

pub const USAGE: &str = "usage: loadtest room-scale-child --url URL --dd-rid ID [--mode 2] [--bind IP] (started by room-scale)";

/// Paths of the room calls.
pub const ENTER: &str = "/api/japi/yoo/v2/room/loginRelayRoom";
pub const EXIT: &str = "/api/japi/yoo/v2/room/exit";

struct Slot {
    seat: ViewerSeat,
    viewer: Viewer,
    listener: Option<Listener>,
    /// In the room and watching (set once the ROOM_WATCH is queued).
    inside: bool,
    /// Ever left during the window.
    churned: bool,
    closed: bool,
}

#[derive(Default)]
struct State {
    slots: Vec<Slot>,
    cache: Option<FrameCache>,
    tally: Tally,
    errors: BTreeMap<(String, String), usize>,
    /// Churners in the room, oldest entry first; churners out, oldest exit first.
    ins: VecDeque<usize>,
    outs: VecDeque<usize>,
    churning: bool,
    exits: u64,
    enters: u64,
    cpu_at_window: u64,
    /// Events every viewer had received when the window opened.
    events_at_window: u64,
}

impl State {
    fn error(&mut self, step: &str, f: &Failure) {
        *self.errors.entry((step.to_string(), f.to_string())).or_default() += 1;
    }
}

struct Child {
    base: String,
    http: awc::Client,
    dd_rid: i64,
    mode: i64,
    st: Rc<RefCell<State>>,
    out: RefCell<BufWriter<std::io::Stdout>>,
}

/// Runs a child from its arguments (after `room-scale-child`); the exit status.
pub fn main(args: impl IntoIterator<Item = String>) -> i32 {
    let mut args = args.into_iter();
    let (mut url, mut bind, mut dd_rid, mut mode) = (None, None, None, 2);
    while let Some(flag) = args.next() {
        let Some(value) = args.next() else {
            eprintln!("{USAGE}");
            return 2;
        };
        match (flag.as_str(), value) {
            ("--url", v) => url = Some(v),
            ("--bind", v) => bind = v.parse::<IpAddr>().ok(),
            ("--dd-rid", v) => dd_rid = v.parse::<i64>().ok(),
            ("--mode", v) => mode = v.parse::<i64>().unwrap_or(mode),
            _ => {
                eprintln!("{USAGE}");
                return 2;
            }
        }
    }
    let (Some(base), Some(dd_rid)) = (url.as_deref().and_then(|u| loopback_base(u).ok()), dd_rid) else {
        eprintln!("{USAGE}");
        return 2;
    };
    actix_rt::System::new().block_on(run(base, bind, dd_rid, mode))
}

async fn run(base: String, bind: Option<IpAddr>, dd_rid: i64, mode: i64) -> i32 {
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
                None => eprintln!("room-scale-child: bad command {line:?}"),
            }
        }
    });
    let child = Rc::new(Child {
        base,
        // A WebSocket holds its pool connection for life: room for every socket and the calls.
        http: http_client(crate::config::SOCKETS_PER_CHILD + 64, bind),
        dd_rid,
        mode,
        st: Rc::new(RefCell::new(State {
            cache: Some(FrameCache::new(256)),
            ..Default::default()
        })),
        out: RefCell::new(BufWriter::with_capacity(1 << 16, std::io::stdout())),
    });
    while let Some(cmd) = commands.recv().await {
        match cmd {
            Command::Viewer(seat) => child.st.borrow_mut().slots.push(Slot {
                seat,
                viewer: Viewer::default(),
                listener: None,
                inside: false,
                churned: false,
                closed: false,
            }),
            Command::Connect(n) => {
                connect_all(&child, n.max(1)).await;
                let ok = {
                    let mut st = child.st.borrow_mut();
                    let ins: Vec<usize> = st
                        .slots
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| s.inside && s.seat.churner)
                        .map(|(i, _)| i)
                        .collect();
                    st.ins = ins.into();
                    st.slots.iter().filter(|s| s.inside).count()
                };
                let total = child.st.borrow().slots.len();
                child.send_errors();
                child.send(&Event::Connected {
                    ok,
                    failed: total - ok,
                    fds: own_open_fds().unwrap_or(0),
                });
                child.flush();
            }
            Command::Window { origin_us, churn_milli } => {
                {
                    let mut st = child.st.borrow_mut();
                    st.errors.clear();
                    st.tally = Tally::new(origin_us);
                    st.cpu_at_window = own_cpu_ticks().unwrap_or(0);
                    st.events_at_window = st.slots.iter().map(|s| s.viewer.events).sum();
                    st.churning = churn_milli > 0 && !st.ins.is_empty();
                }
                if churn_milli > 0 {
                    let me = child.clone();
                    actix_rt::spawn(async move { me.churn(churn_milli).await });
                }
                child.send(&Event::WindowOpen);
                child.flush();
            }
            Command::Stop => {
                child.st.borrow_mut().churning = false;
                child.send(&Event::Stopped);
                child.flush();
            }
            Command::Report { lo, hi } => {
                child.report(lo, hi);
            }
        }
    }
    // The parent is gone: close the sockets.
    let slots = std::mem::take(&mut child.st.borrow_mut().slots);
    drop(slots);
    0
}

/// Opens, enters and watches for every viewer, `n` at a time.
async fn connect_all(child: &Rc<Child>, n: usize) {
    let slots = Arc::new(Semaphore::new(n));
    let count = child.st.borrow().slots.len();
    let mut tasks = Vec::with_capacity(count);
    for idx in 0..count {
        let Ok(permit) = slots.clone().acquire_owned().await else {
            break;
        };
        let child = child.clone();
        tasks.push(actix_rt::spawn(async move {
            let _permit = permit;
            let mut b = child.browser(idx);
            let token = match b.get("/api/fetchToken").await {
                Ok(v) => v["access_token"].as_str().unwrap_or_default().to_string(),
                Err(f) => return child.st.borrow_mut().error("fetchToken", &f),
            };
            let reader = child.clone();
            match b.listen(&token, move |ev| reader.on_event(idx, ev)).await {
                Ok(l) => child.st.borrow_mut().slots[idx].listener = Some(l),
                Err(f) => return child.st.borrow_mut().error("ws connect", &f),
            }
            child.enter(idx).await;
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
}

/// The entry answer's stream position.
fn position(answer: &Value) -> Option<(String, u64)> {
    Some((answer["epoch"].as_str()?.to_string(), answer["offset"].as_u64()?))
}

impl Child {
    fn browser(&self, idx: usize) -> Browser {
        let st = self.st.borrow();
        let seat = &st.slots[idx].seat;
        let mut b = Browser::with_client(&self.base, &seat.device, self.http.clone());
        b.set_cookie("yoo_sid", &seat.sid);
        b.set_cookie("_csrfToken", &seat.csrf);
        b
    }

    fn send(&self, e: &Event) {
        let _ = writeln!(self.out.borrow_mut(), "{}", e.line());
    }

    fn flush(&self) {
        let _ = self.out.borrow_mut().flush();
    }

    fn send_errors(&self) {
        let errors = std::mem::take(&mut self.st.borrow_mut().errors);
        for ((step, cause), count) in errors {
            self.send(&Event::Error { step, count, cause });
        }
    }

    /// Enters the room and watches it from the answer's position; true when watching.
    async fn enter(&self, idx: usize) -> bool {
        let mut b = self.browser(idx);
        let answer = b.post(ENTER, &json!({ "ddRid": self.dd_rid, "mode": self.mode })).await;
        let mut st = self.st.borrow_mut();
        let (epoch, offset) = match answer.as_ref().map(position) {
            Ok(Some(p)) => p,
            Ok(None) => {
                st.error("enter", &Failure::Unexpected("no epoch/offset in the answer".into()));
                return false;
            }
            Err(f) => {
                st.error("enter", f);
                return false;
            }
        };
        let slot = &mut st.slots[idx];
        slot.viewer.at(&epoch, offset);
        let queued = slot
            .listener
            .as_ref()
            .is_some_and(|l| l.send(frames::watch(self.dd_rid, &epoch, offset)));
        slot.inside = queued;
        if !queued {
            st.error("watch", &Failure::SocketClosed);
        }
        queued
    }

    /// Leaves the room: ROOM_UNWATCH, then `room/exit`.
    async fn leave(&self, idx: usize) -> bool {
        {
            let mut st = self.st.borrow_mut();
            let slot = &mut st.slots[idx];
            slot.inside = false;
            slot.churned = true;
            if let Some(l) = &slot.listener {
                l.send(frames::unwatch(self.dd_rid));
            }
        }
        let mut b = self.browser(idx);
        match b.post(EXIT, &json!({ "ddRid": self.dd_rid })).await {
            Ok(_) => true,
            Err(f) => {
                self.st.borrow_mut().error("exit", &f);
                false
            }
        }
    }

    /// Every `1000 / churn_milli` s one churner leaves and the one out longest comes back,
    /// until `Stop`.
    async fn churn(self: Rc<Self>, churn_milli: u64) {
        let every = Duration::from_micros(1_000_000_000 / churn_milli.max(1));
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let (leaving, coming) = {
                let mut st = self.st.borrow_mut();
                if !st.churning {
                    return;
                }
                (st.ins.pop_front(), st.outs.pop_front())
            };
            if let Some(idx) = leaving {
                let me = self.clone();
                actix_rt::spawn(async move {
                    let ok = me.leave(idx).await;
                    let mut st = me.st.borrow_mut();
                    st.exits += ok as u64;
                    st.outs.push_back(idx);
                });
            }
            if let Some(idx) = coming {
                let me = self.clone();
                actix_rt::spawn(async move {
                    let ok = me.enter(idx).await;
                    let mut st = me.st.borrow_mut();
                    if ok {
                        st.enters += 1;
                        st.ins.push_back(idx);
                    } else {
                        st.outs.push_back(idx);
                    }
                });
            }
        }
    }

    /// A frame of viewer `idx`'s socket, on its reading task.
    fn on_event(&self, idx: usize, ev: Incoming<'_>) {
        match ev {
            Incoming::Frame { kind, frame, .. } if kind == frames::ROOM_EVENTS || kind == frames::ROOM_RESET => {
                let now = wall_us();
                let mut guard = self.st.borrow_mut();
                let st = &mut *guard;
                let Some(batch) = st.cache.as_mut().and_then(|c| c.get(frame)) else {
                    return;
                };
                let tally = &mut st.tally;
                st.slots[idx].viewer.apply(&batch, |seq, send_us| tally.receipt(seq, send_us, now));
            }
            Incoming::Authorization(s) => self.st.borrow_mut().error("socket", &Failure::Authorization(s)),
            Incoming::Closed => {
                let mut st = self.st.borrow_mut();
                st.slots[idx].closed = true;
                st.slots[idx].inside = false;
            }
            _ => {}
        }
    }

    /// Every figure for messages `lo..=hi`, then `End`.
    fn report(&self, lo: u32, hi: u32) {
        self.send_errors();
        let st = self.st.borrow();
        for (seq, r) in st.tally.seqs.iter().enumerate() {
            if r.receipts > 0 {
                self.send(&Event::Seq {
                    seq: seq as u32,
                    receipts: r.receipts,
                    send_us: r.send_us,
                    last_us: r.last_us,
                });
            }
        }
        for (ms, count) in st.tally.latency.sparse() {
            self.send(&Event::Latency { ms, count });
        }
        for (bin, &count) in st.tally.bins.iter().enumerate() {
            if count > 0 {
                self.send(&Event::Bin { bin, count });
            }
        }
        let mut v = ViewerSums::default();
        for s in &st.slots {
            let w = &s.viewer;
            if s.inside && !s.churned && !s.closed && !s.seat.churner {
                v.steady += 1;
                let missing = if hi >= lo { w.missing(lo, hi) } else { 0 };
                v.missing += missing;
                v.complete += (missing == 0) as usize;
            }
            v.events += w.events;
            v.offset_gaps += w.offset_gaps;
            v.offset_dups += w.offset_dups;
            v.chat_dups += w.chat_dups;
            v.resets += w.resets;
            v.closed += s.closed as usize;
        }
        v.events_window = v.events.saturating_sub(st.events_at_window);
        self.send(&Event::Viewers(v));
        self.send(&Event::Churn {
            exits: st.exits,
            enters: st.enters,
        });
        let (decoded, reused) = st.cache.as_ref().map_or((0, 0), |c| (c.misses, c.hits));
        self.send(&Event::Usage {
            cpu_ticks: own_cpu_ticks().unwrap_or(0).saturating_sub(st.cpu_at_window),
            decoded,
            reused,
        });
        self.send(&Event::End);
        self.flush();
    }
}
