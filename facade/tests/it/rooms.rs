//! Live rooms over the real HTTP and WebSocket interfaces (issue 9): create with a password,
//! the entry outcomes, chat and its events on several sockets, seats, control, kick, the room
//! stream's resume after a dropped socket and the reset of a stale position, refusals of bad
//! input and of another user's room.

use crate::common;

use actix_web::web::Bytes;
use common::{code, config, temp_dir, Client, Socket};
use facade::proto::{Envelope, MessageType, Notification, RoomEvent, RoomEvents, RoomReset, RoomWatch};
use prost::Message;
use serde_json::{json, Value};

/// base64 of "1234" and of "9999".
const PASSWORD: &str = "MTIzNA==";
const WRONG: &str = "OTk5OQ==";

async fn server(name: &str) -> facade::Running {
    facade::start(config(&temp_dir(name), 1, 60)).await.unwrap()
}

async fn user(srv: &facade::Running, phone: &str) -> Client {
    let mut c = Client::new(srv.addr, &format!("dev-{phone}"));
    c.login(phone).await;
    c
}

/// A room made by `host`, with the password: (ddRid, roomSerial, the create answer's data).
async fn create_room(host: &mut Client) -> (i64, i64, Value) {
    let (_, r) = host
        .post(
            "/api/japi/yoo/v2/room/relay",
            json!({"roomName": "一起来玩", "gameId": 1, "mode": 2, "isShow": 1, "password": PASSWORD, "isUpdatePass": 1, "authType": 2}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let d = r["data"].clone();
    (d["ddRid"].as_i64().unwrap(), d["roomSerial"].as_i64().unwrap(), d)
}

async fn enter(c: &mut Client, dd_rid: i64, password: Option<&str>) -> Value {
    let mut body = json!({"ddRid": dd_rid, "mode": 1, "invitable": 1});
    if let Some(p) = password {
        body["password"] = json!(p);
    }
    c.post("/api/japi/yoo/v2/room/loginRelayRoom", body).await.1
}

/// Sends ROOM_WATCH from the position (epoch, offset).
async fn watch(s: &mut Socket, dd_rid: i64, epoch: &str, after_offset: u64) {
    let w = RoomWatch {
        dd_rid,
        epoch: epoch.into(),
        after_offset,
    };
    s.send(MessageType::RoomWatch, w.encode_to_vec()).await;
}

/// A room frame: the events of a batch, or a reset.
#[derive(Debug)]
enum RoomFrame {
    Events(RoomEvents),
    Reset(RoomReset),
}

/// The next room frame on the socket (user pushes skipped).
async fn room_frame(s: &mut Socket) -> RoomFrame {
    loop {
        let env: Envelope = s.next(10).await;
        if env.r#type == MessageType::RoomEvents as i32 {
            let batch = RoomEvents::decode(Bytes::from(env.content)).unwrap();
            assert_eq!(
                (env.offset, env.epoch.as_str()),
                (0, ""),
                "room frames leave the user stream's numbering alone"
            );
            return RoomFrame::Events(batch);
        }
        if env.r#type == MessageType::RoomReset as i32 {
            return RoomFrame::Reset(RoomReset::decode(Bytes::from(env.content)).unwrap());
        }
    }
}

/// Room events until one with `code` arrives: every event read, in order (the last is it).
async fn until(s: &mut Socket, code: i32) -> Vec<RoomEvent> {
    let mut seen = vec![];
    loop {
        match room_frame(s).await {
            RoomFrame::Events(b) => {
                let found = b.events.iter().any(|e| e.code == code);
                seen.extend(b.events);
                if found {
                    let at = seen.iter().rposition(|e| e.code == code).unwrap();
                    seen.truncate(at + 1);
                    return seen;
                }
            }
            RoomFrame::Reset(r) => panic!("unexpected reset {r:?} while waiting for {code}"),
        }
    }
}

