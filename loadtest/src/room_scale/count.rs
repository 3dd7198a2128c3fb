//! Counting what the viewers received: the pure part of the room-scale run, unit-tested.
//!
//! - **Marker.** Every chat message's text is `rs#<seq>@<send µs>`: the harness-wide sequence
//!   number (1, 2, ... in send order) and the wall clock when its `chat/send` call left. The
//!   marker is found in the event's `data` text (the JSON of the spec's chat data) without
//!   parsing the JSON, so the count does not depend on the data's shape.
//! - **Frames.** A ROOM_EVENTS frame may carry several events; [`parse_frame`] reads it once
//!   into a [`Batch`] (offsets, and the marker of each chat) that every viewer receiving the
//!   same bytes shares (see [`FrameCache`]).
//! - **Per viewer** ([`Viewer`]): the last offset applied, events received, offset gaps (events
//!   the stream skipped) and duplicates, resets, and the set of chat sequence numbers seen, from
//!   which [`Viewer::missing`] counts the messages of a range it never got.
//! - **Per message** ([`Tally`]): receipts and the last receipt of each sequence number, the
//!   latency of every receipt (send → receipt, a 1 ms histogram), receipts per 10 ms of the run.
//!   Children send theirs to the parent, which merges them ([`Tally::merge`]).
//!
//! Times are wall-clock microseconds (`probe::wall_us`), the clock every process shares.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use prost::Message;

use super::frames::{RoomEvents, RoomReset, ROOM_EVENTS, ROOM_RESET};
use crate::client::envelope_type;
use crate::proto::Envelope;

/// The chat text of message `seq` sent at `send_us`.
pub fn marker(seq: u32, send_us: i64) -> String {
    format!("rs#{seq}@{send_us}")
}

/// The (seq, send µs) of the first marker in `text`, if any.
pub fn parse_marker(text: &str) -> Option<(u32, i64)> {
    let at = text.find("rs#")? + 3;
    let rest = &text[at..];
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    let n = digits(rest);
    let seq = rest[..n].parse().ok()?;
    let rest = rest[n..].strip_prefix('@')?;
    let m = digits(rest);
    let send = rest[..m].parse().ok()?;
    Some((seq, send))
}

/// One room frame, read.
#[derive(Debug, Clone, PartialEq)]
pub enum Batch {
    /// ROOM_EVENTS: the offsets the batch covers (a busy room's batch merges its entries and
    /// leaves, so it may hold fewer events than offsets), each event's offset and, for a chat of
    /// this run, its marker.
    Events {
        epoch: String,
        covers: (u64, u64),
        events: Vec<(u64, Option<(u32, i64)>)>,
    },
    /// ROOM_RESET: the position to watch from.
    Reset { epoch: String, offset: u64 },
}

/// Reads a ROOM_EVENTS or ROOM_RESET frame (a whole Envelope); `None` for any other frame.
pub fn parse_frame(frame: &[u8]) -> Option<Batch> {
    let kind = envelope_type(frame);
    if kind != ROOM_EVENTS && kind != ROOM_RESET {
        return None;
    }
    let env = Envelope::decode(frame).ok()?;
    if kind == ROOM_RESET {
        let r = RoomReset::decode(env.content.as_slice()).ok()?;
        return Some(Batch::Reset {
            epoch: r.epoch,
            offset: r.offset,
        });
    }
    let e = RoomEvents::decode(env.content.as_slice()).ok()?;
    let events: Vec<(u64, Option<(u32, i64)>)> = e.events.iter().map(|ev| (ev.offset, parse_marker(&ev.data))).collect();
    let covers = (e.first_offset, e.last_offset);
    Some(Batch::Events {
        epoch: e.epoch,
        covers,
        events,
    })
}

/// The frames a child has read, by content: thousands of viewers receive the same bytes, which
/// are decoded once. Bounded: cleared when it holds `cap` frames.
pub struct FrameCache {
    map: HashMap<u64, (Vec<u8>, Rc<Batch>)>,
    cap: usize,
    pub hits: u64,
    pub misses: u64,
}

impl FrameCache {
    pub fn new(cap: usize) -> FrameCache {
        FrameCache {
            map: HashMap::new(),
            cap: cap.max(1),
            hits: 0,
            misses: 0,
        }
    }

