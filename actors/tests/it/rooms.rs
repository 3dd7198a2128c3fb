//! Live rooms through the real actors and a real SQLite store, on paused tokio time: entry and
//! its refusals, moderation, the fan-out of events to watching sockets (batching, resume, reset,
//! the reconnect window), control and rotation, and the relay following the host's game.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use actors::config::RoomsConfig;
use actors::play::player::SessionOp;
use actors::rooms::view::*;
use actors::rooms::wire::{RoomSink, WatchId};
use actors::view::{GameState, Notice, Status};
use actors::{DomainConfig, DomainError, Platform};
use base64::Engine;
use bytes::Bytes;
use common::{node, pass, settle, temp_dir, user, Recorder};
use parking_lot::Mutex;

async fn platform_with(name: &str, machines: usize, rooms: RoomsConfig) -> Platform {
    let dir = temp_dir(name);
    let store = storage::Store::open_sqlite(&dir).unwrap();
    let config = DomainConfig {
        connect_countdown_secs: 600,
        connect_delay_ms: 500,
        sms_fail_numbers: vec![],
        register_gift_minutes: 600,
        nodes: vec![node(machines)],
        rooms,
        ..DomainConfig::default()
    };
    Platform::start(store, config).await.unwrap()
}

async fn platform(name: &str) -> Platform {
    platform_with(name, 2, RoomsConfig::default()).await
}

fn b64(digits: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(digits)
}

fn form(password: Option<&str>) -> RoomForm {
    RoomForm {
        room_name: "一起来玩".into(),
        mode: MODE_RELAY,
        game_id: 1,
        is_show: true,
        password: password.map(b64),
        is_update_pass: password.is_some(),
    }
}

fn enter(dd_rid: i64, password: Option<&str>) -> EnterRoom {
    EnterRoom {
        dd_rid,
        mode: MODE_RELAY,
        force: false,
        password: password.map(b64),
    }
}

/// One watching socket: the frames of the debug wire ("offset:code,..." or "reset:N").
#[derive(Default)]
struct Frames {
    frames: Mutex<Vec<String>>,
    /// The offsets each event frame covers.
    covers: Mutex<Vec<(u64, u64)>>,
    gone: std::sync::atomic::AtomicBool,
}

