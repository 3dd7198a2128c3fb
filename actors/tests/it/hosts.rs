//! Game hosts through the real actors and a real SQLite store, on paused tokio time: a host's
//! slots join its node's pool, sessions launch and end their games on them, and a host that
//! goes silent or away takes its machines with it and ends the sessions on them.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use actors::play::hosts::{HostCommand, HostEvent, HostHello, HostLink, HostRefusal, HostSink, SlotReport, SlotState};
use actors::play::player::SessionOp;
use actors::view::{EndReason, GameState, Notice, Status};
use actors::{DomainConfig, DomainError, NodeConfig, Platform};
use common::{node, online, pass, settle, temp_dir, user, Recorder};
use parking_lot::Mutex;

/// The host's end of a link: what it was told, and whether the platform closed it.
#[derive(Default)]
struct TestHost {
    sent: Mutex<Vec<HostCommand>>,
    closed: Mutex<bool>,
}

impl HostSink for TestHost {
    fn send(&self, cmd: HostCommand) -> bool {
        self.sent.lock().push(cmd);
        !*self.closed.lock()
    }
    fn close(&self) {
        *self.closed.lock() = true;
    }
}

impl TestHost {
    fn commands(&self) -> Vec<HostCommand> {
        self.sent.lock().clone()
    }
    fn last(&self) -> Option<HostCommand> {
        self.sent.lock().last().cloned()
    }
}

const PLAY_MINUTE_MS: u64 = 1000;

async fn platform(name: &str) -> (Platform, std::path::PathBuf) {
    platform_with(name, DomainConfig::default().hang_after_secs).await
}

async fn platform_with(name: &str, hang_after_secs: u64) -> (Platform, std::path::PathBuf) {
    let dir = temp_dir(name);
    let store = storage::Store::open_sqlite(&dir).unwrap();
    (Platform::start(store, config(hang_after_secs)).await.unwrap(), dir)
}

fn config(hang_after_secs: u64) -> DomainConfig {
    DomainConfig {
        connect_countdown_secs: 10,
        connect_delay_ms: 500,
        rank_refresh_ms: 250,
        play_minute_ms: PLAY_MINUTE_MS,
        sms_fail_numbers: vec![],
        register_gift_minutes: 600,
        nodes: vec![NodeConfig {
            host_secret: Some("s".into()),
            ..node(0)
        }],
        hang_after_secs,
        ..DomainConfig::default()
    }
}

/// The platform again on the same store, as after a `kill -9` and a start `down_ms` later.
async fn restart(p: &Platform, dir: &std::path::Path, down_ms: u64) -> Platform {
    p.halt();
    settle().await;
    tokio::time::advance(Duration::from_millis(down_ms)).await;
    let store = storage::Store::open_sqlite(dir).unwrap();
    Platform::start(store, config(DomainConfig::default().hang_after_secs))
        .await
        .unwrap()
}

fn free(slot: u32) -> SlotReport {
    SlotReport {
        slot,
        state: SlotState::Free,
        session_id: None,
    }
}

fn slot(slot: u32, state: SlotState, session_id: i64) -> SlotReport {
    SlotReport {
        slot,
        state,
        session_id: Some(session_id),
    }
}

fn hello(host: &str, slots: Vec<SlotReport>, games: &[&str]) -> HostHello {
    HostHello {
        node_id: 1,
        host: host.into(),
        stream_url: format!("ws://127.0.0.1:9/{host}"),
        ping_url: format!("http://127.0.0.1:9/{host}/ping"),
        games: games.iter().map(|g| g.to_string()).collect(),
        slots,
    }
}

const ALL_GAMES: &[&str] = &["neverball", "supertux", "ltris", "pattern"];

async fn link(p: &Platform, h: HostHello) -> (HostLink, Arc<TestHost>) {
    let host = Arc::new(TestHost::default());
    let link = p.play.link_host(h, host.clone()).await.expect("linked");
    assert_eq!(host.commands().first(), Some(&HostCommand::Welcome), "welcomed first");
    (link, host)
}

/// Heartbeats every second for `secs` seconds, with the slots' states.
async fn beat(p: &Platform, link: &HostLink, secs: u64, slots: &[SlotReport]) {
    for _ in 0..secs {
        pass(1000).await;
        p.play.host_event(link, HostEvent::Heartbeat(slots.to_vec()));
        settle().await;
    }
}

