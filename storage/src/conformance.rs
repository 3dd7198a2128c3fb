//! What every backend must do, written once as functions over a [`Store`], so that each backend
//! runs the same suite (see `tests.rs` for SQLite). Each function expects a freshly opened,
//! seeded store of its own and panics on the first broken rule.
//!
//! Available to other crates with the `conformance` feature.

use std::collections::HashSet;

use crate::model::{Game, GameSessionRecord, LoginSession, NewGameSession, Node, User};
use crate::{seed, Error, Store};

/// Creates (or finds) a user for the suite's own records.
fn user(store: &Store, cellphone: &str) -> User {
    store
        .users
        .get_or_create_by_phone(cellphone, "测试玩家", 1_000)
        .expect("create user")
        .0
}

fn login(token: &str, uid: i64, expires_at: i64) -> LoginSession {
    LoginSession {
        token: token.to_owned(),
        uid,
        csrf_token: format!("csrf-{token}"),
        device_no: "device-a".to_owned(),
        created_at: 1_000,
        expires_at,
    }
}

fn new_session(uid: i64, game_id: i64, created_at: i64) -> NewGameSession {
    NewGameSession {
        uid,
        game_id,
        node_id: 1,
        device_no: "device-a".to_owned(),
        created_at,
    }
}

/// The seeded games a listing shows, in listing order.
fn listed_seed() -> Vec<Game> {
    let mut games: Vec<Game> = seed::catalogue()
        .into_iter()
        .filter(|g| !g.deleted)
        .collect();
    games.sort_by_key(|g| (g.sort_order, g.id));
    games
}

