//! `gameDuration` over real HTTP (core-platform.md §3.3 "Game duration", §7.4): the caller's
//! own session answers its hanging state; another player's session, an unknown one or a guest
//! is refused without a word about it; bad input is 40000. (When a session hangs is the actors'
//! test `hosts::a_session_without_input_hangs_and_input_wakes_it`, on paused time.)

use crate::common;

use common::{code, config, temp_dir, Client};
use serde_json::json;

#[actix_rt::test]
async fn only_the_player_reads_a_sessions_hanging_state() {
    let dir = temp_dir("hang-http");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let mut a = Client::new(srv.addr, "a");
    a.login("13800000701").await;
    let mut b = Client::new(srv.addr, "b");
    b.login("13800000702").await;
    let (_, r) = a
        .post(
            "/api/japi/yoo/game/start",
            json!({"gameId": 1, "nodeId": 1, "nodeDelay": "[]", "afterAuthCheck": 1}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let id = r["data"]["id"].as_i64().unwrap();

    let (status, r) = a.post("/api/japi/yoo/game/gameDuration", json!({"id": id})).await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    assert_eq!(
        (&r["data"]["hook"], &r["data"]["onHookDuration"]),
        (&json!(0), &json!(0)),
        "not playing yet: {r}"
    );
    assert!(r["data"]["responseTime"].as_i64().unwrap() > 0);
    let (_, r) = a.post("/api/japi/yoo/game/gameDuration", json!({"id": id.to_string()})).await;
    assert_eq!(code(&r), 0, "a numeric string is an id: {r}");

    // another player's session and an unknown id: the same refusal, nothing about the session
    for (c, asked) in [(&mut b, id), (&mut a, id + 1000)] {
        let (status, r) = c.post("/api/japi/yoo/game/gameDuration", json!({"id": asked})).await;
        assert_eq!(
            (status, code(&r), r["message"].as_str()),
            (404, 130118, Some("游戏会话不存在或已结束")),
            "{r}"
        );
        assert_eq!(r["data"], serde_json::Value::Null, "{r}");
    }
    let mut guest = Client::new(srv.addr, "guest");
    let (status, r) = guest.post("/api/japi/yoo/game/gameDuration", json!({"id": id})).await;
    assert_eq!((status, code(&r)), (401, 20119), "{r}");
    for bad in [json!({}), json!({"id": "x"}), json!({"id": null}), json!("x")] {
        let (status, r) = a.post("/api/japi/yoo/game/gameDuration", bad.clone()).await;
        assert_eq!((status, code(&r)), (400, 40000), "{bad}: {r}");
    }
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
