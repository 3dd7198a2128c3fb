//! The game hosts of one node, as the platform sees them: which host and slot each machine is,
//! which machines are in the pool, which session holds or is giving back each one, and when each
//! host was last heard.
//!
//! A game host (`yoo-gamehost`) owns slots; each slot is one machine of its node, named
//! `{host}-{slot:02}`. The host links to the platform (the facade's `GET /api/host/link` turns
//! its frames into the calls here, and the commands here into its frames: the domain builds no
//! wire format), reports each slot's state, and runs the games the platform launches.
//!
//! [`HostTable`] is the pure bookkeeping, owned by the node's queue (`queue.rs`), which carries
//! out the [`HostEffect`]s each change returns: pool membership, commands to hosts, news to
//! sessions. The platform's view of a slot ([`Usage`]) moves like this:
//!
//! - reported Free → in the pool ([`Usage::Pool`]); the queue's head gets it at once.
//! - handed to a session → [`Usage::Held`]; the session's confirm launches its game on the slot,
//!   the host's first encoded frame makes it PLAYING, its exit ends the session.
//! - the session ends (any way) → [`HostCommand::End`] to the host, [`Usage::Ending`]: the
//!   machine is free again only when the host reports the slot Free (reset), not at once.
//! - a host silent for `HOST_TIMEOUT_MS`, or whose link closes, is lost: its machines leave the
//!   pool and the sessions on them end.
//!
//! The controller of a held slot (whose input its game takes: the session's player unless a
//! live room handed control to a guest) is remembered with the slot: a change goes to the host
//! at once ([`HostCommand::Control`]), and a controller named before the launch follows the
//! Launch, so the host never runs the game with the wrong one. It is forgotten with the session
//! (a new hand-over starts with the player).
//!
//! After a platform restart (a crash, a deploy) the games on the hosts' slots go on: a session
//! restored on a slot of a host not linked yet waits for it ([`HostTable::await_host`]); the
//! host's hello finds the slot held by that session (and the report settles it as for any held
//! slot: its game still running keeps it, a game that went ends it); a host that does not come
//! back within the host timeout loses the session ([`HostTable::given_up`], HostLost).
//!
//! A host's reports are trusted for its own slots only, and a report that contradicts what the
//! platform knows is settled the platform's way: a slot busy with a session the platform does not
//! hold there is ended; a held slot whose game stops without a word ends its session.

pub use crate::view::StreamTarget;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use crate::play::game_session::MachineId;
use crate::view::EndReason;

/// What a slot is doing, as its host reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotState {
    /// Its display is up and no game runs.
    Free,
    /// A game is starting; no frame encoded yet.
    Launching,
    /// The game streams.
    Playing,
    /// The game is being ended and the display reset.
    Resetting,
    /// The slot cannot run a game.
    Broken,
}

/// One slot's state as a host reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotReport {
    pub slot: u32,
    pub state: SlotState,
    /// The session the slot serves (Launching, Playing, Resetting).
    pub session_id: Option<i64>,
}

/// A host's hello, its MAC already checked by the facade.
#[derive(Debug, Clone, PartialEq)]
pub struct HostHello {
    pub node_id: i64,
    pub host: String,
    /// Where browsers open the slots' streams (`ws(s)://host:port`).
    pub stream_url: String,
    /// The host's latency probe (the node list's `pingUrl`).
    pub ping_url: String,
    /// The host games it can launch.
    pub games: Vec<String>,
    pub slots: Vec<SlotReport>,
}

/// What a linked host tells the platform after its hello.
#[derive(Debug, Clone, PartialEq)]
pub enum HostEvent {
    /// Every slot's state, every heartbeat.
    Heartbeat(Vec<SlotReport>),
    /// One slot's state changed.
    Slot(SlotReport),
    /// The session's game encoded its first frame.
    FirstFrame { slot: u32, session_id: i64 },
    /// The session's game ended on its own (exited, crashed, could not start).
    GameExited { slot: u32, session_id: i64 },
    /// The session's game took its controller's input (reported at most every
    /// `hostlink::INPUT_REPORT_MS`): it is being played, not hanging.
    Input { slot: u32, session_id: i64 },
}

/// What the platform tells a host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostCommand {
    /// The hello was accepted (always the first command on a link).
    Welcome,
    /// Launch `game` on `slot` for the session.
    Launch {
        slot: u32,
        session_id: i64,
        uid: i64,
        game: String,
    },
    /// End the session's game on `slot` and reset the slot.
    End { slot: u32, session_id: i64 },
    /// From now on only `controller`'s stream connections send the session's input.
    Control { slot: u32, session_id: i64, controller: i64 },
}

/// Where a host's commands go: the facade's link. `send` must not block (it runs inside the node
/// queue's handler); it returns false once the link is gone. `close` ends the link (a host that
/// was given up for silence).
pub trait HostSink: Send + Sync + 'static {
    fn send(&self, cmd: HostCommand) -> bool;
    fn close(&self);
}

/// A linked host, as the facade names it in every later call: a link that was replaced or lost
/// is no longer heard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostLink {
    pub node_id: i64,
    pub host: Arc<str>,
    pub link: u64,
}

