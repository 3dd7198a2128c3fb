//! Payment providers (WeChat Pay and Alipay by QR, bank transfer) behind one trait.
//!
//! A provider takes an order (`prepay`: what the QR encodes), tells the platform of payments by
//! signed asynchronous notices that arrive on the callback route (`verify` checks one), closes
//! orders the platform gave up on, refunds a payment that came for a closed order, and answers
//! a query about an order (reconciliation after a restart).
//!
//! The notice is the provider's own format: `key=value` pairs joined by `&` (order_no,
//! trade_no, amount (fen), paid_at (ms), status `SUCCESS` or `NOTPAY`), signed with
//! HMAC-SHA256 under the key both sides share, hex, in the `Yoo-Pay-Signature` header.
//!
//! [`SandboxPay`] (dev mode only) behaves like a real provider: it keeps its own orders, its pay
//! page (served by the platform at `/api/dev/pay/{order_no}`) is where a person scans, pays or
//! cancels, and it delivers notices asynchronously, after a delay, twice, out of order or
//! forged, as [`Delivery`] says, retrying a delivery the platform did not acknowledge.

pub use crate::config::Delivery;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use futures_util::future::BoxFuture;
use hmac::{Hmac, KeyInit, Mac};
use parking_lot::Mutex;
use sha2::Sha256;

/// The header that carries a notice's signature.
pub const SIGNATURE_HEADER: &str = "Yoo-Pay-Signature";

/// How a provider is paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Wechat,
    Alipay,
    Bank,
}

/// An order as a provider is given it.
#[derive(Debug, Clone, PartialEq)]
pub struct PayRequest {
    pub order_no: String,
    pub amount_fen: i64,
    pub title: String,
    pub channel: Channel,
    /// ms; the provider refuses to take the payment after it.
    pub expires_at: i64,
    /// Pay and sign: paying this order signs this auto-renewal agreement with the provider.
    pub agreement_no: Option<String>,
}

/// A verified notice: the provider says this order was paid (or not yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub order_no: String,
    pub trade_no: String,
    pub amount_fen: i64,
    pub paid_at: i64,
    /// `SUCCESS` or `NOTPAY`.
    pub status: String,
}

impl Notice {
    pub fn paid(&self) -> bool {
        self.status == "SUCCESS"
    }

    /// The notice's body as the provider sends it.
    pub fn encode(&self) -> String {
        format!(
            "order_no={}&trade_no={}&amount={}&paid_at={}&status={}",
            self.order_no, self.trade_no, self.amount_fen, self.paid_at, self.status
        )
    }

    /// Reads a body; None when a field is missing, repeated, malformed or unknown.
    pub fn decode(body: &str) -> Option<Notice> {
        let mut fields: HashMap<&str, &str> = HashMap::new();
        for pair in body.split('&') {
            let (k, v) = pair.split_once('=')?;
            if !v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') || fields.insert(k, v).is_some() {
                return None;
            }
        }
        if fields.len() != 5 {
            return None;
        }
        Some(Notice {
            order_no: fields.get("order_no")?.to_string(),
            trade_no: fields.get("trade_no")?.to_string(),
            amount_fen: fields.get("amount")?.parse().ok()?,
            paid_at: fields.get("paid_at")?.parse().ok()?,
            status: fields.get("status")?.to_string(),
        })
    }

    /// The order number of a body that may not verify (for the callbacks log).
    pub fn order_no_of(body: &str) -> String {
        body.split('&')
            .find_map(|p| p.strip_prefix("order_no="))
            .filter(|v| v.len() <= 64)
            .unwrap_or("")
            .to_owned()
    }
}

/// HMAC-SHA256 of `body` under `key`, hex.
pub fn sign(key: &[u8], body: &str) -> String {
    let mut m = <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes a key of any length");
    m.update(body.as_bytes());
    m.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect()
}

