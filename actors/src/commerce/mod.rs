//! The money path (commerce.md): goods, orders, payment and fulfilment.
//!
//! - `pricing`: §4.5 as plain functions over fen.
//! - `paytype`: the pay methods and §4.2's filtering.
//! - `coupon`: the coupon rules (§4.6, §5) and the activities' status (§4.13).
//! - `tiers`: the merchant cart's tier prices (§4.5).
//! - `order`: the order state machine and what a QR poll answers.
//! - `fulfil`: what an order's fulfilment triggers (`storage::activity::OrderRules`, decided by
//!   `activity::rules`).
//! - here: [`Shop`], what the platform's commerce calls share (the payment provider, the QR
//!   tickets, the order watchers that wake long polls), and [`OrderDesk`], the actor that owns
//!   the orders' expiry timers (engine timers on tokio time, re-armed from storage when it
//!   starts, so a restart loses no expiry).
//!
//! The calls themselves are the `Commerce` service's (`service.rs` and its siblings).

pub mod agreements;
pub mod card_notice;
pub mod coupon;
pub mod coupons;
pub mod fulfil;
pub mod member;
pub mod members;
pub mod merchant;
pub mod merchants;
pub mod order;
pub mod packages;
pub mod payment;
pub mod paytype;
pub mod pricing;
pub mod service;
pub mod tiers;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use engine::Timers;
use parking_lot::Mutex;
use ractor::{Actor, ActorProcessingErr, ActorRef};
use tokio::sync::watch;

use crate::commerce::payment::PaymentProvider;
use crate::ctx::Ctx;

/// A QR handed out: which order it pays, for whom, since when, and whether a poll on it was
/// told of the scan already (so that QRCODE_SCAN_SUCCESS is answered once a QR).
#[derive(Debug, Clone)]
pub struct QrTicket {
    pub order_no: String,
    pub uid: i64,
    pub issued: tokio::time::Instant,
    pub told_scanned: bool,
}

/// What the platform's commerce calls share.
pub struct Shop {
    pub provider: Arc<dyn PaymentProvider>,
    /// QR tickets by ticket (in memory: after a restart a poll answers 20140 `timeout` and the
    /// client generates a new QR).
    pub tickets: Mutex<HashMap<String, QrTicket>>,
    /// One version counter per order someone polls; a change of the order bumps it and wakes
    /// the polls at once.
    watchers: Mutex<HashMap<String, watch::Sender<u64>>>,
}

impl Shop {
    pub fn new(provider: Arc<dyn PaymentProvider>) -> Shop {
        Shop {
            provider,
            tickets: Mutex::default(),
            watchers: Mutex::default(),
        }
    }

    /// A receiver that sees the next change of the order (subscribe before reading it).
    pub fn watch(&self, order_no: &str) -> watch::Receiver<u64> {
        self.watchers
            .lock()
            .entry(order_no.to_owned())
            .or_insert_with(|| watch::channel(0).0)
            .subscribe()
    }

    /// The order changed: wake its polls.
    pub fn changed(&self, order_no: &str) {
        if let Some(tx) = self.watchers.lock().get(order_no) {
            tx.send_modify(|v| *v += 1);
        }
    }

    /// Forgets the watcher of an order nobody polls any more.
    pub fn unwatch(&self, order_no: &str) {
        let mut w = self.watchers.lock();
        if w.get(order_no).is_some_and(|tx| tx.receiver_count() == 0) {
            w.remove(order_no);
        }
    }
}

/// The order desk: the expiry timer of every open order.
pub struct OrderDesk {
    pub ctx: Arc<Ctx>,
    pub shop: Arc<Shop>,
}

pub enum DeskMsg {
    /// Expire the order at `at_ms` (wall clock) unless it is paid or closed by then.
    Arm { order_no: String, at_ms: i64 },
    /// The order's time is up.
    Expire(String),
    /// The order was paid or closed: no timer.
    Disarm(String),
    /// Charge the next period of an auto-renewal agreement at `at_ms` (wall clock).
    ArmRenewal { agreement_no: String, at_ms: i64 },
    /// A renewal is due.
    Renew(String),
    /// The agreement was cancelled: no renewal.
    DisarmRenewal(String),
}