/// Why a hello was refused by the domain (the facade refuses bad MACs, unknown nodes and stale
/// hellos itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostRefusal {
    /// A host of that name is linked for the node, or its machines' names are taken.
    Duplicate,
    /// The node has no queue (not configured).
    UnknownNode,
    /// In a cluster: another process owns the node's queue (or none does for the moment of a
    /// takeover); the host links again, through the front door, until it reaches the owner.
    Elsewhere,
}

/// The platform's use of a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Usage {
    /// Free in the node's pool.
    Pool,
    /// A session (READY, CONNECTING or PLAYING) holds it.
    Held(i64),
    /// The session ended and the host was told to end its game; out of the pool until the host
    /// reports the slot Free.
    Ending(i64),
    /// Out of the pool with no session of the platform: the host reports it busy or broken.
    Busy,
}

/// What the node's queue must do after a change of the table.
#[derive(Clone)]
pub enum HostEffect {
    /// The machine is free: into the pool (from out, or new), and the head gets it.
    Join(MachineId),
    /// The machine leaves the pool (free or out).
    Withdraw(MachineId),
    /// A command for a host.
    Command(Arc<dyn HostSink>, HostCommand),
    /// The session's game shows its first frame: CONNECTING → PLAYING.
    Connected(i64),
    /// The session ends (its game exited, its slot broke, its host was lost).
    End(i64, EndReason),
    /// The session's game took its controller's input now.
    Input(i64),
    /// The link of a lost host is closed.
    Close(Arc<dyn HostSink>),
    /// A session restored after a restart holds the machine again (its host linked): it learns
    /// where its stream is served.
    Adopted(i64, MachineId),
}

impl std::fmt::Debug for HostEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HostEffect::Join(m) => write!(f, "Join({m})"),
            HostEffect::Withdraw(m) => write!(f, "Withdraw({m})"),
            HostEffect::Command(_, c) => write!(f, "Command({c:?})"),
            HostEffect::Connected(s) => write!(f, "Connected({s})"),
            HostEffect::End(s, r) => write!(f, "End({s}, {r:?})"),
            HostEffect::Input(s) => write!(f, "Input({s})"),
            HostEffect::Close(_) => write!(f, "Close"),
            HostEffect::Adopted(s, m) => write!(f, "Adopted({s}, {m})"),
        }
    }
}

impl PartialEq for HostEffect {
    /// Commands and closes compare by what they do, not by the link they go to.
    fn eq(&self, other: &Self) -> bool {
        format!("{self:?}") == format!("{other:?}")
    }
}

/// One slot of a linked host.
#[derive(Debug, Clone)]
pub struct SlotEntry {
    pub machine: MachineId,
    /// What the host last reported.
    pub reported: SlotState,
    pub reported_session: Option<i64>,
    pub usage: Usage,
    /// A launch the host has not yet shown it received (no report, frame or exit of that
    /// session since): a Free report until then may predate it, so it does not free the slot.
    pub launch_pending: Option<i64>,
    /// The controller the platform named for the holding session (None: its player, as
    /// launched).
    pub controller: Option<i64>,
}

/// A linked host.
pub struct HostEntry {
    pub link: u64,
    pub sink: Arc<dyn HostSink>,
    pub stream_url: Arc<str>,
    pub ping_url: Arc<str>,
    pub games: Vec<String>,
    /// When a frame of the host was last heard (tokio time).
    pub last_heard: Instant,
    pub slots: BTreeMap<u32, SlotEntry>,
}

/// The linked hosts of one node.
#[derive(Default)]
pub struct HostTable {
    hosts: BTreeMap<Arc<str>, HostEntry>,
    /// Each host machine's host and slot.
    machines: HashMap<MachineId, (Arc<str>, u32)>,
    /// Sessions restored on a slot whose host has not linked again yet, by the slot's machine.
    awaiting: HashMap<MachineId, Awaiting>,
    next_link: u64,
}

/// A session restored on a slot of a host not linked yet.
struct Awaiting {
    session_id: i64,
    /// When it is given up.
    until: Instant,
    /// A launch asked before the host linked (a READY player confirmed): (uid, game), sent
    /// with the hello.
    launch: Option<(i64, String)>,
}

/// The machine id of a host's slot.
pub fn machine_id(host: &str, slot: u32) -> MachineId {
    format!("{host}-{slot:02}")
}

impl HostTable {
    /// Closes every link and forgets the node's hosts (the node's queue moved to another
    /// process: its hosts link there). Link numbers keep counting up.
    pub fn close_all(&mut self) {
        let next_link = self.next_link;
        for h in std::mem::take(self).hosts.into_values() {
            h.sink.close();
        }
        self.next_link = next_link;
    }

