//! App-QR login (core-platform.md §4.12): the browser shows a QR code that names a one-time
//! ticket; the product's app, signed in on a phone, scans it (the browser hears 20143) and
//! confirms (the browser's long poll logs it in as the app's user) or cancels (20141). A ticket
//! lives two minutes (then 20140) and logs in once. In dev mode a sandbox page stands in for the
//! app (`facade/src/routes/dev_app.rs`).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use storage::User;
use tokio::sync::Notify;

use super::{random_hex, NewLogin, Passport};
use crate::error::{DomainError, DomainResult};

/// How long a QR code can be scanned and confirmed.
pub const QR_LOGIN_TTL_MS: i64 = 120_000;
/// How long one poll waits for the ticket to change before it answers 20142 or 20143.
pub const QR_POLL_WAIT: Duration = Duration::from_secs(25);
/// Tickets kept at most (each poll and scan prunes the expired ones first).
const QR_TICKETS_MAX: usize = 100_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QrLoginState {
    Waiting,
    Scanned {
        uid: i64,
    },
    Confirmed {
        uid: i64,
    },
    Cancelled,
    /// Confirmed and logged in: the ticket is spent.
    Used,
}

struct Ticket {
    state: QrLoginState,
    expires_at: i64,
    changed: Arc<Notify>,
    /// A poll has answered 20143: later polls wait for the confirm or cancel.
    scan_told: bool,
}

/// The live tickets.
#[derive(Default)]
pub struct QrLogins {
    tickets: Mutex<HashMap<String, Ticket>>,
}

/// What a poll of the browser got.
pub enum QrPoll {
    LoggedIn(User, NewLogin),
}

fn valid_ticket(ticket: &str) -> bool {
    ticket.len() == 32 && ticket.bytes().all(|b| b.is_ascii_hexdigit())
}

impl QrLogins {
    fn prune(map: &mut HashMap<String, Ticket>, now: i64) {
        map.retain(|_, t| t.expires_at > now);
    }

    /// Moves the ticket from `from` (as `pred` accepts it) to `to`, waking its poll.
    fn step(&self, ticket: &str, now: i64, pred: impl Fn(QrLoginState) -> bool, to: QrLoginState) -> DomainResult<()> {
        let mut map = self.tickets.lock();
        let Some(t) = map.get_mut(ticket).filter(|t| t.expires_at > now) else {
            return Err(DomainError::LoginQrTimeout);
        };
        if !pred(t.state) {
            return Err(match t.state {
                QrLoginState::Cancelled => DomainError::LoginQrCancelled,
                _ => DomainError::LoginQrTimeout,
            });
        }
        t.state = to;
        t.changed.notify_waiters();
        Ok(())
    }
}

impl Passport {
    /// A new ticket for the browser's QR code.
    pub fn qr_login_new(&self) -> DomainResult<String> {
        let now = self.clock.now_ms();
        let mut map = self.qr.tickets.lock();
        QrLogins::prune(&mut map, now);
        if map.len() >= QR_TICKETS_MAX {
            return Err(DomainError::Internal("too many QR login tickets".into()));
        }
        let ticket = random_hex(16);
        map.insert(
            ticket.clone(),
            Ticket {
                state: QrLoginState::Waiting,
                expires_at: now + QR_LOGIN_TTL_MS,
                changed: Arc::new(Notify::new()),
                scan_told: false,
            },
        );
        Ok(ticket)
    }

    /// The ticket's state (the sandbox app shows it); expired or unknown: 20140.
    pub fn qr_login_state(&self, ticket: &str) -> DomainResult<QrLoginState> {
        let now = self.clock.now_ms();
        self.qr
            .tickets
            .lock()
            .get(ticket)
            .filter(|t| t.expires_at > now)
            .map(|t| t.state)
            .ok_or(DomainError::LoginQrTimeout)
    }

    /// The browser's long poll: waits up to [`QR_POLL_WAIT`] for the ticket to change, then
    /// answers by its state: confirmed logs in (once), scanned 20143, waiting 20142, cancelled
    /// 20141, expired, spent or unknown 20140.
    pub async fn qr_login_poll(&self, ticket: &str, device_no: &str) -> DomainResult<QrPoll> {
        if !valid_ticket(ticket) {
            return Err(DomainError::LoginQrTimeout);
        }
        let deadline = tokio::time::Instant::now() + QR_POLL_WAIT;
        let mut seen: Option<QrLoginState> = None;
        loop {
            let now = self.clock.now_ms();
            let step = {
                let mut map = self.qr.tickets.lock();
                match map.get_mut(ticket).filter(|t| t.expires_at > now) {
                    None => None,
                    Some(t) => {
                        let state = t.state;
                        if let QrLoginState::Confirmed { .. } = state {
                            t.state = QrLoginState::Used;
                        }
                        // the scan is told once, by whichever poll sees it first
                        let tell_scan = matches!(state, QrLoginState::Scanned { .. }) && !std::mem::replace(&mut t.scan_told, true);
                        Some((state, t.changed.clone(), t.expires_at, tell_scan))
                    }
                }
            };
            let Some((state, changed, expires_at, tell_scan)) = step else {
                return Err(DomainError::LoginQrTimeout);
            };
            if tell_scan {
                return Err(DomainError::LoginQrScanned);
            }
            if let QrLoginState::Confirmed { uid } = state {
                let (user, login) = self.login_uid(uid, device_no).await?;
                return Ok(QrPoll::LoggedIn(user, login));
            }
            match state {
                QrLoginState::Cancelled => return Err(DomainError::LoginQrCancelled),
                QrLoginState::Used => return Err(DomainError::LoginQrTimeout),
                _ => {}
            }
            // a change since the poll began is answered at once
            if seen.is_some_and(|s| s != state) && !matches!(state, QrLoginState::Scanned { .. }) {
                return Err(code_of(state));
            }
            seen = Some(state);
            let notified = changed.notified();
            let until_expiry = Duration::from_millis((expires_at - now).max(0) as u64);
            let wake = deadline.min(tokio::time::Instant::now() + until_expiry);
            // woken by a change, or by the expiry (the next round answers 20140), or done waiting
            if tokio::time::timeout_at(wake, notified).await.is_err() && tokio::time::Instant::now() >= deadline {
                return Err(code_of(state));
            }
        }
    }

