//! The bills' live record over real HTTP (commerce.md §2.1 `/user/bill/liveRecord`): the caller's
//! hosted rooms, newest first, with the game, the gifts and gold received and the play minutes
//! charged to the room's relay session; another host's rooms never show; bad pages are 40000.

use crate::common;

use common::{code, config_with, temp_dir, Client};

#[actix_rt::test]
async fn live_record_lists_the_callers_rooms_with_their_charges() {
    let dir = temp_dir("live-bill");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    let (_, anon) = a.get("/api/v3/user/bill/live").await;
    assert_ne!(code(&anon), 0, "logged out: {anon}");
    a.login("15600000301").await;
    let mut b = Client::new(srv.addr, "dev-b");
    b.login("15600000302").await;
    let uid = a.get("/api/user/profile").await.1["data"]["uid"].as_i64().unwrap();
    let other = b.get("/api/user/profile").await.1["data"]["uid"].as_i64().unwrap();
    let store = srv.platform.store();

    let room = |host: i64, name: &str, game_id: i64, at: i64| storage::NewRoom {
        host_uid: host,
        name: name.to_owned(),
        mode: 2,
        is_show: true,
        password: None,
        game_id,
        created_at: at,
    };
    // An ended room (a host has at most one open room).
    let mut first = store.rooms.insert(&room(uid, "第一场", 1, 1_000)).unwrap();
    first.ended_at = Some(1_500);
    store.rooms.update(&first).unwrap();
    let mut second = store.rooms.insert(&room(uid, "第二场", 2, 2_000)).unwrap();
    store.rooms.insert(&room(other, "别人的", 1, 3_000)).unwrap();

    // The second room's relay session played two charged minutes; it got 3 gifts worth 50 gold.
    let session = store
        .sessions
        .insert(&storage::NewGameSession {
            uid,
            game_id: 2,
            node_id: 1,
            device_no: "dev-a".to_owned(),
            created_at: 2_000,
            lane: 0,
            cutoff_at: None,
        })
        .unwrap()
        .id;
    let user = store.users.get(uid).unwrap().unwrap();
    assert!(
        user.play_time_free + user.play_time_paid >= 2,
        "the registration gift pays two minutes"
    );
    store.assets.charge_minute(uid, session, 0, false, 2_100).unwrap();
    store.assets.charge_minute(uid, session, 1, false, 2_200).unwrap();
    second.relay_session = Some(session);
    second.gift_count = 3;
    second.gold = 50;
    second.ended_at = Some(5_000);
    store.rooms.update(&second).unwrap();

    let (_, list) = a.get("/api/v3/user/bill/live").await;
    assert_eq!(code(&list), 0, "{list}");
    assert_eq!(list["data"]["total"], 2, "only the caller's rooms: {list}");
    let rows = list["data"]["data"].as_array().unwrap();
    assert_eq!(rows[0]["name"], "第二场", "newest first");
    assert_eq!(rows[0]["game_id"], 2);
    assert!(!rows[0]["game_name"].as_str().unwrap().is_empty());
    assert_eq!((rows[0]["gift_count"].as_i64(), rows[0]["gold"].as_i64()), (Some(3), Some(50)));
    assert_eq!(rows[0]["play_minutes"], 2);
    assert_eq!(rows[0]["ended_at"], 5_000);
    assert_eq!(rows[1]["name"], "第一场");
    assert_eq!(rows[1]["play_minutes"], 0);
    assert_eq!(rows[1]["ended_at"], 1_500);

    let (_, page2) = a.get("/api/v3/user/bill/live?page=2&page_size=1").await;
    assert_eq!(page2["data"]["data"][0]["name"], "第一场", "{page2}");
    for bad in ["page=0", "page_size=0", "page_size=101", "page=x"] {
        let (_, v) = a.get(&format!("/api/v3/user/bill/live?{bad}")).await;
        assert_eq!(code(&v), 40000, "{bad}: {v}");
    }
    let (_, theirs) = b.get("/api/v3/user/bill/live").await;
    assert_eq!(theirs["data"]["total"], 1);
}
