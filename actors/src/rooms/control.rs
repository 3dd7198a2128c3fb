//! Who controls a room's game, and the apply-control states (social.md §4.7), with the fair
//! rotation (beyond the spec).
//!
//! The controller is the host unless a guest holds control. A viewer's application is pending
//! for 30 s (state 1), a denied one shows as denied for 60 s (state 2); both lapse back to 0 on
//! their own (the actor sets a timer; a stale one finds nothing to do). The host assigns
//! (also transfers from one guest to another), denies, invites, recycles; the guest accepts or
//! refuses an invite, or gives control back (remand).
//!
//! Rotation: when the host turns it on, applicants wait in a first-come queue and each gets a
//! turn of `turn_ms`; at a turn's end the head of the queue takes over, or, with nobody waiting,
//! the controller plays on with no deadline until someone applies (they had their turn: the
//! applicant takes over at once). A manual grant takes the grantee out of the queue and starts
//! their turn; a recycle or a remand starts the next turn.

use std::collections::{HashMap, HashSet, VecDeque};

use super::view::{ApplyControl, RotationView};
use crate::error::DomainError;

/// Apply state 1: pending.
pub const PENDING: i32 = 1;
/// Apply state 2: denied.
pub const DENIED: i32 = 2;

/// A change of controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    pub from: i64,
    pub to: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Apply {
    state: i32,
    until_ms: i64,
    at_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Default)]
struct Rotation {
    on: bool,
    turn_ms: i64,
    queue: VecDeque<i64>,
    /// When the current guest's turn ends; None: no turn runs.
    turn_ends_at: Option<i64>,
}

/// The control of one room.
#[derive(Debug, Clone, PartialEq)]
pub struct Control {
    host: i64,
    controller: i64,
    applies: HashMap<i64, Apply>,
    invites: HashSet<i64>,
    rotation: Rotation,
    /// Grants to guests over the room's life (the summary's control count).
    grants: u64,
    pending_ms: i64,
    denied_ms: i64,
}

impl Control {
    pub fn new(host: i64, pending_ms: i64, denied_ms: i64, turn_ms: i64) -> Control {
        Control {
            host,
            controller: host,
            applies: HashMap::new(),
            invites: HashSet::new(),
            rotation: Rotation {
                turn_ms,
                ..Rotation::default()
            },
            grants: 0,
            pending_ms,
            denied_ms,
        }
    }

    pub fn controller(&self) -> i64 {
        self.controller
    }

    /// The guest holding control, if any.
    pub fn guest(&self) -> Option<i64> {
        (self.controller != self.host).then_some(self.controller)
    }

    pub fn grants(&self) -> u64 {
        self.grants
    }

    pub fn invited(&self, uid: i64) -> bool {
        self.invites.contains(&uid)
    }

    /// The apply state of `uid` at `now` (a lapsed one is 0).
    pub fn apply_state(&self, uid: i64, now: i64) -> ApplyControl {
        match self.applies.get(&uid) {
            Some(a) if a.until_ms > now => ApplyControl {
                state: a.state,
                until_ms: Some(a.until_ms),
            },
            _ => ApplyControl::default(),
        }
    }

    /// Pending applications, oldest first: (uid, applied at).
    pub fn applications(&self, now: i64) -> Vec<(i64, i64)> {
        let mut v: Vec<(i64, i64)> = self
            .applies
            .iter()
            .filter(|(_, a)| a.state == PENDING && a.until_ms > now)
            .map(|(u, a)| (*u, a.at_ms))
            .collect();
        v.sort_by_key(|(u, at)| (*at, *u));
        v
    }

    /// `uid` applies: pending for the pending time; under rotation they join its queue, and
    /// take control at once when no guest holds it or the guest's turn is over.
    pub fn apply(&mut self, uid: i64, now: i64) -> Result<Option<Change>, DomainError> {
        if uid == self.controller {
            return Err(DomainError::ControlState);
        }
        if let Some(a) = self.applies.get(&uid).filter(|a| a.until_ms > now) {
            return Err(DomainError::ControlApplyOpen {
                retry_after_secs: ((a.until_ms - now) as u64).div_ceil(1000),
            });
        }
        self.applies.insert(
            uid,
            Apply {
                state: PENDING,
                until_ms: now + self.pending_ms,
                at_ms: now,
            },
        );
        if !self.rotation.on {
            return Ok(None);
        }
        if !self.rotation.queue.contains(&uid) {
            self.rotation.queue.push_back(uid);
        }
        if self.guest().is_none() || self.rotation.turn_ends_at.is_none() {
            return Ok(self.next_turn(now));
        }
        Ok(None)
    }

