//! Queue lanes and the admission order between them.
//!
//! A player joins the lane that what they hold entitles them to (core-platform.md §4.6): `isFast`
//! 1 member fast entry, 2 carrier partner, 3 VVIP, 4 VIP, 5 night package, 6 daily package,
//! 0 normal. Lanes are served by **weighted fair queuing with a virtual clock** (self-clocked
//! fair queuing):
//!
//! 1. The queue keeps a virtual time `V`: the tag of the last player admitted (0 at first).
//! 2. A player joining lane `l` gets the tag `max(V, last_tag[l]) + STEP / weight[l]`, and
//!    `last_tag[l]` becomes that tag. Within a lane tags strictly increase: a lane is FIFO.
//! 3. The next machine goes to the smallest tag (ties: who joined first). A player's rank is the
//!    number of players with a smaller tag, plus one, so it is exact for the queue as it stands.
//!
//! This is "ageing": the longer a player waits, the further `V` moves towards their tag, and no
//! later joiner of any lane can get a tag below `V`. It gives each lane a share of admissions
//! proportional to its weight while it has players waiting, and bounds every wait:
//!
//! **No-starvation bound.** A player who joins with tag `T` when the virtual time is `V0` and
//! `r - 1` players are ahead is admitted after at most
//! `(r - 1) + sum over lanes k of ceil((T - V0) * weight[k] / STEP)` other admissions, whatever
//! joins later. When nobody ahead of them in their own lane leaves the queue, `T - V0` is at most
//! `(n + 1) * STEP / weight[l]` for `n` players of lane `l` queued at the join, so the bound is
//! `(r - 1) + (n + 1) * ceil(W / weight[l])`-ish with `W` the sum of the weights (2035): for a
//! normal player (weight 1) behind `n` normal players, at most `r - 1 + 2035 * (n + 1)`
//! admissions, which at an admission rate `μ` per second is a wait of at most that over `μ`.
//! Proof sketch: everyone admitted first has a smaller tag; a later joiner of lane `k` gets a tag
//! at least `STEP / weight[k]` above the previous one of its lane and above `V0`, so at most
//! `(T - V0) * weight[k] / STEP` of them fit below `T`. Tags never change once given, so they are
//! stored with the session and a restart restores the exact order.
//! `lanes::tests::no_lane_starves` checks the bound on random workloads with cancellations.
//!
//! The ultimate lanes (member and carrier fast entry) have weight 1000: they skip the queue in
//! practice (their tag lands just above `V`), yet even they cannot hold a normal player back
//! beyond the bound.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

/// Hashes a session id with one multiplication (Fibonacci hashing): ids are trusted integers
/// from storage, so the SipHash that guards against chosen keys only costs time on the rank
/// refresh's lookups.
#[derive(Debug, Default, Clone, Copy)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(*b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_i64(&mut self, n: i64) {
        self.0 = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A map keyed by ids, hashed with [`IdHasher`].
pub type IdMap<V> = HashMap<i64, V, BuildHasherDefault<IdHasher>>;

/// Queue lane codes (`isFast`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Lane {
    Normal = 0,
    Member = 1,
    Carrier = 2,
    Vvip = 3,
    Vip = 4,
    Night = 5,
    Daily = 6,
}

pub const ALL_LANES: [Lane; 7] = [
    Lane::Normal,
    Lane::Member,
    Lane::Carrier,
    Lane::Vvip,
    Lane::Vip,
    Lane::Night,
    Lane::Daily,
];

/// The lane a player holding several entitlements joins: the first they are entitled to, in
/// the order of core-platform.md §4.6 ("member, carrier, VVIP, VIP, daily, night"), else
/// normal. The same order picks the helpful ('pre') lane offered.
pub const PREFERENCE_ORDER: [Lane; 6] = [Lane::Member, Lane::Carrier, Lane::Vvip, Lane::Vip, Lane::Daily, Lane::Night];

/// The lanes a waiting player can buy their way into from the queue dialog (memberships and the
/// day and night packages), in [`PREFERENCE_ORDER`].
pub const UPSELL_LANES: [Lane; 4] = [Lane::Vvip, Lane::Vip, Lane::Daily, Lane::Night];

