//! The watchers of one room and the frames that reach them: the hot path of a busy room.
//!
//! Every batch of events is encoded once by the [`RoomWire`] and the same [`Bytes`] is handed
//! to every sink; a sink that says it is gone is dropped. A watcher that joined in the middle of
//! a batch (its first needed offset is past the batch's first event) gets the tail of the batch
//! encoded for it alone, so nobody receives an event twice or misses one.
//!
//! Steps of a watch with a position (the invariant "no gap, no duplicate", guarded by
//! `tests/rooms.rs::resume_gets_exactly_the_missed_events`):
//! 1. the watch runs in the room actor's mailbox, so no event is appended meanwhile;
//! 2. events after the position that were already flushed to others are sent to the new sink
//!    now, in one frame;
//! 3. the sink joins with `from` = the first offset it still needs: the next flush sends it the
//!    rest of the pending batch (all of it, or its tail).

use std::sync::Arc;

use bytes::Bytes;

use super::events::{merge_presence, EventLog, Resume, RoomEvent};
use super::wire::{RoomSink, RoomWire, WatchId};

/// One watching socket.
struct Watcher {
    id: WatchId,
    uid: i64,
    sink: Arc<dyn RoomSink>,
    /// The first offset this watcher still needs.
    from: u64,
    /// The last offset it gets: its user left the room (the events up to their leaving, the
    /// kick included, still reach them), then the watch ends.
    until: Option<u64>,
}

/// The watchers and how far the room's log was flushed to them.
#[derive(Default)]
pub struct Fanout {
    watchers: Vec<Watcher>,
    /// The last offset sent to the watchers.
    flushed: u64,
    /// Frames carry a batch's entries and leaves merged (a busy room, `merge_presence`).
    merge: bool,
}

/// A watch to add.
pub struct NewWatch<'a> {
    pub id: WatchId,
    pub uid: i64,
    pub sink: Arc<dyn RoomSink>,
    /// (epoch, offset) of the last event the socket has.
    pub position: Option<(&'a str, u64)>,
}

/// What a new watch received first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joined {
    /// The missed events (this many were sent now; the rest follow with the next flush).
    Resumed(usize),
    /// A reset: the position could not be served.
    Reset,
    /// No position: live from now on.
    Live,
}

impl Fanout {
    pub fn len(&self) -> usize {
        self.watchers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.watchers.is_empty()
    }

    /// Events appended since the last flush.
    pub fn pending(&self, log: &EventLog) -> bool {
        log.offset() > self.flushed
    }

    /// Whether frames merge entries and leaves (the room's actor turns it on for a busy room).
    pub fn set_merge(&mut self, merge: bool) {
        self.merge = merge;
    }

    /// The frame of `events`, which cover the offsets `covers`.
    fn frame(&self, wire: &dyn RoomWire, dd_rid: i64, log: &EventLog, covers: (u64, u64), events: Vec<RoomEvent>) -> Bytes {
        let events = if self.merge { merge_presence(events) } else { events };
        wire.encode(dd_rid, log.epoch(), covers.0..=covers.1, &events)
    }

    /// A flushed position for a log that starts now (a new or restarted room).
    pub fn start_at(&mut self, offset: u64) {
        self.flushed = offset;
    }

    /// Adds a watcher; with a position it first gets what it missed, or a reset.
    pub fn join(&mut self, log: &EventLog, wire: &dyn RoomWire, dd_rid: i64, w: NewWatch<'_>) -> Joined {
        let NewWatch { id, uid, sink, position } = w;
        let (from, joined) = match position {
            None => (log.offset() + 1, Joined::Live),
            Some((epoch, after)) => match log.since(epoch, after) {
                Resume::Missed(events) => {
                    let now: Vec<RoomEvent> = events.into_iter().filter(|e| e.offset <= self.flushed).cloned().collect();
                    let sent = now.len();
                    if let Some(last) = now.last().map(|e| e.offset) {
                        if !sink.send(&self.frame(wire, dd_rid, log, (after + 1, last), now)) {
                            return Joined::Resumed(0);
                        }
                    }
                    (after.max(self.flushed) + 1, Joined::Resumed(sent))
                }
                Resume::Reset => {
                    if !sink.send(&wire.reset(dd_rid, log.epoch(), log.offset())) {
                        return Joined::Reset;
                    }
                    (log.offset() + 1, Joined::Reset)
                }
            },
        };
        self.watchers.push(Watcher {
            id,
            uid,
            sink,
            from,
            until: None,
        });
        joined
    }

    /// Removes a watcher; its uid if it was there.
    pub fn leave(&mut self, id: WatchId) -> Option<i64> {
        let i = self.watchers.iter().position(|w| w.id == id)?;
        Some(self.watchers.swap_remove(i).uid)
    }

    /// `uid` left the room: their watches get the events up to `last` and then end.
    pub fn retire(&mut self, uid: i64, last: u64) {
        for w in self.watchers.iter_mut().filter(|w| w.uid == uid) {
            w.until = Some(last);
        }
    }