    /// The frame's batch. The key hashes the length, the first 128 and the last 32 bytes (the
    /// epoch and the first offset are near the start); a hit is confirmed by comparing every byte.
    pub fn get(&mut self, frame: &[u8]) -> Option<Rc<Batch>> {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        frame.len().hash(&mut h);
        frame[..frame.len().min(128)].hash(&mut h);
        frame[frame.len().saturating_sub(32)..].hash(&mut h);
        let key = h.finish();
        if let Some((bytes, batch)) = self.map.get(&key) {
            if bytes.as_slice() == frame {
                self.hits += 1;
                return Some(batch.clone());
            }
            self.misses += 1;
            return parse_frame(frame).map(Rc::new);
        }
        self.misses += 1;
        let batch = Rc::new(parse_frame(frame)?);
        if self.map.len() >= self.cap {
            self.map.clear();
        }
        self.map.insert(key, (frame.to_vec(), batch.clone()));
        Some(batch)
    }
}

/// What one viewer received.
#[derive(Debug, Default, Clone)]
pub struct Viewer {
    /// The last offset applied (the entry answer's, then each event's).
    pub last_offset: u64,
    pub epoch: String,
    pub events: u64,
    /// Offsets skipped between consecutive events (events the viewer never got).
    pub offset_gaps: u64,
    /// Events at or below the last offset (received twice).
    pub offset_dups: u64,
    pub resets: u64,
    /// Chat receipts of this run's messages, and those of a sequence number already seen.
    pub chats: u64,
    pub chat_dups: u64,
    /// Bit `seq` set: message `seq` received.
    seen: Vec<u64>,
}

impl Viewer {
    /// Watching from `epoch`/`offset` (the entry answer, or after a reset).
    pub fn at(&mut self, epoch: &str, offset: u64) {
        if self.epoch != epoch {
            self.epoch = epoch.to_string();
        }
        self.last_offset = offset;
    }

    /// Applies a batch; `on_chat(seq, send_us)` for each chat received for the first time.
    pub fn apply(&mut self, batch: &Batch, mut on_chat: impl FnMut(u32, i64)) {
        match batch {
            Batch::Reset { epoch, offset } => {
                self.resets += 1;
                self.at(epoch, *offset);
            }
            Batch::Events { epoch, covers, events } => {
                if *epoch != self.epoch {
                    // A new epoch (the room's actor restarted): offsets start again.
                    self.at(epoch, 0);
                }
                let (first, last) = *covers;
                // Offsets the stream skipped: the batch starts past the next one.
                if last > self.last_offset && first > self.last_offset + 1 {
                    self.offset_gaps += first - self.last_offset - 1;
                }
                for &(offset, chat) in events {
                    if offset <= self.last_offset {
                        self.offset_dups += 1;
                        continue;
                    }
                    self.events += 1;
                    if let Some((seq, send)) = chat {
                        if self.mark(seq) {
                            self.chats += 1;
                            on_chat(seq, send);
                        } else {
                            self.chat_dups += 1;
                        }
                    }
                }
                self.last_offset = self.last_offset.max(last);
            }
        }
    }

    /// Marks `seq` seen; false if it already was.
    fn mark(&mut self, seq: u32) -> bool {
        let (word, bit) = (seq as usize / 64, seq % 64);
        if self.seen.len() <= word {
            self.seen.resize(word + 1, 0);
        }
        let was = self.seen[word] & (1 << bit) != 0;
        self.seen[word] |= 1 << bit;
        !was
    }

    pub fn saw(&self, seq: u32) -> bool {
        self.seen.get(seq as usize / 64).is_some_and(|w| w & (1 << (seq % 64)) != 0)
    }

    /// Messages `lo..=hi` this viewer never received.
    pub fn missing(&self, lo: u32, hi: u32) -> u64 {
        (lo..=hi).filter(|&s| !self.saw(s)).count() as u64
    }
}

/// Latencies in 1 ms buckets up to [`Histogram::MAX_MS`] (beyond: the last bucket).
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    buckets: Vec<u64>,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            buckets: vec![0; Histogram::MAX_MS as usize + 1],
        }
    }
}

impl Histogram {
    pub const MAX_MS: u32 = 60_000;

    /// One latency (µs; negative, from clock steps, counts as 0).
    pub fn record_us(&mut self, us: i64) {
        self.add((us.max(0) / 1000).min(Self::MAX_MS as i64) as u32, 1);
    }

    pub fn add(&mut self, ms: u32, n: u64) {
        self.buckets[ms.min(Self::MAX_MS) as usize] += n;
    }

