//! The machines of one server node: which are free and which are out.
//!
//! [`PoolState`] is pure bookkeeping owned by the node's queue actor (`queue.rs`): the queue
//! takes a free machine for its head the moment one is there, so a freed machine goes straight
//! to the player ranked first, with no round trip between two actors. A machine is never handed
//! out twice: freeing a machine that is not out is ignored. The machines of game hosts come and
//! go as their hosts link and are lost (`add`, `withdraw`); the static ones stay.

use std::collections::{HashSet, VecDeque};

use crate::play::game_session::MachineId;

#[derive(Debug, Clone, Default)]
pub struct PoolState {
    free: VecDeque<MachineId>,
    out: HashSet<MachineId>,
}

impl PoolState {
    pub fn new(machines: impl IntoIterator<Item = MachineId>) -> Self {
        PoolState {
            free: machines.into_iter().collect(),
            ..Default::default()
        }
    }

    /// Takes the free machine that has been free longest; None if none is.
    pub fn take(&mut self) -> Option<MachineId> {
        let machine = self.free.pop_front()?;
        self.out.insert(machine.clone());
        Some(machine)
    }

    /// A machine comes back; false (and nothing changes) if it was not out: no double hand-out.
    pub fn free(&mut self, machine: MachineId) -> bool {
        if !self.out.remove(&machine) {
            return false;
        }
        self.free.push_back(machine);
        true
    }

    /// Takes a specific free machine out (a session restored after a restart holds it); false
    /// if it is not free here.
    pub fn claim(&mut self, machine: &MachineId) -> bool {
        let Some(i) = self.free.iter().position(|m| m == machine) else {
            return false;
        };
        self.free.remove(i);
        self.out.insert(machine.clone());
        true
    }

    /// A machine becomes free: one that was out comes back, a new one joins; false (and nothing
    /// changes) if it was free already.
    pub fn add(&mut self, machine: MachineId) -> bool {
        if self.free.contains(&machine) {
            return false;
        }
        self.out.remove(&machine);
        self.free.push_back(machine);
        true
    }

    /// Counts a machine as out (held or being given back) without having handed it out here:
    /// a restarted queue's view of what its hosts' sessions hold.
    pub fn add_out(&mut self, machine: MachineId) {
        if !self.free.contains(&machine) {
            self.out.insert(machine);
        }
    }

    /// The machine leaves the pool, free or out; false if it was in neither.
    pub fn withdraw(&mut self, machine: &MachineId) -> bool {
        if self.out.remove(machine) {
            return true;
        }
        let Some(i) = self.free.iter().position(|m| m == machine) else {
            return false;
        };
        self.free.remove(i);
        true
    }

    pub fn free_count(&self) -> usize {
        self.free.len()
    }

    pub fn out_count(&self) -> usize {
        self.out.len()
    }
}

#[cfg(test)]
mod tests {
    use super::PoolState;

    /// Machines go out in the order they came back; nothing is handed out twice.
    #[test]
    fn pool_grants_machine_once() {
        let mut p = PoolState::new(["m1".to_string(), "m2".to_string()]);
        assert_eq!(p.take().as_deref(), Some("m1"));
        assert_eq!(p.take().as_deref(), Some("m2"));
        assert_eq!(p.take(), None);
        // Freeing a machine that is not out is ignored.
        assert!(!p.free("m9".to_string()));
        assert!(p.free("m2".to_string()));
        assert!(!p.free("m2".to_string()), "double free must not create a second machine");
        assert!(p.free("m1".to_string()));
        assert_eq!(p.take().as_deref(), Some("m2"), "the longest free goes first");
        assert!(!p.claim(&"m2".to_string()), "a machine out cannot be claimed");
        assert!(p.claim(&"m1".to_string()));
        assert_eq!((p.free_count(), p.out_count()), (0, 2));
    }

    /// Host machines join, come back from out, and leave from either side, each once.
    #[test]
    fn host_machines_join_and_leave() {
        let mut p = PoolState::new(["s".to_string()]);
        assert!(p.add("h-00".to_string()));
        assert!(!p.add("h-00".to_string()), "free already");
        assert_eq!(p.take().as_deref(), Some("s"));
        assert_eq!(p.take().as_deref(), Some("h-00"));
        assert!(p.add("h-00".to_string()), "back from out");
        p.add_out("h-01".to_string());
        assert_eq!((p.free_count(), p.out_count()), (1, 2));
        assert!(p.withdraw(&"h-00".to_string()) && p.withdraw(&"h-01".to_string()));
        assert!(!p.withdraw(&"h-01".to_string()));
        assert!(!p.free("h-01".to_string()), "a withdrawn machine does not come back by a free");
        assert_eq!((p.free_count(), p.out_count()), (0, 1));
    }
}