/// The order lanes are displayed in (core-platform.md §4.6 "display priority"): member, carrier,
/// VIP, VVIP, daily, night, normal.
pub const DISPLAY_ORDER: [Lane; 7] = [
    Lane::Member,
    Lane::Carrier,
    Lane::Vip,
    Lane::Vvip,
    Lane::Daily,
    Lane::Night,
    Lane::Normal,
];

/// Tag step; divisible by every weight so tags stay integers.
pub const STEP: u64 = 8000;

impl Lane {
    pub fn code(self) -> i32 {
        self as i32
    }

    pub fn from_code(code: i32) -> Option<Lane> {
        ALL_LANES.iter().copied().find(|l| l.code() == code)
    }

    /// The lane's name in metrics labels.
    pub fn label(self) -> &'static str {
        match self {
            Lane::Normal => "normal",
            Lane::Member => "member",
            Lane::Carrier => "carrier",
            Lane::Vvip => "vvip",
            Lane::Vip => "vip",
            Lane::Night => "night",
            Lane::Daily => "daily",
        }
    }

    /// The share of admissions a lane gets while it has players waiting.
    pub fn weight(self) -> u64 {
        match self {
            Lane::Member | Lane::Carrier => 1000,
            Lane::Vvip => 20,
            Lane::Vip => 10,
            Lane::Daily | Lane::Night => 2,
            Lane::Normal => 1,
        }
    }

    /// Member and carrier fast entry: they skip the queue.
    pub fn is_ultimate(self) -> bool {
        matches!(self, Lane::Member | Lane::Carrier)
    }

    /// The lane the queue dialog offers a player waiting in this one (core-platform.md §2.7):
    /// the first of [`UPSELL_LANES`] that admits faster (VVIP for normal, package and VIP
    /// players), else member fast entry (a VVIP player is offered fast-entry time); none for the
    /// ultimate lanes, which nothing outruns. A player who owns a fast-entry card is offered
    /// the card instead, which the dialog knows from their cards.
    pub fn upsell(self) -> Option<Lane> {
        if self.is_ultimate() {
            return None;
        }
        Some(
            UPSELL_LANES
                .into_iter()
                .find(|l| l.weight() > self.weight())
                .unwrap_or(Lane::Member),
        )
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Sum of all weights, `W` in the bound.
pub fn total_weight() -> u64 {
    ALL_LANES.iter().map(|l| l.weight()).sum()
}

/// A player's place: lane, tag, and the join sequence (ties).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    pub tag: u64,
    pub seq: u64,
    pub lane: Lane,
}

/// The queue of one node: one FIFO per lane, ordered across lanes by tag.
#[derive(Debug, Clone)]
pub struct LaneQueue<T> {
    /// Per lane, in join order: (place, id). Tags and seqs strictly increase along a lane.
    lanes: [VecDeque<(Place, i64)>; 7],
    /// Each waiting id's lane, join sequence (to find it in its lane) and payload.
    index: IdMap<(Lane, u64, T)>,
    virtual_time: u64,
    last_tag: [u64; 7],
    next_seq: u64,
}

impl<T> Default for LaneQueue<T> {
    fn default() -> Self {
        LaneQueue {
            lanes: Default::default(),
            index: IdMap::default(),
            virtual_time: 0,
            last_tag: [0; 7],
            next_seq: 0,
        }
    }
}

impl<T> LaneQueue<T> {
    /// The place a player joining `lane` now would get (without joining).
    pub fn preview(&self, lane: Lane) -> Place {
        let tag = self.virtual_time.max(self.last_tag[lane.index()]) + STEP / lane.weight();
        Place {
            tag,
            seq: self.next_seq,
            lane,
        }
    }

    /// Joins `lane`; returns the rank. An id already waiting is moved (see `change_lane`).
    pub fn push(&mut self, id: i64, lane: Lane, item: T) -> u64 {
        self.join(id, lane, item).0
    }

    /// Joins `lane`; returns the rank and the place given.
    pub fn join(&mut self, id: i64, lane: Lane, item: T) -> (u64, Place) {
        if self.index.contains_key(&id) {
            self.remove(id);
        }
        let place = self.preview(lane);
        self.last_tag[lane.index()] = place.tag;
        self.next_seq += 1;
        self.lanes[lane.index()].push_back((place, id));
        self.index.insert(id, (lane, place.seq, item));
        (self.rank_of_place(&place), place)
    }

