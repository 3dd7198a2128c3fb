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
    /// Every message sent, oldest first (bounded).
    outbox: std::sync::Arc<Mutex<Vec<SmsMessage>>>,
    fail_numbers: Vec<String>,
}

const OUTBOX_LIMIT: usize = 10_000;

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
            if o.len() >= OUTBOX_LIMIT {
                o.remove(0);
            }
            o.push(msg);
            Ok(())
        })
    }

    fn outbox(&self, phone: &str) -> Option<Vec<SmsMessage>> {
        Some(self.outbox.lock().iter().rev().filter(|m| m.phone == phone).cloned().collect())
    }
}