/// The desk's timer key of an agreement's renewal (orders use their number).
fn renewal_key(agreement_no: &str) -> String {
    format!("renew:{agreement_no}")
}

pub struct DeskState {
    timers: Timers<String>,
}

impl Actor for OrderDesk {
    type Msg = DeskMsg;
    type State = DeskState;
    type Arguments = u8;

    async fn pre_start(&self, me: ActorRef<DeskMsg>, _: u8) -> Result<DeskState, ActorProcessingErr> {
        let mut st = DeskState { timers: Timers::default() };
        // Re-arm every open order (a restart, of the actor or of the server).
        let open = self.ctx.db(|s| s.commerce.open_orders()).await?;
        for o in open {
            self.arm(&me, &mut st, o.order.order_no, o.order.expires_at);
        }
        // And every active agreement's next renewal.
        for a in self.ctx.db(|s| s.agreements.active()).await? {
            self.arm_renewal(&me, &mut st, a.agreement_no, a.next_at);
        }
        Ok(st)
    }

    async fn handle(&self, me: ActorRef<DeskMsg>, msg: DeskMsg, st: &mut DeskState) -> Result<(), ActorProcessingErr> {
        match msg {
            DeskMsg::Arm { order_no, at_ms } => self.arm(&me, st, order_no, at_ms),
            DeskMsg::Disarm(order_no) => st.timers.cancel(&order_no),
            DeskMsg::ArmRenewal { agreement_no, at_ms } => self.arm_renewal(&me, st, agreement_no, at_ms),
            DeskMsg::DisarmRenewal(agreement_no) => st.timers.cancel(&renewal_key(&agreement_no)),
            DeskMsg::Renew(agreement_no) => {
                st.timers.cancel(&renewal_key(&agreement_no));
                let commerce = service::Commerce { ctx: self.ctx.clone() };
                // the renewal waits on the provider: off the desk's mailbox
                tokio::spawn(async move {
                    if let Err(e) = commerce.renew(&agreement_no).await {
                        tracing::warn!(%agreement_no, error = %e, "renewal failed");
                    }
                });
            }
            DeskMsg::Expire(order_no) => {
                st.timers.cancel(&order_no);
                let now = self.ctx.clock.now_ms();
                let no = order_no.clone();
                match self.ctx.db(move |s| s.commerce.expire(&no, now)).await {
                    Ok(true) => {
                        self.shop.provider.close(&order_no);
                        self.shop.changed(&order_no);
                        tracing::info!(%order_no, "order expired");
                    }
                    Ok(false) => {}
                    // Storage failed: try again shortly rather than leave the order open.
                    Err(e) => {
                        tracing::warn!(%order_no, error = %e, "order expiry failed, retrying");
                        st.timers
                            .set(order_no.clone(), Duration::from_secs(1), &me, DeskMsg::Expire(order_no));
                    }
                }
            }
        }
        Ok(())
    }
}

impl OrderDesk {
    fn arm_renewal(&self, me: &ActorRef<DeskMsg>, st: &mut DeskState, agreement_no: String, at_ms: i64) {
        let delay = Duration::from_millis(u64::try_from(at_ms - self.ctx.clock.now_ms()).unwrap_or(0));
        st.timers.set(renewal_key(&agreement_no), delay, me, DeskMsg::Renew(agreement_no));
    }

    fn arm(&self, me: &ActorRef<DeskMsg>, st: &mut DeskState, order_no: String, at_ms: i64) {
        let delay = Duration::from_millis(u64::try_from(at_ms - self.ctx.clock.now_ms()).unwrap_or(0));
        st.timers.set(order_no.clone(), delay, me, DeskMsg::Expire(order_no));
    }
}

/// The commerce feature's shared state, a slot of [`Ctx`]: the shop and the order desk.
#[derive(Default)]
pub struct CommerceShared {
    /// The shop's shared state (payment provider, QR tickets, order watchers).
    pub(crate) shop: std::sync::OnceLock<Arc<Shop>>,
    /// The order desk (the orders' expiry timers), one actor under key 0.
    pub(crate) desk: std::sync::OnceLock<engine::Registry<u8, OrderDesk>>,
}