    fn position(&self, lane: Lane, seq: u64) -> Option<usize> {
        self.lanes[lane.index()].binary_search_by(|(p, _)| p.seq.cmp(&seq)).ok()
    }

    /// The place of a waiting id.
    pub fn place(&self, id: i64) -> Option<Place> {
        let (lane, seq, _) = self.index.get(&id)?;
        self.position(*lane, *seq).map(|at| self.lanes[lane.index()][at].0)
    }

    /// Moves a waiting player to another lane (a fast-entry card, a purchase) as if they joined
    /// it now, when that puts them further forward; otherwise they keep their place. Returns the
    /// rank and whether they moved.
    pub fn change_lane(&mut self, id: i64, lane: Lane) -> Option<(u64, bool)> {
        let old = self.place(id)?;
        let new = self.preview(lane);
        if (new.tag, new.seq) >= (old.tag, old.seq) {
            return self.rank_of(id).map(|r| (r, false));
        }
        let (_, item) = self.remove(id)?;
        Some((self.push(id, lane, item), true))
    }

    /// Leaves the queue; returns the place and the payload. When the leaver was the last of
    /// their lane, the lane's next joiner gets the tag it would have had without them.
    pub fn remove(&mut self, id: i64) -> Option<(Place, T)> {
        let (lane, seq, item) = self.index.remove(&id)?;
        let at = self.position(lane, seq)?;
        let q = &mut self.lanes[lane.index()];
        let (place, _) = q.remove(at)?;
        if at == q.len() {
            self.last_tag[lane.index()] = q.back().map_or(0, |(p, _)| p.tag);
        }
        Some((place, item))
    }

    /// Puts an entry back at the place it had (a player admitted to a machine that was lost
    /// before they could use it): it goes in among its lane by its join sequence, so it is
    /// ahead of everyone of its lane who joined after it, and, its tag being older than any
    /// given since, it is admitted first. Returns the rank. An id already waiting is moved.
    pub fn reinsert(&mut self, id: i64, place: Place, item: T) -> u64 {
        if self.index.contains_key(&id) {
            self.remove(id);
        }
        let l = place.lane.index();
        let at = match self.lanes[l].binary_search_by(|(p, _)| p.seq.cmp(&place.seq)) {
            Ok(at) | Err(at) => at,
        };
        self.lanes[l].insert(at, (place, id));
        self.last_tag[l] = self.last_tag[l].max(place.tag);
        self.next_seq = self.next_seq.max(place.seq + 1);
        self.index.insert(id, (place.lane, place.seq, item));
        self.rank_of_place(&place)
    }

    /// Rebuilds a queue from stored places (after a restart): `virtual_time` is the largest tag
    /// admitted before. Entries keep their tags and sequence numbers, so the order is the same.
    /// Places written by queues that were kept per game (before a node had one queue) can share
    /// a sequence number; then every entry is numbered afresh in (tag, seq, id) order, which
    /// keeps each lane's order and every strict comparison, and the ids renumbered are returned
    /// so that their places are stored again.
    pub fn restore(virtual_time: u64, entries: impl IntoIterator<Item = (i64, Place, T)>) -> (Self, Vec<i64>) {
        let mut q = LaneQueue {
            virtual_time,
            ..Default::default()
        };
        let mut all: Vec<(i64, Place, T)> = entries.into_iter().collect();
        all.sort_by_key(|(id, p, _)| (p.seq, p.tag, *id));
        let mut renumbered = Vec::new();
        if all.windows(2).any(|w| w[0].1.seq == w[1].1.seq) {
            all.sort_by_key(|(id, p, _)| (p.tag, p.seq, *id));
            for (seq, (id, place, _)) in all.iter_mut().enumerate() {
                if place.seq != seq as u64 {
                    place.seq = seq as u64;
                    renumbered.push(*id);
                }
            }
        }
        for (id, place, item) in all {
            let l = place.lane.index();
            q.last_tag[l] = q.last_tag[l].max(place.tag);
            q.next_seq = q.next_seq.max(place.seq + 1);
            q.lanes[l].push_back((place, id));
            q.index.insert(id, (place.lane, place.seq, item));
        }
        (q, renumbered)
    }

    pub fn virtual_time(&self) -> u64 {
        self.virtual_time
    }