impl RoomSink for Frames {
    fn send(&self, frame: &Bytes) -> bool {
        let text = String::from_utf8_lossy(frame).to_string();
        self.frames.lock().push(text.split('|').nth(2).unwrap_or("").to_string());
        if let Some((a, b)) = text.split('|').nth(3).and_then(|c| c.split_once('-')) {
            self.covers.lock().push((a.parse().unwrap(), b.parse().unwrap()));
        }
        !self.gone.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Frames {
    fn count(&self) -> usize {
        self.frames.lock().len()
    }

    /// Every event received: (offset, code), in order of arrival.
    fn events(&self) -> Vec<(u64, i32)> {
        self.frames
            .lock()
            .iter()
            .filter(|f| !f.starts_with("reset:") && !f.is_empty())
            .flat_map(|f| {
                f.split(',')
                    .map(|e| {
                        let (o, c) = e.split_once(':').unwrap();
                        (o.parse().unwrap(), c.parse().unwrap())
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    fn offsets(&self) -> Vec<u64> {
        self.events().into_iter().map(|(o, _)| o).collect()
    }

    fn codes(&self) -> Vec<i32> {
        self.events().into_iter().map(|(_, c)| c).collect()
    }

    fn covers(&self) -> Vec<(u64, u64)> {
        self.covers.lock().clone()
    }

    /// The (offset, code) of the last frame's events.
    fn last_frame(&self) -> Vec<(u64, i32)> {
        let f = self.frames.lock().last().cloned().unwrap_or_default();
        f.split(',')
            .filter(|e| !e.is_empty())
            .map(|e| {
                let (o, c) = e.split_once(':').unwrap();
                (o.parse().unwrap(), c.parse().unwrap())
            })
            .collect()
    }

    fn resets(&self) -> Vec<String> {
        self.frames.lock().iter().filter(|f| f.starts_with("reset:")).cloned().collect()
    }
}

async fn watch(p: &Platform, uid: i64, room: &RoomView) -> (Arc<Frames>, WatchId) {
    let f = Arc::new(Frames::default());
    let id = p
        .rooms
        .watch(uid, room.dd_rid, f.clone(), Some((room.epoch.to_string(), room.offset)))
        .await
        .unwrap();
    (f, id)
}

// Create, the password prompt (none, wrong, bounded wrong tries, right), the online list, exit,
// and the host's exit ending the room with the summary and USER_RELAY_END to every member.
#[tokio::test(start_paused = true)]
async fn create_enter_password_exit() {
    let p = platform("rooms-enter").await;
    let host = user(&p, "13900000001").await;
    let a = user(&p, "13900000002").await;
    let b = user(&p, "13900000003").await;
    let created = p.rooms.create_room(host, form(Some("1234"))).await.unwrap();
    assert_eq!(
        (created.room.user_id, created.room.has_password, created.room.online),
        (host, true, 1)
    );
    assert_eq!(
        p.rooms.create_room(host, form(None)).await.map(|_| ()),
        Err(DomainError::AlreadyHosting { dd_rid: created.dd_rid })
    );
    let dd = created.dd_rid;

    assert_eq!(
        p.rooms.enter_room(a, "d-a", enter(dd, None)).await.map(|_| ()),
        Err(DomainError::RoomPasswordNeeded)
    );
    assert_eq!(
        p.rooms.enter_room(a, "d-a", enter(dd, Some("9999"))).await.map(|_| ()),
        Err(DomainError::RoomPasswordWrong { retry_after_secs: None })
    );
    for _ in 0..4 {
        assert!(p.rooms.enter_room(a, "d-a", enter(dd, Some("9999"))).await.is_err());
    }
    assert_eq!(
        p.rooms.enter_room(a, "d-a", enter(dd, Some("1234"))).await.map(|_| ()),
        Err(DomainError::RoomPasswordWrong {
            retry_after_secs: Some(60)
        }),
        "five wrong tries a minute, then even the right one waits"
    );
    tokio::time::advance(Duration::from_secs(61)).await;
    let entered = p.rooms.enter_room(a, "d-a", enter(dd, Some("1234"))).await.unwrap();
    assert_eq!(entered.role, PlayRole::RoomWithoutControl);
    assert_eq!(entered.room.online, 2);
    p.rooms.enter_room(b, "d-b", enter(dd, Some("1234"))).await.unwrap();
    let users = p.rooms.room_users(host, dd, 1, 10).await.unwrap();
    assert_eq!(users.total_rows, 3);
    assert_eq!(
        users.rows.iter().map(|u| u.user.uid).collect::<Vec<_>>(),
        vec![host, a, b],
        "the host first, then by entry"
    );
    assert_eq!(p.rooms.room_user_info(a).await.unwrap().dd_rid, Some(dd));
    assert_eq!(
        p.rooms.enter_room(a, "d-a", enter(dd, None)).await.map(|e| e.role),
        Ok(PlayRole::RoomWithoutControl),
        "a member re-enters"
    );

    assert_eq!(
        p.rooms.exit_room(b).await,
        Ok(RoomExited {
            dd_rid: dd,
            ended_room_serial: None
        })
    );
    assert_eq!(p.rooms.exit_room(b).await, Err(DomainError::NotInRoom));

    let rec = Arc::new(Recorder::default());
    p.play.connect(a, rec.clone()).await.unwrap();
    assert_eq!(
        p.rooms.exit_room(host).await,
        Ok(RoomExited {
            dd_rid: dd,
            ended_room_serial: Some(created.room_serial)
        })
    );
    settle().await;
    assert_eq!(p.rooms.room_info(a, Some(dd)).await, Err(DomainError::RoomNotFound));
    assert_eq!(
        p.rooms.enter_room(b, "d-b", enter(dd, Some("1234"))).await.map(|_| ()),
        Err(DomainError::RoomNotFound)
    );
    assert!(rec.notice_list().contains(&Notice::RelayEnd {
        dd_rid: dd,
        room_serial: created.room_serial
    }));
    let detail = p.rooms.live_detail(a, created.room_serial).await.unwrap();
    assert!(detail.ended);
    assert_eq!((detail.audience_count, detail.mike_count, detail.control_count), (3, 1, 0));
    assert_eq!(p.rooms.my_room(host).await, Ok(None));
    assert_eq!(p.rooms.room_user_info(a).await.unwrap().dd_rid, None);
}

// Relay qualification and the flags: super admins create nothing, a withdrawn qualification
// and minors neither; minors enter no room; the form's rules.
#[tokio::test(start_paused = true)]
async fn refusals_by_flags_and_form() {
    let p = platform("rooms-flags").await;
    let admin = user(&p, "13900000011").await;
    let banned = user(&p, "13900000012").await;
    let minor = user(&p, "13900000013").await;
    let host = user(&p, "13900000014").await;
    p.rooms
        .set_user_flags(
            admin,
            UserFlags {
                status: 3,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    p.rooms
        .set_user_flags(
            banned,
            UserFlags {
                relay_banned: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    p.rooms
        .set_user_flags(
            minor,
            UserFlags {
                minor: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(p.rooms.relay_check(admin).await, Err(DomainError::SuperAdminRoom));
    assert_eq!(
        p.rooms.create_room(admin, form(None)).await.map(|_| ()),
        Err(DomainError::SuperAdminRoom)
    );
    assert_eq!(p.rooms.relay_check(banned).await, Err(DomainError::NotRelayQualified));
    assert_eq!(p.rooms.relay_check(minor).await, Err(DomainError::MinorRelayLimit));
    assert_eq!(p.rooms.relay_check(host).await, Ok(()));

    let bad = |f: fn(&mut RoomForm)| {
        let mut x = form(None);
        f(&mut x);
        x
    };
    use actors::error::RoomFormFault::*;
    for (f, fault) in [
        (bad(|f| f.room_name = "  ".into()), NameEmpty),
        (bad(|f| f.room_name = "一二三四五六七八九十一二三四五六".into()), NameTooLong),
        (bad(|f| f.mode = 0), ModeEmpty),
        (bad(|f| f.game_id = 0), GameEmpty),
        (bad(|f| f.password = Some(b64("12a4"))), PasswordFormat),
    ] {
        assert_eq!(p.rooms.create_room(host, f).await.map(|_| ()), Err(DomainError::RoomForm(fault)));
    }
    let params = p.rooms.room_params(host).await.unwrap();
    assert!(params.room_name.ends_with("的房间"));
    assert_eq!(params.room_modes.len(), 2);

    let room = p.rooms.create_room(host, form(None)).await.unwrap();
    assert_eq!(
        p.rooms.enter_room(minor, "d", enter(room.dd_rid, None)).await.map(|_| ()),
        Err(DomainError::Minor)
    );
    p.rooms.enter_room(admin, "d", enter(room.dd_rid, None)).await.unwrap();
    assert_eq!(
        p.rooms.kick(admin, room.dd_rid, host).await,
        Err(DomainError::RoomForbidden),
        "deny by default"
    );
}

// Kick: out at once (2031), barred for 10 minutes; the blacklist bars until removed (2032).
#[tokio::test(start_paused = true)]
async fn kick_and_blacklist() {
    let p = platform("rooms-kick").await;
    let host = user(&p, "13900000021").await;
    let a = user(&p, "13900000022").await;
    let room = p.rooms.create_room(host, form(None)).await.unwrap();
    let dd = room.dd_rid;
    let entered = p.rooms.enter_room(a, "d", enter(dd, None)).await.unwrap();
    let (fa, _) = watch(&p, a, &entered.room).await;
    p.rooms.kick(host, dd, a).await.unwrap();
    assert!(fa.codes().contains(&2031));
    assert_eq!(p.rooms.room_users(host, dd, 1, 10).await.unwrap().total_rows, 1);
    assert_eq!(
        p.rooms.enter_room(a, "d", enter(dd, None)).await.map(|_| ()),
        Err(DomainError::RoomBarred)
    );
    tokio::time::advance(Duration::from_secs(601)).await;
    let entered = p.rooms.enter_room(a, "d", enter(dd, None)).await.unwrap();
    let (fa, _) = watch(&p, a, &entered.room).await;

    p.rooms.blacklist_add(host, a).await.unwrap();
    settle().await;
    assert!(fa.codes().contains(&2032));
    assert_eq!(
        p.rooms.enter_room(a, "d", enter(dd, None)).await.map(|_| ()),
        Err(DomainError::RoomBarred)
    );
    let list = p.rooms.blacklist_list(host, 1, 10).await.unwrap();
    assert_eq!((list.total_rows, list.rows[0].black_user_id), (1, a));
    p.rooms.blacklist_del(host, a).await.unwrap();
    p.rooms.enter_room(a, "d", enter(dd, None)).await.unwrap();
    assert_eq!(p.rooms.blacklist_list(host, 1, 10).await.unwrap().total_rows, 0);

    // Chat ban and report.
    p.rooms.chat_ban(host, dd, a, true).await.unwrap();
    assert_eq!(p.rooms.chat_send(a, dd, "你好".into(), None).await, Err(DomainError::ChatBanned));
    // The host's online list says who is banned (so the page offers to lift it); nobody else's.
    let banned = |rows: &[actors::rooms::view::OnlineUser]| rows.iter().filter(|u| u.chat_banned).map(|u| u.user.uid).collect::<Vec<_>>();
    assert_eq!(banned(&p.rooms.room_users(host, dd, 1, 20).await.unwrap().rows), vec![a]);
    assert!(banned(&p.rooms.room_users(a, dd, 1, 20).await.unwrap().rows).is_empty());
    p.rooms.chat_ban(host, dd, a, false).await.unwrap();
    assert!(banned(&p.rooms.room_users(host, dd, 1, 20).await.unwrap().rows).is_empty());
    p.rooms.chat_send(a, dd, "你好".into(), None).await.unwrap();
    assert_eq!(p.rooms.chat_send(a, dd, "   ".into(), None).await, Err(DomainError::ChatInvalid));
    p.rooms.chat_send(a, dd, String::new(), Some(3)).await.unwrap();
    assert_eq!(
        p.rooms.report(a, dd, Some(host), 7, String::new()).await,
        Err(DomainError::ReportInvalid)
    );
    p.rooms.report(a, dd, Some(host), 4, "骚扰".into()).await.unwrap();
    assert_eq!(p.store().rooms.reports(dd).unwrap().len(), 1);
}

// With few watchers every command's events go at once; above the threshold they collect for
// batch_ms and go as ONE frame; every sink gets every event once, in order.
#[tokio::test(start_paused = true)]
async fn fan_out_reaches_every_sink_once_in_order_with_batching() {
    let rooms = RoomsConfig {
        batch_threshold: 3,
        batch_ms: 100,
        ..RoomsConfig::default()
    };
    let p = platform_with("rooms-fanout", 2, rooms).await;
    let host = user(&p, "13900000031").await;
    let room = p.rooms.create_room(host, form(None)).await.unwrap();
    let dd = room.dd_rid;
    let (fh, _) = watch(&p, host, &room.room).await;
    let mut viewers = vec![];
    for i in 0..2 {
        let v = user(&p, &format!("1390000004{i}")).await;
        let e = p.rooms.enter_room(v, "d", enter(dd, None)).await.unwrap();
        viewers.push((v, watch(&p, v, &e.room).await.0));
    }
    // Three watchers: at once, one frame per call.
    let before = fh.count();
    p.rooms.chat_send(viewers[0].0, dd, "一".into(), None).await.unwrap();
    assert_eq!(fh.count(), before + 1, "flushed at once");
    // A fourth watcher: batching.
    let v = user(&p, "13900000049").await;
    let e = p.rooms.enter_room(v, "d", enter(dd, None)).await.unwrap();
    viewers.push((v, watch(&p, v, &e.room).await.0));
    let counts: Vec<usize> = std::iter::once(fh.count()).chain(viewers.iter().map(|(_, f)| f.count())).collect();
    for i in 0..10 {
        p.rooms.chat_send(viewers[i % 3].0, dd, format!("消息{i}"), None).await.unwrap();
    }
    let now: Vec<usize> = std::iter::once(fh.count()).chain(viewers.iter().map(|(_, f)| f.count())).collect();
    assert_eq!(now, counts, "nothing sent before the batch's time");
    pass(100).await;
    let after: Vec<usize> = std::iter::once(fh.count()).chain(viewers.iter().map(|(_, f)| f.count())).collect();
    assert_eq!(after, counts.iter().map(|c| c + 1).collect::<Vec<_>>(), "one frame each");
    let last = p.rooms.room_info(host, Some(dd)).await.unwrap().offset;
    for (i, f) in std::iter::once(&fh).chain(viewers.iter().map(|(_, f)| f)).enumerate() {
        let offsets = f.offsets();
        let first = offsets[0];
        assert_eq!(offsets, (first..=last).collect::<Vec<_>>(), "every event once, in order");
        let chats = if i == 3 { 10 } else { 11 };
        assert_eq!(
            f.codes().iter().filter(|c| **c == 3000).count(),
            chats,
            "the last came after the first chat"
        );
    }
    // A busy room's batch carries its entries as one ROOM_ENTER and its leaves as one
    // ROOM_LEAVE; the frame still covers every offset after the last one.
    let covered = fh.covers().last().copied().unwrap();
    assert_eq!(covered.1, last);
    let mut extra = vec![];
    for i in 0..3 {
        let v = user(&p, &format!("1390000006{i}")).await;
        p.rooms.enter_room(v, "d", enter(dd, None)).await.unwrap();
        extra.push(v);
    }
    p.rooms.exit_room(extra[0]).await.unwrap();
    p.rooms.exit_room(extra[1]).await.unwrap();
    p.rooms.chat_send(host, dd, "欢迎".into(), None).await.unwrap();
    pass(100).await;
    let now_at = p.rooms.room_info(host, Some(dd)).await.unwrap().offset;
    assert!(now_at >= last + 6, "three entries, two leaves and a chat");
    assert_eq!(fh.covers().last(), Some(&(last + 1, now_at)), "every offset covered");
    let codes: Vec<i32> = fh.last_frame().iter().map(|(_, c)| *c).collect();
    assert_eq!(codes.iter().filter(|c| **c == 1004).count(), 1, "{codes:?}");
    assert_eq!(codes.iter().filter(|c| **c == 1005).count(), 1, "{codes:?}");
    assert_eq!(codes.last(), Some(&3000));
}

// A socket that drops and comes back with its position gets exactly what it missed, from the
// room's memory; another epoch or a position the ring no longer holds gets a reset.
#[tokio::test(start_paused = true)]
async fn resume_gets_exactly_the_missed_events() {
    let p = platform("rooms-resume").await;
    let host = user(&p, "13900000051").await;
    let a = user(&p, "13900000052").await;
    let room = p.rooms.create_room(host, form(None)).await.unwrap();
    let dd = room.dd_rid;
    let e = p.rooms.enter_room(a, "d", enter(dd, None)).await.unwrap();
    let (f1, id) = watch(&p, a, &e.room).await;
    p.rooms.chat_send(host, dd, "一".into(), None).await.unwrap();
    let seen = *f1.offsets().last().unwrap();
    p.rooms.unwatch(dd, id);
    settle().await;
    for t in ["二", "三", "四"] {
        p.rooms.chat_send(host, dd, t.into(), None).await.unwrap();
    }
    let missed_to = p.rooms.room_info(a, Some(dd)).await.unwrap().offset;
    let f2 = Arc::new(Frames::default());
    p.rooms
        .watch(a, dd, f2.clone(), Some((e.room.epoch.to_string(), seen)))
        .await
        .unwrap();
    assert_eq!(
        f2.offsets(),
        ((seen + 1)..=missed_to).collect::<Vec<_>>(),
        "exactly the missed events"
    );
    p.rooms.chat_send(host, dd, "五".into(), None).await.unwrap();
    assert_eq!(*f2.offsets().last().unwrap(), missed_to + 1, "then live");
    assert_eq!(f1.offsets().last(), Some(&seen), "the dropped socket got nothing more");

    // Another epoch: a reset with the current position.
    let f3 = Arc::new(Frames::default());
    p.rooms.watch(a, dd, f3.clone(), Some(("old-epoch".into(), 1))).await.unwrap();
    assert_eq!(f3.resets(), vec![format!("reset:{}", missed_to + 1)]);
    // A gap the ring cannot fill (it holds 2048 events).
    for i in 0..2100 {
        p.rooms.chat_send(host, dd, format!("{i}"), None).await.unwrap();
    }
    let f4 = Arc::new(Frames::default());
    p.rooms
        .watch(a, dd, f4.clone(), Some((e.room.epoch.to_string(), seen)))
        .await
        .unwrap();
    assert_eq!(f4.resets().len(), 1);
    assert!(f4.events().is_empty());
}

// A member who entered late cannot resume from before their entry (it would replay what was
// said, and aimed at others, before they came in): a reset to the current position; from their
// own entry position they resume as anyone does.
#[tokio::test(start_paused = true)]
async fn a_late_member_cannot_replay_what_came_before_them() {
    let p = platform("rooms-late").await;
    let host = user(&p, "13900000071").await;
    let room = p.rooms.create_room(host, form(None)).await.unwrap();
    let dd = room.dd_rid;
    for t in ["一", "二", "三"] {
        p.rooms.chat_send(host, dd, t.into(), None).await.unwrap();
    }
    let late = user(&p, "13900000072").await;
    let entered = p.rooms.enter_room(late, "d", enter(dd, None)).await.unwrap();
    let epoch = entered.room.epoch.to_string();
    let f = Arc::new(Frames::default());
    p.rooms.watch(late, dd, f.clone(), Some((epoch.clone(), 0))).await.unwrap();
    assert!(f.offsets().is_empty(), "nothing from before the entry: {:?}", f.events());
    assert_eq!(f.resets(), vec![format!("reset:{}", entered.room.offset)]);
    let g = Arc::new(Frames::default());
    p.rooms
        .watch(late, dd, g.clone(), Some((epoch, entered.room.offset)))
        .await
        .unwrap();
    assert!(g.resets().is_empty());
    p.rooms.chat_send(host, dd, "四".into(), None).await.unwrap();
    assert_eq!(g.offsets(), vec![entered.room.offset + 1]);
}

// A member whose sockets all dropped stays for the reconnect window (30 s), then leaves
// (ROOM_LEAVE); coming back within it keeps the membership.
#[tokio::test(start_paused = true)]
async fn the_reconnect_window() {
    let p = platform("rooms-reconnect").await;
    let host = user(&p, "13900000061").await;
    let a = user(&p, "13900000062").await;
    let room = p.rooms.create_room(host, form(None)).await.unwrap();
    let dd = room.dd_rid;
    let (fh, _) = watch(&p, host, &room.room).await;
    let e = p.rooms.enter_room(a, "d", enter(dd, None)).await.unwrap();
    let (_, id) = watch(&p, a, &e.room).await;
    tokio::time::advance(Duration::from_secs(40)).await;
    settle().await;
    assert_eq!(
        p.rooms.room_users(host, dd, 1, 10).await.unwrap().total_rows,
        2,
        "a watching member stays"
    );
    p.rooms.unwatch(dd, id);
    settle().await;
    tokio::time::advance(Duration::from_secs(20)).await;
    settle().await;
    let (_, id) = watch(&p, a, &e.room).await;
    tokio::time::advance(Duration::from_secs(20)).await;
    settle().await;
    assert_eq!(
        p.rooms.room_users(host, dd, 1, 10).await.unwrap().total_rows,
        2,
        "back within the window"
    );
    p.rooms.unwatch(dd, id);
    settle().await;
    tokio::time::advance(Duration::from_secs(29)).await;
    settle().await;
    assert_eq!(p.rooms.room_users(host, dd, 1, 10).await.unwrap().total_rows, 2);
    assert!(!fh.codes().contains(&1005));
    tokio::time::advance(Duration::from_secs(2)).await;
    settle().await;
    assert_eq!(p.rooms.room_users(host, dd, 1, 10).await.unwrap().total_rows, 1);
    assert!(fh.codes().contains(&1005));
    assert_eq!(p.rooms.room_user_info(a).await.unwrap().dd_rid, None);
    // A gone sink counts as a dropped socket.
    let e = p.rooms.enter_room(a, "d", enter(dd, None)).await.unwrap();
    let (fa, _) = watch(&p, a, &e.room).await;
    fa.gone.store(true, std::sync::atomic::Ordering::Relaxed);
    p.rooms.chat_send(host, dd, "在吗".into(), None).await.unwrap();
    tokio::time::advance(Duration::from_secs(31)).await;
    settle().await;
    assert_eq!(p.rooms.room_users(host, dd, 1, 10).await.unwrap().total_rows, 1);
}

// Seats through the actor: up, full, queue, the host's invite and operations, with the events
// aimed at their users.
#[tokio::test(start_paused = true)]
async fn seats_and_their_events() {
    let p = platform("rooms-seats").await;
    let host = user(&p, "13900000071").await;
    let room = p.rooms.create_room(host, form(None)).await.unwrap();
    let dd = room.dd_rid;
    let (fh, _) = watch(&p, host, &room.room).await;
    let mut vs = vec![];
    for i in 0..9 {
        let v = user(&p, &format!("1390000008{i}")).await;
        p.rooms.enter_room(v, "d", enter(dd, None)).await.unwrap();
        vs.push(v);
    }
    for v in &vs[..7] {
        p.rooms.mike_up(*v, dd, MikeAction::Up, None).await.unwrap();
    }
    let info = p.rooms.mike_list(vs[7], dd).await.unwrap();
    assert_eq!((info.mike_status, info.mike_sub_status), (2, 1));
    assert_eq!(
        p.rooms.mike_up(vs[7], dd, MikeAction::Up, None).await.map(|_| ()),
        Err(DomainError::MikeFull)
    );
    p.rooms.mike_req_action(vs[7], dd, MikeReqAction::Apply).await.unwrap();
    p.rooms.mike_req_action(vs[8], dd, MikeReqAction::Apply).await.unwrap();
    let q = p.rooms.mike_req_top(host, dd, vs[8]).await.unwrap();
    assert_eq!(q.iter().map(|u| u.uid).collect::<Vec<_>>(), vec![vs[8], vs[7]]);
    assert_eq!(
        p.rooms.mike_req_top(vs[0], dd, vs[7]).await.map(|_| ()),
        Err(DomainError::RoomForbidden)
    );
    // The host takes one down: the head of the queue goes up (2010 to them).
    let info = p.rooms.mike_operate(host, dd, vs[0], MikeOp::Down).await.unwrap();
    assert_eq!(info.mike_list[1].user.as_ref().map(|u| u.uid), Some(vs[8]));
    let info = p.rooms.mike_up_or_down(vs[1], dd, MikeAction::Down).await.unwrap();
    assert_eq!(info.mike_sub_status, 1);
    assert!(fh.codes().contains(&2011) && fh.codes().contains(&2010) && fh.codes().contains(&2000));
    p.rooms.mike_lock_all(host, dd, true).await.unwrap();
    let info = p.rooms.mike_list(host, dd).await.unwrap();
    assert!(info.mike_list[1..].iter().all(|s| s.state == SeatState::Locked && s.user.is_none()));
    p.rooms.mike_lock(host, dd, 3, false).await.unwrap();
    p.rooms.mike_invite(host, dd, vs[0]).await.unwrap();
    let info = p.rooms.mike_invite_accept(vs[0], room.room_serial).await.unwrap();
    assert_eq!(info.mike_sub_status, 2);
    assert_eq!(
        p.rooms.mike_invite_refuse(vs[0], room.room_serial).await,
        Err(DomainError::NoInvite)
    );
}

// Control: apply (pending 30 s, then 0 by timer), deny (denied 60 s), assign, recycle, remand,
// invite; a minor is refused control.
#[tokio::test(start_paused = true)]
async fn control_and_the_apply_states() {
    let p = platform("rooms-control").await;
    let host = user(&p, "13900000091").await;
    let a = user(&p, "13900000092").await;
    let minor = user(&p, "13900000093").await;
    let room = p.rooms.create_room(host, form(None)).await.unwrap();
    let (dd, serial) = (room.dd_rid, room.room_serial);
    p.rooms.enter_room(a, "d", enter(dd, None)).await.unwrap();
    p.rooms.enter_room(minor, "d", enter(dd, None)).await.unwrap();
    // The minor flag is set after entry (it comes later from outside): control is still refused.
    p.rooms
        .set_user_flags(
            minor,
            UserFlags {
                minor: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let (fa, _) = watch(&p, a, &p.rooms.room_info(a, Some(dd)).await.unwrap()).await;
    let _minor_socket = watch(&p, minor, &p.rooms.room_info(a, Some(dd)).await.unwrap()).await;

    assert_eq!(p.rooms.control_apply(a, serial).await.unwrap().state, 1);
    assert_eq!(p.rooms.control_apply_list(host, serial).await.unwrap().len(), 1);
    tokio::time::advance(Duration::from_secs(30)).await;
    settle().await;
    assert_eq!(p.rooms.room_user_info(a).await.unwrap().apply_control.state, 0, "lapsed after 30 s");
    p.rooms.control_apply(a, serial).await.unwrap();
    p.rooms.control_deny(host, serial, a).await.unwrap();
    assert_eq!(p.rooms.room_user_info(a).await.unwrap().apply_control.state, 2);
    assert!(matches!(
        p.rooms.control_apply(a, serial).await,
        Err(DomainError::ControlApplyOpen { .. })
    ));
    tokio::time::advance(Duration::from_secs(60)).await;
    settle().await;
    assert_eq!(p.rooms.room_user_info(a).await.unwrap().apply_control.state, 0, "lapsed after 60 s");
    assert!(fa.codes().contains(&2022));

    p.rooms.control_assign(host, serial, a).await.unwrap();
    assert_eq!(p.rooms.room_info(a, Some(dd)).await.unwrap().controller, a);
    assert_eq!(p.rooms.room_user_info(a).await.unwrap().role, PlayRole::RoomControl);
    assert_eq!(p.rooms.mike_list(host, dd).await.unwrap().control_status, 2);
    p.rooms.control_recycle(host, serial).await.unwrap();
    assert_eq!(p.rooms.room_info(a, Some(dd)).await.unwrap().controller, host);
    p.rooms.control_invite(host, serial, a).await.unwrap();
    p.rooms.control_invite_accept(a, serial).await.unwrap();
    p.rooms.control_remand(a, serial, Some(a)).await.unwrap();
    assert_eq!(p.rooms.room_info(a, Some(dd)).await.unwrap().controller, host);
    let codes = fa.codes();
    for code in [2021, 2024, 2025] {
        assert!(codes.contains(&code), "{code} in {codes:?}");
    }
    assert_eq!(p.rooms.control_apply(minor, serial).await, Err(DomainError::MinorControlLimit));
    assert_eq!(
        p.rooms.control_assign(host, serial, minor).await,
        Err(DomainError::MinorControlLimit)
    );
    assert_eq!(p.rooms.control_recycle(a, serial).await, Err(DomainError::RoomForbidden));
}

// Rotation: applicants in a first-come queue, a turn each, shown in the room info.
#[tokio::test(start_paused = true)]
async fn rotation_hands_control_on() {
    let p = platform("rooms-rotation").await;
    let host = user(&p, "13900000101").await;
    let a = user(&p, "13900000102").await;
    let b = user(&p, "13900000103").await;
    let room = p.rooms.create_room(host, form(None)).await.unwrap();
    let (dd, serial) = (room.dd_rid, room.room_serial);
    let ea = p.rooms.enter_room(a, "d", enter(dd, None)).await.unwrap();
    let eb = p.rooms.enter_room(b, "d", enter(dd, None)).await.unwrap();
    let _sockets = (watch(&p, a, &ea.room).await, watch(&p, b, &eb.room).await);
    p.rooms.rotation_set(host, serial, true, Some(60)).await.unwrap();
    p.rooms.control_apply(a, serial).await.unwrap();
    p.rooms.control_apply(b, serial).await.unwrap();
    let info = p.rooms.room_info(host, Some(dd)).await.unwrap();
    assert_eq!((info.controller, info.rotation.queue.clone()), (a, vec![b]));
    assert!(info.rotation.turn_ends_at_ms.is_some());
    tokio::time::advance(Duration::from_secs(60)).await;
    settle().await;
    let info = p.rooms.room_info(host, Some(dd)).await.unwrap();
    assert_eq!((info.controller, info.rotation.queue.len()), (b, 0), "the turn passed on");
    p.rooms.control_recycle(host, serial).await.unwrap();
    assert_eq!(p.rooms.room_info(host, Some(dd)).await.unwrap().controller, host);
}

// The relay: the host's relay start becomes the room's game status (1001), its end ends the
// room and `relay_room_serial` finds the room for game/over's answer.
#[tokio::test(start_paused = true)]
async fn the_relay_follows_the_hosts_game() {
    let p = platform("rooms-relay").await;
    let host = user(&p, "13900000111").await;
    let a = user(&p, "13900000112").await;
    let room = p.rooms.create_room(host, form(None)).await.unwrap();
    let dd = room.dd_rid;
    let e = p.rooms.enter_room(a, "d", enter(dd, None)).await.unwrap();
    let (fa, _) = watch(&p, a, &e.room).await;
    let relay = RelayParams {
        mode: MODE_RELAY,
        ..Default::default()
    };
    let v = p.rooms.start_game_with(host, "dev-h", 1, Some(1), &[], Some(relay)).await.unwrap();
    settle().await;
    let info = p.rooms.room_info(a, Some(dd)).await.unwrap();
    assert_eq!(info.game_status, Status::Ready as i32);
    p.play.session_op(host, SessionOp::Confirm, v.id).await.unwrap();
    pass(600).await;
    assert_eq!(p.rooms.room_info(a, Some(dd)).await.unwrap().game_status, Status::Playing as i32);
    assert_eq!(p.rooms.room_connection(a, dd).await.unwrap().status, 5);
    assert!(fa.codes().contains(&1001));
    assert_eq!(p.rooms.relay_room_serial(v.id).await, Ok(Some(room.room_serial)));
    // Every control change reaches the game host before the call answers.
    assert_eq!(p.rooms.stream_controller_of(v.id), Some(host));
    p.rooms.control_assign(host, room.room_serial, a).await.unwrap();
    assert_eq!(p.rooms.stream_controller_of(v.id), Some(a), "told before the answer");
    p.rooms.control_recycle(host, room.room_serial).await.unwrap();
    assert_eq!(p.rooms.stream_controller_of(v.id), Some(host));
    p.play.session_op(host, SessionOp::Over, v.id).await.unwrap();
    settle().await;
    assert_eq!(p.rooms.room_info(a, Some(dd)).await, Err(DomainError::RoomNotFound));
    assert_eq!(fa.codes().last(), Some(&3002), "the stream's last event");
    assert!(p.rooms.live_detail(host, room.room_serial).await.unwrap().ended);
}

// Entry conflicts: the own game running (130443), another room (130203), another device
// (130204); force resolves each. Watch while you wait: a player whose game is READY enters,
// and confirming their game leaves the room.
#[tokio::test(start_paused = true)]
async fn entry_conflicts_and_watch_while_you_wait() {
    let p = platform("rooms-conflicts").await;
    let host = user(&p, "13900000121").await;
    let host2 = user(&p, "13900000122").await;
    let a = user(&p, "13900000123").await;
    let r1 = p.rooms.create_room(host, form(None)).await.unwrap();
    let r2 = p.rooms.create_room(host2, form(None)).await.unwrap();

    p.rooms.enter_room(a, "d1", enter(r1.dd_rid, None)).await.unwrap();
    assert_eq!(
        p.rooms.enter_room(a, "d1", enter(r2.dd_rid, None)).await.map(|_| ()),
        Err(DomainError::InOtherRoom { dd_rid: r1.dd_rid })
    );
    assert_eq!(
        p.rooms.enter_room(a, "d2", enter(r1.dd_rid, None)).await.map(|_| ()),
        Err(DomainError::InRoomElsewhere { dd_rid: r1.dd_rid })
    );
    let forced = EnterRoom {
        force: true,
        ..enter(r2.dd_rid, None)
    };
    p.rooms.enter_room(a, "d1", forced).await.unwrap();
    settle().await;
    assert_eq!(p.rooms.room_user_info(a).await.unwrap().dd_rid, Some(r2.dd_rid));
    assert_eq!(
        p.rooms.room_users(host, r1.dd_rid, 1, 10).await.unwrap().total_rows,
        1,
        "left the other room"
    );

    // Watch while you wait: READY may enter; the confirm leaves the room.
    let v = p.play.start_game(a, "d1", 2, Some(1), &[]).await.unwrap();
    settle().await;
    assert!(matches!(p.play.game_state(a).await.unwrap(), GameState::Online(s) if s.status == Status::Ready));
    p.play.session_op(a, SessionOp::Confirm, v.id).await.unwrap();
    settle().await;
    assert_eq!(
        p.rooms.room_user_info(a).await.unwrap().dd_rid,
        None,
        "entering the game left the room"
    );
    // Now CONNECTING: entering needs force, which ends the game.
    assert_eq!(
        p.rooms.enter_room(a, "d1", enter(r1.dd_rid, None)).await.map(|_| ()),
        Err(DomainError::RoomGameRunning {
            session_id: v.id,
            game_id: 2
        })
    );
    let forced = EnterRoom {
        force: true,
        ..enter(r1.dd_rid, None)
    };
    p.rooms.enter_room(a, "d1", forced).await.unwrap();
    settle().await;
    assert!(matches!(
        p.play.game_state(a).await.unwrap(),
        GameState::None | GameState::Ended { .. }
    ));
}

// The room list: public rooms, hottest first; relay counts per game.
#[tokio::test(start_paused = true)]
async fn the_room_list() {
    let p = platform("rooms-list").await;
    let h1 = user(&p, "13900000131").await;
    let h2 = user(&p, "13900000132").await;
    let h3 = user(&p, "13900000133").await;
    let r1 = p.rooms.create_room(h1, form(None)).await.unwrap();
    let r2 = p.rooms.create_room(h2, form(None)).await.unwrap();
    p.rooms
        .create_room(
            h3,
            RoomForm {
                is_show: false,
                ..form(None)
            },
        )
        .await
        .unwrap();
    watch(&p, h2, &r2.room).await;
    p.rooms.chat_send(h2, r2.dd_rid, "热".into(), None).await.unwrap();
    settle().await;
    let list = p.rooms.room_list(1, 10).await.unwrap();
    assert_eq!(list.total_rows, 2, "private rooms are not listed");
    assert_eq!(list.rows[0].room.dd_rid, r2.dd_rid);
    assert!(list.rows[0].heat > list.rows[1].heat);
    assert_eq!(list.rows[1].room.dd_rid, r1.dd_rid);
    assert_eq!(p.rooms.relay_counts(&[1, 2]).await, Ok(vec![(1, 2), (2, 0)]));
}

// A platform started on the same store restores the open rooms under new epochs; a socket
// watching with an old position gets a reset.
#[tokio::test(start_paused = true)]
async fn open_rooms_are_restored_with_a_new_epoch() {
    let dir = temp_dir("rooms-restore");
    let config = DomainConfig {
        sms_fail_numbers: vec![],
        nodes: vec![node(0)],
        ..DomainConfig::default()
    };
    let p1 = Platform::start(storage::Store::open_sqlite(&dir).unwrap(), config.clone())
        .await
        .unwrap();
    let host = user(&p1, "13900000141").await;
    let room = p1.rooms.create_room(host, form(Some("4321"))).await.unwrap();
    p1.rooms.chat_send(host, room.dd_rid, "开播".into(), None).await.unwrap();

    tokio::time::advance(Duration::from_millis(5)).await;
    let p2 = Platform::start(storage::Store::open_sqlite(&dir).unwrap(), config).await.unwrap();
    let again = p2.rooms.my_room(host).await.unwrap().expect("restored");
    assert_eq!(
        (again.dd_rid, again.room_serial, again.has_password),
        (room.dd_rid, room.room_serial, true)
    );
    assert_ne!(again.epoch, room.room.epoch);
    let f = Arc::new(Frames::default());
    p2.rooms
        .watch(host, room.dd_rid, f.clone(), Some((room.room.epoch.to_string(), room.room.offset)))
        .await
        .unwrap();
    assert_eq!(f.resets().len(), 1);
    assert_eq!(p2.rooms.live_detail(host, room.room_serial).await.map(|d| d.ended), Ok(false));
}

// Switch together (§2.16): the host's changeGame with relay params moves the room to the new
// game; the old session's end does not end the room and the new session is its relay. Gifts
// reach the barrage and the summary.
#[tokio::test(start_paused = true)]
async fn switch_game_together_and_gifts() {
    let p = platform("rooms-switch").await;
    let host = user(&p, "13900000151").await;
    let a = user(&p, "13900000152").await;
    let room = p.rooms.create_room(host, form(None)).await.unwrap();
    let dd = room.dd_rid;
    let e = p.rooms.enter_room(a, "d", enter(dd, None)).await.unwrap();
    let (fa, _) = watch(&p, a, &e.room).await;
    let relay = || {
        Some(RelayParams {
            mode: MODE_RELAY,
            ..Default::default()
        })
    };
    let v1 = p.rooms.start_game_with(host, "dev-h", 1, Some(1), &[], relay()).await.unwrap();
    settle().await;
    let v2 = p.rooms.change_game_with(host, "dev-h", 2, Some(1), &[], relay()).await.unwrap();
    settle().await;
    let info = p.rooms.room_info(a, Some(dd)).await.unwrap();
    assert_eq!(info.game.id, 2);
    assert_eq!(info.game_status, Status::Ready as i32);
    assert_eq!(p.rooms.relay_room_serial(v2.id).await, Ok(Some(room.room_serial)));
    assert_ne!(v1.id, v2.id);
    assert_eq!(p.store().rooms.get(dd).unwrap().map(|r| r.game_id), Some(2));

    p.rooms.room_gift(a, dd, host, "/gifts/rose.png".into(), 3).await.unwrap();
    assert!(fa.codes().contains(&1010));
    let d = p.rooms.live_detail(host, room.room_serial).await.unwrap();
    assert_eq!((d.gift_num, d.give_gift_user_count), (3, 1));
}

// The online list pages (the host first); the host's queue switch and clear (2002).
#[tokio::test(start_paused = true)]
async fn online_list_pages_and_queue_clear() {
    let p = platform("rooms-pages").await;
    let host = user(&p, "13900000161").await;
    let room = p.rooms.create_room(host, form(None)).await.unwrap();
    let dd = room.dd_rid;
    let mut vs = vec![];
    for i in 0..9 {
        let v = user(&p, &format!("1390000017{i}")).await;
        let e = p.rooms.enter_room(v, "d", enter(dd, None)).await.unwrap();
        vs.push((v, watch(&p, v, &e.room).await.0));
    }
    let page1 = p.rooms.room_users(host, dd, 1, 4).await.unwrap();
    let page3 = p.rooms.room_users(host, dd, 3, 4).await.unwrap();
    assert_eq!(page1.total_rows, 10);
    assert_eq!(page1.rows[0].user.uid, host);
    assert_eq!(page3.rows.iter().map(|u| u.user.uid).collect::<Vec<_>>(), vec![vs[7].0, vs[8].0]);
    for (v, _) in &vs[..7] {
        p.rooms.mike_up(*v, dd, MikeAction::Up, None).await.unwrap();
    }
    p.rooms.mike_req_action(vs[7].0, dd, MikeReqAction::Apply).await.unwrap();
    p.rooms.mike_req_action(vs[8].0, dd, MikeReqAction::Apply).await.unwrap();
    let q = p.rooms.mike_req_switch(host, dd, vs[7].0, vs[8].0).await.unwrap();
    assert_eq!(q.iter().map(|u| u.uid).collect::<Vec<_>>(), vec![vs[8].0, vs[7].0]);
    p.rooms.mike_req_clear(host, dd).await.unwrap();
    assert!(p.rooms.mike_req_list(host, dd).await.unwrap().is_empty());
    // Aimed events travel in the room's one stream (the client filters by user_ids).
    assert!(vs[7].1.codes().contains(&2002) && vs[8].1.codes().contains(&2002));
}
