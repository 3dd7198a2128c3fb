//! A slot: one virtual display, the game running on it for a session, its capture and its
//! input. `SlotActor` owns the processes and takes one command at a time (launch, end, what
//! the game, its window and the encoder report), so a launch, the game's own exit and an end
//! never interleave; `Slot` is what the stream endpoint and the link read and send to it.
//!
//! Phases: Free → Launching (game started, capturing; waits for the game's window) → Playing
//! (the first frame captured after the window appeared was encoded) → Resetting (viewers told,
//! capture stopped, the game's process group ended, keys released, leftover clients cut, the
//! home wiped) → Free. A display that cannot be started or cleaned makes the slot Broken; it is
//! retried every few seconds.
//!
//! Every launch gets a new generation number; reports from the game, its window watcher or the
//! encoder carry theirs, and one from an older launch is ignored.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hostlink::{HostMsg, SlotPhase, SlotReport};
use parking_lot::Mutex;
use tokio::sync::{mpsc, oneshot};

use crate::capture::{Capture, CaptureSpec};
use crate::config::HostConfig;
use crate::display::{Display, Xvfb};
use crate::fanout::Hub;
use crate::game::{self, Game, Launch};
use crate::input::{Injector, Input};

/// The notice viewers get when the session's game ends (the platform's USER_GAME_END).
pub const GAME_END_CODE: i32 = 130124;
pub const GAME_END_TEXT: &str = "游戏已结束";

/// How long a mapped window may stay one flat colour before the game counts as showing anyway.
const BLANK_GRACE: Duration = Duration::from_secs(5);

/// How often a slot checks that its display is alive, and retries a broken one.
const HEALTH_TICK: Duration = Duration::from_secs(3);

/// What a slot is asked to do, or told.
#[derive(Debug)]
pub enum SlotCmd {
    /// The platform: run `game` for the session.
    Launch { session_id: i64, uid: i64, game: String },
    /// The platform: the session is over.
    End { session_id: i64 },
    /// The link was down too long: the platform has ended whatever ran here.
    Abandon,
    /// The game's leader ended.
    Exited { gen: u64, how: String },
    /// The game mapped its window (and has the input focus).
    WindowUp { gen: u64 },
    /// The first frame captured after the window appeared was encoded.
    FirstFrame { gen: u64 },
    /// The launch cannot go on (no window in time, the encoder failed).
    Failed { gen: u64, reason: String },
    /// The session's controller sent input that reached the game (at most once every
    /// `hostlink::INPUT_REPORT_MS`): the platform is told.
    Input { session_id: i64 },
    /// End everything and stop the display (the host is stopping).
    Shutdown(oneshot::Sender<()>),
}

/// What others may see of a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotView {
    pub phase: SlotPhase,
    pub session_id: Option<i64>,
}

struct Shared {
    view: SlotView,
    /// `:N`, changes when the display is restarted.
    display: String,
    /// The input thread of the current display.
    input: Option<Injector>,
    /// The session whose input was last reported to the platform, and when: the next report
    /// waits `hostlink::INPUT_REPORT_MS` (a game played hard would otherwise flood the link).
    input_reported: Option<(i64, tokio::time::Instant)>,
}

/// A slot as the stream endpoint and the link see it.
pub struct Slot {
    pub index: u32,
    pub hub: Arc<Hub>,
    shared: Mutex<Shared>,
    /// The slot actor's mailbox.
    cmd: mpsc::UnboundedSender<SlotCmd>,
}

impl Slot {
    pub fn view(&self) -> SlotView {
        self.shared.lock().view
    }

    pub fn report(&self) -> SlotReport {
        let v = self.view();
        SlotReport {
            slot: self.index,
            phase: v.phase,
            session_id: v.session_id,
        }
    }

    /// The display's name (`:N`), for tests and tools.
    pub fn display(&self) -> String {
        self.shared.lock().display.clone()
    }

    pub fn send(&self, cmd: SlotCmd) {
        // The actor only goes away with the host.
        let _ = self.cmd.send(cmd);
    }

    /// The platform made `uid` the controller of `session_id` (see `Hub::set_controller`).
    /// When control moves away from someone, what they held down is let go: their key-ups will
    /// not get through any more. False when the slot serves another session.
    pub fn set_controller(&self, session_id: i64, uid: i64) -> bool {
        // Under the slot's lock: an input event is checked and injected either wholly before
        // the change or wholly after it.
        let s = self.shared.lock();
        let before = self.hub.controller();
        if !self.hub.set_controller(session_id, uid) {
            return false;
        }
        if before.is_some_and(|(id, c)| id == session_id && c != uid) && s.view.session_id == Some(session_id) {
            if let Some(i) = &s.input {
                i.send(Input::ReleaseAll);
            }
        }
        true
    }