    /// Links a host: its free slots join the pool; slots busy with a game the platform did not
    /// launch on this link are ended. `taken`: machine names the node has already (its static
    /// list), which a host may not reuse.
    pub fn hello(
        &mut self,
        h: HostHello,
        sink: Arc<dyn HostSink>,
        now: Instant,
        taken: &[MachineId],
    ) -> Result<(HostLink, Vec<HostEffect>), HostRefusal> {
        let name: Arc<str> = h.host.as_str().into();
        if self.hosts.contains_key(&name) {
            return Err(HostRefusal::Duplicate);
        }
        let mut slots = BTreeMap::new();
        for r in &h.slots {
            slots.entry(r.slot).or_insert_with(|| SlotEntry {
                machine: machine_id(&name, r.slot),
                reported: SlotState::Broken,
                reported_session: None,
                usage: Usage::Busy,
                launch_pending: None,
                controller: None,
            });
        }
        if slots
            .values()
            .any(|s| taken.contains(&s.machine) || self.machines.contains_key(&s.machine))
        {
            return Err(HostRefusal::Duplicate);
        }
        // A session restored on one of these slots holds it again; the reports below settle it.
        let mut adopted = vec![];
        let mut launches = vec![];
        for s in slots.values_mut() {
            if let Some(a) = self.awaiting.remove(&s.machine) {
                s.usage = Usage::Held(a.session_id);
                adopted.push(HostEffect::Adopted(a.session_id, s.machine.clone()));
                if let Some((uid, game)) = a.launch {
                    launches.push((s.machine.clone(), a.session_id, uid, game));
                }
            }
        }
        self.next_link += 1;
        let link = HostLink {
            node_id: h.node_id,
            host: name.clone(),
            link: self.next_link,
        };
        for (slot, s) in &slots {
            self.machines.insert(s.machine.clone(), (name.clone(), *slot));
        }
        self.hosts.insert(
            name.clone(),
            HostEntry {
                link: link.link,
                sink: sink.clone(),
                stream_url: h.stream_url.as_str().into(),
                ping_url: h.ping_url.as_str().into(),
                games: h.games,
                last_heard: now,
                slots,
            },
        );
        let mut effects = vec![HostEffect::Command(sink, HostCommand::Welcome)];
        effects.extend(adopted);
        let mut seen = std::collections::HashSet::new();
        for r in h.slots {
            if seen.insert(r.slot) {
                self.report(&name, r, &mut effects);
            }
        }
        for (machine, session_id, uid, game) in launches {
            effects.extend(self.launch(&machine, session_id, uid, &game));
        }
        Ok((link, effects))
    }

    /// Whether `link` is the live link of its host.
    pub fn is_live(&self, link: &HostLink) -> bool {
        self.hosts.get(&link.host).is_some_and(|h| h.link == link.link)
    }

    /// Something a linked host said: it is heard now, and its reports are settled. None: the link
    /// is not live (replaced or lost), and nothing changed.
    pub fn event(&mut self, link: &HostLink, ev: HostEvent, now: Instant) -> Option<Vec<HostEffect>> {
        let host = self.hosts.get_mut(&link.host).filter(|h| h.link == link.link)?;
        host.last_heard = now;
        if let HostEvent::FirstFrame { slot, session_id } | HostEvent::GameExited { slot, session_id } = ev {
            if let Some(s) = host.slots.get_mut(&slot) {
                if s.launch_pending == Some(session_id) {
                    s.launch_pending = None;
                }
            }
        }
        let held = |t: &HostTable, slot: u32, id: i64| {
            t.hosts
                .get(&link.host)
                .and_then(|h| h.slots.get(&slot))
                .is_some_and(|s| s.usage == Usage::Held(id))
        };
        let mut effects = vec![];
        match ev {
            HostEvent::Heartbeat(reports) => {
                for r in reports {
                    self.report(&link.host, r, &mut effects);
                }
            }
            HostEvent::Slot(r) => self.report(&link.host, r, &mut effects),
            HostEvent::FirstFrame { slot, session_id } => {
                if held(self, slot, session_id) {
                    effects.push(HostEffect::Connected(session_id));
                }
            }
            HostEvent::GameExited { slot, session_id } => {
                if held(self, slot, session_id) {
                    effects.push(HostEffect::End(session_id, EndReason::GameExited));
                }
            }
            HostEvent::Input { slot, session_id } => {
                if held(self, slot, session_id) {
                    effects.push(HostEffect::Input(session_id));
                }
            }
        }
        Some(effects)
    }

