//! The mic seats of a room and their queue (social.md §4.6): [`SEATS`] seats, seat 0 the host's;
//! a member takes a free seat, or queues when every open seat is taken; the host invites, moves
//! members up and down, bans a seat's voice, locks one seat or all, and orders the queue (top,
//! remove, switch, clear). A seat that frees goes to the head of the queue at once ([`Seats::fill`]).
//!
//! Pure bookkeeping of uids: who may call what is `perm.rs`'s, the events are `state.rs`'s.

use std::collections::{HashSet, VecDeque};

use super::view::SEATS;
use crate::error::DomainError;

/// One seat.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seat {
    pub user: Option<i64>,
    /// Locked by the host: nobody takes it.
    pub locked: bool,
    /// The seat's voice is banned (MIKE_BLOCK).
    pub ban_voice: bool,
}

/// The seats, the queue and the open invites.
#[derive(Debug, Clone, PartialEq)]
pub struct Seats {
    seats: Vec<Seat>,
    queue: VecDeque<i64>,
    invites: HashSet<i64>,
}

impl Seats {
    /// The seats of a new room: the host on seat 0, the rest open.
    pub fn new(host: i64) -> Seats {
        let mut seats = vec![Seat::default(); SEATS];
        seats[0].user = Some(host);
        Seats {
            seats,
            queue: VecDeque::new(),
            invites: HashSet::new(),
        }
    }

    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    pub fn queue(&self) -> impl Iterator<Item = i64> + '_ {
        self.queue.iter().copied()
    }

    pub fn seat_of(&self, uid: i64) -> Option<usize> {
        self.seats.iter().position(|s| s.user == Some(uid))
    }

    pub fn queued(&self, uid: i64) -> bool {
        self.queue.contains(&uid)
    }

    pub fn invited(&self, uid: i64) -> bool {
        self.invites.contains(&uid)
    }

    fn free_seat(&self) -> Option<usize> {
        (1..self.seats.len()).find(|i| !self.seats[*i].locked && self.seats[*i].user.is_none())
    }

    /// Every open seat is taken (mikeStatus 2).
    pub fn is_full(&self) -> bool {
        self.free_seat().is_none()
    }

    /// Takes `seat` (or the first free one); leaves the queue and any invite.
    pub fn up(&mut self, uid: i64, seat: Option<usize>) -> Result<usize, DomainError> {
        if self.seat_of(uid).is_some() {
            return Err(DomainError::MikeState);
        }
        let i = match seat {
            Some(i) if i == 0 || i >= self.seats.len() => return Err(DomainError::SeatUnavailable),
            Some(i) if self.seats[i].locked || self.seats[i].user.is_some() => return Err(DomainError::SeatUnavailable),
            Some(i) => i,
            None => self.free_seat().ok_or(DomainError::MikeFull)?,
        };
        self.seats[i] = Seat {
            user: Some(uid),
            ..Seat::default()
        };
        self.queue.retain(|u| *u != uid);
        self.invites.remove(&uid);
        Ok(i)
    }

    /// Leaves the seat (not the host's).
    pub fn down(&mut self, uid: i64) -> Result<usize, DomainError> {
        match self.seat_of(uid) {
            Some(i) if i > 0 => {
                self.seats[i].user = None;
                self.seats[i].ban_voice = false;
                Ok(i)
            }
            _ => Err(DomainError::MikeState),
        }
    }

    /// Joins the queue: only when not seated, not queued and every open seat is taken.
    pub fn join_queue(&mut self, uid: i64) -> Result<usize, DomainError> {
        if self.seat_of(uid).is_some() || self.queued(uid) || !self.is_full() {
            return Err(DomainError::MikeState);
        }
        self.queue.push_back(uid);
        Ok(self.queue.len())
    }

    /// Leaves the queue (the member's cancel, or the host's remove).
    pub fn leave_queue(&mut self, uid: i64) -> Result<(), DomainError> {
        let before = self.queue.len();
        self.queue.retain(|u| *u != uid);
        if self.queue.len() == before {
            return Err(DomainError::MikeState);
        }
        Ok(())
    }

    /// Moves a queued member to the head.
    pub fn top(&mut self, uid: i64) -> Result<(), DomainError> {
        self.leave_queue(uid)?;
        self.queue.push_front(uid);
        Ok(())
    }

    /// Swaps two queued members.
    pub fn switch(&mut self, a: i64, b: i64) -> Result<(), DomainError> {
        let ia = self.queue.iter().position(|u| *u == a).ok_or(DomainError::MikeState)?;
        let ib = self.queue.iter().position(|u| *u == b).ok_or(DomainError::MikeState)?;
        self.queue.swap(ia, ib);
        Ok(())
    }

    /// Empties the queue; returns who was in it.
    pub fn clear(&mut self) -> Vec<i64> {
        self.queue.drain(..).collect()
    }

    /// The host invites a member who is not seated.
    pub fn invite(&mut self, uid: i64) -> Result<(), DomainError> {
        if self.seat_of(uid).is_some() {
            return Err(DomainError::MikeState);
        }
        self.invites.insert(uid);
        Ok(())
    }

    /// Accepts the open invite: takes a free seat (the invite stays when none is free).
    pub fn accept(&mut self, uid: i64) -> Result<usize, DomainError> {
        if !self.invites.contains(&uid) {
            return Err(DomainError::NoInvite);
        }
        self.up(uid, None)
    }

    /// Refuses the open invite.
    pub fn refuse(&mut self, uid: i64) -> Result<(), DomainError> {
        if self.invites.remove(&uid) {
            Ok(())
        } else {
            Err(DomainError::NoInvite)
        }
    }

    /// Locks or opens one seat (not the host's); locking an occupied seat puts its user down.
    pub fn lock(&mut self, seat: usize, lock: bool) -> Result<Option<i64>, DomainError> {
        if seat == 0 || seat >= self.seats.len() {
            return Err(DomainError::SeatUnavailable);
        }
        let s = &mut self.seats[seat];
        s.locked = lock;
        Ok(if lock {
            s.ban_voice = false;
            s.user.take()
        } else {
            None
        })
    }

    /// Locks or opens every seat but the host's; returns who was put down.
    pub fn lock_all(&mut self, lock: bool) -> Vec<i64> {
        (1..self.seats.len()).filter_map(|i| self.lock(i, lock).ok().flatten()).collect()
    }

    /// Bans or lets a seated member's voice.
    pub fn ban_voice(&mut self, uid: i64, on: bool) -> Result<usize, DomainError> {
        let i = self.seat_of(uid).ok_or(DomainError::MikeState)?;
        self.seats[i].ban_voice = on;
        Ok(i)
    }

    /// Seats the head of the queue while a seat is free; returns who went up where.
    pub fn fill(&mut self) -> Vec<(i64, usize)> {
        let mut up = vec![];
        while let (Some(i), Some(uid)) = (self.free_seat(), self.queue.front().copied()) {
            self.queue.pop_front();
            self.seats[i].user = Some(uid);
            self.seats[i].ban_voice = false;
            up.push((uid, i));
        }
        up
    }

    /// A member left: their seat, queue place and invite go. True if anything changed.
    pub fn remove(&mut self, uid: i64) -> bool {
        let seated = self.down(uid).is_ok();
        let queued = self.leave_queue(uid).is_ok();
        let invited = self.invites.remove(&uid);
        seated || queued || invited
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOST: i64 = 1;

    fn full() -> Seats {
        let mut s = Seats::new(HOST);
        for uid in 11..18 {
            s.up(uid, None).expect("free seat");
        }
        s
    }

    fn queue(s: &Seats) -> Vec<i64> {
        s.queue().collect()
    }

    #[test]
    fn up_and_down() {
        let mut s = Seats::new(HOST);
        assert_eq!(s.seat_of(HOST), Some(0));
        assert_eq!(s.up(2, None), Ok(1));
        assert_eq!(s.up(2, None), Err(DomainError::MikeState), "seated already");
        assert_eq!(s.up(3, Some(1)), Err(DomainError::SeatUnavailable), "taken");
        assert_eq!(s.up(3, Some(0)), Err(DomainError::SeatUnavailable), "the host's");
        assert_eq!(s.up(3, Some(8)), Err(DomainError::SeatUnavailable), "no such seat");
        assert_eq!(s.up(3, Some(5)), Ok(5));
        assert_eq!(s.down(2), Ok(1));
        assert_eq!(s.down(2), Err(DomainError::MikeState));
        assert_eq!(s.down(HOST), Err(DomainError::MikeState), "the host keeps seat 0");
        assert_eq!(s.up(4, None), Ok(1), "the first free seat");
    }

    #[test]
    fn queue_when_full() {
        let mut s = Seats::new(HOST);
        assert_eq!(s.join_queue(2), Err(DomainError::MikeState), "not full: take a seat");
        let mut s2 = full();
        assert!(s2.is_full());
        assert_eq!(s2.up(20, None), Err(DomainError::MikeFull));
        assert_eq!(s2.join_queue(20), Ok(1));
        assert_eq!(s2.join_queue(21), Ok(2));
        assert_eq!(s2.join_queue(20), Err(DomainError::MikeState), "queued already");
        assert_eq!(s2.join_queue(11), Err(DomainError::MikeState), "seated");
        // A seat frees: the head goes up.
        s2.down(13).expect("down");
        assert_eq!(s2.fill(), vec![(20, 3)]);
        assert_eq!(queue(&s2), vec![21]);
        s.up(2, None).expect("up");
    }

    #[test]
    fn the_hosts_queue_operations() {
        let mut s = full();
        for uid in [20, 21, 22, 23] {
            s.join_queue(uid).expect("queue");
        }
        s.top(22).expect("top");
        assert_eq!(queue(&s), vec![22, 20, 21, 23]);
        assert_eq!(s.top(99), Err(DomainError::MikeState));
        s.switch(20, 23).expect("switch");
        assert_eq!(queue(&s), vec![22, 23, 21, 20]);
        assert_eq!(s.switch(20, 99), Err(DomainError::MikeState));
        s.leave_queue(21).expect("remove");
        assert_eq!(s.leave_queue(21), Err(DomainError::MikeState));
        assert_eq!(s.clear(), vec![22, 23, 20]);
        assert_eq!(queue(&s), Vec::<i64>::new());
    }

    #[test]
    fn invites() {
        let mut s = Seats::new(HOST);
        assert_eq!(s.accept(2), Err(DomainError::NoInvite));
        s.invite(2).expect("invite");
        assert!(s.invited(2));
        assert_eq!(s.accept(2), Ok(1));
        assert!(!s.invited(2));
        assert_eq!(s.invite(2), Err(DomainError::MikeState), "seated already");
        s.invite(3).expect("invite");
        s.refuse(3).expect("refuse");
        assert_eq!(s.refuse(3), Err(DomainError::NoInvite));
        // An invite to a full room stays open until a seat frees.
        let mut f = full();
        f.invite(30).expect("invite");
        assert_eq!(f.accept(30), Err(DomainError::MikeFull));
        assert!(f.invited(30));
    }

    #[test]
    fn locks_and_bans() {
        let mut s = Seats::new(HOST);
        s.up(2, None).expect("up");
        assert_eq!(s.lock(1, true), Ok(Some(2)), "locking an occupied seat puts its user down");
        assert_eq!(s.up(3, Some(1)), Err(DomainError::SeatUnavailable));
        assert_eq!(s.up(3, None), Ok(2));
        assert_eq!(s.lock(0, true), Err(DomainError::SeatUnavailable));
        assert_eq!(s.lock_all(true), vec![3]);
        assert!(s.is_full(), "every seat locked");
        assert_eq!(s.up(4, None), Err(DomainError::MikeFull));
        assert_eq!(s.lock_all(false), Vec::<i64>::new());
        assert_eq!(s.up(4, None), Ok(1));
        assert_eq!(s.ban_voice(4, true), Ok(1));
        assert!(s.seats()[1].ban_voice);
        assert_eq!(s.ban_voice(5, true), Err(DomainError::MikeState));
        s.down(4).expect("down");
        assert!(!s.seats()[1].ban_voice, "a freed seat's ban goes");
    }

    #[test]
    fn a_leaving_member_frees_everything() {
        let mut s = full();
        s.join_queue(20).expect("queue");
        assert!(s.remove(11));
        assert!(s.remove(20));
        assert!(!s.remove(99));
        assert_eq!(s.seat_of(11), None);
        assert_eq!(queue(&s), Vec::<i64>::new());
    }
}