/// Checks a signature in constant time.
pub fn verify_signature(key: &[u8], body: &str, signature_hex: &str) -> bool {
    let Some(sig) = unhex(signature_hex) else { return false };
    let mut m = <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes a key of any length");
    m.update(body.as_bytes());
    m.verify_slice(&sig).is_ok()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// What the provider says of an order when asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Queried {
    /// Not paid (yet).
    Unpaid,
    /// Paid: the notice it would send.
    Paid(Notice),
}

pub trait PaymentProvider: Send + Sync + 'static {
    /// The provider's name in the callback route (`/api/payment/notify/{name}`) and the log.
    fn name(&self) -> &'static str;
    /// Takes an order; answers what the QR encodes. `site` is the platform's own address as
    /// the caller reached it (the sandbox serves its pay page there).
    fn prepay(&self, req: &PayRequest, site: &str) -> BoxFuture<'static, Result<String, String>>;
    /// Checks a notice's signature and reads it.
    fn verify(&self, body: &str, signature: &str) -> Result<Notice, String>;
    /// The platform closed the order (expired, cancelled): the provider takes no payment for it.
    fn close(&self, order_no: &str);
    /// A payment came for an order the platform had closed: the provider gives it back.
    fn refund(&self, order_no: &str, trade_no: &str);
    /// What the provider knows of an order.
    fn query(&self, order_no: &str) -> BoxFuture<'static, Result<Queried, String>>;
    /// Charges one period of a signed auto-renewal agreement (a renewal order, `req`): the
    /// payment's notice comes on the callback route like any other. Err when the provider holds
    /// no signed agreement of that number (never signed, or cancelled on the payer's side).
    fn deduct(&self, agreement_no: &str, req: &PayRequest, now_ms: i64) -> BoxFuture<'static, Result<(), String>>;
    /// The platform cancelled the agreement: the provider charges it no more.
    fn unsign(&self, agreement_no: &str);
    /// The sandbox, when this is it (dev mode).
    fn sandbox(&self) -> Option<&SandboxPay> {
        None
    }
}

/// How the platform receives a provider's notices: the facade posts them to its own callback
/// route, over HTTP, like a provider on the internet would.
pub trait NoticeTransport: Send + Sync + 'static {
    /// Posts `body` with its signature; Ok when the platform acknowledged it.
    fn post(&self, provider: &'static str, body: String, signature: String) -> BoxFuture<'static, Result<(), String>>;
}

/// The sandbox's delivery settings (the server TOML's `[payment]`; a dev route changes them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeliveryPlan {
    pub delivery: Delivery,
    pub delay_ms: u64,
}

/// An order as the sandbox holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct SandboxOrder {
    pub req: PayRequest,
    pub state: SandboxState,
    /// The pay page was opened.
    pub scanned: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SandboxState {
    Pending,
    Paid {
        trade_no: String,
        paid_at: i64,
    },
    Cancelled,
    /// The platform closed it.
    Closed,
    Refunded {
        trade_no: String,
    },
}

/// Why the sandbox refused a payer's action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SandboxRefusal {
    UnknownOrder,
    /// Paid, cancelled or closed already.
    NotPending,
    /// The order's time is over.
    Expired,
}

/// The sandbox payment provider (dev mode only).
pub struct SandboxPay {
    key: Vec<u8>,
    orders: Mutex<HashMap<String, SandboxOrder>>,
    plan: Mutex<DeliveryPlan>,
    /// Set by the facade when it listens.
    transport: OnceLock<Arc<dyn NoticeTransport>>,
    next_trade: std::sync::atomic::AtomicU64,
    /// Auto-renewal agreements by number: signed (true) or cancelled (false).
    agreements: Mutex<HashMap<String, bool>>,
}

/// Deliveries of one notice the platform does not acknowledge are retried this many times, a
/// second apart, doubling up to a minute (a platform that restarts gets it when it is back).
const DELIVERY_TRIES: u32 = 12;