    /// Settles one slot report of `host`.
    fn report(&mut self, host: &Arc<str>, r: SlotReport, effects: &mut Vec<HostEffect>) {
        let Some(h) = self.hosts.get_mut(host) else { return };
        let sink = h.sink.clone();
        let Some(s) = h.slots.get_mut(&r.slot) else {
            tracing::warn!(%host, slot = r.slot, "report of a slot the host did not declare");
            return;
        };
        let was = (s.reported, s.reported_session);
        s.reported = r.state;
        s.reported_session = r.session_id;
        if r.session_id.is_some() && s.launch_pending == r.session_id {
            s.launch_pending = None;
        }
        let busy = matches!(r.state, SlotState::Launching | SlotState::Playing);
        let end = |session_id: i64| HostEffect::Command(sink.clone(), HostCommand::End { slot: r.slot, session_id });
        match (s.usage, r.state) {
            (Usage::Pool, SlotState::Free) => {}
            (Usage::Ending(id), SlotState::Free) if s.launch_pending == Some(id) => {
                // Said before the host took the launch: the game may be starting now.
            }
            (Usage::Busy | Usage::Ending(_), SlotState::Free) => {
                s.usage = Usage::Pool;
                effects.push(HostEffect::Join(s.machine.clone()));
            }
            (Usage::Held(id), SlotState::Free) => {
                // Free before the launch is the normal state of a READY machine; free after
                // the session's game ran means the game went without a word.
                if matches!(was, (SlotState::Launching | SlotState::Playing, Some(prev)) if prev == id) {
                    effects.push(HostEffect::End(id, EndReason::GameExited));
                }
            }
            (Usage::Held(id), SlotState::Playing) if r.session_id == Some(id) => {
                // A first frame whose own message was lost still makes the session PLAYING.
                if was.0 != SlotState::Playing {
                    effects.push(HostEffect::Connected(id));
                }
            }
            (Usage::Held(id), _) if busy && r.session_id == Some(id) => {}
            (Usage::Held(id), SlotState::Broken) => effects.push(HostEffect::End(id, EndReason::GameExited)),
            (Usage::Held(_), _) => {
                // Another session's game on a held slot: a leftover, ended.
                if let (true, Some(other)) = (busy, r.session_id) {
                    effects.push(end(other));
                }
            }
            (Usage::Pool, _) => {
                effects.push(HostEffect::Withdraw(s.machine.clone()));
                s.usage = match (busy, r.session_id) {
                    (true, Some(other)) => {
                        effects.push(end(other));
                        Usage::Ending(other)
                    }
                    _ => Usage::Busy,
                };
            }
            (Usage::Busy, _) => {
                if let (true, Some(other)) = (busy, r.session_id) {
                    effects.push(end(other));
                    s.usage = Usage::Ending(other);
                }
            }
            (Usage::Ending(_), _) => {}
        }
    }

    /// A session was handed the machine (it was taken from the pool).
    pub fn assign(&mut self, machine: &MachineId, session_id: i64) {
        if let Some(s) = self.slot_mut(machine) {
            s.usage = Usage::Held(session_id);
            s.controller = None;
        }
    }

    /// A hand-over did not happen: the machine is back in the pool.
    pub fn unassign(&mut self, machine: &MachineId) {
        if let Some(s) = self.slot_mut(machine) {
            s.usage = Usage::Pool;
            s.launch_pending = None;
            s.controller = None;
        }
    }

    /// `uid` controls the game of the session holding a host's slot from now on: the host is
    /// told at once (a session not launched yet gets it right after its Launch, which it
    /// follows on the same link, so the host keeps it for the launch). None: no host's slot is
    /// held by that session (it waits, it ended, or it runs on a static machine).
    pub fn control(&mut self, session_id: i64, uid: i64) -> Option<Vec<HostEffect>> {
        let (sink, slot, entry) = self.hosts.values_mut().find_map(|h| {
            let sink = h.sink.clone();
            h.slots
                .iter_mut()
                .find(|(_, s)| s.usage == Usage::Held(session_id))
                .map(|(slot, s)| (sink, *slot, s))
        })?;
        entry.controller = Some(uid);
        Some(vec![HostEffect::Command(
            sink,
            HostCommand::Control {
                slot,
                session_id,
                controller: uid,
            },
        )])
    }

    /// The controller named for the session holding `machine`, if the platform named one.
    pub fn controller(&self, machine: &MachineId) -> Option<i64> {
        self.slot(machine)?.controller
    }

    /// Whether the machine is a host's slot (else a static machine of the configuration).
    pub fn is_host_machine(&self, machine: &MachineId) -> bool {
        self.machines.contains_key(machine)
    }

    /// The session confirmed: its game is launched on its slot, or the session ends at once when
    /// the host cannot run that game.
    pub fn launch(&mut self, machine: &MachineId, session_id: i64, uid: i64, game: &str) -> Vec<HostEffect> {
        if let Some(a) = self.awaiting.get_mut(machine).filter(|a| a.session_id == session_id) {
            // confirmed before the host linked again after a restart: launched with its hello
            a.launch = Some((uid, game.to_string()));
            return vec![];
        }
        let Some((host, slot)) = self.machines.get(machine).cloned() else {
            return vec![HostEffect::End(session_id, EndReason::HostLost)];
        };
        let Some(h) = self.hosts.get(&host) else { return vec![] };
        if h.slots.get(&slot).map(|s| s.usage) != Some(Usage::Held(session_id)) {
            return vec![];
        }
        if !h.games.iter().any(|g| g == game) {
            tracing::warn!(%host, game, session_id, "the host cannot run the session's game");
            return vec![HostEffect::End(session_id, EndReason::GameExited)];
        }
        let sink = h.sink.clone();
        let mut controller = None;
        if let Some(s) = self.slot_mut(machine) {
            s.launch_pending = Some(session_id);
            controller = s.controller.filter(|c| *c != uid);
        }
        let mut effects = vec![HostEffect::Command(
            sink.clone(),
            HostCommand::Launch {
                slot,
                session_id,
                uid,
                game: game.to_string(),
            },
        )];
        if let Some(controller) = controller {
            effects.push(HostEffect::Command(
                sink,
                HostCommand::Control {
                    slot,
                    session_id,
                    controller,
                },
            ));
        }
        effects
    }