    pub fn count(&self) -> u64 {
        self.buckets.iter().sum()
    }

    /// The non-empty buckets: (ms, count).
    pub fn sparse(&self) -> Vec<(u32, u64)> {
        self.buckets
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(ms, &n)| (ms as u32, n))
            .collect()
    }

    /// Nearest-rank percentile `p` as the upper edge of its bucket (ms): a latency in bucket
    /// `k` is in [k, k+1) ms.
    pub fn percentile_ms(&self, p: f64) -> Option<f64> {
        let n = self.count();
        if n == 0 {
            return None;
        }
        let rank = ((p * n as f64 / 100.0).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (ms, &c) in self.buckets.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return Some(ms as f64 + 1.0);
            }
        }
        None
    }
}

/// One message over every viewer.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SeqRec {
    pub receipts: u64,
    pub send_us: i64,
    pub last_us: i64,
}

/// Width of [`Tally::bins`], µs.
pub const BIN_US: i64 = 10_000;

/// What the viewers of one process (or, merged, of all) received, by message.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Index `seq`.
    pub seqs: Vec<SeqRec>,
    /// Send → receipt of every receipt.
    pub latency: Histogram,
    /// Receipts per [`BIN_US`] since `origin_us` (receipts before it are left out).
    pub bins: Vec<u64>,
    pub origin_us: i64,
}

impl Tally {
    pub fn new(origin_us: i64) -> Tally {
        Tally {
            origin_us,
            ..Default::default()
        }
    }

    /// A viewer received message `seq` (sent at `send_us`) at `now_us`.
    pub fn receipt(&mut self, seq: u32, send_us: i64, now_us: i64) {
        let s = seq as usize;
        if self.seqs.len() <= s {
            self.seqs.resize(s + 1, SeqRec::default());
        }
        let r = &mut self.seqs[s];
        r.receipts += 1;
        r.send_us = send_us;
        r.last_us = r.last_us.max(now_us);
        self.latency.record_us(now_us - send_us);
        if now_us >= self.origin_us {
            let b = ((now_us - self.origin_us) / BIN_US) as usize;
            if b < 100_000 {
                if self.bins.len() <= b {
                    self.bins.resize(b + 1, 0);
                }
                self.bins[b] += 1;
            }
        }
    }

    /// Adds one message's figures from another process.
    pub fn add_seq(&mut self, seq: u32, rec: SeqRec) {
        let s = seq as usize;
        if self.seqs.len() <= s {
            self.seqs.resize(s + 1, SeqRec::default());
        }
        let r = &mut self.seqs[s];
        r.receipts += rec.receipts;
        if rec.receipts > 0 {
            r.send_us = rec.send_us;
        }
        r.last_us = r.last_us.max(rec.last_us);
    }

    pub fn add_bin(&mut self, bin: usize, n: u64) {
        if self.bins.len() <= bin {
            self.bins.resize(bin + 1, 0);
        }
        self.bins[bin] += n;
    }

    /// Another process's tally (same origin) into this one.
    pub fn merge(&mut self, other: &Tally) {
        for (seq, rec) in other.seqs.iter().enumerate() {
            if rec.receipts > 0 {
                self.add_seq(seq as u32, *rec);
            }
        }
        for (ms, n) in other.latency.sparse() {
            self.latency.add(ms, n);
        }
        for (b, &n) in other.bins.iter().enumerate() {
            if n > 0 {
                self.add_bin(b, n);
            }
        }
    }

    /// Receipts between `from_us` and `to_us` (whole bins from the origin).
    pub fn receipts_between(&self, from_us: i64, to_us: i64) -> u64 {
        let b = |t: i64| ((t - self.origin_us).max(0) / BIN_US) as usize;
        self.bins.iter().skip(b(from_us)).take(b(to_us).saturating_sub(b(from_us))).sum()
    }

    /// Send → the last viewer's receipt of each message `lo..=hi` that anyone received, µs,
    /// sorted; and how many of them nobody received.
    pub fn last_receipt_latencies(&self, lo: u32, hi: u32) -> (Vec<u64>, u64) {
        let mut out = Vec::new();
        let mut unreceived = 0;
        for seq in lo..=hi {
            match self.seqs.get(seq as usize) {
                Some(r) if r.receipts > 0 => out.push((r.last_us - r.send_us).max(0) as u64),
                _ => unreceived += 1,
            }
        }
        out.sort_unstable();
        (out, unreceived)
    }
}