    /// Input from a stream connection of `uid`: it reaches the display only while the slot
    /// serves that session and `uid` is its controller (checked per event, so a control change
    /// applies to connections already open from that moment). Returns whether it was taken.
    pub fn input(&self, session_id: i64, uid: i64, input: Input) -> bool {
        let mut s = self.shared.lock();
        let live = matches!(s.view.phase, SlotPhase::Launching | SlotPhase::Playing)
            && s.view.session_id == Some(session_id)
            && self.hub.controls(session_id, uid);
        match (&s.input, live) {
            (Some(i), true) => {
                i.send(input);
                let now = tokio::time::Instant::now();
                if input_report_due(s.input_reported, session_id, now) {
                    s.input_reported = Some((session_id, now));
                    let _ = self.cmd.send(SlotCmd::Input { session_id });
                }
                true
            }
            _ => false,
        }
    }
}

/// Whether input of `session_id` at `now` is reported to the platform, after the last report
/// (`last`: its session and time): the first of a session, then one every
/// `hostlink::INPUT_REPORT_MS`.
fn input_report_due(last: Option<(i64, tokio::time::Instant)>, session_id: i64, now: tokio::time::Instant) -> bool {
    last.is_none_or(|(id, at)| id != session_id || now.duration_since(at) >= std::time::Duration::from_millis(hostlink::INPUT_REPORT_MS))
}

/// Counts of slots by phase, for `/metrics`.
#[derive(Default)]
pub struct PhaseCounts(Mutex<[i64; 5]>);

impl PhaseCounts {
    fn moved(&self, from: Option<SlotPhase>, to: SlotPhase) {
        let mut c = self.0.lock();
        if let Some(f) = from {
            c[phase_index(f)] -= 1;
        }
        c[phase_index(to)] += 1;
        for p in [
            SlotPhase::Free,
            SlotPhase::Launching,
            SlotPhase::Playing,
            SlotPhase::Resetting,
            SlotPhase::Broken,
        ] {
            metrics::gauge!("yoo_gamehost_slots", "phase" => phase_name(p)).set(c[phase_index(p)] as f64);
        }
    }
}

fn phase_index(p: SlotPhase) -> usize {
    match p {
        SlotPhase::Free => 0,
        SlotPhase::Launching => 1,
        SlotPhase::Playing => 2,
        SlotPhase::Resetting => 3,
        SlotPhase::Broken => 4,
    }
}

pub fn phase_name(p: SlotPhase) -> &'static str {
    match p {
        SlotPhase::Free => "free",
        SlotPhase::Launching => "launching",
        SlotPhase::Playing => "playing",
        SlotPhase::Resetting => "resetting",
        SlotPhase::Broken => "broken",
    }
}

/// What a slot actor needs from its host.
pub struct SlotDeps {
    pub config: Arc<HostConfig>,
    /// Reports for the platform (the link sends them while it is up).
    pub events: mpsc::UnboundedSender<HostMsg>,
    pub phases: Arc<PhaseCounts>,
    /// What `@self` launches.
    pub self_exe: PathBuf,
}

/// The current session's processes.
struct Running {
    session_id: i64,
    game: Option<Game>,
    capture: Option<Capture>,
}

struct SlotActor {
    slot: Arc<Slot>,
    deps: SlotDeps,
    xvfb: Option<Xvfb>,
    /// For callbacks from other threads (the game's waiter, the window watcher, the encoder).
    tx: mpsc::UnboundedSender<SlotCmd>,
    /// The launch generation; the window watcher stops when it moves on.
    gen: Arc<AtomicU64>,
    running: Option<Running>,
}

/// Starts a slot: its display, its input thread and its actor. A display that does not start
/// leaves the slot Broken (retried by the actor).
pub async fn start(index: u32, deps: SlotDeps) -> Arc<Slot> {
    let (tx, rx) = mpsc::unbounded_channel();
    let slot = Arc::new(Slot {
        index,
        hub: Arc::new(Hub::new(index)),
        shared: Mutex::new(Shared {
            view: SlotView {
                phase: SlotPhase::Broken,
                session_id: None,
            },
            display: String::new(),
            input: None,
            input_reported: None,
        }),
        cmd: tx.clone(),
    });
    deps.phases.moved(None, SlotPhase::Broken);
    let mut actor = SlotActor {
        slot: slot.clone(),
        deps,
        xvfb: None,
        tx,
        gen: Arc::new(AtomicU64::new(0)),
        running: None,
    };
    actor.start_display().await;
    tokio::spawn(actor.run(rx));
    slot
}