/// A slot reported Free joins the pool and the head of the queue gets it at once; the session
/// stays CONNECTING after its confirm until the host encodes the game's first frame (no timer),
/// and the confirm launched the catalogue entry's host game on the right slot.
#[tokio::test(start_paused = true)]
async fn a_free_slot_goes_to_the_head_and_playing_waits_for_the_first_frame() {
    let (p, dir) = platform("first-frame").await;
    let a = user(&p, "13800000001").await;
    let va = p.play.start_game(a, "dev-a", 1, Some(1), &[]).await.unwrap();
    assert_eq!((va.status, va.sort), (Status::Queue, 1), "no machine yet");
    assert_eq!(p.play.node_ping_url(1), None);

    let (link, host) = link(&p, hello("h", vec![slot(0, SlotState::Resetting, 99)], ALL_GAMES)).await;
    settle().await;
    assert_eq!(online(&p, a).await.status, Status::Queue, "a resetting slot is not free");
    assert_eq!(p.play.node_ping_url(1).as_deref(), Some("http://127.0.0.1:9/h/ping"));

    p.play.host_event(&link, HostEvent::Slot(free(0)));
    settle().await;
    let v = online(&p, a).await;
    assert_eq!(v.status, Status::Ready, "the head got the slot in the same message");
    let target = v.stream.clone().expect("a host machine has a stream");
    assert_eq!((&*target.host, target.slot, &*target.stream_url), ("h", 0, "ws://127.0.0.1:9/h"));
    assert_eq!(p.play.machine_stats(1).await.unwrap(), (0, 1));

    p.play.session_op(a, SessionOp::Confirm, va.id).await.unwrap();
    settle().await;
    assert_eq!(
        host.last(),
        Some(HostCommand::Launch {
            slot: 0,
            session_id: va.id,
            uid: a,
            game: "neverball".into()
        }),
        "game 1 launches neverball (the seeded rotation)"
    );
    let launching = [slot(0, SlotState::Launching, va.id)];
    p.play.host_event(&link, HostEvent::Slot(launching[0]));
    beat(&p, &link, 2, &launching).await;
    assert_eq!(online(&p, a).await.status, Status::Connecting, "no first frame, no PLAYING");
    let (_, ticket_target) = p.play.stream_of(a, va.id).await.expect("a ticket while connecting");
    assert_eq!(ticket_target, target);

    first_frame(&p, &link, 0, a, va.id).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Hanging (gameDuration, core-platform.md §3.3): a PLAYING session hangs once its game has
/// taken no input for `hang_after_secs`; the host's input report starts the wait again; a
/// session is only its own player's to ask about.
#[tokio::test(start_paused = true)]
async fn a_session_without_input_hangs_and_input_wakes_it() {
    let (p, dir) = platform_with("hang", 5).await;
    let (a, b) = (user(&p, "13800000001").await, user(&p, "13800000002").await);
    let (link, _host) = link(&p, hello("h", vec![free(0)], ALL_GAMES)).await;
    let va = p.play.start_game(a, "dev-a", 1, Some(1), &[]).await.unwrap();
    settle().await;
    assert!(!p.play.game_duration(a, va.id).await.unwrap().hook, "READY does not hang");
    p.play.session_op(a, SessionOp::Confirm, va.id).await.unwrap();
    p.play.host_event(
        &link,
        HostEvent::FirstFrame {
            slot: 0,
            session_id: va.id,
        },
    );
    settle().await;
    assert_eq!(online(&p, a).await.status, Status::Playing);
    let playing = [slot(0, SlotState::Playing, va.id)];

    beat(&p, &link, 4, &playing).await;
    let d = p.play.game_duration(a, va.id).await.unwrap();
    assert_eq!((d.hook, d.on_hook_minutes), (false, 0), "4 s without input");
    beat(&p, &link, 2, &playing).await;
    let d = p.play.game_duration(a, va.id).await.unwrap();
    assert_eq!((d.hook, d.on_hook_minutes), (true, 0), "6 s without input");
    assert_eq!(d.response_time, p.clock().now_ms());

    // the host reports input: the wait starts again; input of another session changes nothing
    p.play.host_event(
        &link,
        HostEvent::Input {
            slot: 0,
            session_id: va.id,
        },
    );
    p.play.host_event(
        &link,
        HostEvent::Input {
            slot: 0,
            session_id: va.id + 100,
        },
    );
    settle().await;
    assert!(!p.play.game_duration(a, va.id).await.unwrap().hook, "played again");
    beat(&p, &link, 4, &playing).await;
    assert!(!p.play.game_duration(a, va.id).await.unwrap().hook);
    beat(&p, &link, 2, &playing).await;
    assert!(p.play.game_duration(a, va.id).await.unwrap().hook, "5 s after the last input");

    // another player's session, or an unknown one: the same refusal
    assert_eq!(p.play.game_duration(b, va.id).await, Err(DomainError::UnknownSession));
    assert_eq!(p.play.game_duration(a, va.id + 1).await, Err(DomainError::UnknownSession));
    let _ = std::fs::remove_dir_all(dir);
}

/// Every end tells the host to end the game, and the machine is free again only when the host
/// reports the slot Free after its reset: over, a missed countdown, and the game exiting on its
/// own (which ends the session with a notice).
#[tokio::test(start_paused = true)]
async fn a_slot_is_free_again_only_after_its_reset() {
    let (p, dir) = platform("reset").await;
    let (a, b) = (user(&p, "13800000001").await, user(&p, "13800000002").await);
    let rec_b = Arc::new(Recorder::default());
    p.play.connect(b, rec_b.clone()).await.unwrap();
    let (link, host) = link(&p, hello("h", vec![free(0)], ALL_GAMES)).await;
    let va = p.play.start_game(a, "dev-a", 1, Some(1), &[]).await.unwrap();
    settle().await;
    assert_eq!(online(&p, a).await.status, Status::Ready, "the free slot at once");
    let vb = p.play.start_game(b, "dev-b", 2, Some(1), &[]).await.unwrap();
    assert_eq!(vb.sort, 1);

    // Over: End to the host; B waits until the slot is reset.
    p.play.session_op(a, SessionOp::Confirm, va.id).await.unwrap();
    p.play.host_event(
        &link,
        HostEvent::FirstFrame {
            slot: 0,
            session_id: va.id,
        },
    );
    settle().await;
    p.play.session_op(a, SessionOp::Over, va.id).await.unwrap();
    settle().await;
    assert_eq!(
        host.last(),
        Some(HostCommand::End {
            slot: 0,
            session_id: va.id
        })
    );
    assert_eq!(online(&p, b).await.status, Status::Queue, "not free before the host says so");
    assert_eq!(p.play.machine_stats(1).await.unwrap(), (0, 1));
    p.play.host_event(&link, HostEvent::Slot(slot(0, SlotState::Resetting, va.id)));
    beat(&p, &link, 1, &[slot(0, SlotState::Resetting, va.id)]).await;
    assert_eq!(online(&p, b).await.status, Status::Queue);
    p.play.host_event(&link, HostEvent::Slot(free(0)));
    settle().await;
    assert_eq!(online(&p, b).await.status, Status::Ready, "the reset slot goes to B at once");

    // A missed countdown (never launched) also tells the host to end it; the slot is free on
    // the host's next report.
    beat(&p, &link, 9, &[free(0)]).await;
    pass(1500).await;
    assert!(matches!(
        rec_b.last_state(),
        Some(GameState::Ended {
            reason: EndReason::Missed,
            ..
        })
    ));
    assert_eq!(
        host.last(),
        Some(HostCommand::End {
            slot: 0,
            session_id: vb.id
        })
    );
    assert_eq!(p.play.machine_stats(1).await.unwrap(), (0, 1), "ending");
    p.play.host_event(&link, HostEvent::Heartbeat(vec![free(0)]));
    settle().await;
    assert_eq!(p.play.machine_stats(1).await.unwrap(), (1, 0));

    // The game exits on its own: the session ends with 130124, and the slot is reset.
    let vb = p.play.start_game(b, "dev-b", 2, Some(1), &[]).await.unwrap();
    settle().await;
    p.play.session_op(b, SessionOp::Confirm, vb.id).await.unwrap();
    p.play.host_event(
        &link,
        HostEvent::FirstFrame {
            slot: 0,
            session_id: vb.id,
        },
    );
    settle().await;
    assert_eq!(online(&p, b).await.status, Status::Playing);
    p.play.host_event(
        &link,
        HostEvent::GameExited {
            slot: 0,
            session_id: vb.id,
        },
    );
    settle().await;
    assert_eq!(p.play.game_state(b).await.unwrap(), GameState::None);
    assert!(rec_b.notice_list().contains(&Notice::GameEnd {
        game_id: 2,
        reason: EndReason::GameExited
    }));
    assert_eq!(
        host.last(),
        Some(HostCommand::End {
            slot: 0,
            session_id: vb.id
        }),
        "End on every path"
    );
    let record = p.store().sessions.get(vb.id).unwrap().unwrap();
    assert_eq!(record.end_reason.as_deref(), Some("game_exited"));
    let _ = std::fs::remove_dir_all(dir);
}

/// A host heard every second keeps its machines; one silent for HOST_TIMEOUT_MS loses them at
/// that moment: they leave the pool, the session on one ends with 130124 (host_lost), its link
/// is closed, and the play time stops being charged then. The host links again afterwards.
#[tokio::test(start_paused = true)]
async fn a_silent_host_loses_its_machines_and_charging_stops() {
    let (p, dir) = platform("silent").await;
    let a = user(&p, "13800000001").await;
    let rec = Arc::new(Recorder::default());
    p.play.connect(a, rec.clone()).await.unwrap();
    let (link, host) = link(&p, hello("h", vec![free(0), free(1)], ALL_GAMES)).await;
    let va = p.play.start_game(a, "dev-a", 1, Some(1), &[]).await.unwrap();
    settle().await;
    p.play.session_op(a, SessionOp::Confirm, va.id).await.unwrap();
    p.play.host_event(
        &link,
        HostEvent::FirstFrame {
            slot: 0,
            session_id: va.id,
        },
    );
    settle().await;
    let playing = [slot(0, SlotState::Playing, va.id), free(1)];
    beat(&p, &link, 5, &playing).await;
    assert_eq!(online(&p, a).await.status, Status::Playing, "heard every second: kept");
    assert_eq!(p.play.machine_stats(1).await.unwrap(), (1, 1));
    let charged = p.store().sessions.get(va.id).unwrap().unwrap().play_minutes;
    assert!(charged >= 5, "minutes charged while playing: {charged}");

    // Silent from now: just before the timeout nothing changes, at it the host is lost.
    let last = tokio::time::Instant::now();
    tokio::time::advance(Duration::from_millis(hostlink::HOST_TIMEOUT_MS - 50)).await;
    tokio::task::yield_now().await;
    assert_eq!(p.play.machine_stats(1).await.unwrap(), (1, 1), "not yet");
    assert!(!*host.closed.lock());
    tokio::time::advance(Duration::from_millis(50)).await;
    settle().await;
    assert!(last.elapsed() < Duration::from_millis(hostlink::HOST_TIMEOUT_MS + 20));
    assert_eq!(p.play.machine_stats(1).await.unwrap(), (0, 0), "both machines left the pool");
    assert!(*host.closed.lock(), "the link is closed");
    assert_eq!(p.play.game_state(a).await.unwrap(), GameState::None);
    assert!(rec.notice_list().contains(&Notice::GameEnd {
        game_id: 1,
        reason: EndReason::HostLost
    }));
    assert!(matches!(
        rec.last_state(),
        Some(GameState::Ended {
            reason: EndReason::HostLost,
            ..
        })
    ));
    let record = p.store().sessions.get(va.id).unwrap().unwrap();
    let balance = p.store().users.get(a).unwrap().unwrap();
    pass(10 * PLAY_MINUTE_MS).await;
    assert_eq!(
        p.store().sessions.get(va.id).unwrap().unwrap().play_minutes,
        record.play_minutes,
        "nothing charged after the loss"
    );
    assert_eq!(p.store().users.get(a).unwrap().unwrap(), balance);
    assert_eq!(p.play.node_ping_url(1), None);

    // The old link is not heard; the host links again under the same name.
    p.play.host_event(&link, HostEvent::Slot(free(0)));
    settle().await;
    assert_eq!(p.play.machine_stats(1).await.unwrap(), (0, 0));
    let (again, _) = self::link(&p, hello("h", vec![free(0), free(1)], ALL_GAMES)).await;
    assert_ne!(again.link, link.link);
    settle().await;
    assert_eq!(p.play.machine_stats(1).await.unwrap(), (2, 0));
    let _ = std::fs::remove_dir_all(dir);
}

/// A game that shows no frame within the launch timeout ends its session (130124) and its
/// slot is ended and reset; nothing was charged, as it never played.
#[tokio::test(start_paused = true)]
async fn a_launch_without_a_frame_ends_in_time() {
    let (p, dir) = platform("launch-timeout").await;
    let a = user(&p, "13800000001").await;
    let (link, host) = link(&p, hello("h", vec![free(0)], ALL_GAMES)).await;
    let va = p.play.start_game(a, "dev-a", 1, Some(1), &[]).await.unwrap();
    settle().await;
    p.play.session_op(a, SessionOp::Confirm, va.id).await.unwrap();
    let launching = [slot(0, SlotState::Launching, va.id)];
    p.play.host_event(&link, HostEvent::Slot(launching[0]));
    let timeout = p.config().launch_timeout_secs;
    beat(&p, &link, timeout - 1, &launching).await;
    assert_eq!(online(&p, a).await.status, Status::Connecting, "still launching");
    beat(&p, &link, 2, &launching).await;
    assert_eq!(p.play.game_state(a).await.unwrap(), GameState::None);
    let record = p.store().sessions.get(va.id).unwrap().unwrap();
    assert_eq!((record.end_reason.as_deref(), record.play_minutes), (Some("game_exited"), 0));
    assert_eq!(
        host.last(),
        Some(HostCommand::End {
            slot: 0,
            session_id: va.id
        })
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A closed link loses the host at once; a second host of a live name is refused; a host that
/// lacks the session's game ends it at the confirm.
#[tokio::test(start_paused = true)]
async fn closed_links_duplicates_and_missing_games() {
    let (p, dir) = platform("closed").await;
    let a = user(&p, "13800000001").await;
    let (link, _host) = link(&p, hello("h", vec![free(0)], &["pattern"])).await;
    let dup = Arc::new(TestHost::default());
    assert_eq!(
        p.play.link_host(hello("h", vec![free(5)], ALL_GAMES), dup.clone()).await,
        Err(HostRefusal::Duplicate)
    );
    assert!(dup.commands().is_empty(), "a refused host is not welcomed");
    let mut unknown = hello("x", vec![], ALL_GAMES);
    unknown.node_id = 9;
    assert_eq!(p.play.link_host(unknown, dup.clone()).await, Err(HostRefusal::UnknownNode));

    let va = p.play.start_game(a, "dev-a", 1, Some(1), &[]).await.unwrap();
    settle().await;
    p.play.session_op(a, SessionOp::Confirm, va.id).await.unwrap();
    settle().await;
    assert_eq!(p.play.game_state(a).await.unwrap(), GameState::None, "the host has no neverball");
    assert_eq!(
        p.store().sessions.get(va.id).unwrap().unwrap().end_reason.as_deref(),
        Some("game_exited")
    );
    p.play.host_event(&link, HostEvent::Slot(free(0)));
    settle().await;

    let va = p.play.start_game(a, "dev-a", 4, Some(1), &[]).await.unwrap();
    settle().await;
    assert_eq!(online(&p, a).await.status, Status::Ready);
    p.play.host_gone(link);
    settle().await;
    // READY on a host that went away: back in the queue, first, not ended.
    let back = online(&p, a).await;
    assert_eq!((back.id, back.status, back.sort), (va.id, Status::Queue, 1));
    let stored = p.store().sessions.get(va.id).unwrap().unwrap();
    assert_eq!((stored.status, stored.end_reason), (1, None));
    assert_eq!(p.play.machine_stats(1).await.unwrap(), (0, 0));
    let _ = std::fs::remove_dir_all(dir);
}

/// A live room's control reaches the host and slot of the session before the call returns: a
/// controller named while the session is READY is sent at once and again right after its
/// Launch (the host keeps it for the launch either way); later changes go to the right host and
/// slot only; the machine's next session starts with its own player. A session that holds no
/// host's slot (queued, ended, unknown) is refused, and a viewer's stream target is given only
/// while the session streams.
#[tokio::test(start_paused = true)]
async fn control_goes_to_the_sessions_host_and_slot() {
    let (p, dir) = platform("control").await;
    let (a, b) = (user(&p, "13800000001").await, user(&p, "13800000002").await);
    let (guest, late) = (user(&p, "13800000003").await, user(&p, "13800000004").await);
    let (link1, h1) = link(&p, hello("h1", vec![free(0)], ALL_GAMES)).await;
    let (link2, h2) = link(&p, hello("h2", vec![free(3)], ALL_GAMES)).await;
    let host_of = |name: &str| if name == "h1" { h1.clone() } else { h2.clone() };
    let controls = |h: &TestHost| {
        h.commands()
            .into_iter()
            .filter(|c| matches!(c, HostCommand::Control { .. }))
            .collect::<Vec<_>>()
    };

    let va = p.play.start_game(a, "dev-a", 1, Some(1), &[]).await.unwrap();
    let vb = p.play.start_game(b, "dev-b", 2, Some(1), &[]).await.unwrap();
    settle().await;
    let ta = online(&p, a).await.stream.expect("a host's slot");
    let tb = online(&p, b).await.stream.expect("a host's slot");
    assert_ne!(ta.host, tb.host, "one slot each");
    let (ha, hb) = (host_of(&ta.host), host_of(&tb.host));
    assert_eq!(
        p.play.viewer_stream(guest, va.id).await.err(),
        Some(DomainError::WrongState),
        "READY: nothing streams yet"
    );

    // Named while READY: sent before the call returns (no settling), and after the Launch.
    p.play.set_stream_controller(va.id, guest).await.unwrap();
    let to_guest = HostCommand::Control {
        slot: ta.slot,
        session_id: va.id,
        controller: guest,
    };
    assert_eq!(ha.last(), Some(to_guest.clone()));
    p.play.session_op(a, SessionOp::Confirm, va.id).await.unwrap();
    settle().await;
    let sent = ha.commands();
    assert_eq!(
        sent[sent.len() - 2..],
        [
            HostCommand::Launch {
                slot: ta.slot,
                session_id: va.id,
                uid: a,
                game: "neverball".into()
            },
            to_guest.clone()
        ],
        "the launch carries the controller named before it"
    );
    let link_a = if &*ta.host == "h1" { link1.clone() } else { link2.clone() };
    p.play.host_event(
        &link_a,
        HostEvent::FirstFrame {
            slot: ta.slot,
            session_id: va.id,
        },
    );
    settle().await;
    assert_eq!(online(&p, a).await.status, Status::Playing);
    assert_eq!(
        p.play.viewer_stream(guest, va.id).await.unwrap(),
        ta,
        "a viewer watches where it streams"
    );

    // Back to the player, then b's session: each to its own host and slot only.
    let before_b = controls(&hb).len();
    p.play.set_stream_controller(va.id, a).await.unwrap();
    assert_eq!(
        ha.last(),
        Some(HostCommand::Control {
            slot: ta.slot,
            session_id: va.id,
            controller: a
        })
    );
    assert_eq!(controls(&hb).len(), before_b, "nothing to the other host");
    p.play.set_stream_controller(vb.id, guest).await.unwrap();
    assert_eq!(
        hb.last(),
        Some(HostCommand::Control {
            slot: tb.slot,
            session_id: vb.id,
            controller: guest
        })
    );

    // No host's slot held: a queued session, an unknown one, an ended one.
    let vl = p.play.start_game(late, "dev-l", 3, Some(1), &[]).await.unwrap();
    assert_eq!(vl.status, Status::Queue);
    assert_eq!(p.play.set_stream_controller(vl.id, guest).await, Err(DomainError::UnknownSession));
    assert_eq!(p.play.viewer_stream(guest, vl.id).await.err(), Some(DomainError::UnknownSession));
    assert_eq!(p.play.set_stream_controller(999_999, guest).await, Err(DomainError::UnknownSession));
    p.play.session_op(a, SessionOp::Over, va.id).await.unwrap();
    settle().await;
    assert_eq!(
        ha.last(),
        Some(HostCommand::End {
            slot: ta.slot,
            session_id: va.id
        })
    );
    assert_eq!(p.play.set_stream_controller(va.id, guest).await, Err(DomainError::UnknownSession));
    assert_eq!(p.play.viewer_stream(guest, va.id).await.err(), Some(DomainError::UnknownSession));

    // The reset slot goes to the next player, whose launch has no controller but them.
    p.play.host_event(&link_a, HostEvent::Slot(free(ta.slot)));
    settle().await;
    assert_eq!(online(&p, late).await.status, Status::Ready);
    p.play.session_op(late, SessionOp::Confirm, vl.id).await.unwrap();
    settle().await;
    assert!(
        matches!(ha.last(), Some(HostCommand::Launch { session_id, uid, .. }) if session_id == vl.id && uid == late),
        "{:?}",
        ha.last()
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The host encodes the first frame of `session_id`'s game on `slot`: `uid` is PLAYING.
async fn first_frame(p: &Platform, link: &HostLink, slot: u32, uid: i64, session_id: i64) {
    p.play.host_event(link, HostEvent::FirstFrame { slot, session_id });
    settle().await;
    assert_eq!(online(p, uid).await.status, Status::Playing);
}

/// `uid`'s game 1 started, confirmed and showing its first frame on `slot` (the head of the
/// queue gets the slot, a free one of the linked host).
async fn playing(p: &Platform, link: &HostLink, uid: i64, slot: u32) -> actors::view::SessionView {
    let v = p.play.start_game(uid, "dev-a", 1, Some(1), &[]).await.unwrap();
    settle().await;
    p.play.session_op(uid, SessionOp::Confirm, v.id).await.unwrap();
    first_frame(p, link, slot, uid, v.id).await;
    v
}

/// A platform restart (a crash: the hosts are told nothing) ends no game whose host still runs
/// it: the host links again and reports its slots, the PLAYING session goes on playing on its
/// slot (its stream reachable, charging resumed, nothing charged for the downtime), the READY
/// one keeps its slot and its confirm launches the game there; nothing is ended on the host and
/// the slots stay out of the pool.
#[tokio::test(start_paused = true)]
async fn a_restart_ends_no_game_whose_host_links_again() {
    let (p1, dir) = platform("restart-adopt").await;
    let a = user(&p1, "13800000001").await;
    let b = user(&p1, "13800000002").await;
    let (link1, _) = link(&p1, hello("h", vec![free(0), free(1)], ALL_GAMES)).await;
    let va = playing(&p1, &link1, a, 0).await;
    let vb = p1.play.start_game(b, "dev-b", 1, Some(1), &[]).await.unwrap();
    settle().await;
    assert_eq!(online(&p1, b).await.status, Status::Ready);
    beat(&p1, &link1, 3, &[slot(0, SlotState::Playing, va.id), free(1)]).await;
    let before = p1.store().sessions.get(va.id).unwrap().unwrap().play_minutes;
    assert!(before >= 2, "{before}");

    // Down for 5 seconds, the host keeping the game running; it links again a second after the
    // start (within the host timeout, counted from the start).
    let p2 = restart(&p1, &dir, 5000).await;
    pass(1000).await;
    assert_eq!(
        p2.store().sessions.get(va.id).unwrap().unwrap().play_minutes,
        before,
        "nothing charged while down or while the host has not linked"
    );
    let (link2, host2) = link(&p2, hello("h", vec![slot(0, SlotState::Playing, va.id), free(1)], ALL_GAMES)).await;
    settle().await;
    assert_eq!(online(&p2, a).await.status, Status::Playing, "the game goes on");
    assert_eq!(online(&p2, b).await.status, Status::Ready, "the ready machine is kept");
    assert!(
        !host2.commands().iter().any(|c| matches!(c, HostCommand::End { .. })),
        "nothing ended on the host: {:?}",
        host2.commands()
    );
    assert_eq!(p2.play.machine_stats(1).await.unwrap(), (0, 2), "both slots held, none in the pool");
    let (_, target) = p2.play.stream_of(a, va.id).await.expect("a fresh stream ticket");
    assert_eq!((&*target.host, target.slot), ("h", 0));
    beat(&p2, &link2, 3, &[slot(0, SlotState::Playing, va.id), free(1)]).await;
    assert!(
        p2.store().sessions.get(va.id).unwrap().unwrap().play_minutes > before,
        "charging resumed with the game"
    );
    p2.play.session_op(b, SessionOp::Confirm, vb.id).await.unwrap();
    settle().await;
    assert_eq!(
        host2.last(),
        Some(HostCommand::Launch {
            slot: 1,
            session_id: vb.id,
            uid: b,
            game: "neverball".into()
        }),
        "the ready player's confirm launches on the slot kept for them"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A session restored on a host that does not link again within the host timeout ends as host
/// lost (not as a restart), and its player is told so.
#[tokio::test(start_paused = true)]
async fn a_restored_session_whose_host_does_not_come_back_ends_as_host_lost() {
    let (p1, dir) = platform("restart-lost").await;
    let a = user(&p1, "13800000001").await;
    let (link1, _) = link(&p1, hello("h", vec![free(0)], ALL_GAMES)).await;
    playing(&p1, &link1, a, 0).await;
    let p2 = restart(&p1, &dir, 1000).await;
    let rec = Arc::new(Recorder::default());
    p2.play.connect(a, rec.clone()).await.unwrap();
    settle().await;
    assert_eq!(online(&p2, a).await.status, Status::Playing, "waiting for its host");
    tokio::time::advance(Duration::from_millis(hostlink::HOST_TIMEOUT_MS - 50)).await;
    settle().await;
    assert_eq!(online(&p2, a).await.status, Status::Playing, "not yet");
    tokio::time::advance(Duration::from_millis(100)).await;
    settle().await;
    assert_eq!(p2.play.game_state(a).await.unwrap(), GameState::None);
    assert!(rec.notice_list().contains(&Notice::GameEnd {
        game_id: 1,
        reason: EndReason::HostLost
    }));
    let _ = std::fs::remove_dir_all(dir);
}

/// A READY player who confirms after the restart but before their host has linked again is
/// launched on their slot with the host's hello (not ended for a host it does not know yet), and
/// plays at its first frame.
#[tokio::test(start_paused = true)]
async fn a_confirm_before_the_host_links_again_launches_with_its_hello() {
    let (p1, dir) = platform("restart-confirm").await;
    let b = user(&p1, "13800000002").await;
    link(&p1, hello("h", vec![free(0)], ALL_GAMES)).await;
    let vb = p1.play.start_game(b, "dev-b", 1, Some(1), &[]).await.unwrap();
    settle().await;
    assert_eq!(online(&p1, b).await.status, Status::Ready);
    let p2 = restart(&p1, &dir, 1000).await;
    settle().await;
    p2.play.session_op(b, SessionOp::Confirm, vb.id).await.unwrap();
    settle().await;
    assert_eq!(online(&p2, b).await.status, Status::Connecting);
    let (link2, host2) = link(&p2, hello("h", vec![free(0)], ALL_GAMES)).await;
    settle().await;
    assert_eq!(
        host2.commands(),
        vec![
            HostCommand::Welcome,
            HostCommand::Launch {
                slot: 0,
                session_id: vb.id,
                uid: b,
                game: "neverball".into()
            }
        ]
    );
    first_frame(&p2, &link2, 0, b, vb.id).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A READY player whose machine's host does not link again after a restart lost the machine
/// through no fault of theirs: they wait again at the head of their lane (ahead of those who
/// waited behind them), stored so, and the next free machine is theirs with a full ready
/// countdown.
#[tokio::test(start_paused = true)]
async fn a_ready_player_whose_host_does_not_come_back_waits_first_again() {
    let (p1, dir) = platform("restart-requeue").await;
    let a = user(&p1, "13800000001").await;
    let b = user(&p1, "13800000002").await;
    link(&p1, hello("h", vec![free(0)], ALL_GAMES)).await;
    let va = p1.play.start_game(a, "dev-a", 1, Some(1), &[]).await.unwrap();
    settle().await;
    assert_eq!(online(&p1, a).await.status, Status::Ready);
    let vb = p1.play.start_game(b, "dev-b", 1, Some(1), &[]).await.unwrap();
    settle().await;
    assert_eq!((online(&p1, b).await.status, online(&p1, b).await.sort), (Status::Queue, 1));

    let p2 = restart(&p1, &dir, 1000).await;
    let rec = Arc::new(Recorder::default());
    p2.play.connect(a, rec.clone()).await.unwrap();
    settle().await;
    assert_eq!(online(&p2, a).await.status, Status::Ready, "waiting for its host");
    tokio::time::advance(Duration::from_millis(hostlink::HOST_TIMEOUT_MS + 50)).await;
    settle().await;
    let back = online(&p2, a).await;
    assert_eq!(
        (back.id, back.status, back.sort, back.requeues),
        (va.id, Status::Queue, 1, 1),
        "first again, the return counted: {back:?}"
    );
    assert_eq!(online(&p2, b).await.sort, 2, "the one behind stays behind");
    assert!(
        !rec.notice_list().iter().any(|n| matches!(n, Notice::GameEnd { .. })),
        "not ended: {:?}",
        rec.notice_list()
    );
    let stored = p2.store().sessions.get(va.id).unwrap().unwrap();
    assert_eq!(
        (stored.status, stored.machine_id.as_deref(), stored.ended_at, stored.requeues),
        (1, None, None, 1)
    );

    // The next machine that frees is theirs, with the whole ready countdown again.
    let (g, _) = link(&p2, hello("g", vec![free(0)], ALL_GAMES)).await;
    settle().await;
    let ready = online(&p2, a).await;
    assert_eq!((ready.id, ready.status, ready.requeues), (va.id, Status::Ready, 1));
    assert_eq!(ready.connect_countdown_secs, 10);
    assert_eq!(online(&p2, b).await.id, vb.id);
    assert_eq!(online(&p2, b).await.sort, 1);
    beat(&p2, &g, 9, &[free(0)]).await;
    assert_eq!(
        online(&p2, a).await.status,
        Status::Ready,
        "the countdown began again at the hand-over"
    );

    // And it survives another restart in that order.
    let p3 = restart(&p2, &dir, 500).await;
    settle().await;
    assert_eq!(online(&p3, b).await.status, Status::Queue);
    assert_eq!(online(&p3, a).await.requeues, 1, "the count survives a restart");
    let _ = std::fs::remove_dir_all(dir);
}

/// The same without a restart: a READY player's host falls silent before they confirm; they
/// wait first again instead of losing their turn.
#[tokio::test(start_paused = true)]
async fn a_ready_player_whose_host_falls_silent_waits_first_again() {
    let (p, dir) = platform("silent-requeue").await;
    let a = user(&p, "13800000001").await;
    let b = user(&p, "13800000002").await;
    let (link, _) = link(&p, hello("h", vec![free(0)], ALL_GAMES)).await;
    let va = p.play.start_game(a, "dev-a", 1, Some(1), &[]).await.unwrap();
    p.play.start_game(b, "dev-b", 1, Some(1), &[]).await.unwrap();
    settle().await;
    beat(&p, &link, 2, &[free(0)]).await;
    assert_eq!(online(&p, a).await.status, Status::Ready);
    tokio::time::advance(Duration::from_millis(hostlink::HOST_TIMEOUT_MS + 50)).await;
    settle().await;
    let back = online(&p, a).await;
    assert_eq!((back.id, back.status, back.sort), (va.id, Status::Queue, 1), "{back:?}");
    assert_eq!(online(&p, b).await.sort, 2);
    let _ = std::fs::remove_dir_all(dir);
}