    /// The apply state of `uid` lapses if its time is up; true if it did.
    pub fn expire(&mut self, uid: i64, now: i64) -> bool {
        match self.applies.get(&uid) {
            Some(a) if a.until_ms <= now => {
                self.applies.remove(&uid);
                true
            }
            _ => false,
        }
    }

    /// When the apply state of `uid` lapses, if it is set.
    pub fn apply_deadline(&self, uid: i64) -> Option<i64> {
        self.applies.get(&uid).map(|a| a.until_ms)
    }

    /// The host gives control to `target` (a transfer when a guest holds it).
    pub fn assign(&mut self, target: i64, now: i64) -> Result<Change, DomainError> {
        if target == self.controller {
            return Err(DomainError::ControlState);
        }
        Ok(self.grant(target, now))
    }

    fn grant(&mut self, target: i64, now: i64) -> Change {
        let from = self.controller;
        self.controller = target;
        self.applies.remove(&target);
        self.invites.remove(&target);
        self.rotation.queue.retain(|u| *u != target);
        if target != self.host {
            self.grants += 1;
            self.rotation.turn_ends_at = self.rotation.on.then_some(now + self.rotation.turn_ms);
        } else {
            self.rotation.turn_ends_at = None;
        }
        Change { from, to: target }
    }

    /// The next turn: the head of the rotation queue, else the host.
    fn next_turn(&mut self, now: i64) -> Option<Change> {
        let next = self.rotation.queue.front().copied().unwrap_or(self.host);
        if next == self.controller {
            self.rotation.turn_ends_at = None;
            return None;
        }
        Some(self.grant(next, now))
    }

    /// The host denies a pending application: denied for the denied time.
    pub fn deny(&mut self, target: i64, now: i64) -> Result<(), DomainError> {
        match self.applies.get_mut(&target) {
            Some(a) if a.state == PENDING && a.until_ms > now => {
                *a = Apply {
                    state: DENIED,
                    until_ms: now + self.denied_ms,
                    at_ms: a.at_ms,
                };
                self.rotation.queue.retain(|u| *u != target);
                Ok(())
            }
            _ => Err(DomainError::ControlState),
        }
    }

    /// The host takes control back from the guest; under rotation the next turn starts.
    pub fn recycle(&mut self, now: i64) -> Result<Change, DomainError> {
        let guest = self.guest().ok_or(DomainError::ControlState)?;
        Ok(self.back_from(guest, now))
    }

    fn back_from(&mut self, guest: i64, now: i64) -> Change {
        self.controller = self.host;
        self.rotation.turn_ends_at = None;
        let next = if self.rotation.on { self.next_turn(now) } else { None };
        Change {
            from: guest,
            to: next.map_or(self.host, |c| c.to),
        }
    }

    /// The host invites `target` to take control.
    pub fn invite(&mut self, target: i64) -> Result<(), DomainError> {
        if target == self.controller {
            return Err(DomainError::ControlState);
        }
        self.invites.insert(target);
        Ok(())
    }

    /// `uid` accepts the host's invite.
    pub fn accept(&mut self, uid: i64, now: i64) -> Result<Change, DomainError> {
        if !self.invites.contains(&uid) {
            return Err(DomainError::NoInvite);
        }
        self.assign(uid, now)
    }

    /// `uid` refuses the host's invite.
    pub fn refuse(&mut self, uid: i64) -> Result<(), DomainError> {
        if self.invites.remove(&uid) {
            Ok(())
        } else {
            Err(DomainError::NoInvite)
        }
    }

    /// The guest gives control back; under rotation the next turn starts.
    pub fn remand(&mut self, uid: i64, now: i64) -> Result<Change, DomainError> {
        if self.guest() != Some(uid) {
            return Err(DomainError::ControlState);
        }
        Ok(self.back_from(uid, now))
    }