/// Waits until the socket's watch is in place: the host says something, and it arrives.
async fn synced(host: &mut Client, dd_rid: i64, s: &mut Socket) {
    let (_, r) = host
        .post("/api/japi/yoo/room/chat/send", json!({"ddRid": dd_rid, "text": "欢迎"}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    until(s, 3000).await;
}

fn data(e: &RoomEvent) -> Value {
    serde_json::from_str(&e.data).unwrap()
}

/// The position of an entry or create answer.
fn position(d: &Value) -> (String, u64) {
    (d["epoch"].as_str().unwrap().to_string(), d["offset"].as_u64().unwrap())
}

// Create with a password; entry asks for it (130201), refuses a wrong one (130202), admits the
// right one; an unknown room is 130300; the room shows in the list and the relay counts.
#[actix_rt::test]
async fn create_and_enter_with_a_password() {
    let srv = server("room-enter").await;
    let mut host = user(&srv, "13900000001").await;
    let mut viewer = user(&srv, "13900000002").await;
    let (dd_rid, room_serial, created) = create_room(&mut host).await;
    assert!(room_serial > 0);
    assert_eq!(created["room"]["hasPassword"], true, "{created}");
    assert!(created.to_string().find("1234").is_none(), "the password is never shown");

    let r = enter(&mut viewer, dd_rid, None).await;
    assert_eq!((code(&r), r["message"].as_str()), (130201, Some("请输入房间密码")), "{r}");
    let r = enter(&mut viewer, dd_rid, Some(WRONG)).await;
    assert_eq!((code(&r), r["message"].as_str()), (130202, Some("房间密码错误")), "{r}");
    let r = enter(&mut viewer, dd_rid, Some(PASSWORD)).await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(r["data"]["room"]["ddRid"], dd_rid);
    // Guessing is bounded: a few wrong tries a minute, then 130202 with a wait (HTTP 429).
    let mut guesser = user(&srv, "13900000003").await;
    let mut limited = None;
    for _ in 0..6 {
        let (status, r) = guesser
            .post("/api/japi/yoo/v2/room/loginRelayRoom", json!({"ddRid": dd_rid, "password": WRONG}))
            .await;
        assert_eq!(code(&r), 130202, "{r}");
        if status == 429 {
            limited = Some(r);
            break;
        }
    }
    let limited = limited.expect("the tries are limited");
    assert!(limited["data"]["retry_after"].as_u64().is_some_and(|s| s > 0), "{limited}");
    assert_eq!(r["data"]["gameType"], 4, "a viewer without control");
    assert!(r["data"]["epoch"].as_str().is_some_and(|e| !e.is_empty()));

    let r = enter(&mut viewer, 987_654_321, None).await;
    assert_eq!(code(&r), 130300, "{r}");

    let (_, users) = viewer
        .post("/api/japi/yoo/v2/room/userList", json!({"ddRid": dd_rid, "page": 1, "size": 20}))
        .await;
    assert_eq!(users["data"]["totalRows"], 2, "{users}");
    let (_, list) = viewer.post("/api/japi/yoo/v2/room/list", json!({"page": 1, "size": 20})).await;
    assert_eq!(list["data"]["rows"][0]["room"]["ddRid"], dd_rid, "{list}");
    let (_, counts) = viewer.post("/api/japi/yoo/orm/relayCount", json!({"gameIds": [1, 2]})).await;
    assert_eq!(counts["data"], json!({"1": 1, "2": 0}), "{counts}");
    let (_, info) = host.post("/api/japi/yoo/v2/room/myRoom", json!({})).await;
    assert_eq!(info["data"]["room"]["ddRid"], dd_rid, "{info}");
    srv.handle.stop(false).await;
}

// A chat message reaches every watcher's socket as CHAT (3000) with the sender and the text; a
// second viewer's entry reaches the first as ROOM_ENTER (1004).
#[actix_rt::test]
async fn chat_reaches_every_watcher() {
    let srv = server("room-chat").await;
    let mut host = user(&srv, "13900000011").await;
    let mut a = user(&srv, "13900000012").await;
    let mut b = user(&srv, "13900000013").await;
    let (dd_rid, _, _) = create_room(&mut host).await;

    let ea = enter(&mut a, dd_rid, Some(PASSWORD)).await;
    let (epoch, offset) = position(&ea["data"]);
    let mut sa = a.socket().await;
    watch(&mut sa, dd_rid, &epoch, offset).await;

    let eb = enter(&mut b, dd_rid, Some(PASSWORD)).await;
    let (epoch_b, offset_b) = position(&eb["data"]);
    assert_eq!(epoch_b, epoch);
    let mut sb = b.socket().await;
    watch(&mut sb, dd_rid, &epoch_b, offset_b).await;
    let entered = until(&mut sa, 1004).await;
    assert_eq!(data(entered.last().unwrap())["userId"], uid_of(&mut b).await);

    let (_, r) = b
        .post(
            "/api/japi/yoo/room/chat/send",
            json!({"ddRid": dd_rid, "text": "大家好[smile.png]"}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    for s in [&mut sa, &mut sb] {
        let chat = until(s, 3000).await;
        let last = chat.last().unwrap();
        let d = data(last);
        assert_eq!(d["text"], "大家好[smile.png]");
        assert!(d["nickname"].is_string(), "{d}");
        assert!(last.offset > offset);
    }
    let (_, r) = a.post("/api/japi/yoo/room/chat/send", json!({"ddRid": dd_rid, "text": ""})).await;
    assert_eq!(code(&r), 130214, "an empty message: {r}");
    srv.handle.stop(false).await;
}

async fn uid_of(c: &mut Client) -> i64 {
    let (_, p) = c.get("/api/user/profile").await;
    p["data"]["uid"].as_i64().unwrap()
}

// Seats and control: a viewer takes a seat (mike list shows them), applies for control (the
// host's list and CONTROL_REQUEST), is assigned it (CONTROL_ON to them), and the host recycles
// it (CONTROL_OFF).
#[actix_rt::test]
async fn seats_and_control() {
    let srv = server("room-control").await;
    let mut host = user(&srv, "13900000021").await;
    let mut v = user(&srv, "13900000022").await;
    let v_uid = uid_of(&mut v).await;
    let (dd_rid, room_serial, created) = create_room(&mut host).await;
    let (epoch, offset) = position(&created);
    let mut sh = host.socket().await;
    watch(&mut sh, dd_rid, &epoch, offset).await;
    let e = enter(&mut v, dd_rid, Some(PASSWORD)).await;
    let (epoch_v, offset_v) = position(&e["data"]);
    let mut sv = v.socket().await;
    watch(&mut sv, dd_rid, &epoch_v, offset_v).await;

    let (_, m) = v.post("/api/japi/yoo/mike/up", json!({"ddRid": dd_rid, "action": 1})).await;
    assert_eq!(code(&m), 0, "{m}");
    assert_eq!(m["data"]["mikeSubStatus"], 2, "in the list: {m}");
    let (_, m) = host.post("/api/japi/yoo/mike/list", json!({"ddRid": dd_rid})).await;
    assert!(
        m["data"]["mikeList"].as_array().unwrap().iter().any(|s| s["userId"] == v_uid),
        "{m}"
    );

    let (_, a) = v.post("/api/japi/yoo/control/apply", json!({"roomSerial": room_serial})).await;
    assert_eq!((code(&a), a["data"]["state"].as_i64()), (0, Some(1)), "pending: {a}");
    until(&mut sh, 2020).await;
    let (_, l) = host
        .post("/api/japi/yoo/control/applyList", json!({"roomSerial": room_serial}))
        .await;
    assert_eq!(l["data"][0]["userId"], v_uid, "{l}");

    let (_, r) = host
        .post("/api/japi/yoo/control/assign", json!({"roomSerial": room_serial, "userId": v_uid}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let on = until(&mut sv, 2021).await;
    assert_eq!(on.last().unwrap().user_ids, [v_uid], "CONTROL_ON is aimed at the new controller");
    let (_, info) = v.post("/api/japi/yoo/v2/room/info", json!({"ddRid": dd_rid})).await;
    assert_eq!(info["data"]["room"]["controller"], v_uid, "{info}");

    let (_, r) = host.post("/api/japi/yoo/control/recycle", json!({"roomSerial": room_serial})).await;
    assert_eq!(code(&r), 0, "{r}");
    until(&mut sv, 2024).await;
    let (_, info) = v.post("/api/japi/yoo/v2/room/info", json!({"ddRid": dd_rid})).await;
    assert_ne!(info["data"]["room"]["controller"], v_uid, "{info}");
    srv.handle.stop(false).await;
}

// A kicked viewer gets KICK_OUT (2031) on their socket and may not come back (130205).
#[actix_rt::test]
async fn kick_and_no_return() {
    let srv = server("room-kick").await;
    let mut host = user(&srv, "13900000031").await;
    let mut v = user(&srv, "13900000032").await;
    let v_uid = uid_of(&mut v).await;
    let (dd_rid, _, _) = create_room(&mut host).await;
    let e = enter(&mut v, dd_rid, Some(PASSWORD)).await;
    let (epoch, offset) = position(&e["data"]);
    let mut sv = v.socket().await;
    watch(&mut sv, dd_rid, &epoch, offset).await;
    // The kick must find the watch in place (a watch after it is refused: no longer a member).
    synced(&mut host, dd_rid, &mut sv).await;

    let (_, r) = host
        .post("/api/japi/yoo/blacklist/kick", json!({"ddRid": dd_rid, "userId": v_uid}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let kicked = until(&mut sv, 2031).await;
    let k = kicked.last().unwrap();
    assert_eq!((k.user_ids.as_slice(), k.msg.as_str()), (&[v_uid][..], "你已被移出该房间"));
    let r = enter(&mut v, dd_rid, Some(PASSWORD)).await;
    assert_eq!((code(&r), r["message"].as_str()), (130205, Some("你已被移出该房间")), "{r}");
    srv.handle.stop(false).await;
}

// A socket that drops and comes back with ROOM_WATCH from its last offset receives exactly the
// events it missed (the same offsets, in order, as a watcher that never left); a position of
// another epoch gets ROOM_RESET with the current one.
#[actix_rt::test]
async fn a_dropped_socket_resumes_and_a_stale_epoch_resets() {
    let srv = server("room-resume").await;
    let mut host = user(&srv, "13900000041").await;
    let mut stay = user(&srv, "13900000042").await;
    let mut away = user(&srv, "13900000043").await;
    let (dd_rid, _, _) = create_room(&mut host).await;

    let e = enter(&mut stay, dd_rid, Some(PASSWORD)).await;
    let (epoch, offset) = position(&e["data"]);
    let mut s_stay = stay.socket().await;
    watch(&mut s_stay, dd_rid, &epoch, offset).await;
    let e = enter(&mut away, dd_rid, Some(PASSWORD)).await;
    let (epoch_a, offset_a) = position(&e["data"]);
    let mut s_away = away.socket().await;
    watch(&mut s_away, dd_rid, &epoch_a, offset_a).await;

    // Both see the first message; then `away` drops.
    host.post("/api/japi/yoo/room/chat/send", json!({"ddRid": dd_rid, "text": "一"}))
        .await;
    until(&mut s_stay, 3000).await;
    let seen = until(&mut s_away, 3000).await;
    let last = seen.last().unwrap().offset;
    s_away.close().await;

    for text in ["二", "三"] {
        let (_, r) = host
            .post("/api/japi/yoo/room/chat/send", json!({"ddRid": dd_rid, "text": text}))
            .await;
        assert_eq!(code(&r), 0, "{r}");
    }
    let mut missed = vec![];
    while missed.iter().filter(|e: &&RoomEvent| e.code == 3000).count() < 2 {
        missed.extend(until(&mut s_stay, 3000).await.into_iter().filter(|e| e.offset > last));
    }

    let mut back = away.socket().await;
    watch(&mut back, dd_rid, &epoch_a, last).await;
    let mut resumed = vec![];
    while resumed.len() < missed.len() {
        match room_frame(&mut back).await {
            RoomFrame::Events(b) => resumed.extend(b.events),
            RoomFrame::Reset(r) => panic!("a position within the ring resumes, got {r:?}"),
        }
    }
    let offsets = |v: &[RoomEvent]| v.iter().map(|e| (e.offset, e.code)).collect::<Vec<_>>();
    assert_eq!(offsets(&resumed[..missed.len()]), offsets(&missed), "exactly the missed events");
    assert_eq!(resumed[0].offset, last + 1, "no gap");
    let texts: Vec<String> = resumed
        .iter()
        .filter(|e| e.code == 3000)
        .map(|e| data(e)["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(texts, ["二", "三"]);

    // Another epoch: a reset to the current position.
    let mut stale = stay.socket().await;
    watch(&mut stale, dd_rid, "an-old-epoch", 1).await;
    match room_frame(&mut stale).await {
        RoomFrame::Reset(r) => {
            assert_eq!((r.dd_rid, r.epoch.as_str()), (dd_rid, epoch.as_str()));
            assert!(r.offset >= missed.last().unwrap().offset);
        }
        RoomFrame::Events(b) => panic!("a stale epoch resets, got {b:?}"),
    }
    srv.handle.stop(false).await;
}

// Malformed input is the envelope 40000 (never a 500); another user's room or session is refused
// by the room (not found, not a member, not permitted), never acted on.
#[actix_rt::test]
async fn bad_input_and_other_users_rooms_are_refused() {
    let srv = server("room-refusals").await;
    let mut host = user(&srv, "13900000051").await;
    let mut other = user(&srv, "13900000052").await;
    let other_uid = uid_of(&mut other).await;
    let (dd_rid, room_serial, _) = create_room(&mut host).await;

    for (path, body) in [
        ("/api/japi/yoo/v2/room/loginRelayRoom", r#"{"ddRid": "abc"}"#),
        ("/api/japi/yoo/v2/room/loginRelayRoom", r#"{}"#),
        ("/api/japi/yoo/v2/room/relay", r#"{"roomName": 5}"#),
        ("/api/japi/yoo/v2/room/userList", r#"{"ddRid": 1, "page": 0}"#),
        ("/api/japi/yoo/v2/room/userList", r#"{"ddRid": 1, "size": 1000}"#),
        ("/api/japi/yoo/mike/up", r#"{"ddRid": 1, "action": 9}"#),
        ("/api/japi/yoo/mike/operat", r#"{"ddRid": 1, "userId": 2, "action": 0}"#),
        ("/api/japi/yoo/mikeReq/action", r#"{"ddRid": 1, "action": 3}"#),
        ("/api/japi/yoo/control/rotation", r#"{"roomSerial": 1, "on": 1, "turnSecs": 5}"#),
        ("/api/japi/yoo/control/rotation", r#"{"roomSerial": 1, "on": 7}"#),
        ("/api/japi/yoo/orm/relayCount", r#"{"gameIds": "1"}"#),
        ("/api/japi/yoo/room/chat/send", r#"not json"#),
        ("/api/japi/social/black/list", r#"{"page": -1}"#),
    ] {
        let (status, r) = other.post_raw(path, body).await;
        assert_eq!((status, code(&r)), (400, 40000), "{path} {body}: {r}");
        assert_eq!(r["message"], "请求参数错误");
    }

    // Not a member: refused, not acted on.
    let refused = |r: &Value| [130206, 130207].contains(&code(r));
    let (_, r) = other.post("/api/japi/yoo/mike/up", json!({"ddRid": dd_rid, "action": 1})).await;
    assert!(refused(&r), "{r}");
    let (_, r) = other
        .post("/api/japi/yoo/room/chat/send", json!({"ddRid": dd_rid, "text": "hi"}))
        .await;
    assert!(refused(&r), "{r}");
    // A member who is not the host: the host's calls are refused.
    enter(&mut other, dd_rid, Some(PASSWORD)).await;
    let host_uid = uid_of(&mut host).await;
    let (_, r) = other
        .post("/api/japi/yoo/blacklist/kick", json!({"ddRid": dd_rid, "userId": host_uid}))
        .await;
    assert_eq!(code(&r), 130206, "{r}");
    let (_, r) = other
        .post(
            "/api/japi/yoo/control/assign",
            json!({"roomSerial": room_serial, "userId": other_uid}),
        )
        .await;
    assert_eq!(code(&r), 130206, "{r}");
    let (_, r) = other
        .post("/api/japi/yoo/v2/room/edit", json!({"roomName": "我的", "mode": 2, "isShow": 1}))
        .await;
    assert!(code(&r) != 0, "no room of their own to edit: {r}");
    let (_, info) = host.post("/api/japi/yoo/v2/room/info", json!({"ddRid": dd_rid})).await;
    assert_eq!(info["data"]["room"]["roomName"], "一起来玩");
    srv.handle.stop(false).await;
}

// The host's game started with the relay extra params is the room's relay: viewers see its
// status (GAME_INFO_CHANGE 1001); `game/over` answers the roomSerial, the room ends (ROOM_END
// 3002 on the stream, USER_RELAY_END 130447 to the viewer) and its live summary is there.
#[actix_rt::test]
async fn the_relay_s_end_ends_the_room() {
    let srv = server("room-relay").await;
    let mut host = user(&srv, "13900000061").await;
    let mut v = user(&srv, "13900000062").await;
    let (dd_rid, room_serial, _) = create_room(&mut host).await;
    let e = enter(&mut v, dd_rid, Some(PASSWORD)).await;
    let (epoch, offset) = position(&e["data"]);
    let mut sv = v.socket().await;
    watch(&mut sv, dd_rid, &epoch, offset).await;

    let (_, started) = host
        .post(
            "/api/japi/yoo/game/start",
            json!({"gameId": 1, "nodeId": 1, "nodeDelay": "[]", "isApplyRelay": 2, "isShow": 1}),
        )
        .await;
    assert_eq!(code(&started), 0, "{started}");
    let id = started["data"]["id"].as_i64().unwrap();
    let status = until(&mut sv, 1001).await;
    assert!(data(status.last().unwrap())["status"].as_i64().unwrap() > 0);

    let (_, over) = host.post("/api/japi/yoo/game/over", json!({"id": id})).await;
    assert_eq!((code(&over), over["data"]["roomSerial"].as_i64()), (0, Some(room_serial)), "{over}");
    // Both the stream's last event and the user notice arrive, in either order.
    let (mut ended, mut notice) = (false, None);
    while !(ended && notice.is_some()) {
        let env = sv.next(10).await;
        if env.r#type == MessageType::RoomEvents as i32 {
            let batch = RoomEvents::decode(Bytes::from(env.content)).unwrap();
            ended |= batch.events.iter().any(|e| e.code == 3002);
        } else if env.r#type == MessageType::Notification as i32 {
            let n = Notification::decode(Bytes::from(env.content)).unwrap();
            if n.code == 130447 {
                notice = Some(serde_json::from_str::<Value>(&n.data).unwrap());
            }
        }
    }
    assert_eq!(notice.unwrap()["roomSerial"], room_serial, "USER_RELAY_END names the summary");
    let (_, r) = v.post("/api/japi/yoo/v2/room/info", json!({"ddRid": dd_rid})).await;
    assert_eq!(code(&r), 130300, "the room ended: {r}");
    let (_, d) = host
        .post("/api/japi/yoo/v2/room/live/detail", json!({"roomSerial": room_serial}))
        .await;
    assert_eq!((code(&d), d["data"]["ended"].as_bool()), (0, Some(true)), "{d}");
    assert_eq!(d["data"]["audienceCount"], 2, "{d}");
    srv.handle.stop(false).await;
}

// The host turns the fair rotation on: it is in the room info for everyone, and an applicant
// joins it (their turn, or their place in its queue).
#[actix_rt::test]
async fn rotation_on_and_an_applicant_in_it() {
    let srv = server("room-rotation").await;
    let mut host = user(&srv, "13900000071").await;
    let mut v = user(&srv, "13900000072").await;
    let v_uid = uid_of(&mut v).await;
    let (dd_rid, room_serial, _) = create_room(&mut host).await;
    enter(&mut v, dd_rid, Some(PASSWORD)).await;

    let (_, r) = host
        .post(
            "/api/japi/yoo/control/rotation",
            json!({"roomSerial": room_serial, "on": 1, "turnSecs": 60}),
        )
        .await;
    assert_eq!(
        (code(&r), &r["data"]["on"], &r["data"]["turnSecs"]),
        (0, &json!(true), &json!(60)),
        "{r}"
    );
    let (_, r) = v
        .post("/api/japi/yoo/control/rotation", json!({"roomSerial": room_serial, "on": 0}))
        .await;
    assert_eq!(code(&r), 130206, "the host's call: {r}");

    let (_, a) = v.post("/api/japi/yoo/control/apply", json!({"roomSerial": room_serial})).await;
    assert_eq!(code(&a), 0, "{a}");
    let (_, info) = v.post("/api/japi/yoo/v2/room/info", json!({"ddRid": dd_rid})).await;
    let rot = &info["data"]["room"]["rotation"];
    assert_eq!(rot["on"], true, "{info}");
    let in_turn = rot["current"] == v_uid;
    let queued = rot["queue"].as_array().unwrap().contains(&json!(v_uid));
    assert!(in_turn || queued, "{rot}");
    srv.handle.stop(false).await;
}

// ROOM_UNWATCH stops the room's frames to the socket: what happens after it comes only when the
// socket watches again (then once, from its position). A refused watch (an unknown room) is a
// ROOM_RESET with an empty epoch; here it also marks that the socket has read the unwatch.
#[actix_rt::test]
async fn unwatch_stops_the_frames() {
    let srv = server("room-unwatch").await;
    let mut host = user(&srv, "13900000081").await;
    let mut v = user(&srv, "13900000082").await;
    let (dd_rid, _, _) = create_room(&mut host).await;
    let e = enter(&mut v, dd_rid, Some(PASSWORD)).await;
    let (epoch, offset) = position(&e["data"]);
    let mut s = v.socket().await;
    watch(&mut s, dd_rid, &epoch, offset).await;
    synced(&mut host, dd_rid, &mut s).await;
    let (_, info) = v.post("/api/japi/yoo/v2/room/info", json!({"ddRid": dd_rid})).await;
    let last = info["data"]["offset"].as_u64().unwrap();

    s.send(
        MessageType::RoomUnwatch,
        RoomWatch {
            dd_rid,
            ..Default::default()
        }
        .encode_to_vec(),
    )
    .await;
    watch(&mut s, 987_654_321, "", 0).await;
    match room_frame(&mut s).await {
        RoomFrame::Reset(r) => assert_eq!((r.dd_rid, r.epoch.as_str()), (987_654_321, "")),
        RoomFrame::Events(b) => panic!("nothing of the room after the unwatch: {b:?}"),
    }
    host.post("/api/japi/yoo/room/chat/send", json!({"ddRid": dd_rid, "text": "二"}))
        .await;
    watch(&mut s, dd_rid, &epoch, last).await;
    // A watch that survived the unwatch would have sent "二" live, then again on the resume.
    let mut events = until(&mut s, 3000).await;
    host.post("/api/japi/yoo/room/chat/send", json!({"ddRid": dd_rid, "text": "三"}))
        .await;
    while data(events.last().unwrap())["text"] != "三" {
        events.extend(until(&mut s, 3000).await);
    }
    let offsets: Vec<u64> = events.iter().map(|e| e.offset).collect();
    assert_eq!(offsets[0], last + 1, "{offsets:?}");
    assert!(offsets.windows(2).all(|w| w[1] == w[0] + 1), "once each, in order: {offsets:?}");
    let texts: Vec<Value> = events.iter().filter(|e| e.code == 3000).map(|e| data(e)["text"].clone()).collect();
    assert_eq!(texts, [json!("二"), json!("三")]);
    srv.handle.stop(false).await;
}

// What an attacker tried (the rooms audit): a chat ban does not lift by leaving and entering
// again; a face the chat box does not have, control characters and a direction override are
// 130214; a user whose relay qualification was withdrawn (the operator's flag) is refused
// control however they ask (20154), and so is a minor (20153); a socket watching a room its
// user is not in, or from a forged position, gets a reset and no events.
#[actix_rt::test]
async fn attackers_are_refused_and_change_nothing() {
    let srv = server("room-attacks").await;
    let mut host = user(&srv, "13900000091").await;
    let mut v = user(&srv, "13900000092").await;
    let mut banned = user(&srv, "13900000093").await;
    let mut outsider = user(&srv, "13900000094").await;
    let v_uid = uid_of(&mut v).await;
    let banned_uid = uid_of(&mut banned).await;
    let (dd_rid, room_serial, created) = create_room(&mut host).await;
    let (epoch, offset) = position(&created);
    assert_eq!(code(&enter(&mut v, dd_rid, Some(PASSWORD)).await), 0);

    // The ban outlives an exit and a new entry.
    let (_, r) = host
        .post("/api/japi/yoo/mike/banMessage", json!({"ddRid": dd_rid, "userId": v_uid}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let (_, r) = v.post("/api/japi/yoo/v2/room/exit", json!({})).await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(code(&enter(&mut v, dd_rid, Some(PASSWORD)).await), 0);
    let (_, r) = v
        .post("/api/japi/yoo/room/chat/send", json!({"ddRid": dd_rid, "text": "又来了"}))
        .await;
    assert_eq!((code(&r), r["message"].as_str()), (130213, Some("你已被禁言")), "{r}");
    let (_, r) = v.post("/api/japi/yoo/v2/room/userInfo", json!({})).await;
    assert_eq!(r["data"]["chatBanned"], true, "{r}");
    let (_, r) = host
        .post("/api/japi/yoo/mike/banMessage", json!({"ddRid": dd_rid, "userId": v_uid, "ban": 0}))
        .await;
    assert_eq!(code(&r), 0, "{r}");

    // Chat text that would show wrong, or nothing, to everyone.
    for body in [
        json!({"ddRid": dd_rid, "text": "", "faceId": 0}),
        json!({"ddRid": dd_rid, "text": "", "faceId": 99}),
        json!({"ddRid": dd_rid, "text": "", "faceId": -1}),
        json!({"ddRid": dd_rid, "text": "\u{202E}gnp.exe"}),
        json!({"ddRid": dd_rid, "text": "a\u{0}b"}),
        json!({"ddRid": dd_rid, "text": "\u{200B}\u{200B}"}),
    ] {
        let (status, r) = v.post("/api/japi/yoo/room/chat/send", body.clone()).await;
        assert_eq!((status, code(&r)), (400, 130214), "{body}: {r}");
    }
    let (_, r) = v
        .post("/api/japi/yoo/room/chat/send", json!({"ddRid": dd_rid, "text": "", "faceId": 12}))
        .await;
    assert_eq!(code(&r), 0, "{r}");

    // Relay qualification withdrawn: watching is fine, control is not.
    let (_, r) = host
        .post(
            "/api/dev/userFlags",
            json!({"cellphone": "13900000093", "status": 0, "minor": false, "relayBanned": true}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(code(&enter(&mut banned, dd_rid, Some(PASSWORD)).await), 0);
    let refused = |r: &Value| (code(r), r["message"].as_str().map(str::to_string));
    let not_relay = (20154, Some("您暂未获得一起玩公测资格".to_string()));
    let (_, r) = banned.post("/api/japi/yoo/control/apply", json!({"roomSerial": room_serial})).await;
    assert_eq!(refused(&r), not_relay, "{r}");
    let (_, r) = banned.post("/api/japi/yoo/mike/up", json!({"ddRid": dd_rid, "action": 2})).await;
    assert_eq!(refused(&r), not_relay, "{r}");
    for path in ["/api/japi/yoo/control/assign", "/api/japi/yoo/control/invite"] {
        let (_, r) = host.post(path, json!({"roomSerial": room_serial, "userId": banned_uid})).await;
        assert_eq!(refused(&r), not_relay, "{path}: {r}");
    }
    let (_, info) = host.post("/api/japi/yoo/v2/room/info", json!({"ddRid": dd_rid})).await;
    assert_eq!(info["data"]["room"]["controller"], uid_of(&mut host).await, "{info}");
    // A minor flagged while in the room is refused control too.
    let (_, r) = host
        .post(
            "/api/dev/userFlags",
            json!({"cellphone": "13900000092", "status": 0, "minor": true, "relayBanned": false}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let (_, r) = v.post("/api/japi/yoo/control/apply", json!({"roomSerial": room_serial})).await;
    assert_eq!(code(&r), 20153, "{r}");

    // The outsider's socket: a watch of a room they are not in, with the room's real position
    // or a forged one, is a reset with an empty epoch; the room's chat never reaches it.
    let mut so = outsider.socket().await;
    for (e, o) in [(epoch.as_str(), offset), (epoch.as_str(), u64::MAX), ("forged", 0)] {
        watch(&mut so, dd_rid, e, o).await;
        match room_frame(&mut so).await {
            RoomFrame::Reset(r) => assert_eq!((r.dd_rid, r.epoch.as_str()), (dd_rid, ""), "{r:?}"),
            RoomFrame::Events(b) => panic!("events for an outsider: {b:?}"),
        }
    }
    let (_, r) = host
        .post("/api/japi/yoo/room/chat/send", json!({"ddRid": dd_rid, "text": "只给房间里的人"}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let none = tokio::time::timeout(std::time::Duration::from_millis(500), room_frame(&mut so)).await;
    assert!(none.is_err(), "no room frame for an outsider: {none:?}");
    srv.handle.stop(false).await;
}