impl SandboxPay {
    pub fn new(key: &[u8], plan: DeliveryPlan) -> SandboxPay {
        SandboxPay {
            key: key.to_vec(),
            orders: Mutex::default(),
            plan: Mutex::new(plan),
            transport: OnceLock::new(),
            next_trade: std::sync::atomic::AtomicU64::new(1),
            agreements: Mutex::default(),
        }
    }

    /// Whether an auto-renewal agreement is signed with the sandbox.
    pub fn signed(&self, agreement_no: &str) -> bool {
        self.agreements.lock().get(agreement_no).copied().unwrap_or(false)
    }

    /// The payer cancels the agreement on the provider's side (in the payment app): the next
    /// deduction is refused.
    pub fn payer_unsign(&self, agreement_no: &str) {
        if let Some(signed) = self.agreements.lock().get_mut(agreement_no) {
            *signed = false;
        }
    }

    /// Takes a payment now and returns its notice (paying an order, or a deduction).
    fn take(&self, o: &mut SandboxOrder, now_ms: i64) -> Notice {
        let n = self.next_trade.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let trade_no = format!("SBX{now_ms}{n:06}");
        o.state = SandboxState::Paid {
            trade_no: trade_no.clone(),
            paid_at: now_ms,
        };
        o.scanned = true;
        Notice {
            order_no: o.req.order_no.clone(),
            trade_no,
            amount_fen: o.req.amount_fen,
            paid_at: now_ms,
            status: "SUCCESS".to_owned(),
        }
    }

    /// Where notices go (the facade's own callback route); set once.
    pub fn set_transport(&self, t: Arc<dyn NoticeTransport>) {
        let _ = self.transport.set(t);
    }

    pub fn set_plan(&self, plan: DeliveryPlan) {
        *self.plan.lock() = plan;
    }

    pub fn plan(&self) -> DeliveryPlan {
        *self.plan.lock()
    }

    pub fn order(&self, order_no: &str) -> Option<SandboxOrder> {
        self.orders.lock().get(order_no).cloned()
    }

    /// The payer opened the pay page.
    pub fn open(&self, order_no: &str) -> Result<SandboxOrder, SandboxRefusal> {
        let mut orders = self.orders.lock();
        let o = orders.get_mut(order_no).ok_or(SandboxRefusal::UnknownOrder)?;
        o.scanned = true;
        Ok(o.clone())
    }

    /// The payer confirmed: the sandbox takes the money and sends the notice as planned.
    pub fn confirm(&self, order_no: &str, now_ms: i64) -> Result<Notice, SandboxRefusal> {
        let notice = {
            let mut orders = self.orders.lock();
            let o = orders.get_mut(order_no).ok_or(SandboxRefusal::UnknownOrder)?;
            if o.state != SandboxState::Pending {
                return Err(SandboxRefusal::NotPending);
            }
            if now_ms >= o.req.expires_at {
                o.state = SandboxState::Closed;
                return Err(SandboxRefusal::Expired);
            }
            if let Some(no) = &o.req.agreement_no {
                // paying signs the agreement
                self.agreements.lock().insert(no.clone(), true);
            }
            self.take(o, now_ms)
        };
        self.deliver(&notice);
        Ok(notice)
    }

    /// The payer cancelled on the pay page.
    pub fn cancel(&self, order_no: &str) -> Result<(), SandboxRefusal> {
        let mut orders = self.orders.lock();
        let o = orders.get_mut(order_no).ok_or(SandboxRefusal::UnknownOrder)?;
        if o.state != SandboxState::Pending {
            return Err(SandboxRefusal::NotPending);
        }
        o.state = SandboxState::Cancelled;
        Ok(())
    }