    /// The session holding the machine ended: the host ends its game and resets the slot, which
    /// comes back when the host reports it Free. None: not a host machine (a static one, freed
    /// at once by the caller).
    pub fn release(&mut self, machine: &MachineId, session_id: i64) -> Option<Vec<HostEffect>> {
        if self.awaiting.get(machine).is_some_and(|a| a.session_id == session_id) {
            // ended before its host came back: the host ends the game when it links (a slot
            // busy with a session the platform does not hold)
            self.awaiting.remove(machine);
            return Some(vec![HostEffect::Withdraw(machine.clone())]);
        }
        let (host, slot) = self.machines.get(machine).cloned()?;
        let Some(h) = self.hosts.get_mut(&host) else { return Some(vec![]) };
        let sink = h.sink.clone();
        let Some(s) = h.slots.get_mut(&slot) else { return Some(vec![]) };
        if s.usage != Usage::Held(session_id) {
            return Some(vec![]);
        }
        s.usage = Usage::Ending(session_id);
        Some(vec![HostEffect::Command(sink, HostCommand::End { slot, session_id })])
    }

    /// The host is gone (its link closed, or it was silent too long): its machines leave the pool
    /// and the sessions on them end. Nothing if `link` is not its live link.
    pub fn lose(&mut self, link: &HostLink) -> Vec<HostEffect> {
        if !self.is_live(link) {
            return vec![];
        }
        let Some(h) = self.hosts.remove(&link.host) else { return vec![] };
        let mut effects = vec![];
        for s in h.slots.into_values() {
            self.machines.remove(&s.machine);
            effects.push(HostEffect::Withdraw(s.machine));
            if let Usage::Held(id) = s.usage {
                effects.push(HostEffect::End(id, EndReason::HostLost));
            }
        }
        effects.push(HostEffect::Close(h.sink));
        effects
    }

    /// Every host (the table is dropped: all are lost).
    pub fn lose_all(&mut self) -> Vec<HostEffect> {
        let links: Vec<HostLink> = self
            .hosts
            .iter()
            .map(|(name, h)| HostLink {
                node_id: 0,
                host: name.clone(),
                link: h.link,
            })
            .collect();
        links.iter().flat_map(|l| self.lose(l)).collect()
    }

    /// The links of the hosts not heard for `timeout` at `now`.
    pub fn silent(&self, now: Instant, timeout: Duration, node_id: i64) -> Vec<HostLink> {
        self.hosts
            .iter()
            .filter(|(_, h)| now.saturating_duration_since(h.last_heard) >= timeout)
            .map(|(name, h)| HostLink {
                node_id,
                host: name.clone(),
                link: h.link,
            })
            .collect()
    }

    /// When the next host falls silent, if none is heard before.
    pub fn next_silence(&self, timeout: Duration) -> Option<Instant> {
        let hosts = self.hosts.values().map(|h| h.last_heard + timeout);
        hosts.chain(self.awaiting.values().map(|a| a.until)).min()
    }

    /// A session restored after a restart on `machine`, a slot of a host not linked yet: the
    /// slot is the session's when the host links before `until`. False: the machine is a linked
    /// host's (the caller claims it the usual way) or awaited by another session.
    pub fn await_host(&mut self, machine: &MachineId, session_id: i64, until: Instant) -> bool {
        if self.machines.contains_key(machine) {
            return false;
        }
        match self.awaiting.get(machine) {
            Some(other) if other.session_id != session_id => false,
            _ => {
                let awaiting = Awaiting {
                    session_id,
                    until,
                    launch: None,
                };
                self.awaiting.insert(machine.clone(), awaiting);
                true
            }
        }
    }

    /// The restored sessions whose host did not come back by `now`: they end (HostLost) and their
    /// machines are no longer counted.
    pub fn given_up(&mut self, now: Instant) -> Vec<HostEffect> {
        let lapsed: Vec<MachineId> = self
            .awaiting
            .iter()
            .filter(|(_, a)| a.until <= now)
            .map(|(m, _)| m.clone())
            .collect();
        let mut effects = vec![];
        for m in lapsed {
            if let Some(a) = self.awaiting.remove(&m) {
                effects.push(HostEffect::Withdraw(m));
                effects.push(HostEffect::End(a.session_id, EndReason::HostLost));
            }
        }
        effects
    }

    /// Where a machine's stream is served; None for a static machine.
    pub fn stream_target(&self, machine: &MachineId, node_id: i64) -> Option<StreamTarget> {
        let (host, slot) = self.machines.get(machine)?;
        let h = self.hosts.get(host)?;
        Some(StreamTarget {
            node_id,
            host: host.clone(),
            slot: *slot,
            stream_url: h.stream_url.clone(),
        })
    }

    /// The latency probe of the node: its first linked host's.
    pub fn ping_url(&self) -> Option<Arc<str>> {
        self.hosts.values().next().map(|h| h.ping_url.clone())
    }

    /// The host machines in the pool, and those out (held or being given back): what a
    /// restarted queue puts back in its pool.
    pub fn pool_parts(&self) -> (Vec<MachineId>, Vec<MachineId>) {
        let (mut free, mut out) = (vec![], vec![]);
        for h in self.hosts.values() {
            for s in h.slots.values() {
                match s.usage {
                    Usage::Pool => free.push(s.machine.clone()),
                    Usage::Held(_) | Usage::Ending(_) => out.push(s.machine.clone()),
                    Usage::Busy => {}
                }
            }
        }
        (free, out)
    }

