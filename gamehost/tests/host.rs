//! The game host through its real interfaces: the host link (against a test platform), the
//! stream WebSocket, `/ping`, `/metrics`, with real Xvfb displays, real processes and a real
//! GStreamer encoder. The displays are read back with X requests.

mod common;

use std::time::Duration;

use common::*;
use gamehost::display::Display;
use gamehost::pattern::{self, Layout};
use gamehost::proto::{client_frame, host_frame};
use hostlink::{HostMsg, LinkRefusal, PlatformMsg, Role, SlotPhase, Ticket, HEARTBEAT_MS, HOST_TIMEOUT_MS};

const SEC: Duration = Duration::from_secs(1);

// The hello is signed with the node's secret and carries the slots; heartbeats follow. A
// platform with another secret refuses the host, which then never heartbeats.
#[actix_rt::test]
async fn hello_is_signed_and_a_wrong_secret_is_refused() {
    let mut platform = TestPlatform::start(SECRET).await;
    let host = gamehost::start(config(&platform.url, 2), self_exe()).await.unwrap();
    let hello = platform.expect_hello().await;
    assert_eq!((hello.node_id, hello.host.as_str()), (NODE, HOST));
    assert_eq!(hello.games, ["busy", "pattern", "short"]);
    assert_eq!(hello.stream_url, format!("ws://{}", host.addr));
    assert_eq!(hello.ping_url, format!("http://{}/ping", host.addr));
    assert_eq!(hello.slots.len(), 2);
    assert!(hello.slots.iter().all(|s| s.phase == SlotPhase::Free && s.session_id.is_none()));
    let beat = platform
        .expect(Duration::from_millis(HEARTBEAT_MS * 3), "heartbeat", |s| match s {
            Seen::Msg(HostMsg::Heartbeat { slots }) => Some(slots.clone()),
            _ => None,
        })
        .await;
    assert_eq!(beat.len(), 2);
    host.stop().await;
    platform.stop().await;

    let mut wrong = TestPlatform::start("another-secret").await;
    let host = gamehost::start(config(&wrong.url, 1), self_exe()).await.unwrap();
    let verdict = wrong
        .expect(5 * SEC, "hello", |s| match s {
            Seen::Hello(_, v) => Some(*v),
            _ => None,
        })
        .await;
    assert_eq!(verdict, Err(LinkRefusal::BadMac));
    // Refused, the host stays unlinked: no heartbeat within three periods.
    let r = tokio::time::timeout(Duration::from_millis(HEARTBEAT_MS * 3), async {
        loop {
            if let Some(Seen::Msg(m)) = wrong.seen.recv().await {
                return m;
            }
        }
    })
    .await;
    assert!(r.is_err(), "a refused host sent {r:?}");
    host.stop().await;
    wrong.stop().await;
}