    /// Turns the rotation on (pending applicants join its queue in the order they applied) or
    /// off (the queue empties; the controller keeps control without a deadline).
    pub fn set_rotation(&mut self, on: bool, turn_ms: Option<i64>, now: i64) -> Option<Change> {
        if let Some(t) = turn_ms.filter(|t| *t > 0) {
            self.rotation.turn_ms = t;
        }
        self.rotation.on = on;
        if !on {
            self.rotation.queue.clear();
            self.rotation.turn_ends_at = None;
            return None;
        }
        for (uid, _) in self.applications(now) {
            if !self.rotation.queue.contains(&uid) && uid != self.controller {
                self.rotation.queue.push_back(uid);
            }
        }
        if self.guest().is_some() {
            self.rotation.turn_ends_at = Some(now + self.rotation.turn_ms);
            None
        } else {
            self.next_turn(now)
        }
    }

    /// When the current turn ends, if one runs.
    pub fn turn_deadline(&self) -> Option<i64> {
        self.rotation.turn_ends_at
    }

    /// The turn's time is up: the head of the queue takes over; with nobody waiting the
    /// controller plays on without a deadline.
    pub fn turn_end(&mut self, now: i64) -> Option<Change> {
        match self.rotation.turn_ends_at {
            Some(at) if self.rotation.on && at <= now => {
                if self.rotation.queue.is_empty() {
                    self.rotation.turn_ends_at = None;
                    None
                } else {
                    self.next_turn(now)
                }
            }
            _ => None,
        }
    }

    /// A member left: their application, invite and queue place go; control they held goes
    /// back (to the next turn under rotation).
    pub fn member_left(&mut self, uid: i64, now: i64) -> Option<Change> {
        self.applies.remove(&uid);
        self.invites.remove(&uid);
        self.rotation.queue.retain(|u| *u != uid);
        (self.guest() == Some(uid)).then(|| self.back_from(uid, now))
    }