/// get_or_create is idempotent, unique per phone (also under concurrent calls), and get finds
/// the user by uid.
pub fn users(store: &Store) {
    let (alice, created) = store
        .users
        .get_or_create_by_phone("13800000001", "星海玩家", 1_000)
        .expect("create alice");
    assert!(created, "first call creates");
    assert_eq!(
        alice,
        User {
            uid: alice.uid,
            cellphone: "13800000001".to_owned(),
            nickname: "星海玩家".to_owned(),
            avatar: String::new(),
            created_at: 1_000,
            play_time_free: 0,
            play_time_paid: 0,
        }
    );

    let (again, created) = store
        .users
        .get_or_create_by_phone("13800000001", "另一个昵称", 2_000)
        .expect("find alice");
    assert!(!created, "second call finds");
    assert_eq!(again, alice, "second call changes nothing");

    let (bob, created) = store
        .users
        .get_or_create_by_phone("13800000002", "云端车手", 3_000)
        .expect("create bob");
    assert!(created);
    assert_ne!(bob.uid, alice.uid);

    assert_eq!(
        store.users.get(alice.uid).expect("get"),
        Some(alice.clone())
    );
    assert_eq!(store.users.get(bob.uid).expect("get"), Some(bob.clone()));
    assert_eq!(store.users.get(i64::MAX).expect("get unknown"), None);

    // Concurrent first logins with one phone make exactly one user.
    let results: Vec<(User, bool)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|i| {
                s.spawn(move || {
                    store
                        .users
                        .get_or_create_by_phone("13800000003", &format!("玩家{i}"), 4_000)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread").expect("get_or_create"))
            .collect()
    });
    assert_eq!(
        results.iter().filter(|(_, created)| *created).count(),
        1,
        "one creation"
    );
    assert_eq!(
        results
            .iter()
            .map(|(u, _)| u.uid)
            .collect::<HashSet<_>>()
            .len(),
        1,
        "one uid"
    );
}

/// Login sessions: insert, get until expiry, duplicate token, delete, delete_expired.
pub fn login_sessions(store: &Store) {
    let uid = user(store, "13900000001").uid;
    let session = login("token-1", uid, 2_000);
    store.logins.insert(&session).expect("insert");

    let check = |token: &str, now: i64, expected: Option<&LoginSession>| {
        let got = store.logins.get(token, now).expect("get");
        assert_eq!(got.as_ref(), expected, "get({token:?}, now = {now})");
    };
    check("token-1", 1_000, Some(&session));
    check("token-1", 1_999, Some(&session));
    check("token-1", 2_000, None);
    check("token-1", 9_999, None);
    check("no-such-token", 1_000, None);

    let duplicate = login("token-1", uid, 5_000);
    assert!(
        matches!(store.logins.insert(&duplicate), Err(Error::Conflict(_))),
        "duplicate token is a conflict"
    );
    check("token-1", 1_000, Some(&session));

    store.logins.delete("token-1").expect("delete");
    check("token-1", 1_000, None);
    store
        .logins
        .delete("token-1")
        .expect("deleting an unknown token succeeds");

    for (token, expires_at) in [("a", 100), ("b", 200), ("c", 300), ("d", 400)] {
        store
            .logins
            .insert(&login(token, uid, expires_at))
            .expect("insert");
    }
    assert_eq!(store.logins.delete_expired(200).expect("delete_expired"), 2);
    assert_eq!(store.logins.delete_expired(200).expect("delete_expired"), 0);
    // Gone for good: not even an earlier `now` sees them.
    check("a", 50, None);
    check("b", 50, None);
    check("c", 250, Some(&login("c", uid, 300)));
    check("d", 250, Some(&login("d", uid, 400)));
}

/// The seeded catalogue: paging, keyword search, deleted games hidden from lists but not from get,
/// totals, and upsert_all.
pub fn catalogue(store: &Store) {
    let seeded = seed::catalogue();
    let listed = listed_seed();
    let ids = |games: &[Game]| games.iter().map(|g| g.id).collect::<Vec<_>>();
    assert_eq!(store.games.count().expect("count"), seeded.len() as u64);

    let (all, total) = store.games.list(None, 1, 100).expect("list");
    assert_eq!(all, listed, "listing shows every non-deleted game in order");
    assert_eq!(total, listed.len() as u64);

    let check_page = |page: u32, page_size: u32, expected: &[Game]| {
        let (items, total) = store.games.list(None, page, page_size).expect("list");
        assert_eq!(
            ids(&items),
            ids(expected),
            "page {page} of size {page_size}"
        );
        assert_eq!(
            total,
            listed.len() as u64,
            "total on page {page} of size {page_size}"
        );
    };
    check_page(1, 10, &listed[..10]);
    check_page(2, 10, &listed[10..20]);
    check_page(3, 10, &listed[20..]);
    check_page(4, 10, &[]);
    check_page(0, 5, &listed[..5]);
    check_page(1, 0, &[]);
    check_page(u32::MAX, u32::MAX, &[]);

    let check_search = |keyword: Option<&str>, expected: &[&str]| {
        let (items, total) = store.games.list(keyword, 1, 100).expect("search");
        let names: Vec<&str> = items.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, expected, "search {keyword:?}");
        assert_eq!(total, expected.len() as u64, "total of search {keyword:?}");
    };
    check_search(Some("星海"), &["星海远征", "星海牧歌"]);
    check_search(Some("纪元"), &["机甲纪元", "蒸汽纪元"]);
    check_search(Some("远征"), &["星海远征"]);
    check_search(Some("旧版"), &[]);
    check_search(Some("aurora"), &["极光车手 Aurora"]);
    check_search(Some("AURORA"), &["极光车手 Aurora"]);
    check_search(Some(" 牧歌 "), &["星海牧歌"]);
    check_search(Some("没有这个游戏"), &[]);
    check_search(Some("%"), &[]);
    let all_names: Vec<&str> = listed.iter().map(|g| g.name.as_str()).collect();
    check_search(Some(""), &all_names);
    check_search(Some("   "), &all_names);

    let (page, total) = store.games.list(Some("纪元"), 2, 1).expect("search page 2");
    assert_eq!((ids(&page), total), (vec![7], 2), "searches page too");

    let deleted = seeded
        .iter()
        .find(|g| g.deleted)
        .expect("seed has a deleted game");
    assert_eq!(
        store.games.get(deleted.id).expect("get"),
        Some(deleted.clone())
    );
    assert_eq!(
        store.games.get(1).expect("get"),
        seeded.iter().find(|g| g.id == 1).cloned()
    );
    assert_eq!(store.games.get(-1).expect("get unknown"), None);

    let renamed = Game {
        name: "星海远征 重制版".to_owned(),
        sort_order: 999,
        ..seeded[0].clone()
    };
    let added = Game {
        id: 1_000,
        name: "新游戏".to_owned(),
        hue: 359,
        ..seeded[1].clone()
    };
    store
        .games
        .upsert_all(&[renamed.clone(), added.clone()])
        .expect("upsert_all");
    assert_eq!(store.games.get(1).expect("get"), Some(renamed));
    assert_eq!(store.games.get(1_000).expect("get"), Some(added));
    assert_eq!(store.games.count().expect("count"), seeded.len() as u64 + 1);
    let (all, total) = store.games.list(None, 1, 100).expect("list");
    assert_eq!(total, listed.len() as u64 + 1);
    assert_eq!(
        all.last().map(|g| g.id),
        Some(1),
        "re-sorted by its new sort_order"
    );
    store.games.upsert_all(&[]).expect("upsert nothing");
}