// Launch → Launching → FirstFrame → Playing; the player's stream starts with its Config and a
// key frame holding SPS, PPS and an IDR; a second viewer gets a key frame at once (the key
// interval is 20 s); Ping gets Pong; End → Resetting → Free, the viewers get the notice, the
// game's processes are gone and the display and home are clean.
#[actix_rt::test]
async fn launch_stream_and_end() {
    let mut rig = Rig::start(1).await;
    rig.platform.send(PlatformMsg::Launch {
        slot: 0,
        session_id: 41,
        uid: 141,
        game: "pattern".into(),
    });
    rig.platform.expect_phase(0, SlotPhase::Launching, 5 * SEC).await;
    assert_eq!(rig.slot(0).view().session_id, Some(41));
    rig.platform
        .expect(10 * SEC, "first frame", |s| match s {
            Seen::Msg(HostMsg::FirstFrame { slot: 0, session_id: 41 }) => Some(()),
            _ => None,
        })
        .await;
    rig.platform.expect_phase(0, SlotPhase::Playing, SEC).await;
    let home = rig.host.host.config.state_dir.join(format!("{HOST}-slot0"));
    assert!(home.join("settings/pattern.cfg").exists(), "the game's home files are written");

    let token = ticket(0, 41, Role::Player).sign(SECRET.as_bytes());
    let mut player = open_stream(rig.addr(), &token).await.expect("the player's ticket opens the stream");
    let Some(host_frame::Body::Config(cfg)) = player.next(5 * SEC).await else {
        panic!("the first frame is not the config");
    };
    assert!(cfg.codec.starts_with("avc1.42"), "constrained baseline: {}", cfg.codec);
    assert_eq!((cfg.width, cfg.height, cfg.fps, cfg.input), (320, 240, 30, true));
    let Some(host_frame::Body::Video(key)) = player.next(5 * SEC).await else {
        panic!("no video after the config");
    };
    assert!(key.key, "the first video frame is a key frame");
    assert!(key.data.starts_with(&[0, 0, 0, 1]) || key.data.starts_with(&[0, 0, 1]), "Annex B");
    let types = nal_types(&key.data);
    for t in [7, 8, 5] {
        assert!(types.contains(&t), "NAL type {t} in the key frame: {types:?}");
    }
    let mut last_seq = key.seq;
    for _ in 0..10 {
        let Some(host_frame::Body::Video(v)) = player.next(5 * SEC).await else {
            panic!("video stops");
        };
        assert!(v.seq > last_seq);
        assert!(!nal_types(&v.data).is_empty(), "every unit holds NAL units");
        last_seq = v.seq;
    }

    let vt = ticket(0, 41, Role::Viewer).sign(SECRET.as_bytes());
    let mut viewer = open_stream(rig.addr(), &vt).await.unwrap();
    let started = std::time::Instant::now();
    let Some(host_frame::Body::Config(vc)) = viewer.next(5 * SEC).await else {
        panic!("viewer: config first");
    };
    assert!(!vc.input, "a viewer's input does not reach the game");
    let Some(host_frame::Body::Video(vk)) = viewer.next(5 * SEC).await else {
        panic!("viewer: video");
    };
    assert!(vk.key && nal_types(&vk.data).contains(&5));
    assert!(
        started.elapsed() < 2 * SEC,
        "the key frame came on request, not at the 20 s interval"
    );

    player
        .send(client_frame::Body::Ping(gamehost::proto::Ping { client_ms: 12.5 }))
        .await;
    let pong = loop {
        match player.next(5 * SEC).await {
            Some(host_frame::Body::Pong(p)) => break p,
            Some(_) => continue,
            None => panic!("closed"),
        }
    };
    assert_eq!(pong.client_ms, 12.5);

    // A decoder that lost its place asks for a key frame and gets one at once.
    tokio::time::sleep(Duration::from_millis(600)).await;
    player.send(client_frame::Body::KeyFrame(gamehost::proto::KeyFrameRequest {})).await;
    let asked = std::time::Instant::now();
    loop {
        match player.next(5 * SEC).await {
            Some(host_frame::Body::Video(v)) if v.key => break,
            Some(_) => assert!(asked.elapsed() < 2 * SEC, "no key frame on request"),
            None => panic!("closed"),
        }
    }

    let display = rig.slot(0).display();
    let pid_group = {
        let d = Display::open(&display).unwrap();
        assert!(!d.top_windows().unwrap().is_empty(), "the pattern's window is up");
        // The game's process group is the slot's only child group running the pattern.
        find_pattern_group(&display)
    };
    assert!(gamehost::game::group_alive(pid_group));

    rig.platform.send(PlatformMsg::End { slot: 0, session_id: 41 });
    rig.platform.expect_phase(0, SlotPhase::Resetting, 5 * SEC).await;
    rig.platform.expect_phase(0, SlotPhase::Free, 10 * SEC).await;
    for v in [&mut player, &mut viewer] {
        let notice = loop {
            match v.next(5 * SEC).await {
                Some(host_frame::Body::Notice(n)) => break n,
                Some(_) => continue,
                None => panic!("closed without a notice"),
            }
        };
        assert_eq!((notice.code, notice.text.as_str()), (130124, "游戏已结束"));
        assert!(v.next(5 * SEC).await.is_none(), "closed after the notice");
    }
    assert!(!gamehost::game::group_alive(pid_group), "the game's processes are gone");
    assert!(
        Display::open(&display).unwrap().top_windows().unwrap().is_empty(),
        "the display is clean"
    );
    assert!(!home.exists(), "the home is wiped");
    assert_eq!(rig.slot(0).view().session_id, None);
    // The ended session's ticket opens nothing any more.
    let (status, body) = open_stream(rig.addr(), &token).await.err().expect("refused");
    assert_eq!((status, body["reason"].as_str()), (403, Some("not_serving")));
    rig.stop().await;
}