    /// Admits the next player: the smallest tag across lanes. Advances the virtual time.
    pub fn pop_front(&mut self) -> Option<(i64, Place, T)> {
        let lane = self.head_lane()?;
        let (place, id) = self.lanes[lane].pop_front()?;
        self.virtual_time = self.virtual_time.max(place.tag);
        let (_, _, item) = self.index.remove(&id)?;
        Some((id, place, item))
    }

    fn head_lane(&self) -> Option<usize> {
        (0..7)
            .filter_map(|i| self.lanes[i].front().map(|(p, _)| ((p.tag, p.seq), i)))
            .min()
            .map(|(_, i)| i)
    }

    pub fn front(&self) -> Option<(i64, &T)> {
        let lane = self.head_lane()?;
        let (_, id) = self.lanes[lane].front()?;
        self.index.get(id).map(|(_, _, item)| (*id, item))
    }

    pub fn get(&self, id: i64) -> Option<&T> {
        self.index.get(&id).map(|(_, _, t)| t)
    }

    pub fn get_mut(&mut self, id: i64) -> Option<&mut T> {
        self.index.get_mut(&id).map(|(_, _, t)| t)
    }

    /// Exact rank (1 = next): players with a smaller place, plus one.
    pub fn rank_of(&self, id: i64) -> Option<u64> {
        self.place(id).map(|p| self.rank_of_place(&p))
    }

