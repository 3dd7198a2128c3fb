//! Exclusive play time over real HTTP against a real server and SQLite (commerce.md §2.1,
//! §2.13, §4.12): the games of a category (`/game/section`), an exclusive card granted for a
//! category, listed with its minutes left, never used from the backpack, paying the play minutes
//! of a game of its category only (the other category's game charges the balance, or is refused
//! with none), used up with its ledger entry.

use crate::common;

use common::{code, config_with, temp_dir, Client};
use serde_json::{json, Value};

async fn grant(c: &Client, phone: &str, body: Value) -> Value {
    let mut operator = Client::new(c.base.trim_start_matches("http://").parse().unwrap(), "operator");
    let mut b = body;
    b["cellphone"] = json!(phone);
    operator.post("/api/dev/grant", b).await.1
}

fn session(srv: &facade::Running, uid: i64, game_id: i64) -> i64 {
    srv.platform
        .store()
        .sessions
        .insert(&storage::NewGameSession {
            uid,
            game_id,
            node_id: 1,
            device_no: "dev-x".to_owned(),
            created_at: 1,
            lane: 0,
            cutoff_at: None,
        })
        .unwrap()
        .id
}

#[actix_rt::test]
async fn game_section_lists_the_games_of_a_category() {
    let dir = temp_dir("exclusive-section");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    let (_, one) = a.get("/api/web/v1/game/section?game_category_id=1").await;
    assert_eq!(code(&one), 0, "{one}");
    let ids: Vec<i64> = one["data"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![1, 3], "{one}");
    assert_eq!(one["data"]["total"], 2);
    let (_, two) = a.get("/api/web/v1/game/section?game_category_id=2").await;
    let ids: Vec<i64> = two["data"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![2, 4], "{two}");
    let (_, none) = a.get("/api/web/v1/game/section?game_category_id=99").await;
    assert_eq!(none["data"]["total"], 0, "{none}");
    for bad in ["0", "-1", "abc", ""] {
        let (_, v) = a.get(&format!("/api/web/v1/game/section?game_category_id={bad}")).await;
        assert_eq!(code(&v), 40000, "{bad}: {v}");
    }
    let (_, missing) = a.get("/api/web/v1/game/section").await;
    assert_eq!(code(&missing), 40000, "{missing}");
}

#[actix_rt::test]
async fn an_exclusive_card_pays_only_for_games_of_its_category() {
    let dir = temp_dir("exclusive-charge");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15600000101").await;
    let profile = a.get("/api/user/profile").await.1["data"].clone();
    let uid = profile["uid"].as_i64().unwrap();
    let store = srv.platform.store();

    // An exclusive card needs its category.
    let bad = grant(&a, "15600000101", json!({"kind": "exclusive_time_card", "minutes": 2, "days": 3})).await;
    assert_eq!(code(&bad), 40000, "{bad}");
    let g = grant(
        &a,
        "15600000101",
        json!({"kind": "exclusive_time_card", "minutes": 2, "days": 3, "game_category_id": 1}),
    )
    .await;
    assert_eq!(code(&g), 0, "{g}");
    let (_, cards) = a.get("/api/v3/user/card/exclusive").await;
    assert_eq!(code(&cards), 0, "{cards}");
    let list = cards["data"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{cards}");
    assert_eq!(
        (list[0]["game_category_id"].as_i64(), list[0]["minutes_left"].as_i64()),
        (Some(1), Some(2))
    );
    let card_id = list[0]["id"].as_i64().unwrap();

    // It is not used from the backpack.
    let (_, used) = a.post("/api/v3/user/card/activate", json!({"id": card_id})).await;
    assert_ne!(code(&used), 0, "an exclusive card adds no balance: {used}");

    // Empty the balances, so that only the card can pay.
    let user = store.users.get(uid).unwrap().unwrap();
    let other = session(&srv, uid, 2);
    let mut minute = 0;
    for _ in 0..(user.play_time_free + user.play_time_paid) {
        let (charge, _, _) = store.assets.charge_minute(uid, other, minute, false, 10).unwrap();
        assert_eq!(charge.free + charge.paid, 1, "a game of another category takes the balance");
        minute += 1;
    }
    // A game of another category: the card does not pay.
    let refused = store.assets.charge_minute(uid, other, minute, false, 10);
    assert!(matches!(refused, Err(storage::Error::Conflict(_))), "{refused:?}");
    let (_, after) = a.get("/api/v3/user/card/exclusive").await;
    assert_eq!(after["data"][0]["minutes_left"], 2, "untouched by the other category: {after}");

    // A game of its category: the card pays, minute by minute, then is used up.
    let mine = session(&srv, uid, 3);
    let (charge, user, _) = store.assets.charge_minute(uid, mine, 0, false, 10).unwrap();
    assert_eq!((charge.free, charge.paid, charge.package), (0, 0, false));
    assert_eq!((user.play_time_free, user.play_time_paid), (0, 0));
    let (_, after) = a.get("/api/v3/user/card/exclusive").await;
    assert_eq!(after["data"][0]["minutes_left"], 1, "{after}");
    store.assets.charge_minute(uid, mine, 1, false, 10).unwrap();
    let (_, after) = a.get("/api/v3/user/card/exclusive").await;
    assert_eq!(after["data"].as_array().unwrap().len(), 0, "used up: {after}");
    let gone = store.assets.charge_minute(uid, mine, 2, false, 10);
    assert!(matches!(gone, Err(storage::Error::Conflict(_))), "{gone:?}");
    let diff = store.commerce.ledger_mismatches(uid).unwrap();
    assert!(diff.is_empty(), "the ledger replays to the balances: {diff:?}");
}

async fn start(c: &mut Client, game: i64) -> Value {
    c.post("/api/japi/yoo/game/start", json!({"gameId": game, "nodeId": 1, "nodeDelay": "[]"}))
        .await
        .1
}

/// Out of play time a start is refused with 130102 (the client's use-up flow); an exclusive card
/// lets a game of its category start, never one of another category.
#[actix_rt::test]
async fn short_of_time_unless_an_exclusive_card_fits_the_game() {
    let dir = temp_dir("exclusive-start");
    let srv = facade::start(config_with(&dir, 1, 60, "register_gift_minutes = 0")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15600000201").await;
    assert_eq!(code(&start(&mut a, 3).await), 130102, "no play time");
    let g = grant(
        &a,
        "15600000201",
        json!({"kind": "exclusive_time_card", "minutes": 30, "days": 3, "game_category_id": 1}),
    )
    .await;
    assert_eq!(code(&g), 0, "{g}");
    let other = start(&mut a, 2).await;
    assert_eq!(code(&other), 130102, "a game of another category: {other}");
    assert_eq!(other["message"], "游戏时长不足，请补充时长", "{other}");
    let mine = start(&mut a, 3).await;
    assert_eq!(code(&mine), 0, "a game of the card's category: {mine}");
    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}
