//! The push bus is a seam: the platform publishes through whatever [`PushBus`] it is given
//! (one process: `LocalBus`; a cluster: a bus that also carries pushes to the other processes).

use std::sync::Arc;

use actors::bus::SubscriptionId;
use actors::bus::{Deliver, LocalBus, PushBus};
use actors::commerce::payment::{DeliveryPlan, SandboxPay};
use actors::view::{Changed, Push};
use actors::{accounts::sms::SandboxSms, DomainConfig, Platform};
use parking_lot::Mutex;

use crate::common::{temp_dir, user, Recorder};

/// A bus that records what the platform publishes (as a cluster's bus would send it to the
/// other processes) and delivers locally through a [`LocalBus`].
#[derive(Default)]
struct Carried {
    local: LocalBus,
    sent: Mutex<Vec<(i64, Push)>>,
}

impl PushBus for Carried {
    fn publish(&self, uid: &i64, push: &Push) -> usize {
        self.sent.lock().push((*uid, push.clone()));
        self.local.publish(uid, push)
    }

    fn publish_lazy(&self, uid: &i64, make: &mut dyn FnMut() -> Push) -> usize {
        let push = make();
        self.publish(uid, &push)
    }

    fn publish_all(&self, push: &Push) -> usize {
        self.sent.lock().push((0, push.clone()));
        self.local.publish_all(push)
    }

    fn subscribe_boxed(&self, uid: &i64, deliver: Deliver) -> SubscriptionId<i64> {
        self.local.subscribe_boxed(uid, deliver)
    }

    fn unsubscribe(&self, sub: &SubscriptionId<i64>) {
        self.local.unsubscribe(sub)
    }

    fn subscribers(&self, uid: &i64) -> usize {
        self.local.subscribers(uid)
    }
}

// A platform started on another bus publishes through it, and the user's socket still gets
// the push.
#[tokio::test(start_paused = true)]
async fn the_platform_publishes_through_the_bus_it_is_given() {
    let store = storage::Store::open_sqlite(&temp_dir("bus")).unwrap();
    let config = DomainConfig {
        sms_fail_numbers: vec![],
        ..DomainConfig::default()
    };
    let pay = &config.payment;
    let payment = Arc::new(SandboxPay::new(
        pay.sandbox_key.as_bytes(),
        DeliveryPlan {
            delivery: pay.sandbox_delivery,
            delay_ms: pay.sandbox_delay_ms,
        },
    ));
    let bus = Arc::new(Carried::default());
    let p = Platform::start_with_providers(store, config, Arc::new(SandboxSms::new(vec![])), payment, bus.clone())
        .await
        .unwrap();
    let uid = user(&p, "13800000001").await;
    let socket = Arc::new(Recorder::default());
    let _conn = p.play.connect(uid, socket.clone()).await.unwrap();
    assert_eq!(bus.subscribers(&uid), 1);
    p.play.granted(uid, &[]).await.unwrap();
    assert!(bus
        .sent
        .lock()
        .iter()
        .any(|(u, push)| *u == uid && *push == Push::Changed(Changed::Balance)));
    assert!(socket.0.lock().contains(&Push::Changed(Changed::Balance)));
}
