//! Recently played games and favourites over real HTTP (social.md §2.4, §4.11, §7 "Catalogue,
//! recent and favourites"): a game becomes recently played when a session of it starts to play,
//! clearing empties the caller's list only; collect, cancel, the favourites list with its total,
//! the `collected` flag of the catalogue and game info, the profile's `collects`; an unknown or
//! deleted game refused with the envelope; the favourite section; played games first in the
//! catalogue; guests refused as on every logged-in route.

use crate::common;

use common::{code, config, temp_dir, Client};
use serde_json::{json, Value};

fn ids(list: &Value) -> Vec<i64> {
    list.as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect()
}

async fn played(c: &mut Client) -> Vec<i64> {
    let (status, r) = c.get("/api/v3/user/games/played?page_size=10&field=logo").await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    ids(&r["data"]["data"])
}

async fn collected(c: &mut Client) -> (Vec<i64>, i64) {
    let (status, r) = c.get("/api/v3/user/games/collected?page_size=20&field=logo").await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    assert!(r["data"]["data"].as_array().unwrap().iter().all(|g| g["collected"] == true), "{r}");
    (ids(&r["data"]["data"]), r["data"]["total"].as_i64().unwrap())
}

async fn post_ok(c: &mut Client, path: &str, body: Value) {
    let (status, r) = c.post(path, body).await;
    assert_eq!((status, code(&r)), (200, 0), "{path}: {r}");
}