    /// Sends the events appended since the last flush: one frame for everyone (and a tail for
    /// a watcher that joined mid-batch). Returns the uids of the sinks that were gone.
    pub fn flush(&mut self, log: &EventLog, wire: &dyn RoomWire, dd_rid: i64) -> Vec<i64> {
        let last = log.offset();
        if last <= self.flushed {
            return vec![];
        }
        let start = self.flushed + 1;
        self.flushed = last;
        if self.watchers.is_empty() {
            return vec![];
        }
        let events: Vec<RoomEvent> = log.tail(start).cloned().collect();
        let first = events.first().map_or(start, |e| e.offset);
        let mut shared: Option<(Bytes, u64)> = None;
        let mut gone = vec![];
        let mut deliveries = 0u64;
        let mut watchers = std::mem::take(&mut self.watchers);
        watchers.retain_mut(|w| {
            let until = w.until.unwrap_or(u64::MAX);
            let ok = if w.from <= first && until >= last {
                let (frame, n) = shared.get_or_insert_with(|| {
                    let frame = self.frame(wire, dd_rid, log, (first, last), events.clone());
                    (frame, events.len() as u64)
                });
                deliveries += *n;
                w.sink.send(frame)
            } else {
                let part: Vec<RoomEvent> = events.iter().filter(|e| e.offset >= w.from && e.offset <= until).cloned().collect();
                deliveries += part.len() as u64;
                part.is_empty()
                    || w.sink
                        .send(&self.frame(wire, dd_rid, log, (w.from.max(first), until.min(last)), part))
            };
            if !ok {
                gone.push(w.uid);
            }
            ok && w.until.is_none_or(|u| u > last)
        });
        self.watchers = watchers;
        metrics::counter!("yoo_room_frames_total").increment(1);
        metrics::counter!("yoo_room_deliveries_total").increment(deliveries);
        gone
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rooms::events::RoomEventKind;
    use crate::rooms::view::RoomUser;
    use crate::rooms::wire::DebugWire;
    use parking_lot::Mutex;

    #[derive(Default)]
    struct Sink {
        frames: Mutex<Vec<String>>,
        /// The events and the offsets covered ("1:1004,3:1002|1-6").
        raw: Mutex<Vec<String>>,
        gone: std::sync::atomic::AtomicBool,
    }

    impl RoomSink for Sink {
        fn send(&self, frame: &Bytes) -> bool {
            let text = String::from_utf8_lossy(frame);
            self.frames.lock().push(text.split('|').nth(2).unwrap_or("").to_string());
            self.raw.lock().push(text.splitn(3, '|').nth(2).unwrap_or("").to_string());
            !self.gone.load(std::sync::atomic::Ordering::Relaxed)
        }
    }

    fn nw<'a>(id: u64, uid: i64, sink: &Arc<Sink>, position: Option<(&'a str, u64)>) -> NewWatch<'a> {
        NewWatch {
            id: WatchId(id),
            uid,
            sink: sink.clone(),
            position,
        }
    }

    fn push(log: &mut EventLog, n: usize) {
        for _ in 0..n {
            log.push(RoomEventKind::MikeInfoChange, vec![], vec![], 0);
        }
    }

    // One frame per flush for everyone, encoded once; a watcher that joined mid-batch gets
    // only the tail it needs; a gone sink is dropped.
    #[test]
    fn batches_and_tails() {
        let mut log = EventLog::new("e".into());
        let mut fan = Fanout::default();
        let (a, b) = (Arc::new(Sink::default()), Arc::new(Sink::default()));
        assert_eq!(fan.join(&log, &DebugWire, 1, nw(1, 10, &a, Some(("e", 0)))), Joined::Resumed(0));
        push(&mut log, 2);
        // b joins with a position inside the pending batch (it saw offset 1 in room info).
        assert_eq!(fan.join(&log, &DebugWire, 1, nw(2, 11, &b, Some(("e", 1)))), Joined::Resumed(0));
        push(&mut log, 1);
        assert_eq!(fan.flush(&log, &DebugWire, 1), Vec::<i64>::new());
        assert_eq!(*a.frames.lock(), vec!["1:1002,2:1002,3:1002"]);
        assert_eq!(*b.frames.lock(), vec!["2:1002,3:1002"]);
        // A resume after a flush gets the flushed events at once.
        let c = Arc::new(Sink::default());
        assert_eq!(fan.join(&log, &DebugWire, 1, nw(3, 12, &c, Some(("e", 1)))), Joined::Resumed(2));
        assert_eq!(*c.frames.lock(), vec!["2:1002,3:1002"]);
        // A stale epoch: reset.
        let d = Arc::new(Sink::default());
        assert_eq!(fan.join(&log, &DebugWire, 1, nw(4, 13, &d, Some(("old", 1)))), Joined::Reset);
        assert_eq!(*d.frames.lock(), vec!["reset:3"]);
        a.gone.store(true, std::sync::atomic::Ordering::Relaxed);
        push(&mut log, 1);
        assert_eq!(fan.flush(&log, &DebugWire, 1), vec![10]);
        assert_eq!(fan.len(), 3);
        assert_eq!(c.frames.lock().last().map(String::as_str), Some("4:1002"));
        assert_eq!(d.frames.lock().last().map(String::as_str), Some("4:1002"));
        assert_eq!(fan.leave(WatchId(3)), Some(12));
        assert_eq!(fan.leave(WatchId(3)), None);
        // A member who left gets the events up to their leaving, then the watch ends.
        push(&mut log, 1);
        fan.retire(13, log.offset());
        push(&mut log, 1);
        fan.flush(&log, &DebugWire, 1);
        assert_eq!(d.frames.lock().last().map(String::as_str), Some("5:1002"));
        assert_eq!(fan.len(), 1);
    }

    // A busy room's frames merge entries and leaves but still cover every offset: the shared
    // frame, a mid-batch joiner's tail and a resume alike.
    #[test]
    fn merged_frames_cover_every_offset() {
        let mut log = EventLog::new("e".into());
        let mut fan = Fanout::default();
        fan.set_merge(true);
        let (a, b) = (Arc::new(Sink::default()), Arc::new(Sink::default()));
        fan.join(&log, &DebugWire, 1, nw(1, 10, &a, Some(("e", 0))));
        let user = |uid| RoomUser {
            uid,
            nickname: "n".into(),
            avatar: "".into(),
            status: 0,
            member: None,
        };
        let enter = |uid| RoomEventKind::RoomEnter {
            user: user(uid),
            others: 0,
        };
        log.push(enter(1), vec![], vec![], 0);
        log.push(enter(2), vec![], vec![], 0);
        fan.join(&log, &DebugWire, 1, nw(2, 11, &b, Some(("e", 1))));
        log.push(RoomEventKind::MikeInfoChange, vec![], vec![], 0);
        log.push(RoomEventKind::RoomLeave { uid: 1, others: 0 }, vec![], vec![], 0);
        log.push(enter(3), vec![], vec![], 0);
        log.push(RoomEventKind::RoomLeave { uid: 2, others: 0 }, vec![], vec![], 0);
        fan.flush(&log, &DebugWire, 1);
        let raw = |s: &Sink| s.raw.lock().clone();
        assert_eq!(raw(&a), vec!["1:1004,3:1002,4:1005|1-6"]);
        assert_eq!(raw(&b), vec!["2:1004,3:1002,4:1005|2-6"]);
        // A resume from offset 2 gets 3..=6 merged in one frame that says so.
        let c = Arc::new(Sink::default());
        assert_eq!(fan.join(&log, &DebugWire, 1, nw(3, 12, &c, Some(("e", 2)))), Joined::Resumed(4));
        assert_eq!(raw(&c), vec!["3:1002,4:1005,5:1004|3-6"]);
    }

    /// Counts encodes.
    #[derive(Default)]
    struct Counting(std::sync::atomic::AtomicUsize);

    impl RoomWire for Counting {
        fn encode(&self, dd_rid: i64, epoch: &str, covers: std::ops::RangeInclusive<u64>, events: &[RoomEvent]) -> Bytes {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            DebugWire.encode(dd_rid, epoch, covers, events)
        }

        fn reset(&self, dd_rid: i64, epoch: &str, offset: u64) -> Bytes {
            DebugWire.reset(dd_rid, epoch, offset)
        }
    }

    /// Shares one frame: every sink of a batch gets the same bytes.
    #[derive(Default)]
    struct Ptr(Mutex<Vec<usize>>);

    impl RoomSink for Ptr {
        fn send(&self, frame: &Bytes) -> bool {
            self.0.lock().push(frame.as_ptr() as usize);
            true
        }
    }

    // A thousand watchers: one encode per batch, the same bytes to each.
    #[test]
    fn one_encode_per_batch() {
        let mut log = EventLog::new("e".into());
        let mut fan = Fanout::default();
        let wire = Counting::default();
        let sinks: Vec<Arc<Ptr>> = (0..1000).map(|_| Arc::new(Ptr::default())).collect();
        for (i, s) in sinks.iter().enumerate() {
            let w = NewWatch {
                id: WatchId(i as u64),
                uid: i as i64,
                sink: s.clone(),
                position: None,
            };
            fan.join(&log, &wire, 1, w);
        }
        push(&mut log, 20);
        fan.flush(&log, &wire, 1);
        assert_eq!(wire.0.load(std::sync::atomic::Ordering::Relaxed), 1);
        let first = sinks[0].0.lock()[0];
        assert!(sinks.iter().all(|s| *s.0.lock() == vec![first]), "the same bytes to every sink");
        assert_eq!(fan.flush(&log, &wire, 1), Vec::<i64>::new(), "nothing new: nothing sent");
        assert_eq!(wire.0.load(std::sync::atomic::Ordering::Relaxed), 1);
    }
}