/// The seeded nodes, get, and upsert.
pub fn nodes(store: &Store) {
    assert_eq!(store.nodes.list().expect("list"), seed::nodes());
    assert_eq!(
        store.nodes.get(1).expect("get"),
        seed::nodes().into_iter().next()
    );
    assert_eq!(store.nodes.get(-1).expect("get unknown"), None);

    let maintenance = Node {
        id: 1,
        name: "华东一区".to_owned(),
        status: 0,
    };
    let added = Node {
        id: 0,
        name: "测试区".to_owned(),
        status: 1,
    };
    store.nodes.upsert(&maintenance).expect("upsert existing");
    store.nodes.upsert(&added).expect("upsert new");
    assert_eq!(store.nodes.get(1).expect("get"), Some(maintenance));
    let ids: Vec<i64> = store
        .nodes
        .list()
        .expect("list")
        .iter()
        .map(|n| n.id)
        .collect();
    let mut expected: Vec<i64> = seed::nodes().iter().map(|n| n.id).chain([0]).collect();
    expected.sort_unstable();
    assert_eq!(ids, expected, "listed by id");
}

/// Game sessions: insert, update, get, list_by_user order and limit, list_open, unknown ids.
pub fn game_sessions(store: &Store) {
    let alice = user(store, "13700000001").uid;
    let bob = user(store, "13700000002").uid;

    let first = store
        .sessions
        .insert(&new_session(alice, 1, 1_000))
        .expect("insert");
    assert_eq!(
        first,
        GameSessionRecord {
            id: first.id,
            uid: alice,
            game_id: 1,
            node_id: 1,
            device_no: "device-a".to_owned(),
            status: 1,
            machine_id: None,
            created_at: 1_000,
            ready_at: None,
            playing_at: None,
            ended_at: None,
            end_reason: None,
        }
    );
    let other = store
        .sessions
        .insert(&new_session(bob, 3, 1_500))
        .expect("insert");
    let second = store
        .sessions
        .insert(&new_session(alice, 2, 2_000))
        .expect("insert");
    assert!(first.id < other.id && other.id < second.id, "ids increase");
    assert_eq!(
        store.sessions.get(first.id).expect("get"),
        Some(first.clone())
    );

    let check_user = |uid: i64, limit: u32, expected: &[&GameSessionRecord]| {
        let got = store
            .sessions
            .list_by_user(uid, limit)
            .expect("list_by_user");
        let expected: Vec<GameSessionRecord> = expected.iter().map(|r| (*r).clone()).collect();
        assert_eq!(got, expected, "list_by_user({uid}, {limit})");
    };
    check_user(alice, 10, &[&second, &first]);
    check_user(alice, 1, &[&second]);
    check_user(alice, 0, &[]);
    check_user(bob, 10, &[&other]);
    check_user(i64::MAX, 10, &[]);

    let ready = GameSessionRecord {
        status: 3,
        machine_id: Some("machine-7".to_owned()),
        ready_at: Some(1_100),
        ..first.clone()
    };
    store.sessions.update(&ready).expect("update");
    assert_eq!(
        store.sessions.get(first.id).expect("get"),
        Some(ready.clone())
    );
    assert_eq!(
        store.sessions.list_open().expect("list_open"),
        vec![ready.clone(), other.clone(), second.clone()]
    );

    let ended = GameSessionRecord {
        status: 0,
        playing_at: Some(1_200),
        ended_at: Some(1_800),
        end_reason: Some("user".to_owned()),
        ..ready
    };
    store.sessions.update(&ended).expect("update");
    assert_eq!(
        store.sessions.get(first.id).expect("get"),
        Some(ended.clone())
    );
    assert_eq!(
        store.sessions.list_open().expect("list_open"),
        vec![other, second.clone()]
    );
    check_user(alice, 10, &[&second, &ended]);

    let unknown = GameSessionRecord {
        id: second.id + 1_000,
        ..second
    };
    assert_eq!(store.sessions.update(&unknown), Err(Error::NotFound));
    assert_eq!(store.sessions.get(unknown.id).expect("get unknown"), None);
}

