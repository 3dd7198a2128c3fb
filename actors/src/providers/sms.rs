//! Sending SMS codes.
//!
//! The sandbox provider behaves like a real gateway: sending is asynchronous, it fails for the
//! numbers it is told to fail for, and it keeps an outbox that the dev-only endpoint shows, so a
//! tester reads the code there instead of on a phone.

use futures_util::future::BoxFuture;
use parking_lot::Mutex;

#[derive(Debug, Clone, PartialEq)]
pub struct SmsMessage {
    pub phone: String,
    pub code: String,
    pub sent_at: i64,
}

pub trait SmsProvider: Send + Sync + 'static {
    /// Sends `code` to `phone`; an error is the gateway's refusal.
    fn send_code(&self, phone: &str, code: &str, now_ms: i64) -> BoxFuture<'static, Result<(), String>>;
    /// The outbox, newest first, for one phone; only the sandbox has one.
    fn outbox(&self, _phone: &str) -> Option<Vec<SmsMessage>> {
        None
    }
}

pub struct SandboxSms {
    /// The messages sent, by phone (bounded: the oldest phones are forgotten first).
    outbox: std::sync::Arc<Mutex<Outbox>>,
    fail_numbers: Vec<String>,
}

/// Phones the outbox remembers at most.
const OUTBOX_PHONES: usize = 200_000;
/// Messages kept per phone.
const PER_PHONE: usize = 10;

#[derive(Default)]
struct Outbox {
    by_phone: std::collections::HashMap<String, Vec<SmsMessage>>,
    /// Phones in the order they first received a message, to forget the oldest.
    order: std::collections::VecDeque<String>,
}

impl SandboxSms {
    pub fn new(fail_numbers: Vec<String>) -> Self {
        SandboxSms { outbox: Default::default(), fail_numbers }
    }
}

impl SmsProvider for SandboxSms {
    fn send_code(&self, phone: &str, code: &str, now_ms: i64) -> BoxFuture<'static, Result<(), String>> {
        let fail = self.fail_numbers.iter().any(|n| n == phone);
        let outbox = self.outbox.clone();
        let msg = SmsMessage { phone: phone.to_string(), code: code.to_string(), sent_at: now_ms };
        Box::pin(async move {
            tokio::task::yield_now().await;
            if fail {
                return Err("sandbox gateway rejected the number".into());
            }
            let mut o = outbox.lock();
            if !o.by_phone.contains_key(&msg.phone) {
                if o.order.len() >= OUTBOX_PHONES {
                    if let Some(old) = o.order.pop_front() {
                        o.by_phone.remove(&old);
                    }
                }
                o.order.push_back(msg.phone.clone());
            }
            let list = o.by_phone.entry(msg.phone.clone()).or_default();
            if list.len() >= PER_PHONE {
                list.remove(0);
            }
            list.push(msg);
            Ok(())
        })
    }

    fn outbox(&self, phone: &str) -> Option<Vec<SmsMessage>> {
        Some(self.outbox.lock().by_phone.get(phone).map(|l| l.iter().rev().cloned().collect()).unwrap_or_default())
    }
}
