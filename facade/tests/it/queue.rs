//! The queue's lanes, cards, claims, moves and play time over the real HTTP and WebSocket
//! interfaces (issue 3), with the dev operator grant.

use crate::common;

use common::{code, config_with, temp_dir, Client};
use serde_json::{json, Value};

async fn grant(c: &mut Client, phone: &str, body: Value) -> Value {
    let mut guest = Client::new(c.base.trim_start_matches("http://").parse().unwrap(), "operator");
    let mut b = body;
    b["cellphone"] = json!(phone);
    let (_, r) = guest.post("/api/dev/grant", b).await;
    r
}

async fn start(c: &mut Client, game: i64) -> Value {
    c.post("/api/japi/yoo/game/start", json!({"gameId": game, "nodeId": 1, "nodeDelay": "[]"}))
        .await
        .1
}

async fn state(c: &mut Client) -> Value {
    c.post("/api/japi/yoo/game/floatBall", json!({})).await.1["data"].clone()
}

/// Lanes from memberships, the channel preview, fast-entry cards, monthly claims, move.
#[actix_rt::test]
async fn lanes_cards_claims_and_moves() {
    let dir = temp_dir("lanes");
    let srv = facade::start(config_with(&dir, 0, 60, "rank_refresh_ms = 50")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    let mut b = Client::new(srv.addr, "dev-b");
    let r = a.login("15500000001").await;
    assert_eq!(r["data"]["give_goods"][0]["face_value_txt"], "60分钟", "the registration gift");
    b.login("15500000002").await;
    let (_, p) = a.get("/api/user/profile").await;
    assert_eq!(p["data"]["play_time_free"], 60);

    assert_eq!(start(&mut a, 1).await["data"]["sort"], 1);
    assert_eq!(start(&mut b, 1).await["data"]["sort"], 2);
    let (_, cs) = b.post("/api/japi/yoo/game/gameChannelSize", json!({"isFast": 3})).await;
    assert_eq!(
        (cs["data"]["preSort"].as_i64(), cs["data"]["isFast"].as_i64()),
        (Some(0), Some(3)),
        "{cs}"
    );
    let (_, cs) = b.post("/api/japi/yoo/game/gameChannelSize", json!({"isFast": 0})).await;
    assert_eq!(cs["data"]["preSort"], 2, "a normal joiner now has both ahead");
    assert_eq!(
        (
            &cs["data"]["waitDuration"],
            &cs["data"]["waitDurationMin"],
            &cs["data"]["waitDurationMax"],
            &cs["data"]["ownWaitMin"]
        ),
        (&json!(0), &Value::Null, &Value::Null, &Value::Null),
        "nobody admitted yet: the wait is not measured, and not guessed: {cs}"
    );

    // A VVIP grant while queued moves B ahead at once.
    let g = grant(&mut b, "15500000002", json!({"kind": "vvip", "days": 30})).await;
    assert_eq!(g["data"]["member_info"]["using"], "vvip", "{g}");
    let sb = state(&mut b).await;
    assert_eq!((sb["isFast"].as_i64(), sb["sort"].as_i64()), (Some(3), Some(1)));
    assert_eq!(state(&mut a).await["sort"], 2);

    // A fast-entry card moves A to the member lane.
    let (_, cards) = a.get("/api/v3/user/card/list?status=0&card_type=1").await;
    assert_eq!(cards["data"]["total"], 0);
    grant(&mut a, "15500000001", json!({"kind": "card", "count": 2})).await;
    let (_, cards) = a.get("/api/v3/user/card/list?status=0&card_type=1").await;
    assert_eq!(cards["data"]["total"], 2);
    let card_id = cards["data"]["data"][0]["id"].clone();
    let (_, used) = a.post("/api/v3/user/card/activate", json!({"id": card_id})).await;
    assert_eq!(
        (used["data"]["isFast"].as_i64(), used["data"]["sort"].as_i64()),
        (Some(1), Some(1)),
        "{used}"
    );
    let (_, again) = a.post("/api/v3/user/card/activate", json!({"id": card_id})).await;
    assert_eq!(code(&again), 20173);
    let (_, unknown) = a.post("/api/v3/user/card/activate", json!({"id": 999999})).await;
    assert_eq!(code(&unknown), 20172);
    let (_, bad) = a.post("/api/v3/user/card/activate", json!({"id": "x"})).await;
    assert_eq!(code(&bad), 40000);

    // Monthly member fast entry: B is vvip (5 one-hour cards), once a month; A is no member.
    let (_, rec) = b.get("/api/member/fast_enter/monthly_records").await;
    assert_eq!(
        (rec["data"]["receivable"].as_bool(), rec["data"]["monthly_receive_times"].as_i64()),
        (Some(true), Some(5))
    );
    let (_, got) = b.get("/api/member/fast_enter/receive").await;
    assert_eq!(got["data"]["cards"].as_array().unwrap().len(), 5);
    let (_, again) = b.get("/api/member/fast_enter/receive").await;
    assert_eq!(code(&again), 20170);
    let (_, nope) = a.get("/api/member/fast_enter/receive").await;
    assert_eq!(code(&nope), 20171);

    // Cross-screen: A (no member) is told to exit first; B (vvip) moves the game here.
    let mut a2 = Client::new(srv.addr, "dev-a2");
    a2.login("15500000001").await;
    let (_, mv) = a2.post("/api/japi/yoo/game/move", json!({})).await;
    assert_eq!((code(&mv), mv["data"]["needMember"].as_bool()), (130466, Some(true)));
    let mut b2 = Client::new(srv.addr, "dev-b2");
    b2.login("15500000002").await;
    assert_eq!(state(&mut b2).await["clientType"], "other");
    let (_, mv) = b2.post("/api/japi/yoo/game/move", json!({})).await;
    assert_eq!(mv["data"]["clientType"], "web", "{mv}");
    assert_eq!(state(&mut b).await["clientType"], "other");

    // Bad grants are refused.
    let g = grant(&mut a, "15500000001", json!({"kind": "gold", "days": 1})).await;
    assert_eq!(code(&g), 40000);
    let g = grant(&mut a, "15500000001", json!({"kind": "vip", "days": -1})).await;
    assert_eq!(code(&g), 40000);
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The start refusals of what players hold: member-only, subscription, no play time.
#[actix_rt::test]
async fn start_checks_over_http() {
    let dir = temp_dir("checks");
    let srv = facade::start(config_with(&dir, 1, 60, "register_gift_minutes = 0")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15600000001").await;
    assert_eq!(code(&start(&mut a, 1).await), 130102);
    grant(&mut a, "15600000001", json!({"kind": "play_time", "minutes": 30})).await;
    assert_eq!(code(&start(&mut a, 20).await), 130464);
    assert_eq!(code(&start(&mut a, 21).await), 130465);
    assert_eq!(code(&start(&mut a, 19).await), 130126);
    let r = start(&mut a, 1).await;
    assert_eq!(code(&r), 0, "{r}");
    // Another game while one runs: 130116, then changeGame switches.
    let r2 = start(&mut a, 2).await;
    assert_eq!((code(&r2), r2["data"]["id"].clone()), (130116, r["data"]["id"].clone()));
    let (_, sw) = a
        .post(
            "/api/japi/yoo/game/changeGame",
            json!({"gameId": 2, "nodeId": 1, "nodeDelay": "[]", "afterAuthCheck": 1}),
        )
        .await;
    assert_eq!((code(&sw), sw["data"]["gameId"].as_i64()), (0, Some(2)), "{sw}");
    assert_eq!(state(&mut a).await["gameId"], 2);
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Play time is spent while playing: the under-10-minutes notice, then time up ends the game.
#[actix_rt::test]
async fn play_time_notices_over_the_socket() {
    let dir = temp_dir("time");
    let srv = facade::start(config_with(
        &dir,
        1,
        60,
        "register_gift_minutes = 2\nplay_minute_ms = 300\nscience_duration_secs = 1",
    ))
    .await
    .unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15700000001").await;
    let mut sock = a.socket().await;
    let id = start(&mut a, 1).await["data"]["id"].clone();
    sock.wait_state(5, |s| s["status"] == 3).await;
    a.post("/api/japi/yoo/game/confirmConnect", json!({"id": id})).await;
    let mut notices = vec![];
    let ended = loop {
        let env = sock.next(10).await;
        let n = facade::proto::Notification::decode_bytes(env.content);
        if n.code == 130122 {
            let s: Value = serde_json::from_str(&n.data).unwrap();
            if s["hasGameOnline"] == false {
                break s;
            }
        } else {
            if n.code == 130125 {
                let data: Value = serde_json::from_str(&n.data).unwrap();
                assert_eq!(
                    (data["gameId"].as_i64(), data["scienceDuration"].as_i64()),
                    (Some(1), Some(1)),
                    "{data}"
                );
            }
            notices.push(n.code);
        }
    };
    assert_eq!(notices, vec![130123, 130125], "time up is told, the game ends after the countdown");
    assert_eq!(ended["endReason"], "time_up");
    let (_, p) = a.get("/api/user/profile").await;
    assert_eq!(p["data"]["play_time_total"], 0);
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}