/// Records survive closing and reopening, and reopening neither re-seeds nor duplicates the
/// catalogue. `open` opens the same backing database each time.
pub fn persistence(open: &dyn Fn() -> Store) {
    let store = open();
    let alice = user(&store, "13600000001");
    let session = login("persisted", alice.uid, 10_000);
    store.logins.insert(&session).expect("insert login");
    let record = store
        .sessions
        .insert(&new_session(alice.uid, 2, 3_000))
        .expect("insert session");
    let renamed = Game {
        name: "龙脊山脉 典藏版".to_owned(),
        ..seed::catalogue()[1].clone()
    };
    store
        .games
        .upsert_all(std::slice::from_ref(&renamed))
        .expect("rename");
    let node = Node {
        id: 9,
        name: "海外一区".to_owned(),
        status: 1,
    };
    store.nodes.upsert(&node).expect("upsert node");
    let (listed_before, total_before) = store.games.list(None, 1, 100).expect("list");
    drop(store);

    let store = open();
    assert_eq!(
        store.users.get(alice.uid).expect("get user"),
        Some(alice.clone())
    );
    let (found, created) = store
        .users
        .get_or_create_by_phone("13600000001", "x", 9_000)
        .expect("find user");
    assert_eq!((found, created), (alice, false));
    assert_eq!(
        store.logins.get("persisted", 5_000).expect("get login"),
        Some(session)
    );
    assert_eq!(
        store.sessions.get(record.id).expect("get session"),
        Some(record.clone())
    );
    assert_eq!(
        store.sessions.list_open().expect("list_open"),
        vec![record.clone()]
    );
    assert_eq!(
        store.games.count().expect("count"),
        seed::catalogue().len() as u64,
        "seeded once"
    );
    assert_eq!(
        store.games.get(2).expect("get game"),
        Some(renamed),
        "seed does not overwrite"
    );
    assert_eq!(
        store.games.list(None, 1, 100).expect("list"),
        (listed_before, total_before)
    );
    assert_eq!(store.nodes.get(9).expect("get node"), Some(node));
    assert_eq!(
        store.nodes.list().expect("nodes").len(),
        seed::nodes().len() + 1
    );

    let next = store
        .sessions
        .insert(&new_session(record.uid, 1, 4_000))
        .expect("insert");
    assert!(next.id > record.id, "ids keep increasing across reopen");
}
