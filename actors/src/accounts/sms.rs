//! Sending SMS codes.
//!
//! The sandbox provider behaves like a real gateway: sending is asynchronous, it fails for the
//! numbers it is told to fail for, and it keeps an outbox that the dev-only endpoint shows, so a
//! tester reads the code there instead of on a phone.

use std::sync::Arc;

use futures_util::future::BoxFuture;

use crate::small_str::SmallStr;
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
    /// In a cluster: the sandbox's outbox is one phone for every process, as a real phone
    /// would be: `announce` carries each message this process sends to the others. A real
    /// provider has nothing to share.
    fn share_outbox(&self, _announce: Announce) {}
    /// In a cluster: a message another process's sandbox sent (its outbox shows it here too).
    fn sent_elsewhere(&self, _m: &SmsMessage) {}
}

/// Carries a sandbox message to the other processes of a cluster.
pub type Announce = Arc<dyn Fn(&SmsMessage) + Send + Sync>;

pub struct SandboxSms {
    /// The messages sent, by phone (bounded: the oldest phones are forgotten first).
    outbox: Arc<Mutex<Outbox>>,
    fail_numbers: Vec<String>,
    /// In a cluster: carries each message to the other processes' outboxes.
    announce: std::sync::OnceLock<Announce>,
}

/// Phones the outbox remembers at most.
const OUTBOX_PHONES: usize = 200_000;
/// Messages kept per phone.
const PER_PHONE: usize = 10;

/// The outbox holds a message for every phone that logged in at a peak, so it is kept compact:
/// about 180 bytes a phone and no allocation of its own (see `small_str`).
#[derive(Default)]
struct Outbox {
    by_phone: std::collections::HashMap<SmallStr, Sent>,
    /// Phones in the order they first received a message, to forget the oldest.
    order: std::collections::VecDeque<SmallStr>,
}

/// The messages of one phone: nearly always one.
enum Sent {
    One(Message),
    Many(Vec<Message>),
}

struct Message {
    code: SmallStr,
    sent_at: i64,
}

impl Sent {
    fn as_slice(&self) -> &[Message] {
        match self {
            Sent::One(m) => std::slice::from_ref(m),
            Sent::Many(v) => v,
        }
    }

    fn push(&mut self, m: Message) {
        match self {
            Sent::One(_) => {
                let Sent::One(first) = std::mem::replace(self, Sent::Many(Vec::with_capacity(2))) else {
                    unreachable!()
                };
                if let Sent::Many(v) = self {
                    v.push(first);
                    v.push(m);
                }
            }
            Sent::Many(v) => {
                if v.len() >= PER_PHONE {
                    v.remove(0);
                }
                v.push(m);
            }
        }
    }
}

impl SandboxSms {
    pub fn new(fail_numbers: Vec<String>) -> Self {
        SandboxSms {
            outbox: Default::default(),
            fail_numbers,
            announce: std::sync::OnceLock::new(),
        }
    }
}

/// Adds a message to the outbox (the oldest phones and messages make room).
fn record(outbox: &Mutex<Outbox>, phone: SmallStr, msg: Message) {
    let mut o = outbox.lock();
    let o = &mut *o;
    match o.by_phone.get_mut(phone.as_str()) {
        Some(sent) => sent.push(msg),
        None => {
            if o.order.len() >= OUTBOX_PHONES {
                if let Some(old) = o.order.pop_front() {
                    o.by_phone.remove(&old);
                }
            }
            o.order.push_back(phone.clone());
            o.by_phone.insert(phone, Sent::One(msg));
        }
    }
}

impl SmsProvider for SandboxSms {
    fn send_code(&self, phone: &str, code: &str, now_ms: i64) -> BoxFuture<'static, Result<(), String>> {
        let fail = self.fail_numbers.iter().any(|n| n == phone);
        let outbox = self.outbox.clone();
        let (phone, msg) = (
            SmallStr::new(phone),
            Message {
                code: code.into(),
                sent_at: now_ms,
            },
        );
        let announce = self.announce.get().cloned();
        Box::pin(async move {
            tokio::task::yield_now().await;
            if fail {
                return Err("sandbox gateway rejected the number".into());
            }
            if let Some(announce) = announce {
                announce(&SmsMessage {
                    phone: phone.to_string(),
                    code: msg.code.to_string(),
                    sent_at: msg.sent_at,
                });
            }
            record(&outbox, phone, msg);
            Ok(())
        })
    }

    fn share_outbox(&self, announce: Announce) {
        let _ = self.announce.set(announce);
    }

    fn sent_elsewhere(&self, m: &SmsMessage) {
        let msg = Message {
            code: m.code.as_str().into(),
            sent_at: m.sent_at,
        };
        record(&self.outbox, SmallStr::new(&m.phone), msg);
    }

    fn outbox(&self, phone: &str) -> Option<Vec<SmsMessage>> {
        let o = self.outbox.lock();
        let list = o.by_phone.get(phone).map(Sent::as_slice).unwrap_or_default();
        Some(
            list.iter()
                .rev()
                .map(|m| SmsMessage {
                    phone: phone.to_string(),
                    code: m.code.to_string(),
                    sent_at: m.sent_at,
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn outbox_is_newest_first_and_bounded_per_phone() {
        let sms = SandboxSms::new(vec!["19900000000".into()]);
        for i in 0..12 {
            sms.send_code("13800000000", &format!("{i:06}"), 1000 + i).await.unwrap();
        }
        sms.send_code("13800000001", "777777", 5).await.unwrap();
        let got = sms.outbox("13800000000").unwrap();
        assert_eq!(got.len(), PER_PHONE, "the oldest messages of a phone are dropped");
        assert_eq!(
            (got[0].code.as_str(), got[0].sent_at, got[0].phone.as_str()),
            ("000011", 1011, "13800000000")
        );
        assert_eq!(got[PER_PHONE - 1].code, "000002");
        assert_eq!(sms.outbox("13800000001").unwrap()[0].code, "777777");
        assert!(sms.outbox("13800000002").unwrap().is_empty());
        assert!(
            sms.send_code("19900000000", "123456", 1).await.is_err(),
            "the configured number fails"
        );
        assert!(sms.outbox("19900000000").unwrap().is_empty(), "a failed send is not in the outbox");
    }
}
