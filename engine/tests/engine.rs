//! Black-box tests of the engine: supervision, registry, timers and bus on paused tokio time.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use engine::{Bus, Registry, RestartPolicy, SupervisorMsg, Timers};
use ractor::{Actor, ActorProcessingErr, ActorRef, ActorStatus, RpcReplyPort, SupervisionEvent};

/// A test actor that counts its starts, can be made to fail, and echoes a value.
struct Worker {
    starts: Arc<AtomicUsize>,
}

enum WorkerMsg {
    Fail,
    Stop,
    Get(RpcReplyPort<u32>),
    Tick(u32),
}

impl Actor for Worker {
    type Msg = WorkerMsg;
    type State = (u32, Timers<&'static str>);
    type Arguments = u32;

    async fn pre_start(&self, _me: ActorRef<WorkerMsg>, v: u32) -> Result<Self::State, ActorProcessingErr> {
        self.starts.fetch_add(1, Ordering::SeqCst);
        Ok((v, Timers::default()))
    }

    async fn handle(&self, me: ActorRef<WorkerMsg>, msg: WorkerMsg, st: &mut Self::State) -> Result<(), ActorProcessingErr> {
        match msg {
            WorkerMsg::Fail => return Err("asked to fail".into()),
            WorkerMsg::Stop => me.stop(None),
            WorkerMsg::Get(r) => {
                let _ = r.send(st.0);
            }
            WorkerMsg::Tick(v) => st.0 = v,
        }
        Ok(())
    }
}

fn registry_factory(starts: Arc<AtomicUsize>) -> engine::registry::Factory<u32, Worker> {
    Arc::new(move |k: &u32| (Worker { starts: starts.clone() }, *k * 10))
}

async fn settle() {
    for _ in 0..20 {
        tokio::task::yield_now().await;
    }
    tokio::time::sleep(Duration::from_millis(1)).await;
}

/// An actor is started on first use by key, and the same one is returned afterwards.
#[tokio::test(start_paused = true)]
async fn registry_starts_one_actor_per_key() {
    let starts = Arc::new(AtomicUsize::new(0));
    let reg = Arc::new(
        Registry::new("worker", RestartPolicy::default(), None, registry_factory(starts.clone()))
            .await
            .unwrap(),
    );
    let (a, b) = tokio::join!(reg.get_or_start(&7), reg.get_or_start(&7));
    assert_eq!(a.unwrap().get_id(), b.unwrap().get_id());
    assert_eq!(starts.load(Ordering::SeqCst), 1);
    let v = ractor::call!(reg.get(&7).unwrap(), WorkerMsg::Get).unwrap();
    assert_eq!(v, 70);
    reg.get_or_start(&8).await.unwrap();
    assert_eq!(reg.all().len(), 2);
}

/// A failed actor is restarted and the registry points at the new one; a stopped one is forgotten.
#[tokio::test(start_paused = true)]
async fn registry_restarts_failed_and_forgets_stopped() {
    let starts = Arc::new(AtomicUsize::new(0));
    let reg = Registry::new("worker", RestartPolicy::default(), None, registry_factory(starts.clone()))
        .await
        .unwrap();
    let first = reg.get_or_start(&1).await.unwrap();
    first.send_message(WorkerMsg::Fail).unwrap();
    settle().await;
    let second = reg.get(&1).expect("restarted");
    assert_ne!(first.get_id(), second.get_id());
    assert_eq!(starts.load(Ordering::SeqCst), 2);
    second.send_message(WorkerMsg::Stop).unwrap();
    settle().await;
    assert!(reg.get(&1).is_none());
    assert_eq!(ractor::call!(reg.supervisor(), SupervisorMsg::Children).unwrap(), 0);
}

/// A parent that records whether its child supervisor escalated.
struct Parent {
    failures: Arc<AtomicUsize>,
}

impl Actor for Parent {
    type Msg = ();
    type State = ();
    type Arguments = ();
    async fn pre_start(&self, _: ActorRef<()>, _: ()) -> Result<(), ActorProcessingErr> {
        Ok(())
    }
    async fn handle_supervisor_evt(&self, _: ActorRef<()>, evt: SupervisionEvent, _: &mut ()) -> Result<(), ActorProcessingErr> {
        if let SupervisionEvent::ActorFailed(..) = evt {
            self.failures.fetch_add(1, Ordering::SeqCst);
        }
        Ok(())
    }
}

/// More than N restarts within T escalates to the parent; restarts spread wider than T do not.
#[tokio::test(start_paused = true)]
async fn supervisor_escalates_past_restart_limit() {
    let failures = Arc::new(AtomicUsize::new(0));
    let (parent, _) = Actor::spawn(
        None,
        Parent {
            failures: failures.clone(),
        },
        (),
    )
    .await
    .unwrap();
    let policy = RestartPolicy {
        max_restarts: 2,
        within: Duration::from_secs(10),
    };
    let starts = Arc::new(AtomicUsize::new(0));
    let reg = Registry::new("worker", policy, Some(parent.get_cell()), registry_factory(starts.clone()))
        .await
        .unwrap();

    // Two failures 11 s apart never exceed 2 in 10 s.
    for _ in 0..3 {
        reg.get_or_start(&1).await.unwrap().send_message(WorkerMsg::Fail).unwrap();
        settle().await;
        tokio::time::advance(Duration::from_secs(11)).await;
    }
    assert_eq!(failures.load(Ordering::SeqCst), 0);
    assert_eq!(starts.load(Ordering::SeqCst), 4);

    // Three quick failures: the third exceeds the limit and the supervisor fails upward.
    for _ in 0..3 {
        if let Some(w) = reg.get(&1) {
            w.send_message(WorkerMsg::Fail).unwrap();
        }
        settle().await;
    }
    assert_eq!(failures.load(Ordering::SeqCst), 1);
    assert_eq!(reg.supervisor().get_status(), ActorStatus::Stopped);
}

/// Timers fire on tokio time, can be replaced and cancelled.
#[tokio::test(start_paused = true)]
async fn timers_fire_replace_and_cancel() {
    let (w, _) = Actor::spawn(
        None,
        Worker {
            starts: Arc::new(AtomicUsize::new(0)),
        },
        0,
    )
    .await
    .unwrap();
    let mut timers = Timers::default();
    timers.set("a", Duration::from_secs(5), &w, WorkerMsg::Tick(1));
    timers.set("a", Duration::from_secs(8), &w, WorkerMsg::Tick(2));
    timers.set("b", Duration::from_secs(3), &w, WorkerMsg::Tick(3));
    timers.cancel(&"b");
    tokio::time::advance(Duration::from_secs(6)).await;
    settle().await;
    assert_eq!(
        ractor::call!(w, WorkerMsg::Get).unwrap(),
        0,
        "replaced timer must not fire at 5 s, cancelled never"
    );
    tokio::time::advance(Duration::from_secs(3)).await;
    settle().await;
    assert_eq!(ractor::call!(w, WorkerMsg::Get).unwrap(), 2);
    assert!(!timers.is_set(&"a"));
}

/// The bus delivers to live subscribers only and drops dead ones.
#[test]
fn bus_delivers_and_prunes() {
    let bus: Bus<u32> = Bus::default();
    let got = Arc::new(AtomicUsize::new(0));
    let g = got.clone();
    let keep = bus.subscribe("t", move |v| {
        g.fetch_add(*v as usize, Ordering::SeqCst);
        true
    });
    bus.subscribe("t", |_| false);
    assert_eq!(bus.publish("t", &5), 1);
    assert_eq!(bus.subscribers("t"), 1);
    assert_eq!(bus.publish("other", &5), 0);
    bus.unsubscribe(&keep);
    assert_eq!(bus.publish("t", &5), 0);
    assert_eq!(got.load(Ordering::SeqCst), 5);
}

/// Topics can be any key; `publish_with` builds nothing for a topic without subscribers.
#[test]
fn bus_with_integer_topics_builds_only_for_listeners() {
    let bus: Bus<String, i64> = Bus::default();
    let got = Arc::new(AtomicUsize::new(0));
    let g = got.clone();
    let sub = bus.subscribe(&7, move |v: &String| {
        g.fetch_add(v.len(), Ordering::SeqCst);
        true
    });
    let built = AtomicUsize::new(0);
    let make = || {
        built.fetch_add(1, Ordering::SeqCst);
        "abc".to_string()
    };
    assert_eq!(bus.publish_with(&8, make), 0);
    assert_eq!(built.load(Ordering::SeqCst), 0, "nobody listens to 8");
    assert_eq!(bus.publish_with(&7, make), 1);
    assert_eq!(built.load(Ordering::SeqCst), 1);
    assert_eq!(got.load(Ordering::SeqCst), 3);
    bus.unsubscribe(&sub);
    assert_eq!(bus.subscribers(&7), 0);
}