impl SlotActor {
    async fn run(mut self, mut rx: mpsc::UnboundedReceiver<SlotCmd>) {
        let mut tick = tokio::time::interval(HEALTH_TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(SlotCmd::Shutdown(done)) => {
                        self.reset(false).await;
                        self.xvfb = None;
                        let _ = done.send(());
                        return;
                    }
                    Some(cmd) => self.handle(cmd).await,
                    None => return,
                },
                _ = tick.tick() => self.health().await,
            }
        }
    }

    fn index(&self) -> u32 {
        self.slot.index
    }

    fn emit(&self, msg: HostMsg) {
        let _ = self.deps.events.send(msg);
    }

    fn set_phase(&self, phase: SlotPhase, session_id: Option<i64>) {
        let from = {
            let mut s = self.slot.shared.lock();
            let from = s.view.phase;
            s.view = SlotView { phase, session_id };
            from
        };
        if from != phase {
            self.deps.phases.moved(Some(from), phase);
        }
        tracing::info!(slot = self.index(), phase = phase_name(phase), session_id, "slot phase");
        self.emit(HostMsg::Slot(self.slot.report()));
    }

    async fn handle(&mut self, cmd: SlotCmd) {
        let current = self.gen.load(Ordering::SeqCst);
        let view = self.slot.view();
        match cmd {
            SlotCmd::Launch { session_id, uid, game } => self.launch(session_id, uid, &game).await,
            SlotCmd::End { session_id } => {
                if view.session_id == Some(session_id) && matches!(view.phase, SlotPhase::Launching | SlotPhase::Playing) {
                    self.reset(true).await;
                } else {
                    // Already over (or never here): say where the slot stands.
                    self.emit(HostMsg::Slot(self.slot.report()));
                }
            }
            SlotCmd::Abandon => {
                if self.running.is_some() {
                    tracing::warn!(slot = self.index(), "platform gone too long: ending the game");
                    self.reset(true).await;
                }
            }
            SlotCmd::Exited { gen, how } if gen == current && self.running.is_some() => {
                self.game_over(format!("the game {how}")).await;
            }
            SlotCmd::Failed { gen, reason } if gen == current && self.running.is_some() => {
                self.game_over(reason).await;
            }
            SlotCmd::WindowUp { gen } if gen == current && view.phase == SlotPhase::Launching => {
                if let Some(cap) = self.running.as_ref().and_then(|r| r.capture.as_ref()) {
                    let after = cap.now_us();
                    let tx = self.tx.clone();
                    self.slot.hub.on_first_frame_after(
                        after,
                        Box::new(move || {
                            let _ = tx.send(SlotCmd::FirstFrame { gen });
                        }),
                    );
                }
            }
            SlotCmd::FirstFrame { gen } if gen == current && view.phase == SlotPhase::Launching => {
                let session_id = view.session_id.expect("a launching slot serves a session");
                self.set_phase(SlotPhase::Playing, Some(session_id));
                self.emit(HostMsg::FirstFrame {
                    slot: self.index(),
                    session_id,
                });
            }
            SlotCmd::Input { session_id } => {
                if view.session_id == Some(session_id) && matches!(view.phase, SlotPhase::Launching | SlotPhase::Playing) {
                    self.emit(HostMsg::Input {
                        slot: self.index(),
                        session_id,
                    });
                }
            }
            // Reports of an earlier launch.
            SlotCmd::Exited { .. } | SlotCmd::Failed { .. } | SlotCmd::WindowUp { .. } | SlotCmd::FirstFrame { .. } => {}
            SlotCmd::Shutdown(_) => unreachable!("handled by run"),
        }
    }

    async fn launch(&mut self, session_id: i64, uid: i64, key: &str) {
        let view = self.slot.view();
        if view.session_id == Some(session_id) {
            // A repeated launch of the session that is already here.
            self.emit(HostMsg::Slot(self.slot.report()));
            return;
        }
        let refuse = |reason: String| HostMsg::GameExited {
            slot: self.slot.index,
            session_id,
            reason,
        };
        if view.phase != SlotPhase::Free {
            self.emit(refuse(format!("slot is {}", phase_name(view.phase))));
            return;
        }
        let Some(game) = self.deps.config.games.get(key).cloned() else {
            self.emit(refuse(format!("this host has no game {key:?}")));
            return;
        };
        let gen = self.gen.fetch_add(1, Ordering::SeqCst) + 1;
        tracing::info!(slot = self.index(), session_id, uid, game = key, "launch");
        self.set_phase(SlotPhase::Launching, Some(session_id));
        self.slot.hub.open(session_id, uid);
        self.running = Some(Running {
            session_id,
            game: None,
            capture: None,
        });
        let display = self.slot.display();
        let tx = self.tx.clone();
        let spawned = Game::spawn(
            Launch {
                game: &game,
                display: display.clone(),
                home: self.home(),
                self_exe: &self.deps.self_exe,
            },
            Box::new(move |how| {
                let _ = tx.send(SlotCmd::Exited { gen, how });
            }),
        );
        match spawned {
            Ok(g) => self.running.as_mut().expect("set above").game = Some(g),
            Err(e) => return self.game_over(format!("the game does not start: {e}")).await,
        }
        let spec = CaptureSpec {
            display: display.clone(),
            size: game.window,
            fps: self.deps.config.fps,
            bitrate_kbps: self.deps.config.bitrate_kbps,
            key_int: self.deps.config.key_int_frames(),
        };
        let tx = self.tx.clone();
        let on_error = Box::new(move |e: String| {
            let _ = tx.send(SlotCmd::Failed {
                gen,
                reason: format!("capture failed: {e}"),
            });
        });
        let hub = self.slot.hub.clone();
        // Building and starting a pipeline takes milliseconds: not on the link's thread.
        let started = tokio::task::spawn_blocking(move || Capture::start(&spec, hub, on_error))
            .await
            .unwrap_or_else(|_| Err("capture start panicked".into()));
        match started {
            Ok(cap) => {
                self.slot.hub.set_key_requester(Some(Box::new(cap.key_requester())));
                self.running.as_mut().expect("set above").capture = Some(cap);
            }
            Err(e) => return self.game_over(format!("capture does not start: {e}")).await,
        }
        let (tx, current) = (self.tx.clone(), self.gen.clone());
        let timeout = Duration::from_secs(self.deps.config.launch_timeout_secs);
        std::thread::Builder::new()
            .name(format!("window{}", self.index()))
            .spawn(move || watch_window(&display, game.window, gen, &current, &tx, timeout))
            .expect("a thread starts");
    }

    /// The game ended on its own or could not go on: the platform is told, and the slot reset.
    async fn game_over(&mut self, reason: String) {
        let Some(session_id) = self.running.as_ref().map(|r| r.session_id) else {
            return;
        };
        tracing::info!(slot = self.index(), session_id, reason, "game over");
        self.emit(HostMsg::GameExited {
            slot: self.index(),
            session_id,
            reason,
        });
        self.reset(true).await;
    }

    /// Ends the session's game and makes the display clean for the next one.
    async fn reset(&mut self, report: bool) {
        // Nothing of the old launch counts any more.
        self.gen.fetch_add(1, Ordering::SeqCst);
        let Some(run) = self.running.take() else {
            return;
        };
        if report {
            self.set_phase(SlotPhase::Resetting, Some(run.session_id));
        }
        self.slot.hub.close(GAME_END_CODE, GAME_END_TEXT);
        self.slot.hub.set_key_requester(None);
        if let Some(cap) = run.capture {
            // Stopping joins the pipeline's threads.
            let _ = tokio::task::spawn_blocking(move || cap.stop()).await;
        }
        if let Some(game) = run.game {
            game.end().await;
        }
        if let Some(i) = &self.slot.shared.lock().input {
            i.send(Input::ReleaseAll);
        }
        if let Err(e) = game::wipe(&self.home()) {
            tracing::warn!(slot = self.index(), error = %e, "cannot wipe the slot's home");
        }
        let display = self.slot.display();
        let clean = tokio::task::spawn_blocking(move || clean_display(&display))
            .await
            .unwrap_or(Err("panicked".into()));
        if let Err(e) = clean {
            tracing::warn!(slot = self.index(), error = %e, "display not clean: restarting it");
            self.start_display().await;
        } else if report {
            self.set_phase(SlotPhase::Free, None);
        }
    }

    /// (Re)starts the display and its input thread: Free when it runs, Broken when not.
    async fn start_display(&mut self) {
        self.xvfb = None;
        let c = &self.deps.config;
        let number = c.display_base.map(|b| b + self.index());
        let started = match Xvfb::start(number, c.screen).await {
            Ok(x) => {
                let name = x.name();
                match Injector::start(name.clone()) {
                    Ok(i) => Ok((x, name, i)),
                    Err(e) => Err(e),
                }
            }
            Err(e) => Err(e.to_string()),
        };
        match started {
            Ok((x, name, input)) => {
                tracing::info!(slot = self.index(), display = %name, "display up");
                {
                    let mut s = self.slot.shared.lock();
                    s.display = name;
                    s.input = Some(input);
                }
                self.xvfb = Some(x);
                self.set_phase(SlotPhase::Free, None);
            }
            Err(e) => {
                tracing::error!(slot = self.index(), error = %e, "display does not start");
                self.slot.shared.lock().input = None;
                self.set_phase(SlotPhase::Broken, None);
            }
        }
    }

    /// A display that died is restarted (ending the session on it); a broken slot is retried.
    async fn health(&mut self) {
        let alive = self.xvfb.as_mut().is_some_and(|x| x.alive());
        if alive {
            return;
        }
        if self.running.is_some() {
            self.game_over("the display stopped".into()).await;
        }
        if self.slot.view().phase != SlotPhase::Free || !self.xvfb.as_mut().is_some_and(|x| x.alive()) {
            self.start_display().await;
        }
    }

    fn home(&self) -> PathBuf {
        let c = &self.deps.config;
        c.state_dir.join(format!("{}-slot{}", c.host, self.index()))
    }
}