/// The process group of the pattern running on a display (from /proc).
fn find_pattern_group(display: &str) -> i32 {
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let on_display = env.split(|b| *b == 0).any(|kv| kv == format!("DISPLAY={display}").as_bytes());
        if on_display && cmd.windows(9).any(|w| w == b"--pattern") {
            // SAFETY: getpgid only reads.
            return unsafe { libc::getpgid(pid) };
        }
    }
    panic!("no pattern process on {display}");
}

// Every bad ticket is answered 403 before the upgrade, with its reason.
#[actix_rt::test]
async fn tickets_are_checked() {
    let mut rig = Rig::start(2).await;
    rig.launch(0, 51, "pattern").await;
    let good = ticket(0, 51, Role::Player);
    let signed = |t: &Ticket| t.sign(SECRET.as_bytes());
    let mut expired = good.clone();
    expired.exp_ms = gamehost::now_ms() - 1;
    let mut other_host = good.clone();
    other_host.host = "th2".into();
    let mut other_node = good.clone();
    other_node.node_id = NODE + 1;
    let mut no_slot = good.clone();
    no_slot.slot = 9;
    let mut other_session = good.clone();
    other_session.session_id = 52;
    let mut free_slot = good.clone();
    free_slot.slot = 1;
    let cases = [
        ("".to_string(), "missing"),
        ("v1.abc".to_string(), "malformed"),
        ("not-a-ticket".to_string(), "malformed"),
        (good.sign(b"another node's secret"), "bad_signature"),
        (signed(&expired), "expired"),
        (signed(&other_host), "other_host"),
        (signed(&other_node), "other_host"),
        (signed(&no_slot), "no_such_slot"),
        (signed(&other_session), "not_serving"),
        (signed(&free_slot), "not_serving"),
    ];
    for (token, reason) in cases {
        let (status, body) = open_stream(rig.addr(), &token)
            .await
            .err()
            .unwrap_or_else(|| panic!("{reason}: opened"));
        assert_eq!(status, 403, "{reason}");
        assert_eq!(body["reason"].as_str(), Some(reason));
        assert_eq!(body["code"], 40003);
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    assert!(open_stream(rig.addr(), &signed(&good)).await.is_ok(), "the good one opens");
    rig.stop().await;
}

// Input from a Viewer ticket (another user than the player) is dropped; the Player's keys,
// pointer and buttons reach the display (the pattern's last-key block, marker and last-button
// block, read back with X).
#[actix_rt::test]
async fn input_only_from_the_player() {
    let mut rig = Rig::start(1).await;
    rig.launch(0, 61, "pattern").await;
    let d = Display::open(&rig.slot(0).display()).unwrap();
    let layout = Layout::new(320, 240);
    let (kx, ky, _) = layout.key_block();
    let (bx, by, _) = layout.button_block();
    let key_px = || d.pixel(kx as i16 + 2, ky as i16 + 2).unwrap();
    let button_px = || d.pixel(bx as i16 + 2, by as i16 + 2).unwrap();
    eventually(5 * SEC, "the pattern is drawn", || (key_px() == pattern::IDLE).then_some(())).await;
    let keymap = gamehost::input::keymap(&d).unwrap();
    let a = keymap[&gamehost::input::keysym("KeyA").unwrap()];

    let mut viewer = open_stream(rig.addr(), &ticket(0, 61, Role::Viewer).sign(SECRET.as_bytes()))
        .await
        .unwrap();
    let mut player = open_stream(rig.addr(), &ticket(0, 61, Role::Player).sign(SECRET.as_bytes()))
        .await
        .unwrap();
    for body in [
        client_frame::Body::Key(gamehost::proto::Key {
            code: "KeyA".into(),
            down: true,
        }),
        client_frame::Body::Key(gamehost::proto::Key {
            code: "KeyA".into(),
            down: false,
        }),
        client_frame::Body::Move(gamehost::proto::PointerMove { x: 40, y: 200 }),
        client_frame::Body::Button(gamehost::proto::Button { button: 0, down: true }),
    ] {
        viewer.send(body).await;
    }
    // A Ping behind the input: once its Pong is back, the input before it was handled.
    viewer
        .send(client_frame::Body::Ping(gamehost::proto::Ping { client_ms: 1.0 }))
        .await;
    while !matches!(viewer.next(5 * SEC).await, Some(host_frame::Body::Pong(_))) {}
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(key_px(), pattern::IDLE, "a viewer's key does not reach the game");
    assert_eq!(button_px(), pattern::IDLE, "nor its button");
    assert_ne!(d.pointer().unwrap(), (40, 200), "nor its pointer");

    player
        .send(client_frame::Body::Key(gamehost::proto::Key {
            code: "KeyA".into(),
            down: true,
        }))
        .await;
    player
        .send(client_frame::Body::Key(gamehost::proto::Key {
            code: "KeyA".into(),
            down: false,
        }))
        .await;
    let want = pattern::key_color(a, 1);
    eventually(3 * SEC, "the last-key block shows KeyA", || (key_px() == want).then_some(())).await;

    player
        .send(client_frame::Body::Move(gamehost::proto::PointerMove { x: 100, y: 120 }))
        .await;
    eventually(3 * SEC, "the marker at (100, 120)", || {
        (d.pixel(100, 120).unwrap() == pattern::MARKER).then_some(())
    })
    .await;
    player
        .send(client_frame::Body::Delta(gamehost::proto::PointerDelta { dx: 60, dy: -40 }))
        .await;
    eventually(3 * SEC, "the marker moved by (60, -40)", || {
        (d.pixel(160, 80).unwrap() == pattern::MARKER && d.pixel(100, 120).unwrap() != pattern::MARKER).then_some(())
    })
    .await;
    assert_eq!(d.pointer().unwrap(), (160, 80));

    player
        .send(client_frame::Body::Button(gamehost::proto::Button { button: 0, down: true }))
        .await;
    player
        .send(client_frame::Body::Button(gamehost::proto::Button { button: 0, down: false }))
        .await;
    let want = pattern::button_color(1, 1);
    eventually(3 * SEC, "the last-button block shows button 1", || {
        (button_px() == want).then_some(())
    })
    .await;
    rig.stop().await;
}

/// The next Config on a stream (video, pongs and notices before it are skipped).
async fn next_config(v: &mut Viewer) -> gamehost::proto::Config {
    loop {
        match v.next(5 * SEC).await {
            Some(host_frame::Body::Config(c)) => return c,
            Some(_) => continue,
            None => panic!("closed before a config"),
        }
    }
}

/// Presses and releases `code` on a stream, and waits until the host has handled it (the
/// Pong of a Ping sent behind it is back).
async fn press(v: &mut Viewer, code: &str) {
    for down in [true, false] {
        v.send(client_frame::Body::Key(gamehost::proto::Key { code: code.into(), down }))
            .await;
    }
    v.send(client_frame::Body::Ping(gamehost::proto::Ping { client_ms: 7.0 })).await;
    loop {
        match v.next(5 * SEC).await {
            Some(host_frame::Body::Pong(_)) => return,
            Some(_) => continue,
            None => panic!("closed before the pong"),
        }
    }
}

// A room's viewer watches the player's stream (its Config says its input is not taken) and its
// input is dropped. A Control naming the viewer makes its input reach the display and drops the
// player's; each is told by a Config at the next key frame, asked for at once. A Control back
// to the player lets go of the key the viewer held and drops its input at once, on the same
// open socket.
#[actix_rt::test]
async fn control_hands_input_to_a_viewer_and_back() {
    let mut rig = Rig::start(1).await;
    rig.launch(0, 66, "pattern").await;
    let d = Display::open(&rig.slot(0).display()).unwrap();
    let (kx, ky, _) = Layout::new(320, 240).key_block();
    let key_px = || d.pixel(kx as i16 + 2, ky as i16 + 2).unwrap();
    eventually(5 * SEC, "the pattern is drawn", || (key_px() == pattern::IDLE).then_some(())).await;
    let keymap = gamehost::input::keymap(&d).unwrap();
    let keycode = |code: &str| keymap[&gamehost::input::keysym(code).unwrap()];
    let (a, b) = (keycode("KeyA"), keycode("KeyB"));
    let control = |controller: i64| PlatformMsg::Control {
        slot: 0,
        session_id: 66,
        controller,
    };

    let mut player = open_stream(rig.addr(), &ticket(0, 66, Role::Player).sign(SECRET.as_bytes()))
        .await
        .unwrap();
    let mut viewer = open_stream(rig.addr(), &ticket(0, 66, Role::Viewer).sign(SECRET.as_bytes()))
        .await
        .unwrap();
    assert!(next_config(&mut player).await.input, "the player controls from the launch");
    assert!(!next_config(&mut viewer).await.input, "a viewer watches the same stream");
    let Some(host_frame::Body::Video(first)) = viewer.next(5 * SEC).await else {
        panic!("the viewer gets video");
    };
    assert!(first.key);
    press(&mut viewer, "KeyB").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(key_px(), pattern::IDLE, "a viewer's key does not reach the game");

    rig.platform.send(control(viewer_uid(66)));
    let sent = std::time::Instant::now();
    assert!(next_config(&mut viewer).await.input, "the viewer's input is taken now");
    let Some(host_frame::Body::Video(k)) = viewer.next(5 * SEC).await else {
        panic!("video after the config");
    };
    assert!(k.key, "the config comes right before a key frame");
    assert!(sent.elapsed() < 2 * SEC, "the key frame was asked for, not the 20 s interval");
    assert!(!next_config(&mut player).await.input, "the player's is not");
    press(&mut viewer, "KeyB").await;
    let by_viewer = pattern::key_color(b, 1);
    eventually(3 * SEC, "the viewer's KeyB on the display", || {
        (key_px() == by_viewer).then_some(())
    })
    .await;
    press(&mut player, "KeyA").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(key_px(), by_viewer, "the player's key is dropped while a guest plays");

    // Revoked while holding a key: the key is let go (its key-up would be dropped), and the
    // same socket's input is dropped from the Control on.
    let held = |code: u8| {
        use x11rb::protocol::xproto::ConnectionExt as _;
        let keys = d.conn.query_keymap().unwrap().reply().unwrap().keys;
        keys[usize::from(code / 8)] & (1 << (code % 8)) != 0
    };
    viewer
        .send(client_frame::Body::Key(gamehost::proto::Key {
            code: "KeyB".into(),
            down: true,
        }))
        .await;
    let by_viewer = pattern::key_color(b, 2);
    eventually(3 * SEC, "the viewer holds KeyB", || {
        (held(b) && key_px() == by_viewer).then_some(())
    })
    .await;
    rig.platform.send(control(player_uid(66)));
    assert!(!next_config(&mut viewer).await.input, "told at the next key frame");
    eventually(3 * SEC, "KeyB let go with the control", || (!held(b)).then_some(())).await;
    press(&mut viewer, "KeyB").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(key_px(), by_viewer, "the revoked viewer's key is dropped");
    press(&mut player, "KeyA").await;
    let by_player = pattern::key_color(a, 1);
    eventually(3 * SEC, "the player's KeyA on the display", || {
        (key_px() == by_player).then_some(())
    })
    .await;
    rig.stop().await;
}

// A viewer whose socket stops taking frames (a real TCP socket nobody reads, with a small
// receive buffer) loses frames up to the next key frame, while another viewer gets every frame
// at the full rate: the encoder never waits for the stalled one.
#[actix_rt::test]
async fn a_stalled_socket_skips_to_a_key_frame_and_nobody_else_waits() {
    // About 1 MB/s of noise: the kernel's buffers of the host's socket (at most `tcp_wmem`'s
    // 4 MB here) are full well before the stall ends, as with a real game streamed to a tab
    // that stopped reading (measured: 2.8 MB were held after 4 s).
    const STALL: Duration = Duration::from_secs(6);
    let mut rig = Rig::start_with(1, |c| c.bitrate_kbps = 8000).await;
    rig.launch(0, 68, "busy").await;
    let mut stalled = open_raw(rig.addr(), &ticket(0, 68, Role::Viewer).sign(SECRET.as_bytes()), 4096).await;
    let mut fast = open_stream(rig.addr(), &ticket(0, 68, Role::Player).sign(SECRET.as_bytes()))
        .await
        .unwrap();
    assert!(matches!(stalled.next(5 * SEC).await, Some(host_frame::Body::Config(_))));
    let Some(host_frame::Body::Video(first)) = stalled.next(5 * SEC).await else {
        panic!("the stalled viewer started");
    };
    assert!(first.key);

    // The stalled socket is not read from now on; the other one is read for the whole stall.
    let started = std::time::Instant::now();
    let mut seqs = vec![];
    while started.elapsed() < STALL {
        if let Some(host_frame::Body::Video(v)) = fast.next(5 * SEC).await {
            seqs.push(v.seq);
        }
    }
    assert!(
        seqs.windows(2).all(|w| w[1] == w[0] + 1),
        "the reading viewer missed nothing: {seqs:?}"
    );
    let fps = seqs.len() as f64 / STALL.as_secs_f64();
    assert!(fps >= 30.0 * 0.6, "the reading viewer kept the frame rate: {fps:.1} fps");

    // Read again: what the socket and the outbox held, then a gap, and video resumes at a key
    // frame.
    let mut got = vec![first.seq];
    let mut resumed = None;
    while resumed.is_none() {
        assert!(
            got.len() < 30 * 10,
            "no gap: the stalled socket held everything ({} frames)",
            got.len()
        );
        if let Some(host_frame::Body::Video(v)) = stalled.next(5 * SEC).await {
            let last = *got.last().unwrap();
            if v.seq != last + 1 {
                resumed = Some(v.clone());
            }
            got.push(v.seq);
        }
    }
    let resumed = resumed.unwrap();
    assert!(resumed.key, "after the gap it resumes at a key frame: {got:?}");
    assert!(
        resumed.seq > *seqs.last().unwrap() - 10,
        "and at a recent one ({} after {:?})",
        resumed.seq,
        seqs.last()
    );
    rig.stop().await;
}

// A game that quits on its own is reported (GameExited) and its slot reset to Free.
#[actix_rt::test]
async fn a_game_that_exits_is_reported_and_the_slot_reset() {
    let mut rig = Rig::start(1).await;
    rig.launch(0, 71, "short").await;
    let reason = rig
        .platform
        .expect(8 * SEC, "game exited", |s| match s {
            Seen::Msg(HostMsg::GameExited {
                slot: 0,
                session_id: 71,
                reason,
            }) => Some(reason.clone()),
            _ => None,
        })
        .await;
    assert!(reason.contains("exited with status 0"), "{reason}");
    rig.platform.expect_phase(0, SlotPhase::Free, 10 * SEC).await;

    // A game the host does not have, and a busy slot, are refused with GameExited.
    rig.platform.send(PlatformMsg::Launch {
        slot: 0,
        session_id: 72,
        uid: 1,
        game: "chess".into(),
    });
    let reason = rig
        .platform
        .expect(5 * SEC, "refusal", |s| match s {
            Seen::Msg(HostMsg::GameExited {
                session_id: 72, reason, ..
            }) => Some(reason.clone()),
            _ => None,
        })
        .await;
    assert!(reason.contains("chess"), "{reason}");
    rig.launch(0, 73, "pattern").await;
    rig.platform.send(PlatformMsg::Launch {
        slot: 0,
        session_id: 74,
        uid: 1,
        game: "pattern".into(),
    });
    let reason = rig
        .platform
        .expect(5 * SEC, "busy refusal", |s| match s {
            Seen::Msg(HostMsg::GameExited {
                session_id: 74, reason, ..
            }) => Some(reason.clone()),
            _ => None,
        })
        .await;
    assert!(reason.contains("playing"), "{reason}");
    assert_eq!(rig.slot(0).view().session_id, Some(73), "the running session is untouched");
    rig.stop().await;
}

// A link back within HOST_TIMEOUT_MS keeps the game (the new hello reports it Playing); a
// platform gone for longer has ended the session, so the host ends the game and resets.
#[actix_rt::test]
async fn a_long_link_drop_ends_the_games() {
    let mut rig = Rig::start(1).await;
    rig.launch(0, 81, "pattern").await;
    let display = rig.slot(0).display();
    let group = find_pattern_group(&display);

    rig.platform.drop_link();
    let hello = rig.platform.expect_hello().await;
    assert_eq!(hello.slots[0].phase, SlotPhase::Playing);
    assert_eq!(hello.slots[0].session_id, Some(81));
    tokio::time::sleep(Duration::from_millis(HOST_TIMEOUT_MS + 500)).await;
    assert!(gamehost::game::group_alive(group), "a short drop keeps the game");
    assert_eq!(rig.slot(0).view().phase, SlotPhase::Playing);

    rig.platform.stop().await;
    let gone = std::time::Instant::now();
    eventually(Duration::from_millis(HOST_TIMEOUT_MS + 5000), "the slot reset", || {
        (rig.slot(0).view().phase == SlotPhase::Free).then_some(())
    })
    .await;
    assert!(
        gone.elapsed() >= Duration::from_millis(HOST_TIMEOUT_MS - 200),
        "not before the host timeout"
    );
    assert!(!gamehost::game::group_alive(group), "the game is gone");
    assert!(Display::open(&display).unwrap().top_windows().unwrap().is_empty());
    rig.host.stop().await;
}

// /ping answers any origin and is never cached; /metrics has the host's series.
#[actix_rt::test]
async fn ping_and_metrics() {
    let mut rig = Rig::start(1).await;
    rig.launch(0, 91, "pattern").await;
    let client = awc::Client::new();
    let mut res = client
        .get(format!("http://{}/ping?t=123", rig.addr()))
        .insert_header(("Origin", "http://127.0.0.1:8080"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("access-control-allow-origin").unwrap(), "*");
    assert_eq!(res.headers().get("cache-control").unwrap(), "no-store");
    assert_eq!(res.body().await.unwrap(), "pong");
    let res = client
        .request(actix_web::http::Method::OPTIONS, format!("http://{}/ping", rig.addr()))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers().get("access-control-allow-origin").unwrap(), "*");

    let _v = open_stream(rig.addr(), &ticket(0, 91, Role::Viewer).sign(SECRET.as_bytes()))
        .await
        .unwrap();
    let _ = open_stream(rig.addr(), "bad").await;
    let body = client
        .get(format!("http://{}/metrics", rig.addr()))
        .send()
        .await
        .unwrap()
        .body()
        .await
        .unwrap();
    let text = String::from_utf8(body.to_vec()).unwrap();
    for series in [
        "yoo_gamehost_slots{phase=\"playing\"}",
        "yoo_gamehost_frames_encoded_total{slot=\"0\"}",
        "yoo_gamehost_frames_dropped_total{slot=\"0\"}",
        "yoo_gamehost_encode_seconds_bucket",
        "yoo_gamehost_viewers{slot=\"0\"}",
        "yoo_gamehost_stream_refused_total{reason=\"malformed\"}",
        "yoo_gamehost_link_up",
    ] {
        assert!(text.contains(series), "{series} missing from:\n{text}");
    }
    rig.stop().await;
}

// The dev configuration's real games (Debian's neverball, supertux and ltris) start on a slot,
// draw a picture, reach the first encoded frame, and leave the slot clean when ended.
#[actix_rt::test]
async fn the_dev_games_run() {
    let text = include_str!("../../ops/gamehost-dev-1.toml");
    let mut platform = TestPlatform::start("dev-host-secret-node-1").await;
    let mut c = gamehost::HostConfig::parse(text).unwrap();
    c.platform_url = platform.url.clone();
    c.bind = "127.0.0.1:0".into();
    c.slots = 1;
    c.display_base = None;
    c.state_dir = std::env::temp_dir().join(format!("yoo-gamehost-devgames-{}", std::process::id()));
    let state_dir = c.state_dir.clone();
    let host = gamehost::start(c, self_exe()).await.unwrap();
    platform.expect_hello().await;
    let display = host.host.slot(0).unwrap().display();
    for (i, game) in ["neverball", "supertux", "ltris"].into_iter().enumerate() {
        let session_id = 200 + i as i64;
        platform.send(PlatformMsg::Launch {
            slot: 0,
            session_id,
            uid: 1,
            game: game.into(),
        });
        platform
            .expect(20 * SEC, &format!("{game}'s first frame"), |s| match s {
                Seen::Msg(HostMsg::FirstFrame { session_id: id, .. }) if *id == session_id => Some(()),
                Seen::Msg(HostMsg::GameExited { reason, .. }) => panic!("{game} exited: {reason}"),
                _ => None,
            })
            .await;
        let d = Display::open(&display).unwrap();
        let [w, h] = host.host.config.games[game].window;
        eventually(15 * SEC, &format!("{game} draws a picture"), || {
            let px = d.read_rgb(0, 0, w as u16, h as u16).unwrap();
            let distinct: std::collections::HashSet<u32> = px.iter().step_by(97).copied().collect();
            (distinct.len() > 8).then_some(())
        })
        .await;
        platform.send(PlatformMsg::End { slot: 0, session_id });
        platform.expect_phase(0, SlotPhase::Free, 10 * SEC).await;
        assert!(d.top_windows().unwrap().is_empty(), "{game} left a window");
    }
    host.stop().await;
    platform.stop().await;
    let _ = std::fs::remove_dir_all(state_dir);
}
