//! QR certification (core-platform.md §2.15 "In-car QR variant", §4.9, §7 `qrcode/generate`
//! action=idauth): a screen that cannot take the form (a car's head unit) shows a QR code naming
//! a one-time ticket of its account; the same account, signed in on a phone, opens it, certifies
//! there with the ordinary form, or cancels. The screen's long poll hears the scan once (20143),
//! the certification (done), the cancel (20141) or the ticket's end (20140, after five minutes).
//! Tickets live in memory: after a restart the screen asks for a new QR.

use std::collections::HashMap;

use parking_lot::Mutex;

use crate::error::{DomainError, DomainResult};

/// How long a QR certification ticket can be scanned and used.
pub const QR_AUTH_TTL_MS: i64 = 5 * 60_000;
/// Tickets kept at most (the expired ones go first when a new one is made).
const QR_AUTH_MAX: usize = 100_000;

/// A ticket's state as the screen's poll reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QrAuthState {
    Waiting,
    /// Opened on a phone of its account.
    Scanned,
    Cancelled,
}

#[derive(Debug, Clone)]
struct Ticket {
    uid: i64,
    state: QrAuthState,
    expires_at: i64,
    /// A poll has answered 20143 already.
    scan_told: bool,
}

/// What the screen's poll answers, before it looks at the account's certification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QrAuthPoll {
    /// Nothing new yet: wait.
    Waiting,
    /// Scanned, told once (20143).
    Scanned,
}

/// The live tickets.
#[derive(Default)]
pub struct QrAuths {
    tickets: Mutex<HashMap<String, Ticket>>,
}

fn valid_ticket(ticket: &str) -> bool {
    ticket.len() == 32 && ticket.bytes().all(|b| b.is_ascii_hexdigit())
}

impl QrAuths {
    /// A new ticket of `uid`'s account.
    pub fn create(&self, uid: i64, ticket: String, now: i64) -> String {
        let mut t = self.tickets.lock();
        if t.len() >= QR_AUTH_MAX {
            t.retain(|_, k| k.expires_at > now);
        }
        if t.len() >= QR_AUTH_MAX {
            if let Some(oldest) = t.iter().min_by_key(|(_, k)| k.expires_at).map(|(k, _)| k.clone()) {
                t.remove(&oldest);
            }
        }
        t.insert(
            ticket.clone(),
            Ticket {
                uid,
                state: QrAuthState::Waiting,
                expires_at: now + QR_AUTH_TTL_MS,
                scan_told: false,
            },
        );
        ticket
    }

    /// The live ticket of `uid`: unknown or another account's → QrNotYours; over → 20140.
    fn live(&self, ticket: &str, uid: i64, now: i64) -> DomainResult<Ticket> {
        if !valid_ticket(ticket) {
            return Err(DomainError::QrNotYours);
        }
        let t = self.tickets.lock();
        let k = t.get(ticket).filter(|k| k.uid == uid).ok_or(DomainError::QrNotYours)?;
        if now >= k.expires_at {
            return Err(DomainError::QrTimeout { invalid: false });
        }
        Ok(k.clone())
    }

    /// The phone of the ticket's account opened it.
    pub fn scan(&self, ticket: &str, uid: i64, now: i64) -> DomainResult<()> {
        let k = self.live(ticket, uid, now)?;
        if k.state == QrAuthState::Cancelled {
            return Err(DomainError::QrCancelled);
        }
        if let Some(k) = self.tickets.lock().get_mut(ticket) {
            k.state = QrAuthState::Scanned;
        }
        Ok(())
    }

    /// The phone cancelled.
    pub fn cancel(&self, ticket: &str, uid: i64, now: i64) -> DomainResult<()> {
        self.live(ticket, uid, now)?;
        if let Some(k) = self.tickets.lock().get_mut(ticket) {
            k.state = QrAuthState::Cancelled;
        }
        Ok(())
    }

    /// One look of the screen's poll: cancelled (20141), over (20140), scanned and not yet told
    /// (told now), or nothing new.
    pub fn look(&self, ticket: &str, uid: i64, now: i64) -> DomainResult<QrAuthPoll> {
        let k = self.live(ticket, uid, now)?;
        match k.state {
            QrAuthState::Cancelled => Err(DomainError::QrCancelled),
            QrAuthState::Scanned if !k.scan_told => {
                if let Some(k) = self.tickets.lock().get_mut(ticket) {
                    k.scan_told = true;
                }
                Ok(QrAuthPoll::Scanned)
            }
            _ => Ok(QrAuthPoll::Waiting),
        }
    }

    /// The account certified: its ticket is spent.
    pub fn spend(&self, ticket: &str) {
        self.tickets.lock().remove(ticket);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "0123456789abcdef0123456789abcdef";

    // A ticket: scanned by its own account only, told once, cancelled, over after five
    // minutes; malformed or unknown tickets are nobody's.
    #[test]
    fn a_ticket_is_scanned_told_once_cancelled_and_ends() {
        let q = QrAuths::default();
        q.create(7, T.to_owned(), 1_000);
        assert_eq!(q.look(T, 7, 1_001), Ok(QrAuthPoll::Waiting));
        assert_eq!(q.scan(T, 8, 1_002), Err(DomainError::QrNotYours), "another account's phone");
        assert_eq!(q.look(T, 8, 1_002), Err(DomainError::QrNotYours), "another account's screen");
        assert_eq!(q.scan("nope", 7, 1_002), Err(DomainError::QrNotYours));
        q.scan(T, 7, 1_003).unwrap();
        assert_eq!(q.look(T, 7, 1_004), Ok(QrAuthPoll::Scanned));
        assert_eq!(q.look(T, 7, 1_005), Ok(QrAuthPoll::Waiting), "told once");
        q.cancel(T, 7, 1_006).unwrap();
        assert_eq!(q.look(T, 7, 1_007), Err(DomainError::QrCancelled));
        assert_eq!(q.scan(T, 7, 1_008), Err(DomainError::QrCancelled));

        let u = "fedcba9876543210fedcba9876543210";
        q.create(7, u.to_owned(), 2_000);
        assert_eq!(q.look(u, 7, 2_000 + QR_AUTH_TTL_MS), Err(DomainError::QrTimeout { invalid: false }));
        q.spend(u);
        assert_eq!(q.look(u, 7, 2_001), Err(DomainError::QrNotYours), "spent");
    }
}