/// Waits for the game's window, gives it the input focus, waits until it shows a picture (not
/// one flat colour, or [`BLANK_GRACE`] after it appeared: some games open on a plain screen),
/// says so, then keeps the focus on it while the launch is current (a game that recreates its
/// window would lose it otherwise).
fn watch_window(display: &str, size: [u32; 2], gen: u64, current: &AtomicU64, tx: &mpsc::UnboundedSender<SlotCmd>, timeout: Duration) {
    let d = match Display::open(display) {
        Ok(d) => d,
        Err(reason) => {
            let _ = tx.send(SlotCmd::Failed { gen, reason });
            return;
        }
    };
    let started = Instant::now();
    let mut mapped: Option<Instant> = None;
    let mut up = false;
    while current.load(Ordering::SeqCst) == gen {
        match d.keep_focus() {
            Ok(true) if !up => {
                let since = *mapped.get_or_insert_with(Instant::now);
                if since.elapsed() >= BLANK_GRACE || d.drawn(size).unwrap_or(false) {
                    up = true;
                    let _ = tx.send(SlotCmd::WindowUp { gen });
                }
            }
            Ok(false) if !up && started.elapsed() > timeout => {
                let _ = tx.send(SlotCmd::Failed {
                    gen,
                    reason: format!("the game showed no window within {} s", timeout.as_secs()),
                });
                return;
            }
            Err(_) => return,
            _ => {}
        }
        std::thread::sleep(Duration::from_millis(if up { 250 } else { 40 }));
    }
}

/// Cuts every client still on the display and checks that none is left.
fn clean_display(display: &str) -> Result<(), String> {
    let d = Display::open(display)?;
    for _ in 0..40 {
        if d.top_windows()?.is_empty() {
            return Ok(());
        }
        d.kill_leftovers()?;
        std::thread::sleep(Duration::from_millis(25));
    }
    Err("windows are left after the game ended".into())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio::time::Instant;

    use super::input_report_due;

    // Input is reported the first time for a session, then at most once every INPUT_REPORT_MS.
    #[test]
    fn input_reports_are_spaced() {
        let t0 = Instant::now();
        let every = Duration::from_millis(hostlink::INPUT_REPORT_MS);
        let check = |last: Option<(i64, Instant)>, session: i64, now: Instant, want: bool| {
            assert_eq!(input_report_due(last, session, now), want, "{last:?} {session} +{:?}", now - t0);
        };
        check(None, 7, t0, true);
        check(Some((7, t0)), 7, t0 + every - Duration::from_millis(1), false);
        check(Some((7, t0)), 7, t0 + every, true);
        check(Some((7, t0)), 8, t0, true);
    }
}