    /// A waiting id's exact rank, place and payload: one lookup, and a binary search in each
    /// lane (in its own lane, the position found is the count ahead there).
    pub fn rank_entry_mut(&mut self, id: i64) -> Option<(u64, Place, &mut T)> {
        let LaneQueue { lanes, index, .. } = self;
        let (lane, seq, item) = index.get_mut(&id)?;
        let own = lane.index();
        let at = lanes[own].binary_search_by(|(p, _)| p.seq.cmp(seq)).ok()?;
        let place = lanes[own][at].0;
        let key = (place.tag, place.seq);
        let others: usize = lanes
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != own)
            .map(|(_, q)| q.partition_point(|(p, _)| (p.tag, p.seq) < key))
            .sum();
        Some(((at + others) as u64 + 1, place, item))
    }

    /// How many waiting players are ahead of `place` (it need not be in the queue), plus one.
    pub fn rank_of_place(&self, place: &Place) -> u64 {
        let key = (place.tag, place.seq);
        let ahead: usize = self.lanes.iter().map(|q| q.partition_point(|(p, _)| (p.tag, p.seq) < key)).sum();
        ahead as u64 + 1
    }

    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    pub fn lane_len(&self, lane: Lane) -> usize {
        self.lanes[lane.index()].len()
    }

    /// Visits, in admission order, the waiting players whose id `select` picks, with their
    /// rank, place and payload. Players not picked cost one step of the merge and no lookup.
    /// The rank refresh no longer walks the queue this way (it costs the whole queue each
    /// time; see `ranks.rs`); `actors/tests/rank_cost.rs` keeps it as the reference it is
    /// measured against.
    pub fn visit_in_order(&mut self, select: impl Fn(i64) -> bool, mut visit: impl FnMut(u64, i64, &Place, &mut T)) {
        let mut heads = [0usize; 7];
        let mut rank = 0u64;
        loop {
            let mut best: Option<((u64, u64), usize)> = None;
            for (i, q) in self.lanes.iter().enumerate() {
                if let Some((p, _)) = q.get(heads[i]) {
                    if best.is_none_or(|(k, _)| (p.tag, p.seq) < k) {
                        best = Some(((p.tag, p.seq), i));
                    }
                }
            }
            let Some((_, lane)) = best else { return };
            let (place, id) = self.lanes[lane][heads[lane]];
            heads[lane] += 1;
            rank += 1;
            if select(id) {
                if let Some((_, _, item)) = self.index.get_mut(&id) {
                    visit(rank, id, &place, item);
                }
            }
        }
    }

    /// Every waiting player in admission order, with their rank.
    pub fn in_order(&self) -> impl Iterator<Item = (u64, i64, &T)> {
        let mut heads = [0usize; 7];
        let mut rank = 0u64;
        std::iter::from_fn(move || {
            let lane = (0..7)
                .filter_map(|i| self.lanes[i].get(heads[i]).map(|(p, _)| ((p.tag, p.seq), i)))
                .min()
                .map(|(_, i)| i)?;
            let (_, id) = self.lanes[lane][heads[lane]];
            heads[lane] += 1;
            rank += 1;
            self.index.get(&id).map(|(_, _, item)| (rank, id, item))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn lanes(q: &LaneQueue<()>) -> Vec<i64> {
        q.in_order().map(|(_, id, _)| id).collect()
    }

    // The queue dialog's offer, lane by lane (core-platform.md §2.7).
    #[test]
    fn each_lane_is_offered_the_first_faster_buyable_lane() {
        let offers: Vec<(Lane, Option<Lane>)> = ALL_LANES.iter().map(|l| (*l, l.upsell())).collect();
        assert_eq!(
            offers,
            vec![
                (Lane::Normal, Some(Lane::Vvip)),
                (Lane::Member, None),
                (Lane::Carrier, None),
                (Lane::Vvip, Some(Lane::Member)),
                (Lane::Vip, Some(Lane::Vvip)),
                (Lane::Night, Some(Lane::Vvip)),
                (Lane::Daily, Some(Lane::Vvip)),
            ]
        );
        for (lane, offer) in offers {
            if let Some(o) = offer {
                assert!(o.weight() > lane.weight(), "{lane:?} is offered a slower {o:?}");
            }
        }
    }

    #[test]
    fn visit_in_order_sees_the_ranks_of_the_picked_only() {
        let mut q = LaneQueue::default();
        for id in 1..=6 {
            q.push(id, Lane::Normal, 0u64);
        }
        q.push(10, Lane::Vip, 0);
        let mut seen = Vec::new();
        q.visit_in_order(
            |id| id % 2 == 0,
            |rank, id, place, told| {
                *told = rank;
                seen.push((rank, id, place.lane));
            },
        );
        assert_eq!(
            seen,
            vec![(1, 10, Lane::Vip), (3, 2, Lane::Normal), (5, 4, Lane::Normal), (7, 6, Lane::Normal)]
        );
        assert_eq!(q.get(4), Some(&5), "the payload is the queue's own");
        let all: Vec<(u64, i64)> = q.in_order().map(|(r, id, _)| (r, id)).collect();
        assert_eq!(all[2], (3, 2));
    }

    #[test]
    fn fifo_within_a_lane_and_weighted_between_lanes() {
        let mut q = LaneQueue::default();
        for id in 1..=4 {
            q.push(id, Lane::Normal, ());
        }
        assert_eq!(q.push(10, Lane::Vip, ()), 1, "a VIP joining now goes ahead of the normal backlog");
        assert_eq!(q.push(11, Lane::Member, ()), 1, "member fast entry skips the queue");
        assert_eq!(lanes(&q), vec![11, 10, 1, 2, 3, 4]);
        let order: Vec<i64> = std::iter::from_fn(|| q.pop_front().map(|(id, _, _)| id)).collect();
        assert_eq!(order, vec![11, 10, 1, 2, 3, 4]);
    }

    #[test]
    fn shares_follow_the_weights_under_backlog() {
        let mut q = LaneQueue::default();
        let mut next = 0;
        for _ in 0..400 {
            for lane in [Lane::Normal, Lane::Vip, Lane::Vvip] {
                next += 1;
                q.push(next, lane, lane);
            }
        }
        let mut got: HashMap<Lane, u64> = HashMap::new();
        for _ in 0..310 {
            let (_, _, lane) = q.pop_front().unwrap();
            *got.entry(lane).or_default() += 1;
        }
        // Weights 1 : 10 : 20 over 310 admissions: 10, 100, 200.
        assert_eq!((got[&Lane::Normal], got[&Lane::Vip], got[&Lane::Vvip]), (10, 100, 200));
    }

    #[test]
    fn ranks_are_exact_and_follow_removals() {
        let mut q = LaneQueue::default();
        for id in 1..=5 {
            assert_eq!(q.push(id, Lane::Normal, ()), id as u64);
        }
        assert_eq!(q.remove(3).map(|(p, _)| p.lane), Some(Lane::Normal));
        assert_eq!(q.rank_of(4), Some(3));
        assert_eq!(q.pop_front().map(|(id, _, _)| id), Some(1));
        let ranks: Vec<(u64, i64)> = q.in_order().map(|(r, id, _)| (r, id)).collect();
        assert_eq!(ranks, vec![(1, 2), (2, 4), (3, 5)]);
        assert!(q.remove(3).is_none());
    }

    #[test]
    fn restore_gives_the_same_order() {
        let mut q = LaneQueue::default();
        for id in 1..=30 {
            q.push(id, ALL_LANES[(id as usize * 7) % 7 + ((id as usize) % 3)], id);
        }
        for _ in 0..5 {
            q.pop_front();
        }
        q.remove(17);
        let entries: Vec<(i64, Place, i64)> = q.in_order().map(|(_, id, v)| (id, q.place(id).unwrap(), *v)).collect();
        let (mut r, renumbered) = LaneQueue::restore(q.virtual_time(), entries);
        assert!(renumbered.is_empty(), "places of one queue are kept as they are");
        let order = |q: &LaneQueue<i64>| q.in_order().map(|(r, id, _)| (r, id)).collect::<Vec<_>>();
        assert_eq!(order(&q), order(&r));
        // New joiners land in the same places in both.
        assert_eq!(q.push(100, Lane::Vip, 0), r.push(100, Lane::Vip, 0));
        assert_eq!(q.push(101, Lane::Normal, 0), r.push(101, Lane::Normal, 0));
        assert_eq!(order(&q), order(&r));
    }

    /// A player admitted and put back (their machine was lost before they could use it) is
    /// the next admitted: ahead of their lane's later joiners and of every other lane, and
    /// behind no one who joined their lane before them.
    #[test]
    fn a_reinserted_player_is_admitted_next() {
        let mut q = LaneQueue::default();
        for id in 1..=6 {
            q.push(id, if id % 2 == 0 { Lane::Vip } else { Lane::Normal }, id);
        }
        let (id, place, item) = q.pop_front().unwrap();
        for id in 7..=9 {
            q.push(id, Lane::Normal, id);
        }
        assert_eq!(q.reinsert(id, place, item), 1, "first again");
        assert_eq!(q.place(id), Some(place));
        assert_eq!(q.pop_front().map(|(i, p, _)| (i, p)), Some((id, place)));
        // Put back behind an earlier joiner of its lane that still waits: second, not first.
        let mut q = LaneQueue::default();
        q.push(1, Lane::Normal, ());
        q.push(2, Lane::Normal, ());
        let second = q.place(2).unwrap();
        q.remove(2);
        q.push(3, Lane::Normal, ());
        assert_eq!(q.reinsert(2, second, ()), 2);
        let order: Vec<i64> = q.in_order().map(|(_, id, _)| id).collect();
        assert_eq!(order, vec![1, 2, 3]);
    }

    /// Places stored by queues kept per game share sequence numbers; restored into one node
    /// queue they are numbered afresh in (tag, seq, id) order, every lane stays in order and
    /// every entry can be found and ranked.
    #[test]
    fn restore_merges_places_of_per_game_queues() {
        let (mut a, mut b) = (LaneQueue::default(), LaneQueue::default());
        for i in 0..10i64 {
            a.push(i, ALL_LANES[i as usize % 3], ());
            b.push(100 + i, ALL_LANES[i as usize % 4], ());
        }
        let entries: Vec<(i64, Place, ())> = a
            .in_order()
            .map(|(_, id, _)| (id, a.place(id).unwrap(), ()))
            .chain(b.in_order().map(|(_, id, _)| (id, b.place(id).unwrap(), ())))
            .collect();
        let (mut q, renumbered) = LaneQueue::restore(0, entries.clone());
        assert!(!renumbered.is_empty(), "shared sequence numbers are renumbered");
        assert_eq!(q.len(), 20);
        let order: Vec<i64> = q.in_order().map(|(_, id, _)| id).collect();
        let mut want = entries.clone();
        want.sort_by_key(|(id, p, _)| (p.tag, p.seq, *id));
        assert_eq!(order, want.iter().map(|(id, _, _)| *id).collect::<Vec<_>>());
        for (rank, id, _) in q.in_order().collect::<Vec<_>>() {
            assert_eq!(q.rank_of(id), Some(rank));
        }
        for lane in ALL_LANES {
            let ids: Vec<i64> = order.iter().copied().filter(|id| q.place(*id).unwrap().lane == lane).collect();
            let tags: Vec<u64> = ids.iter().map(|id| q.place(*id).unwrap().tag).collect();
            assert!(tags.windows(2).all(|w| w[0] <= w[1]), "lane {lane:?} in order");
        }
        assert!(q.remove(105).is_some());
        assert_eq!(q.pop_front().map(|(id, _, _)| id), Some(order[0]));
        q.push(500, Lane::Normal, ());
        assert_eq!(q.rank_of(500), Some(19));
    }

    #[test]
    fn changing_lane_never_moves_back() {
        let mut q = LaneQueue::default();
        for id in 1..=10 {
            q.push(id, Lane::Normal, ());
        }
        assert_eq!(
            q.change_lane(9, Lane::Member),
            Some((1, true)),
            "a fast-entry card moves the player to the front"
        );
        assert_eq!(q.place(9).unwrap().lane, Lane::Member);
        assert_eq!(
            q.change_lane(1, Lane::Night),
            Some((2, true)),
            "the head of the normal lane gains from a night package"
        );
        // A lane whose fresh place would be later keeps the player where they are.
        assert_eq!(q.change_lane(2, Lane::Normal), Some((3, false)));
        assert_eq!(q.change_lane(10, Lane::Vip), Some((2, true)));
        assert_eq!(lanes(&q).len(), 10);
    }

    /// A model check on random workloads: admissions come in place order, ranks match the
    /// model, and every player is admitted within the documented bound.
    #[test]
    fn no_lane_starves() {
        let w = total_weight();
        for seed in 0..40u64 {
            let mut rng = StdRng::seed_from_u64(seed);
            let cancels = seed % 2 == 1;
            let mut q: LaneQueue<()> = LaneQueue::default();
            // id -> (admissions so far at join, bound)
            let mut bounds: HashMap<i64, (u64, u64)> = HashMap::new();
            let mut admitted = 0u64;
            let mut next = 0i64;
            for _ in 0..3000 {
                let roll = rng.random_range(0..100);
                if roll < 55 {
                    next += 1;
                    let lane = ALL_LANES[match rng.random_range(0..100) {
                        0..=59 => 0,
                        60..=61 => 1,
                        62..=63 => 2,
                        64..=73 => 3,
                        74..=85 => 4,
                        86..=92 => 5,
                        _ => 6,
                    }];
                    let v0 = q.virtual_time();
                    let n_same = q.lane_len(lane) as u64;
                    let rank = q.push(next, lane, ());
                    let t = q.place(next).unwrap().tag;
                    let bound = (rank - 1) + ALL_LANES.iter().map(|k| ((t - v0) * k.weight()).div_ceil(STEP)).sum::<u64>();
                    if !cancels {
                        // Nobody leaves: the closed form of the module doc holds.
                        assert!(t - v0 <= (n_same + 1) * (STEP / lane.weight()));
                        assert!(bound <= (rank - 1) + (n_same + 1) * w.div_ceil(lane.weight()) + ALL_LANES.len() as u64);
                    }
                    bounds.insert(next, (admitted, bound));
                } else if cancels && roll < 60 && next > 0 {
                    let id = rng.random_range(1..=next);
                    if q.remove(id).is_some() {
                        bounds.remove(&id);
                    }
                } else if !q.is_empty() {
                    let expected = q.in_order().next().map(|(_, id, _)| id);
                    let (id, _, _) = q.pop_front().unwrap();
                    let expected = expected.unwrap();
                    assert_eq!(id, expected, "admission follows the stated order");
                    let (at_join, bound) = bounds.remove(&id).unwrap();
                    assert!(
                        admitted - at_join <= bound,
                        "seed {seed}: {id} waited {} admissions, bound {bound}",
                        admitted - at_join
                    );
                    admitted += 1;
                }
                if rng.random_range(0..50) == 0 {
                    for (rank, id, _) in q.in_order() {
                        assert_eq!(q.rank_of(id), Some(rank));
                    }
                }
            }
            // Drain: everyone left still meets the bound.
            while let Some((id, _, _)) = q.pop_front() {
                let (at_join, bound) = bounds.remove(&id).unwrap();
                assert!(admitted - at_join <= bound);
                admitted += 1;
            }
        }
    }
}