    /// A slot's entry, for tests and inspection.
    pub fn slot(&self, machine: &MachineId) -> Option<&SlotEntry> {
        let (host, slot) = self.machines.get(machine)?;
        self.hosts.get(host)?.slots.get(slot)
    }

    /// How many hosts are linked.
    pub fn len(&self) -> usize {
        self.hosts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.hosts.is_empty()
    }

    fn slot_mut(&mut self, machine: &MachineId) -> Option<&mut SlotEntry> {
        let (host, slot) = self.machines.get(machine)?;
        self.hosts.get_mut(host)?.slots.get_mut(slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parking_lot::Mutex;

    /// A link that keeps what it was sent.
    #[derive(Default)]
    struct Sent(Mutex<Vec<HostCommand>>);

    impl HostSink for Sent {
        fn send(&self, cmd: HostCommand) -> bool {
            self.0.lock().push(cmd);
            true
        }
        fn close(&self) {}
    }

    fn report(slot: u32, state: SlotState, session_id: Option<i64>) -> SlotReport {
        SlotReport { slot, state, session_id }
    }

    fn hello(name: &str, slots: Vec<SlotReport>) -> HostHello {
        HostHello {
            node_id: 1,
            host: name.into(),
            stream_url: "ws://127.0.0.1:9".into(),
            ping_url: "http://127.0.0.1:9/ping".into(),
            games: vec!["neverball".into()],
            slots,
        }
    }

    fn sink() -> Arc<dyn HostSink> {
        Arc::new(Sent::default())
    }

    fn cmd(c: HostCommand) -> HostEffect {
        HostEffect::Command(sink(), c)
    }

    fn m(s: &str) -> MachineId {
        s.to_string()
    }

    // After a restart, sessions restored on the slots of a host not linked yet wait for it: its
    // hello finds the playing session's slot held (the game goes on: Connected, which a PLAYING
    // session ignores), the READY session's free slot held and out of the pool, and a slot whose
    // game went ends its session; a session whose host does not come back by its deadline ends
    // (HostLost), and one that ended meanwhile is forgotten.
    #[test]
    fn restored_sessions_keep_their_slots_when_their_host_links_again() {
        let mut t = HostTable::default();
        let now = Instant::now();
        let until = now + Duration::from_secs(10);
        assert!(t.await_host(&m("h-00"), 7, until));
        assert!(t.await_host(&m("h-01"), 8, until));
        assert!(t.await_host(&m("h-02"), 9, until));
        assert!(!t.await_host(&m("h-00"), 99, until), "another session's slot");
        assert!(t.await_host(&m("g-00"), 10, until));
        assert!(t.await_host(&m("g-01"), 11, until));
        assert_eq!(t.next_silence(Duration::from_secs(60)), Some(until));
        assert_eq!(
            t.launch(&m("h-01"), 8, 42, "neverball"),
            vec![],
            "confirmed before the host links: kept for its hello"
        );
        assert_eq!(
            t.release(&m("g-01"), 11),
            Some(vec![HostEffect::Withdraw(m("g-01"))]),
            "ended before its host came back"
        );
        let (_, effects) = t
            .hello(
                hello(
                    "h",
                    vec![
                        report(0, SlotState::Playing, Some(7)),
                        report(1, SlotState::Free, None),
                        report(2, SlotState::Broken, None),
                    ],
                ),
                sink(),
                now,
                &[],
            )
            .unwrap();
        assert_eq!(
            effects,
            vec![
                cmd(HostCommand::Welcome),
                HostEffect::Adopted(7, m("h-00")),
                HostEffect::Adopted(8, m("h-01")),
                HostEffect::Adopted(9, m("h-02")),
                HostEffect::Connected(7),
                HostEffect::End(9, EndReason::GameExited),
                cmd(HostCommand::Launch {
                    slot: 1,
                    session_id: 8,
                    uid: 42,
                    game: "neverball".into()
                }),
            ]
        );
        assert_eq!(t.slot(&m("h-00")).unwrap().usage, Usage::Held(7));
        assert_eq!(t.slot(&m("h-01")).unwrap().usage, Usage::Held(8));
        assert_eq!(
            t.pool_parts().0,
            Vec::<MachineId>::new(),
            "no slot of a restored session in the pool"
        );
        assert!(!t.await_host(&m("h-01"), 8, until), "a linked host's slot is claimed the usual way");
        // Host g never comes back.
        assert_eq!(t.given_up(until - Duration::from_millis(1)), vec![]);
        assert_eq!(
            t.given_up(until),
            vec![HostEffect::Withdraw(m("g-00")), HostEffect::End(10, EndReason::HostLost)]
        );
        assert_eq!(t.given_up(until + Duration::from_secs(1)), vec![]);
        assert_eq!(t.next_silence(Duration::from_secs(60)), Some(now + Duration::from_secs(60)));
    }

    // A hello welcomes the host first; its free slots join the pool and a slot still running a
    // game from before is ended and kept out until it is reset; a second host of the same name,
    // or one whose machine names are taken, is refused.
    #[test]
    fn hello_joins_free_slots_and_ends_leftovers() {
        let mut t = HostTable::default();
        let now = Instant::now();
        let (link, effects) = t
            .hello(
                hello("h", vec![report(0, SlotState::Free, None), report(1, SlotState::Playing, Some(9))]),
                sink(),
                now,
                &[],
            )
            .unwrap();
        assert_eq!(
            effects,
            vec![
                cmd(HostCommand::Welcome),
                HostEffect::Join(m("h-00")),
                cmd(HostCommand::End { slot: 1, session_id: 9 }),
            ]
        );
        assert_eq!(t.slot(&m("h-01")).unwrap().usage, Usage::Ending(9));
        assert_eq!(t.pool_parts(), (vec![m("h-00")], vec![m("h-01")]));
        assert_eq!(t.hello(hello("h", vec![]), sink(), now, &[]).err(), Some(HostRefusal::Duplicate));
        assert_eq!(
            t.hello(hello("s", vec![report(1, SlotState::Free, None)]), sink(), now, &[m("s-01")])
                .err(),
            Some(HostRefusal::Duplicate),
            "a static machine's name"
        );
        // The reset slot comes back.
        let back = t.event(&link, HostEvent::Slot(report(1, SlotState::Free, None)), now).unwrap();
        assert_eq!(back, vec![HostEffect::Join(m("h-01"))]);
    }

    // The life of a slot: held by a session, launched, its first frame, ended by the platform
    // (the host resets it) and free again only on the host's report.
    #[test]
    fn a_slot_serves_one_session_and_comes_back_after_its_reset() {
        let mut t = HostTable::default();
        let now = Instant::now();
        let (link, _) = t
            .hello(hello("h", vec![report(0, SlotState::Free, None)]), sink(), now, &[])
            .unwrap();
        t.assign(&m("h-00"), 5);
        assert_eq!(
            t.event(&link, HostEvent::Heartbeat(vec![report(0, SlotState::Free, None)]), now),
            Some(vec![]),
            "free before the launch is normal"
        );
        assert_eq!(
            t.launch(&m("h-00"), 5, 7, "neverball"),
            vec![cmd(HostCommand::Launch {
                slot: 0,
                session_id: 5,
                uid: 7,
                game: "neverball".into()
            })]
        );
        assert_eq!(t.launch(&m("h-00"), 6, 7, "neverball"), vec![], "not the holder");
        assert_eq!(
            t.event(&link, HostEvent::Slot(report(0, SlotState::Launching, Some(5))), now),
            Some(vec![])
        );
        assert_eq!(
            t.event(&link, HostEvent::FirstFrame { slot: 0, session_id: 5 }, now),
            Some(vec![HostEffect::Connected(5)])
        );
        assert_eq!(
            t.event(&link, HostEvent::FirstFrame { slot: 0, session_id: 4 }, now),
            Some(vec![]),
            "another session's frame"
        );
        assert_eq!(
            t.release(&m("h-00"), 5),
            Some(vec![cmd(HostCommand::End { slot: 0, session_id: 5 })])
        );
        assert_eq!(t.release(&m("h-00"), 5), Some(vec![]), "released once");
        assert_eq!(t.release(&m("static"), 5), None, "not a host machine");
        assert_eq!(
            t.event(&link, HostEvent::Slot(report(0, SlotState::Resetting, Some(5))), now),
            Some(vec![]),
            "not free while it resets"
        );
        assert_eq!(
            t.event(&link, HostEvent::Slot(report(0, SlotState::Free, None)), now),
            Some(vec![HostEffect::Join(m("h-00"))])
        );
    }

    // A Free report the host sent before it took a launch does not free a slot whose session
    // ended meanwhile (the game may be starting); a report after the launch does.
    #[test]
    fn a_free_report_older_than_the_launch_does_not_free_the_slot() {
        let mut t = HostTable::default();
        let now = Instant::now();
        let (link, _) = t
            .hello(hello("h", vec![report(0, SlotState::Free, None)]), sink(), now, &[])
            .unwrap();
        t.assign(&m("h-00"), 5);
        t.launch(&m("h-00"), 5, 1, "neverball");
        t.release(&m("h-00"), 5);
        let stale = HostEvent::Heartbeat(vec![report(0, SlotState::Free, None)]);
        assert_eq!(t.event(&link, stale.clone(), now), Some(vec![]), "sent before the launch");
        t.event(&link, HostEvent::Slot(report(0, SlotState::Launching, Some(5))), now);
        t.event(&link, HostEvent::Slot(report(0, SlotState::Resetting, Some(5))), now);
        assert_eq!(t.event(&link, stale, now), Some(vec![HostEffect::Join(m("h-00"))]));
        // A session never launched: its slot is free on the next report.
        t.assign(&m("h-00"), 6);
        t.release(&m("h-00"), 6);
        assert_eq!(
            t.event(&link, HostEvent::Heartbeat(vec![report(0, SlotState::Free, None)]), now),
            Some(vec![HostEffect::Join(m("h-00"))])
        );
    }

    // A game that exits ends its session, whether the host says so or the slot just turns free
    // or broken under it; a game the host lacks ends the session at the launch; a heartbeat that
    // shows the game playing makes up for a lost first frame.
    #[test]
    fn games_that_stop_end_their_sessions() {
        let mut t = HostTable::default();
        let now = Instant::now();
        let slots = (0..4).map(|i| report(i, SlotState::Free, None)).collect();
        let (link, _) = t.hello(hello("h", slots), sink(), now, &[]).unwrap();
        for (i, id) in [(0, 10), (1, 11), (2, 12), (3, 13)] {
            t.assign(&m(&format!("h-0{i}")), id);
        }
        assert_eq!(
            t.event(&link, HostEvent::GameExited { slot: 0, session_id: 10 }, now),
            Some(vec![HostEffect::End(10, EndReason::GameExited)])
        );
        t.event(&link, HostEvent::Slot(report(1, SlotState::Playing, Some(11))), now);
        assert_eq!(
            t.event(&link, HostEvent::Slot(report(1, SlotState::Free, None)), now),
            Some(vec![HostEffect::End(11, EndReason::GameExited)])
        );
        assert_eq!(
            t.event(&link, HostEvent::Slot(report(2, SlotState::Broken, None)), now),
            Some(vec![HostEffect::End(12, EndReason::GameExited)])
        );
        assert_eq!(
            t.launch(&m("h-03"), 13, 1, "tetris"),
            vec![HostEffect::End(13, EndReason::GameExited)]
        );
        assert_eq!(
            t.event(&link, HostEvent::Heartbeat(vec![report(3, SlotState::Playing, Some(13))]), now),
            Some(vec![HostEffect::Connected(13)])
        );
        assert_eq!(
            t.event(&link, HostEvent::Heartbeat(vec![report(3, SlotState::Playing, Some(13))]), now),
            Some(vec![]),
            "once"
        );
    }

    // Control goes to the host and slot the session holds, at once, and again after a Launch
    // when it names someone other than the player; the next session on the slot starts with its
    // player; a session that holds no slot has no controller to set.
    #[test]
    fn control_goes_to_the_held_slot_and_follows_the_launch() {
        let mut t = HostTable::default();
        let now = Instant::now();
        t.hello(hello("h", vec![report(0, SlotState::Free, None)]), sink(), now, &[])
            .unwrap();
        let (g, _) = t
            .hello(hello("g", vec![report(2, SlotState::Free, None)]), sink(), now, &[])
            .unwrap();
        t.assign(&m("g-02"), 5);
        let control = |session_id, controller| {
            cmd(HostCommand::Control {
                slot: 2,
                session_id,
                controller,
            })
        };
        assert_eq!(t.control(5, 9), Some(vec![control(5, 9)]));
        assert_eq!(t.controller(&m("g-02")), Some(9));
        assert_eq!(t.control(6, 9), None, "not held");
        assert_eq!(
            t.launch(&m("g-02"), 5, 7, "neverball"),
            vec![
                cmd(HostCommand::Launch {
                    slot: 2,
                    session_id: 5,
                    uid: 7,
                    game: "neverball".into()
                }),
                control(5, 9),
            ]
        );
        assert_eq!(t.control(5, 7), Some(vec![control(5, 7)]), "back to the player");
        t.release(&m("g-02"), 5);
        assert_eq!(t.control(5, 9), None, "ended");
        t.event(&g, HostEvent::Slot(report(2, SlotState::Free, None)), now);
        t.assign(&m("g-02"), 8);
        assert_eq!(t.controller(&m("g-02")), None, "a new session starts with its player");
        assert_eq!(t.launch(&m("g-02"), 8, 3, "neverball").len(), 1, "the Launch alone");
    }

    // A host silent for the timeout is found; losing it withdraws its machines, ends the
    // sessions on them and closes its link; its old link is heard no more, and the same name
    // links again.
    #[test]
    fn a_silent_host_is_lost_and_links_again() {
        let mut t = HostTable::default();
        let t0 = Instant::now();
        let timeout = Duration::from_millis(3000);
        let slots = vec![report(0, SlotState::Free, None), report(1, SlotState::Free, None)];
        let (link, _) = t.hello(hello("h", slots.clone()), sink(), t0, &[]).unwrap();
        t.assign(&m("h-01"), 8);
        assert_eq!(t.next_silence(timeout), Some(t0 + timeout));
        let t1 = t0 + Duration::from_millis(2000);
        t.event(&link, HostEvent::Heartbeat(vec![]), t1);
        assert!(t.silent(t0 + timeout, timeout, 1).is_empty(), "heard at t1");
        assert_eq!(t.silent(t1 + timeout, timeout, 1), vec![link.clone()]);
        assert_eq!(
            t.lose(&link),
            vec![
                HostEffect::Withdraw(m("h-00")),
                HostEffect::Withdraw(m("h-01")),
                HostEffect::End(8, EndReason::HostLost),
                HostEffect::Close(sink()),
            ]
        );
        assert_eq!(t.event(&link, HostEvent::Heartbeat(vec![]), t1), None, "the old link is not heard");
        assert_eq!(t.lose(&link), vec![]);
        assert_eq!(t.release(&m("h-01"), 8), None, "its machines are forgotten");
        let (again, effects) = t.hello(hello("h", slots), sink(), t1, &[]).unwrap();
        assert_ne!(again.link, link.link);
        assert_eq!(effects.len(), 3, "welcome and both slots: {effects:?}");
    }
}