    /// Sends the notice of a payment as the plan says, each delivery retried until acknowledged.
    fn deliver(&self, paid: &Notice) {
        let Some(transport) = self.transport.get().cloned() else {
            tracing::warn!(order_no = %paid.order_no, "sandbox payment has nowhere to send its notice");
            return;
        };
        let plan = self.plan();
        let later = Duration::from_millis(plan.delay_ms);
        let genuine = (paid.encode(), sign(&self.key, &paid.encode()));
        let sends: Vec<(Duration, (String, String))> = match plan.delivery {
            Delivery::Normal => vec![(Duration::ZERO, genuine)],
            Delivery::Late => vec![(later, genuine)],
            Delivery::Twice => vec![(Duration::ZERO, genuine.clone()), (later, genuine)],
            Delivery::OutOfOrder => {
                let stale = Notice {
                    status: "NOTPAY".to_owned(),
                    paid_at: 0,
                    ..paid.clone()
                };
                let stale = (stale.encode(), sign(&self.key, &stale.encode()));
                vec![(Duration::ZERO, genuine), (later, stale)]
            }
            Delivery::BadSignature => {
                let forged = Notice {
                    trade_no: format!("{}X", paid.trade_no),
                    ..paid.clone()
                };
                let forged = (forged.encode(), sign(b"not the shared key", &forged.encode()));
                vec![(Duration::ZERO, forged), (later, genuine)]
            }
        };
        let start = tokio::time::Instant::now();
        for (after, (body, signature)) in sends {
            let transport = transport.clone();
            let forged = plan.delivery == Delivery::BadSignature && after.is_zero();
            tokio::spawn(async move {
                tokio::time::sleep_until(start + after).await;
                let mut pause = Duration::from_secs(1);
                for attempt in 1..=DELIVERY_TRIES {
                    match transport.post("sandbox", body.clone(), signature.clone()).await {
                        Ok(()) => return,
                        // A refused forgery is what the platform must do: no retry.
                        Err(_) if forged => return,
                        Err(e) => tracing::info!(attempt, error = %e, "sandbox notice not acknowledged, retrying"),
                    }
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(60));
                }
            });
        }
    }
}