    /// The app scanned the code, signed in as `uid`.
    pub fn qr_login_scan(&self, ticket: &str, uid: i64) -> DomainResult<()> {
        let now = self.clock.now_ms();
        self.qr
            .step(ticket, now, |s| s == QrLoginState::Waiting, QrLoginState::Scanned { uid })
    }

    /// The app's user confirms the login (only the one who scanned).
    pub fn qr_login_confirm(&self, ticket: &str, uid: i64) -> DomainResult<()> {
        let now = self.clock.now_ms();
        self.qr
            .step(ticket, now, |s| s == QrLoginState::Scanned { uid }, QrLoginState::Confirmed { uid })
    }

    /// The app's user cancels (before confirming).
    pub fn qr_login_cancel(&self, ticket: &str) -> DomainResult<()> {
        let now = self.clock.now_ms();
        self.qr.step(
            ticket,
            now,
            |s| matches!(s, QrLoginState::Waiting | QrLoginState::Scanned { .. }),
            QrLoginState::Cancelled,
        )
    }
}

fn code_of(state: QrLoginState) -> DomainError {
    match state {
        QrLoginState::Scanned { .. } => DomainError::LoginQrScanned,
        QrLoginState::Cancelled => DomainError::LoginQrCancelled,
        QrLoginState::Waiting => DomainError::LoginQrWaiting,
        QrLoginState::Confirmed { .. } | QrLoginState::Used => DomainError::LoginQrTimeout,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::passport::SmsLimits;
    use crate::accounts::sms::SandboxSms;
    use crate::clock::Clock;
    use storage::Store;

    fn passport(name: &str) -> (Arc<Passport>, i64, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("yoo-qr-login-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open_sqlite(&dir).unwrap();
        let (user, _) = store.users.get_or_create_by_phone("13800000001", "a", 0).unwrap();
        let p = Passport::new(store, Arc::new(SandboxSms::new(vec![])), Clock::new(), 0, SmsLimits::default());
        (Arc::new(p), user.uid, dir)
    }

    fn poll(p: &Arc<Passport>, ticket: &str) -> tokio::task::JoinHandle<DomainResult<QrPoll>> {
        let (p, t) = (p.clone(), ticket.to_string());
        tokio::spawn(async move { p.qr_login_poll(&t, "d").await })
    }

    fn err(r: DomainResult<QrPoll>) -> DomainError {
        match r {
            Err(e) => e,
            Ok(_) => panic!("logged in"),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn waiting_scanned_confirmed_logs_in_once() {
        let (p, uid, dir) = passport("flow");
        let t = p.qr_login_new().unwrap();
        // nothing happens: 20142 after the poll's wait
        assert_eq!(err(poll(&p, &t).await.unwrap()), DomainError::LoginQrWaiting);
        // a scan answers a waiting poll at once with 20143
        let waiting = poll(&p, &t);
        tokio::time::sleep(Duration::from_secs(1)).await;
        p.qr_login_scan(&t, uid).unwrap();
        assert_eq!(err(waiting.await.unwrap()), DomainError::LoginQrScanned);
        // only the one who scanned confirms; a second scan is refused
        assert!(p.qr_login_confirm(&t, uid + 1).is_err());
        assert!(p.qr_login_scan(&t, uid).is_err());
        let waiting = poll(&p, &t);
        tokio::time::sleep(Duration::from_secs(1)).await;
        p.qr_login_confirm(&t, uid).unwrap();
        let QrPoll::LoggedIn(user, login) = waiting.await.unwrap().unwrap();
        assert_eq!((user.uid, login.session.uid), (uid, uid));
        assert!(p.authenticate(&login.token).await.is_ok());
        // spent
        assert_eq!(err(poll(&p, &t).await.unwrap()), DomainError::LoginQrTimeout);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test(start_paused = true)]
    async fn cancelled_expired_and_unknown_tickets() {
        let (p, uid, dir) = passport("ends");
        let t = p.qr_login_new().unwrap();
        p.qr_login_scan(&t, uid).unwrap();
        p.qr_login_cancel(&t).unwrap();
        assert_eq!(err(poll(&p, &t).await.unwrap()), DomainError::LoginQrCancelled);
        assert!(p.qr_login_confirm(&t, uid).is_err());

        // a poll waiting at the two-minute mark answers 20140
        let t = p.qr_login_new().unwrap();
        tokio::time::sleep(Duration::from_millis(QR_LOGIN_TTL_MS as u64 - 10_000)).await;
        assert_eq!(err(poll(&p, &t).await.unwrap()), DomainError::LoginQrTimeout);
        assert!(p.qr_login_scan(&t, uid).is_err());

        assert_eq!(err(poll(&p, "nope").await.unwrap()), DomainError::LoginQrTimeout);
        assert_eq!(err(poll(&p, &"0".repeat(32)).await.unwrap()), DomainError::LoginQrTimeout);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