    pub fn rotation_view(&self) -> RotationView {
        RotationView {
            on: self.rotation.on,
            turn_secs: (self.rotation.turn_ms / 1000) as u64,
            current: self.rotation.on.then(|| self.guest()).flatten(),
            turn_ends_at_ms: self.rotation.turn_ends_at,
            queue: self.rotation.queue.iter().copied().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOST: i64 = 1;
    const S: i64 = 1000;

    fn control() -> Control {
        Control::new(HOST, 30 * S, 60 * S, 300 * S)
    }

    fn change(from: i64, to: i64) -> Change {
        Change { from, to }
    }

    // The apply states of §4.7: pending 30 s, denied 60 s, both lapse back to 0.
    #[test]
    fn apply_states_and_their_timers() {
        let mut c = control();
        assert_eq!(c.apply_state(2, 0), ApplyControl::default());
        assert_eq!(c.apply(2, 0), Ok(None));
        assert_eq!(
            c.apply_state(2, 0),
            ApplyControl {
                state: 1,
                until_ms: Some(30 * S)
            }
        );
        assert_eq!(c.apply(2, 10 * S), Err(DomainError::ControlApplyOpen { retry_after_secs: 20 }));
        assert_eq!(c.applications(10 * S), vec![(2, 0)]);
        assert!(!c.expire(2, 29 * S), "not yet");
        assert_eq!(c.apply_state(2, 30 * S).state, 0, "lapsed");
        assert!(c.expire(2, 30 * S));
        assert_eq!(c.applications(30 * S), vec![]);
        // Denied: 60 s, then 0 again.
        c.apply(2, 40 * S).expect("apply again");
        c.deny(2, 45 * S).expect("deny");
        assert_eq!(
            c.apply_state(2, 45 * S),
            ApplyControl {
                state: 2,
                until_ms: Some(105 * S)
            }
        );
        assert_eq!(c.deny(2, 46 * S), Err(DomainError::ControlState), "only a pending one");
        assert!(matches!(c.apply(2, 50 * S), Err(DomainError::ControlApplyOpen { .. })));
        assert_eq!(c.apply_state(2, 105 * S).state, 0);
        assert_eq!(c.apply(2, 105 * S), Ok(None));
        assert_eq!(
            c.apply(HOST, 0),
            Err(DomainError::ControlState),
            "the controller applies for nothing"
        );
    }

    #[test]
    fn assign_recycle_remand() {
        let mut c = control();
        c.apply(2, 0).expect("apply");
        assert_eq!(c.assign(2, S), Ok(change(HOST, 2)));
        assert_eq!(c.apply_state(2, S).state, 0, "granted: back to 0");
        assert_eq!(c.guest(), Some(2));
        assert_eq!(c.assign(2, S), Err(DomainError::ControlState));
        assert_eq!(c.assign(3, S), Ok(change(2, 3)), "a transfer");
        assert_eq!(c.remand(2, S), Err(DomainError::ControlState), "only the guest remands");
        assert_eq!(c.remand(3, S), Ok(change(3, HOST)));
        assert_eq!(c.recycle(S), Err(DomainError::ControlState), "no guest");
        c.assign(4, S).expect("assign");
        assert_eq!(c.recycle(S), Ok(change(4, HOST)));
        assert_eq!(c.grants(), 3);
    }

    #[test]
    fn invites() {
        let mut c = control();
        assert_eq!(c.accept(2, 0), Err(DomainError::NoInvite));
        c.invite(2).expect("invite");
        assert_eq!(c.accept(2, 0), Ok(change(HOST, 2)));
        assert!(!c.invited(2));
        c.invite(3).expect("invite");
        c.refuse(3).expect("refuse");
        assert_eq!(c.refuse(3), Err(DomainError::NoInvite));
        assert_eq!(c.invite(2), Err(DomainError::ControlState), "controls already");
    }

    // Rotation: first come first served, a turn each, the host's manual calls followed.
    #[test]
    fn rotation_hands_control_on() {
        let mut c = control();
        c.apply(2, 0).expect("apply before rotation");
        // Turning it on takes the pending applicant at once.
        assert_eq!(c.set_rotation(true, Some(60 * S), S), Some(change(HOST, 2)));
        assert_eq!(c.turn_deadline(), Some(61 * S));
        assert_eq!(c.apply(3, 2 * S), Ok(None));
        assert_eq!(c.apply(4, 3 * S), Ok(None));
        assert_eq!(c.rotation_view().queue, vec![3, 4]);
        assert_eq!(c.rotation_view().current, Some(2));
        assert_eq!(c.turn_end(60 * S), None, "not yet");
        assert_eq!(c.turn_end(61 * S), Some(change(2, 3)));
        assert_eq!(c.turn_deadline(), Some(121 * S));
        // A manual grant takes the grantee out of the queue and starts their turn.
        assert_eq!(c.assign(4, 70 * S), Ok(change(3, 4)));
        assert_eq!(c.rotation_view().queue, Vec::<i64>::new());
        assert_eq!(c.turn_deadline(), Some(130 * S));
        // Nobody waits at the end of the turn: 4 plays on without a deadline...
        assert_eq!(c.turn_end(130 * S), None);
        assert_eq!(c.controller(), 4);
        assert_eq!(c.turn_deadline(), None);
        // ...until someone applies: they take over at once.
        assert_eq!(c.apply(5, 200 * S), Ok(Some(change(4, 5))));
        // A revoke starts the next turn.
        c.apply(6, 201 * S).expect("apply");
        assert_eq!(c.recycle(202 * S), Ok(change(5, 6)));
        assert_eq!(c.remand(6, 203 * S), Ok(change(6, HOST)), "nobody waits: back to the host");
        // Off: the queue empties, the controller keeps control.
        c.apply(7, 204 * S).expect("apply");
        assert_eq!(c.controller(), 7);
        c.apply(8, 205 * S).expect("apply");
        assert_eq!(c.set_rotation(false, None, 206 * S), None);
        assert_eq!(
            c.rotation_view(),
            RotationView {
                on: false,
                turn_secs: 60,
                current: None,
                turn_ends_at_ms: None,
                queue: vec![]
            }
        );
        assert_eq!(c.controller(), 7);
        assert_eq!(c.turn_end(10_000 * S), None);
    }

    #[test]
    fn a_denied_applicant_leaves_the_rotation() {
        let mut c = control();
        c.set_rotation(true, None, 0);
        c.apply(2, 0).expect("apply");
        c.apply(3, S).expect("apply");
        c.deny(3, 2 * S).expect("deny");
        assert_eq!(c.rotation_view().queue, Vec::<i64>::new());
    }

    #[test]
    fn a_leaving_controller_gives_control_back() {
        let mut c = control();
        c.assign(2, 0).expect("assign");
        c.apply(3, 0).expect("apply");
        assert_eq!(c.member_left(3, S), None);
        assert_eq!(c.applications(S), vec![]);
        assert_eq!(c.member_left(2, S), Some(change(2, HOST)));
        c.set_rotation(true, None, S);
        c.apply(4, S).expect("apply");
        c.apply(5, S).expect("apply");
        assert_eq!(c.member_left(4, 2 * S), Some(change(4, 5)), "under rotation the next turn starts");
    }
}
