//! How a game starts, over real HTTP (core-platform.md §4.4 step 10, §2.14, §3.3 "Game info"):
//! `game/info` carries the game's start mode, supported room modes, associated type and start
//! URL; the server refuses what the client's step would not do (an external game's start 130128,
//! a play-together-only game's start alone 130121, a room of a mode the game does not support
//! 130129); the unsupported game's share link; the first-play start guide's switch and the node
//! list it measures (`game/node`); bad input answered with the envelope.

use crate::common;

use common::{code, config, config_with, temp_dir, Client};
use serde_json::{json, Value};

async fn info(c: &mut Client, game_id: i64) -> Value {
    let (status, r) = c
        .post(
            "/api/japi/yoo/game/info",
            json!({"gameId": game_id, "bannerWidth": 1920, "bannerHeight": 1080}),
        )
        .await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    r["data"].clone()
}

fn modes(d: &Value) -> (i64, Value, i64, &str) {
    (
        d["startMode"].as_i64().unwrap(),
        d["supportModes"].clone(),
        d["associatedType"].as_i64().unwrap(),
        d["startUrl"].as_str().unwrap(),
    )
}

async fn start(c: &mut Client, body: Value) -> (u16, Value) {
    c.post("/api/japi/yoo/game/start", body).await
}

// The seeded start modes as game/info shows them (to a guest too).
#[actix_rt::test]
async fn game_info_carries_the_start_modes() {
    let dir = temp_dir("start-modes-info");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let mut guest = Client::new(srv.addr, "guest");
    assert_eq!(modes(&info(&mut guest, 1).await), (0, json!([2, 4]), 1, ""));
    assert_eq!(
        modes(&info(&mut guest, 14).await),
        (0, json!([2, 4]), 2, "https://h5.example.com/zhulin/")
    );
    assert_eq!(modes(&info(&mut guest, 16).await), (2, json!([2]), 1, ""));
    assert_eq!(modes(&info(&mut guest, 18).await), (0, json!([]), 1, ""));
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// An external game is never started here; a play-together-only game is not started alone; a
// room is not made for a game in a mode it does not support; none of these leaves a session.
#[actix_rt::test]
async fn the_server_refuses_what_the_start_step_would_not_do() {
    let dir = temp_dir("start-modes-refusals");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let mut p = Client::new(srv.addr, "p");
    p.login("13800000601").await;

    let (status, r) = start(&mut p, json!({"gameId": 14, "nodeId": 1, "nodeDelay": "[]", "afterAuthCheck": 1})).await;
    assert_eq!(
        (status, code(&r), r["message"].as_str()),
        (409, 130128, Some("当前游戏暂不支持本端")),
        "{r}"
    );
    let (status, r) = start(&mut p, json!({"gameId": 16, "nodeId": 1, "nodeDelay": "[]", "afterAuthCheck": 1})).await;
    assert_eq!(
        (status, code(&r), r["message"].as_str()),
        (409, 130121, Some("当前游戏仅支持一起玩，请先完善游戏的房间信息")),
        "{r}"
    );
    let (_, r) = p
        .post(
            "/api/japi/yoo/game/changeGame",
            json!({"gameId": 16, "nodeId": 1, "nodeDelay": "[]"}),
        )
        .await;
    assert_eq!(code(&r), 130121, "{r}");
    let (_, state) = p.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(state["data"]["hasGameOnline"], false, "no session was made: {state}");

    // a RELAY room for 18 (no play together) is refused; a HAND room for 16 (RELAY only) too
    for (game, mode) in [(18, 2), (16, 4)] {
        let (_, r) = p
            .post(
                "/api/japi/yoo/v2/room/relay",
                json!({"roomName": "一起来玩", "gameId": game, "mode": mode, "isShow": 1, "authType": 2}),
            )
            .await;
        assert_eq!(
            (code(&r), r["message"].as_str()),
            (130129, Some("当前游戏暂不支持一起玩")),
            "{game} {mode}: {r}"
        );
    }
    // a RELAY room for 16, then its play-together start: the game runs as the room's relay
    let (_, r) = p
        .post(
            "/api/japi/yoo/v2/room/relay",
            json!({"roomName": "一起来玩", "gameId": 16, "mode": 2, "isShow": 1, "authType": 2}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let (_, r) = start(
        &mut p,
        json!({"gameId": 16, "nodeId": 1, "nodeDelay": "[]", "afterAuthCheck": 1, "isApplyRelay": 2, "isShow": 1}),
    )
    .await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(r["data"]["gameId"], 16);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// The share link of a game is its page on the canonical site; an unknown game 130100, a bad id
// 40000.
#[actix_rt::test]
async fn the_share_link_of_a_game() {
    let dir = temp_dir("start-modes-share");
    let srv = facade::start(config(&dir, 0, 60)).await.unwrap();
    let mut guest = Client::new(srv.addr, "guest");
    let (status, r) = guest.post("/api/japi/yoo/share/game/links", json!({"gameId": 26})).await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    let link = r["data"]["links"].as_str().unwrap();
    assert!(link.starts_with("http") && link.ends_with("/game/detail/26"), "{link}");
    let (status, r) = guest.post("/api/japi/yoo/share/game/links", json!({"gameId": 999})).await;
    assert_eq!((status, code(&r)), (404, 130100), "{r}");
    for bad in [json!({}), json!({"gameId": "x"}), json!({"gameId": null})] {
        let (status, r) = guest.post("/api/japi/yoo/share/game/links", bad.clone()).await;
        assert_eq!((status, code(&r)), (400, 40000), "{bad}: {r}");
    }
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// The start guide is off unless configured; its switch and latency cap are the common config's;
// game/node lists every node with its probe (to a guest too).
#[actix_rt::test]
async fn the_start_guide_config_and_the_nodes() {
    let dir = temp_dir("start-guide");
    let srv = facade::start(config(&dir, 0, 60)).await.unwrap();
    let mut guest = Client::new(srv.addr, "guest");
    let (_, r) = guest
        .post("/api/japi/yoo/common/config/list", json!({"groupCode": "common_config"}))
        .await;
    assert_eq!(
        (&r["data"]["show_game_start_guide"], &r["data"]["game_start_guide_max_delay"]),
        (&json!("0"), &json!("200"))
    );
    let (status, r) = guest.post("/api/japi/yoo/game/node", json!({})).await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    let nodes: Vec<(i64, i64, String)> = r["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["id"].as_i64().unwrap(),
                n["status"].as_i64().unwrap(),
                n["pingUrl"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        nodes,
        vec![(1, 1, "/api/node/1/ping".to_owned()), (2, 0, "/api/node/2/ping".to_owned())]
    );
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);

    let dir = temp_dir("start-guide-on");
    let srv = facade::start(config_with(
        &dir,
        0,
        60,
        "show_game_start_guide = true\ngame_start_guide_max_delay = 150",
    ))
    .await
    .unwrap();
    let mut guest = Client::new(srv.addr, "guest");
    let (_, r) = guest
        .post("/api/japi/yoo/common/config/list", json!({"groupCode": "common_config"}))
        .await;
    assert_eq!(
        (&r["data"]["show_game_start_guide"], &r["data"]["game_start_guide_max_delay"]),
        (&json!("1"), &json!("150"))
    );
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