/// Starts `game_id` on node 1 and plays it: READY, confirmed, PLAYING (seen on the socket).
async fn play(c: &mut Client, game_id: i64) {
    let mut socket = c.socket().await;
    let (_, r) = c
        .post(
            "/api/japi/yoo/game/start",
            json!({"gameId": game_id, "nodeDelay": "[]", "afterAuthCheck": 1, "nodeId": 1}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let id = r["data"]["id"].as_i64().unwrap();
    socket.wait_state(5, |s| s["status"] == 3).await;
    let (_, r) = c.post("/api/japi/yoo/game/confirmConnect", json!({"id": id})).await;
    assert_eq!(code(&r), 0, "{r}");
    socket.wait_state(5, |s| s["status"] == 5).await;
    let (_, r) = c.post("/api/japi/yoo/game/over", json!({"id": id})).await;
    assert_eq!(code(&r), 0, "{r}");
    socket.wait_state(5, |s| s["hasGameOnline"] == false).await;
}

// A real start puts the game at the top of the player's recent list (and first in the
// catalogue's played-first order); a queued or confirmed-only session does not count; clearing
// empties the caller's list and leaves another player's alone.
#[actix_rt::test]
async fn a_played_game_is_recent_until_cleared() {
    let dir = temp_dir("collect-played");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let mut a = Client::new(srv.addr, "a");
    let mut b = Client::new(srv.addr, "b");
    a.login("13800007101").await;
    b.login("13800007102").await;
    assert_eq!(played(&mut a).await, Vec::<i64>::new());

    play(&mut a, 3).await;
    assert_eq!(played(&mut a).await, vec![3]);
    play(&mut a, 5).await;
    play(&mut b, 7).await;
    assert_eq!(played(&mut a).await, vec![5, 3], "most recent first");
    play(&mut a, 3).await;
    assert_eq!(played(&mut a).await, vec![3, 5], "one entry a game");
    assert_eq!(played(&mut b).await, vec![7], "each player sees their own");

    let (_, r) = a.get("/api/web/v1/game/list?page=1&page_size=4&played_first=true&field=logo").await;
    assert_eq!(ids(&r["data"]["data"]), vec![3, 5, 1, 2], "{r}");
    let (_, r) = a.get("/api/web/v1/game/list?page=1&page_size=4").await;
    assert_eq!(ids(&r["data"]["data"]), vec![1, 2, 3, 4], "the usual order without played_first");
    let mut guest = Client::new(srv.addr, "guest");
    let (_, r) = guest.get("/api/web/v1/game/list?page=1&page_size=2&played_first=true").await;
    assert_eq!(ids(&r["data"]["data"]), vec![1, 2], "a guest has no played games");
    let (status, r) = a.get("/api/web/v1/game/list?played_first=maybe").await;
    assert_eq!((status, code(&r)), (400, 40000), "{r}");

    let (status, r) = a.get("/api/v3/user/games/played?page_size=101").await;
    assert_eq!((status, code(&r)), (400, 40000), "{r}");
    let (_, r) = a.get("/api/v3/user/games/played?page_size=1").await;
    assert_eq!(ids(&r["data"]["data"]), vec![3]);

    post_ok(&mut a, "/api/user/games/played/delete", json!({})).await;
    assert_eq!(played(&mut a).await, Vec::<i64>::new());
    assert_eq!(played(&mut b).await, vec![7], "another player's history stays");
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// Collect and cancel: idempotent, the latest first with the total, the collected flag in the
// catalogue and game info (for the collector only), the profile's count; unknown and deleted
// games refused; another user's favourites untouched.
#[actix_rt::test]
async fn favourites_are_collected_and_cancelled() {
    let dir = temp_dir("collect-favourites");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let mut a = Client::new(srv.addr, "a");
    let mut b = Client::new(srv.addr, "b");
    a.login("13800007201").await;
    b.login("13800007202").await;
    assert_eq!(collected(&mut a).await, (vec![], 0));

    post_ok(&mut a, "/api/user/game/collect", json!({"id": 3})).await;
    post_ok(&mut a, "/api/user/game/collect", json!({"id": "7"})).await;
    post_ok(&mut a, "/api/user/game/collect", json!({"id": 3})).await;
    post_ok(&mut b, "/api/user/game/collect", json!({"id": 9})).await;
    assert_eq!(collected(&mut a).await, (vec![7, 3], 2), "once each, the latest first");
    assert_eq!(collected(&mut b).await, (vec![9], 1));

    for (id, what) in [(999_999, "unknown"), (28, "deleted")] {
        let (status, r) = a.post("/api/user/game/collect", json!({"id": id})).await;
        assert_eq!(
            (status, code(&r), r["message"].as_str()),
            (404, 130100, Some("游戏不存在")),
            "{what}: {r}"
        );
    }
    for bad in [json!({}), json!({"id": "x"}), json!({"id": null})] {
        let (status, r) = a.post("/api/user/game/collect", bad.clone()).await;
        assert_eq!((status, code(&r)), (400, 40000), "{bad}: {r}");
    }

    let (_, r) = a.post("/api/japi/yoo/game/info", json!({"gameId": 3})).await;
    assert_eq!(r["data"]["collected"], true, "{r}");
    let (_, r) = b.post("/api/japi/yoo/game/info", json!({"gameId": 3})).await;
    assert_eq!(r["data"]["collected"], false, "{r}");
    let (_, r) = a.get("/api/web/v1/game/list?page=1&page_size=8").await;
    let flags: Vec<(i64, bool)> = r["data"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].as_i64().unwrap(), g["collected"].as_bool().unwrap()))
        .collect();
    assert_eq!(flags.iter().filter(|(_, c)| *c).map(|(id, _)| *id).collect::<Vec<_>>(), vec![3, 7]);
    let (_, r) = a.get("/api/user/profile").await;
    assert_eq!(r["data"]["collects"], 2, "{r}");

    post_ok(&mut a, "/api/user/game/collect/cancel", json!({"id": 3})).await;
    post_ok(&mut a, "/api/user/game/collect/cancel", json!({"id": 3})).await;
    post_ok(&mut a, "/api/user/game/collect/cancel", json!({"id": 9})).await;
    assert_eq!(collected(&mut a).await, (vec![7], 1));
    assert_eq!(collected(&mut b).await, (vec![9], 1), "b's favourite is not a's to cancel");
    let (_, r) = a.post("/api/japi/yoo/game/info", json!({"gameId": 3})).await;
    assert_eq!(r["data"]["collected"], false, "{r}");
    let (_, r) = a.get("/api/user/profile").await;
    assert_eq!(r["data"]["collects"], 1, "{r}");
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// The favourite section "Guess you like" reads, to guests too; a guest's recent and favourite
// calls are refused as every logged-in route refuses them.
#[actix_rt::test]
async fn the_favourite_section_and_guests() {
    let dir = temp_dir("collect-guests");
    let srv = facade::start(config(&dir, 1, 60)).await.unwrap();
    let mut guest = Client::new(srv.addr, "guest");
    let (status, r) = guest
        .get("/api/web/v1/section/game?section_key=favorite_game&field=logo&page_size=20")
        .await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    let games = r["data"]["games"].as_array().unwrap();
    assert!(games.len() >= 4, "{r}");
    assert!(games.iter().all(|g| g["status"] == 1 && g["available"] == true), "{r}");
    let (_, r) = guest.get("/api/web/v1/section/game?section_key=nothing_here").await;
    assert_eq!(r["data"]["games"], json!([]), "{r}");
    let (status, r) = guest.get("/api/web/v1/section/game").await;
    assert_eq!((status, code(&r)), (400, 40000), "{r}");
    let (status, r) = guest.get("/api/web/v1/section/game?section_key=favorite_game&page_size=0").await;
    assert_eq!((status, code(&r)), (400, 40000), "{r}");

    let (profile_status, profile) = guest.get("/api/user/profile").await;
    let refused = (profile_status, code(&profile));
    assert_ne!(refused.1, 0);
    for (status, r) in [
        guest.get("/api/v3/user/games/played?page_size=10").await,
        guest.get("/api/v3/user/games/collected?page_size=20").await,
        guest.post("/api/user/games/played/delete", json!({})).await,
        guest.post("/api/user/game/collect", json!({"id": 3})).await,
        guest.post("/api/user/game/collect/cancel", json!({"id": 3})).await,
    ] {
        assert_eq!((status, code(&r)), refused, "{r}");
    }
    // every call is in the contract, collect with its refusal of an unknown game
    let (_, doc) = guest.get("/api/openapi.json").await;
    for p in [
        "/api/v3/user/games/played",
        "/api/user/games/played/delete",
        "/api/v3/user/games/collected",
        "/api/user/game/collect",
        "/api/user/game/collect/cancel",
        "/api/web/v1/section/game",
    ] {
        assert!(doc["paths"].get(p).is_some(), "{p} missing from the document");
    }
    let codes = doc["paths"]["/api/user/game/collect"]["post"]["x-codes"].as_array().unwrap();
    assert!(codes.iter().any(|c| c["code"] == 130100), "{codes:?}");

    let mut a = Client::new(srv.addr, "a");
    a.login("13800007301").await;
    post_ok(&mut a, "/api/user/game/collect", json!({"id": 1})).await;
    let (_, r) = a.get("/api/web/v1/section/game?section_key=favorite_game&page_size=2").await;
    let games = r["data"]["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(
        (games[0]["id"].as_i64(), games[0]["collected"].as_bool()),
        (Some(1), Some(true)),
        "{r}"
    );
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