impl PaymentProvider for SandboxPay {
    fn name(&self) -> &'static str {
        "sandbox"
    }

    fn prepay(&self, req: &PayRequest, site: &str) -> BoxFuture<'static, Result<String, String>> {
        self.orders.lock().entry(req.order_no.clone()).or_insert_with(|| SandboxOrder {
            req: req.clone(),
            state: SandboxState::Pending,
            scanned: false,
        });
        let url = format!("{}/api/dev/pay/{}", site.trim_end_matches('/'), req.order_no);
        Box::pin(async move { Ok(url) })
    }

    fn verify(&self, body: &str, signature: &str) -> Result<Notice, String> {
        if !verify_signature(&self.key, body, signature) {
            return Err("bad signature".to_owned());
        }
        Notice::decode(body).ok_or_else(|| "malformed notice".to_owned())
    }

    fn close(&self, order_no: &str) {
        if let Some(o) = self.orders.lock().get_mut(order_no) {
            if o.state == SandboxState::Pending {
                o.state = SandboxState::Closed;
            }
        }
    }

    fn refund(&self, order_no: &str, trade_no: &str) {
        if let Some(o) = self.orders.lock().get_mut(order_no) {
            if matches!(&o.state, SandboxState::Paid { trade_no: t, .. } if t == trade_no) {
                o.state = SandboxState::Refunded {
                    trade_no: trade_no.to_owned(),
                };
            }
        }
    }

    fn query(&self, order_no: &str) -> BoxFuture<'static, Result<Queried, String>> {
        let answer = match self.orders.lock().get(order_no) {
            Some(SandboxOrder {
                req,
                state: SandboxState::Paid { trade_no, paid_at },
                ..
            }) => Queried::Paid(Notice {
                order_no: order_no.to_owned(),
                trade_no: trade_no.clone(),
                amount_fen: req.amount_fen,
                paid_at: *paid_at,
                status: "SUCCESS".to_owned(),
            }),
            _ => Queried::Unpaid,
        };
        Box::pin(async move { Ok(answer) })
    }

    fn deduct(&self, agreement_no: &str, req: &PayRequest, now_ms: i64) -> BoxFuture<'static, Result<(), String>> {
        let answer = if !self.signed(agreement_no) {
            Err(format!("agreement {agreement_no} not signed"))
        } else {
            let notice = {
                let mut orders = self.orders.lock();
                let o = orders.entry(req.order_no.clone()).or_insert_with(|| SandboxOrder {
                    req: req.clone(),
                    state: SandboxState::Pending,
                    scanned: false,
                });
                match o.state {
                    // the same deduction asked again: charged once
                    SandboxState::Pending => Some(self.take(o, now_ms)),
                    _ => None,
                }
            };
            if let Some(n) = notice {
                self.deliver(&n);
            }
            Ok(())
        };
        Box::pin(async move { answer })
    }

    fn unsign(&self, agreement_no: &str) {
        self.payer_unsign(agreement_no);
    }

    fn sandbox(&self) -> Option<&SandboxPay> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // A notice round-trips through its body; a signature verifies under its key only.
    #[test]
    fn notices_encode_decode_and_verify() {
        let n = Notice {
            order_no: "Y1".into(),
            trade_no: "SBX1".into(),
            amount_fen: 600,
            paid_at: 5,
            status: "SUCCESS".into(),
        };
        assert_eq!(Notice::decode(&n.encode()), Some(n.clone()));
        let sig = sign(b"k", &n.encode());
        assert!(verify_signature(b"k", &n.encode(), &sig));
        assert!(!verify_signature(b"other", &n.encode(), &sig));
        assert!(!verify_signature(b"k", &n.encode().replace("600", "1"), &sig));
        assert!(!verify_signature(b"k", &n.encode(), "zz"));
        for bad in [
            "",
            "order_no=Y1",
            "order_no=Y1&order_no=Y2&a=1&b=2&c=3",
            "order_no=Y 1&trade_no=a&amount=1&paid_at=1&status=S",
        ] {
            assert_eq!(Notice::decode(bad), None, "{bad}");
        }
        assert_eq!(Notice::order_no_of(&n.encode()), "Y1");
    }

    // The sandbox keeps its own orders: a payer pays once, not after cancelling or closing,
    // and not after the order's time.
    #[test]
    fn the_sandbox_keeps_its_orders() {
        let s = SandboxPay::new(
            b"k",
            DeliveryPlan {
                delivery: Delivery::Normal,
                delay_ms: 0,
            },
        );
        let req = |no: &str| PayRequest {
            order_no: no.into(),
            amount_fen: 100,
            title: "t".into(),
            channel: Channel::Wechat,
            expires_at: 1_000,
            agreement_no: None,
        };
        let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
        rt.block_on(async {
            assert_eq!(s.prepay(&req("A"), "http://h:1/").await.unwrap(), "http://h:1/api/dev/pay/A");
            s.prepay(&req("B"), "http://h").await.unwrap();
            s.prepay(&req("C"), "http://h").await.unwrap();
            assert!(s.open("A").unwrap().scanned);
            assert_eq!(s.open("Z"), Err(SandboxRefusal::UnknownOrder));
            let paid = s.confirm("A", 10).unwrap();
            assert!(paid.paid());
            assert_eq!(s.confirm("A", 11), Err(SandboxRefusal::NotPending));
            assert_eq!(s.query("A").await.unwrap(), Queried::Paid(paid.clone()));
            s.cancel("B").unwrap();
            assert_eq!(s.confirm("B", 10), Err(SandboxRefusal::NotPending));
            assert_eq!(s.confirm("C", 1_000), Err(SandboxRefusal::Expired));
            assert_eq!(s.query("C").await.unwrap(), Queried::Unpaid);
            s.refund("A", &paid.trade_no);
            assert!(matches!(s.order("A").unwrap().state, SandboxState::Refunded { .. }));
        });
    }
}