#[cfg(test)]
mod tests {
    use super::super::frames::{envelope, RoomEvent};
    use super::*;

    fn events_frame(epoch: &str, events: &[(u64, &str)]) -> Vec<u8> {
        envelope(
            ROOM_EVENTS,
            &RoomEvents {
                dd_rid: 7,
                epoch: epoch.into(),
                first_offset: events.iter().map(|e| e.0).min().unwrap_or(0),
                last_offset: events.iter().map(|e| e.0).max().unwrap_or(0),
                events: events
                    .iter()
                    .map(|&(offset, data)| RoomEvent {
                        offset,
                        code: 3000,
                        data: data.into(),
                        ..Default::default()
                    })
                    .collect(),
            },
        )
    }

    fn chat(seq: u32, send: i64) -> String {
        format!(r#"{{"user":{{"userId":5}},"text":"{}","faceId":null}}"#, marker(seq, send))
    }

    // The marker reads back from the text or from JSON around it; anything else is no marker.
    #[test]
    fn marker_round_trip() {
        assert_eq!(parse_marker(&marker(42, 1_700_000_000_123_456)), Some((42, 1_700_000_000_123_456)));
        assert_eq!(parse_marker(&chat(3, 99)), Some((3, 99)));
        assert_eq!(parse_marker("大家好"), None);
        assert_eq!(parse_marker("rs#12"), None);
        assert_eq!(parse_marker("rs#@5"), None);
        assert_eq!(parse_marker("rs#x@5"), None);
    }

    // A ROOM_EVENTS frame reads into offsets and markers; a reset into its position; others None.
    #[test]
    fn frames_parse() {
        let f = events_frame("e1", &[(4, &chat(1, 10)), (5, r#"{"userId":9}"#), (6, &chat(2, 20))]);
        assert_eq!(
            parse_frame(&f),
            Some(Batch::Events {
                epoch: "e1".into(),
                covers: (4, 6),
                events: vec![(4, Some((1, 10))), (5, None), (6, Some((2, 20)))]
            })
        );
        let r = envelope(
            ROOM_RESET,
            &RoomReset {
                dd_rid: 7,
                epoch: "e2".into(),
                offset: 30,
            },
        );
        assert_eq!(
            parse_frame(&r),
            Some(Batch::Reset {
                epoch: "e2".into(),
                offset: 30
            })
        );
        let pong = envelope(2, &RoomReset::default());
        assert_eq!(parse_frame(&pong), None);
        assert_eq!(parse_frame(b"garbage"), None);
    }

    // The same bytes are decoded once; different bytes (even of the same length) are not confused.
    #[test]
    fn cache_decodes_each_frame_once() {
        let mut c = FrameCache::new(2);
        let a = events_frame("e1", &[(1, &chat(1, 10))]);
        let b = events_frame("e1", &[(1, &chat(2, 10))]);
        assert_eq!(a.len(), b.len());
        let first = c.get(&a).unwrap();
        for _ in 0..5 {
            assert!(Rc::ptr_eq(&c.get(&a.clone()).unwrap(), &first));
        }
        assert_eq!((c.hits, c.misses), (5, 1));
        assert_eq!(
            *c.get(&b).unwrap(),
            Batch::Events {
                epoch: "e1".into(),
                covers: (1, 1),
                events: vec![(1, Some((2, 10)))]
            }
        );
        // Full: cleared, and still right.
        let d = events_frame("e1", &[(2, "")]);
        assert!(c.get(&d).is_some());
        assert!(c.map.len() <= 2);
        assert!(c.get(b"junk").is_none());
    }

    fn apply(v: &mut Viewer, b: &Batch) -> Vec<u32> {
        let mut got = vec![];
        v.apply(b, |s, _| got.push(s));
        got
    }

    fn batch(epoch: &str, events: &[(u64, Option<u32>)]) -> Batch {
        Batch::Events {
            epoch: epoch.into(),
            covers: (events[0].0, events[events.len() - 1].0),
            events: events.iter().map(|&(o, s)| (o, s.map(|s| (s, 0)))).collect(),
        }
    }

    // Events are counted once each; gaps, duplicates, resets and a new epoch are told apart;
    // missing messages are those of the range never received.
    #[test]
    fn viewer_counts_gaps_and_duplicates() {
        let mut v = Viewer::default();
        v.at("e1", 10);
        assert_eq!(apply(&mut v, &batch("e1", &[(11, Some(1)), (12, None), (13, Some(2))])), vec![1, 2]);
        assert_eq!((v.events, v.offset_gaps, v.offset_dups, v.chats), (3, 0, 0, 2));
        // A resent event, then a batch past the next offset: a skipped offset.
        assert_eq!(apply(&mut v, &batch("e1", &[(13, Some(2))])), Vec::<u32>::new());
        assert_eq!(apply(&mut v, &batch("e1", &[(15, Some(4))])), vec![4]);
        assert_eq!((v.events, v.offset_gaps, v.offset_dups), (4, 1, 1));
        // The same message again under a new offset (it was sent twice): a chat duplicate.
        assert_eq!(apply(&mut v, &batch("e1", &[(16, Some(4))])), Vec::<u32>::new());
        assert_eq!(v.chat_dups, 1);
        assert_eq!(v.missing(1, 4), 1, "3 never came");
        assert_eq!(v.missing(1, 2), 0);
        assert_eq!(v.missing(5, 200), 196);
        // A reset moves the position without counting a gap.
        apply(
            &mut v,
            &Batch::Reset {
                epoch: "e1".into(),
                offset: 40,
            },
        );
        apply(&mut v, &batch("e1", &[(41, Some(5))]));
        assert_eq!((v.resets, v.offset_gaps, v.last_offset), (1, 1, 41));
        // A new epoch starts from offset 1.
        apply(&mut v, &batch("e2", &[(1, Some(6)), (2, None)]));
        assert_eq!((v.offset_gaps, v.last_offset, v.epoch.as_str()), (1, 2, "e2"));
        assert!(v.saw(6) && v.saw(5) && !v.saw(3));
        // A viewer whose first event is not offset 1 after watching from 0 skipped events.
        let mut w = Viewer::default();
        w.at("e1", 0);
        apply(&mut w, &batch("e1", &[(3, None)]));
        assert_eq!(w.offset_gaps, 2);
        // A busy room's merged batch covers offsets it holds no event for: no gap.
        let merged = Batch::Events {
            epoch: "e1".into(),
            covers: (4, 9),
            events: vec![(4, None), (7, Some((9, 0)))],
        };
        assert_eq!(apply(&mut w, &merged), vec![9]);
        assert_eq!((w.offset_gaps, w.last_offset, w.events), (2, 9, 3));
    }

    // Nearest-rank percentiles over 1 ms buckets, upper edges; overflow goes to the last bucket.
    #[test]
    fn histogram_percentiles() {
        let mut h = Histogram::default();
        assert_eq!(h.percentile_ms(50.0), None);
        for ms in 1..=100 {
            h.record_us(ms * 1000 + 500);
        }
        assert_eq!(h.count(), 100);
        assert_eq!(h.percentile_ms(50.0), Some(51.0));
        assert_eq!(h.percentile_ms(99.0), Some(100.0));
        assert_eq!(h.percentile_ms(100.0), Some(101.0));
        h.record_us(-5);
        h.record_us(10_000_000_000);
        assert_eq!(h.sparse().first(), Some(&(0, 1)));
        assert_eq!(h.sparse().last(), Some(&(Histogram::MAX_MS, 1)));
    }

    // Two processes' tallies merge: receipts add up, the last receipt is the later one, bins
    // and latencies add; unreceived messages are counted apart.
    #[test]
    fn tallies_merge() {
        let origin = 1_000_000;
        let mut a = Tally::new(origin);
        let mut b = Tally::new(origin);
        a.receipt(1, origin, origin + 5_000);
        a.receipt(1, origin, origin + 30_000);
        b.receipt(1, origin, origin + 80_000);
        b.receipt(2, origin + 100_000, origin + 101_000);
        a.receipt(4, origin - 50_000, origin - 10_000); // before the origin: no bin
        a.merge(&b);
        assert_eq!(
            a.seqs[1],
            SeqRec {
                receipts: 3,
                send_us: origin,
                last_us: origin + 80_000
            }
        );
        assert_eq!(a.latency.count(), 5);
        assert_eq!(a.receipts_between(origin, origin + 200_000), 4);
        assert_eq!(a.receipts_between(origin, origin + 10_000), 1, "the first 10 ms bin");
        let (lat, unreceived) = a.last_receipt_latencies(1, 4);
        assert_eq!((lat, unreceived), (vec![1_000, 40_000, 80_000], 1));
    }
}
