//! What every backend must do, written once as functions over a [`Store`], so that each backend
//! runs the same suite (see `tests.rs` for SQLite). Each function expects a freshly opened,
//! seeded store of its own and panics on the first broken rule.
//!
//! Available to other crates with the `conformance` feature.

use std::collections::HashSet;
use std::sync::Barrier;

use crate::model::{
    Asset, CounterKey, Entitlement, FastEnterCard, Game, GameSessionRecord, GoodsGrant, LoginSession, MonthlyClaim, NewGameSession,
    NewOrder, NewRoom, Node, OrderState, PendingCode, PhoneGuard, PlayCharge, QualityReport, RoomBlock, RoomPassword, RoomReport, Settled,
    User, Wallet,
};
use crate::{seed, Error, NewTimeCard, Result, Store};

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
        token_hash: token.to_owned(),
        uid,
        csrf_hash: format!("csrf-{token}"),
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
        lane: 0,
        cutoff_at: None,
    }
}

/// The seeded games a listing shows, in listing order.
fn listed_seed() -> Vec<Game> {
    let mut games: Vec<Game> = seed::catalogue().into_iter().filter(|g| !g.deleted).collect();
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
    assert_eq!(store.users.find_by_phone("13800000001").expect("find"), Some(alice.clone()));
    assert_eq!(store.users.find_by_phone("13800000009").expect("find"), None);
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
            status: 0,
            minor: false,
            relay_banned: false,
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

    assert_eq!(store.users.get(alice.uid).expect("get"), Some(alice.clone()));
    assert_eq!(store.users.get(bob.uid).expect("get"), Some(bob.clone()));
    assert_eq!(store.users.get(i64::MAX).expect("get unknown"), None);

    // Concurrent first logins with one phone make exactly one user.
    let results: Vec<(User, bool)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|i| s.spawn(move || store.users.get_or_create_by_phone("13800000003", &format!("玩家{i}"), 4_000)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread").expect("get_or_create"))
            .collect()
    });
    assert_eq!(results.iter().filter(|(_, created)| *created).count(), 1, "one creation");
    assert_eq!(results.iter().map(|(u, _)| u.uid).collect::<HashSet<_>>().len(), 1, "one uid");
}

/// Login sessions (found by their token hash): insert, get until expiry, duplicate, delete,
/// delete_expired.
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
    store.logins.delete("token-1").expect("deleting an unknown token succeeds");

    for (token, expires_at) in [("a", 100), ("b", 200), ("c", 300), ("d", 400)] {
        store.logins.insert(&login(token, uid, expires_at)).expect("insert");
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
        assert_eq!(ids(&items), ids(expected), "page {page} of size {page_size}");
        assert_eq!(total, listed.len() as u64, "total on page {page} of size {page_size}");
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

    let deleted = seeded.iter().find(|g| g.deleted).expect("seed has a deleted game");
    assert_eq!(store.games.get(deleted.id).expect("get"), Some(deleted.clone()));
    assert_eq!(store.games.get(1).expect("get"), seeded.iter().find(|g| g.id == 1).cloned());
    assert_eq!(store.games.get(-1).expect("get unknown"), None);
    let starts: Vec<(i64, i32, Vec<i32>, i32)> = [14, 16, 18]
        .iter()
        .map(|id| {
            let g = store.games.get(*id).expect("get").expect("seeded");
            (g.id, g.start.start_mode, g.start.support_modes, g.start.associated_type)
        })
        .collect();
    assert_eq!(
        starts,
        vec![(14, 0, vec![2, 4], 2), (16, 2, vec![2], 1), (18, 0, vec![], 1)],
        "the seeded start modes"
    );

    let renamed = Game {
        name: "星海远征 重制版".to_owned(),
        sort_order: 999,
        ..seeded[0].clone()
    };
    let added = Game {
        id: 1_000,
        name: "新游戏".to_owned(),
        hue: 359,
        start: crate::model::GameStart {
            start_mode: 4,
            support_modes: vec![4],
            associated_type: 2,
            start_url: "https://h5.example.com/new/".to_owned(),
        },
        ..seeded[1].clone()
    };
    store.games.upsert_all(&[renamed.clone(), added.clone()]).expect("upsert_all");
    assert_eq!(store.games.get(1).expect("get"), Some(renamed));
    assert_eq!(store.games.get(1_000).expect("get"), Some(added));
    assert_eq!(store.games.count().expect("count"), seeded.len() as u64 + 1);
    let (all, total) = store.games.list(None, 1, 100).expect("list");
    assert_eq!(total, listed.len() as u64 + 1);
    assert_eq!(all.last().map(|g| g.id), Some(1), "re-sorted by its new sort_order");
    store.games.upsert_all(&[]).expect("upsert nothing");
}

/// The seeded nodes, get, and upsert.
pub fn nodes(store: &Store) {
    assert_eq!(store.nodes.list().expect("list"), seed::nodes());
    assert_eq!(store.nodes.get(1).expect("get"), seed::nodes().into_iter().next());
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
    let ids: Vec<i64> = store.nodes.list().expect("list").iter().map(|n| n.id).collect();
    let mut expected: Vec<i64> = seed::nodes().iter().map(|n| n.id).chain([0]).collect();
    expected.sort_unstable();
    assert_eq!(ids, expected, "listed by id");
}

/// Game sessions: insert, update, get, list_by_user order and limit, list_open, unknown ids.
pub fn game_sessions(store: &Store) {
    let alice = user(store, "13700000001").uid;
    let bob = user(store, "13700000002").uid;

    let first = store.sessions.insert(&new_session(alice, 1, 1_000)).expect("insert");
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
            lane: 0,
            tag: 0,
            seq: 0,
            play_minutes: 0,
            cutoff_at: None,
            requeues: 0,
        }
    );
    let other = store.sessions.insert(&new_session(bob, 3, 1_500)).expect("insert");
    let second = store.sessions.insert(&new_session(alice, 2, 2_000)).expect("insert");
    assert!(first.id < other.id && other.id < second.id, "ids increase");
    assert_eq!(store.sessions.get(first.id).expect("get"), Some(first.clone()));
    // A session's cut time is kept as inserted, and through an update.
    let carol = user(store, "13700000071").uid;
    let cut = store
        .sessions
        .insert(&NewGameSession {
            cutoff_at: Some(9_000),
            ..new_session(carol, 4, 1_600)
        })
        .expect("insert");
    assert_eq!(cut.cutoff_at, Some(9_000));
    store
        .sessions
        .update(&GameSessionRecord { status: 3, ..cut.clone() })
        .expect("update");
    assert_eq!(store.sessions.get(cut.id).expect("get").and_then(|r| r.cutoff_at), Some(9_000));
    // A return to the queue is counted and kept.
    store
        .sessions
        .update(&GameSessionRecord {
            status: 1,
            requeues: 2,
            ..cut.clone()
        })
        .expect("requeue");
    assert_eq!(store.sessions.get(cut.id).expect("get").map(|r| r.requeues), Some(2));
    store
        .sessions
        .update(&GameSessionRecord {
            status: 0,
            ended_at: Some(1_700),
            ..cut.clone()
        })
        .expect("end");

    let check_user = |uid: i64, limit: u32, expected: &[&GameSessionRecord]| {
        let got = store.sessions.list_by_user(uid, limit).expect("list_by_user");
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
    assert_eq!(store.sessions.get(first.id).expect("get"), Some(ready.clone()));
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
    assert_eq!(store.sessions.get(first.id).expect("get"), Some(ended.clone()));
    assert_eq!(store.sessions.list_open().expect("list_open"), vec![other, second.clone()]);
    check_user(alice, 10, &[&second, &ended]);

    let unknown = GameSessionRecord {
        id: second.id + 1_000,
        ..second
    };
    assert_eq!(store.sessions.update(&unknown), Err(Error::NotFound));
    assert_eq!(store.sessions.get(unknown.id).expect("get unknown"), None);
}

/// A session's quality report is stored once, for its own player; the played sessions list
/// newest first with their reports, paged, and leaves out the sessions that never played.
/// Owners' epochs: each claim of a name takes the next one; a write fenced by the current epoch
/// lands, one fenced by an older epoch (or a name never claimed) is refused and writes nothing,
/// and an unfenced write is not checked.
pub fn ownership(store: &Store) {
    use crate::ownership::{fenced, Fence, Ownership};

    assert_eq!(store.ownership.get("queue:1").expect("get"), None);
    assert_eq!(store.ownership.claim("queue:1", "p1", 1_000).expect("claim"), 1);
    assert_eq!(store.ownership.claim("room:7", "p1", 1_100).expect("claim"), 1);
    assert_eq!(store.ownership.claim("queue:1", "p2", 2_000).expect("claim"), 2);
    assert_eq!(
        store.ownership.get("queue:1").expect("get"),
        Some(Ownership {
            name: "queue:1".into(),
            epoch: 2,
            owner: "p2".into(),
            claimed_at: 2_000
        })
    );
    let names: Vec<(String, i64)> = store
        .ownership
        .list()
        .expect("list")
        .into_iter()
        .map(|o| (o.name, o.epoch))
        .collect();
    assert_eq!(names, vec![("queue:1".to_owned(), 2), ("room:7".to_owned(), 1)]);

    let alice = user(store, "13700000031").uid;
    let mut rec = fenced(&Fence::new("queue:1", 2), || store.sessions.insert(&new_session(alice, 1, 1_000))).expect("fenced insert");
    rec.play_minutes = 3;
    fenced(&Fence::new("queue:1", 2), || store.sessions.update(&rec)).expect("current epoch");
    let mut stale = rec.clone();
    stale.play_minutes = 99;
    for fence in [Fence::new("queue:1", 1), Fence::new("queue:9", 1), Fence::new("room:7", 2)] {
        match fenced(&fence, || store.sessions.update(&stale)) {
            Err(Error::Fenced(_)) => {}
            other => panic!("a write fenced by {fence:?} gave {other:?}"),
        }
        assert!(matches!(
            fenced(&fence, || store.sessions.set_place(rec.id, 1, 5, 5)),
            Err(Error::Fenced(_))
        ));
        assert!(matches!(
            fenced(&fence, || store.sessions.insert(&new_session(alice, 2, 2_000))),
            Err(Error::Fenced(_))
        ));
    }
    assert_eq!(
        store.sessions.get(rec.id).expect("get"),
        Some(rec.clone()),
        "no fenced-out write landed"
    );
    assert_eq!(store.sessions.list_by_user(alice, 10).expect("list").len(), 1);
    // nested: the inner fence rules inside, the outer one after
    fenced(&Fence::new("queue:1", 1), || {
        fenced(&Fence::new("queue:1", 2), || store.sessions.set_place(rec.id, 0, 1, 1)).expect("inner fence");
        assert!(matches!(store.sessions.set_place(rec.id, 0, 2, 2), Err(Error::Fenced(_))));
    });
    stale.play_minutes = 4;
    store.sessions.update(&stale).expect("an unfenced write is not checked");
}

/// A paused owner cannot write after another has claimed: the old owner writes as fast as it
/// can (on one store) while the new one claims (on the other) and then reads; every write of
/// the old epoch either landed before the claim (and the new owner read it) or was refused, and
/// none lands after. Ten owners in turn; run on one store and on two, as two processes would.
/// A user's first session, started at once from many threads (and pools: the processes of a
/// cluster), is inserted once: `insert_if_none_open` answers `None` to every other, and again
/// once the one inserted has not ended; after it ends, the next is inserted.
pub fn one_open_session_per_start(stores: &[Store]) {
    const AT_ONCE: usize = 8;
    let mut last = None;
    // twenty users, each started by eight threads released together
    for n in 0..20 {
        let uid = user(&stores[0], &format!("137000001{n:02}")).uid;
        let gate = std::sync::Barrier::new(AT_ONCE);
        let inserted: Vec<Option<GameSessionRecord>> = std::thread::scope(|scope| {
            let all: Vec<_> = (0..AT_ONCE)
                .map(|i| {
                    let (store, gate) = (&stores[i % stores.len()], &gate);
                    scope.spawn(move || {
                        gate.wait();
                        store
                            .sessions
                            .insert_if_none_open(&new_session(uid, 1 + i as i64, 1_000))
                            .expect("insert")
                    })
                })
                .collect();
            all.into_iter().map(|t| t.join().expect("thread")).collect()
        });
        let won: Vec<&GameSessionRecord> = inserted.iter().flatten().collect();
        assert_eq!(won.len(), 1, "user {n}: one of {AT_ONCE} starts at once: {inserted:?}");
        assert_eq!(stores[0].sessions.list_by_user(uid, 10).expect("list").len(), 1);
        last = Some((uid, won[0].clone()));
    }
    let (uid, won) = last.expect("a user");
    assert_eq!(
        stores[0].sessions.insert_if_none_open(&new_session(uid, 1, 2_000)).expect("insert"),
        None
    );
    let mut ended = won;
    ended.status = 0;
    ended.ended_at = Some(3_000);
    stores[0].sessions.update(&ended).expect("end");
    let next = stores[0].sessions.insert_if_none_open(&new_session(uid, 2, 4_000)).expect("insert");
    assert!(next.is_some_and(|r| r.id > ended.id && r.game_id == 2));
}

pub fn fencing_races(stores: &[Store]) {
    use crate::ownership::{fenced, Fence};
    use std::sync::atomic::{AtomicI64, Ordering};

    let alice = user(&stores[0], "13700000032").uid;
    let mut epoch = stores[0].ownership.claim("queue:1", "p0", 0).expect("claim");
    let rec = fenced(&Fence::new("queue:1", epoch), || {
        stores[0].sessions.insert(&new_session(alice, 1, 1_000))
    })
    .expect("insert");
    let mut written = 0;
    for round in 1..=10 {
        let (old, new) = (&stores[round % stores.len()], &stores[(round + 1) % stores.len()]);
        let fence = Fence::new("queue:1", epoch);
        let landed = AtomicI64::new(written);
        let read_by_new = std::thread::scope(|scope| {
            let writer = scope.spawn(|| {
                let mut r = rec.clone();
                for n in written + 1..=written + 100_000 {
                    r.play_minutes = n;
                    match fenced(&fence, || old.sessions.update(&r)) {
                        Ok(()) => landed.store(n, Ordering::SeqCst),
                        Err(Error::Fenced(_)) => return n,
                        Err(e) => panic!("write {n}: {e}"),
                    }
                    // a breath between writes: SQLite's busy handler sleeps between its tries,
                    // and a writer that never lets go would starve the claim (not the race here)
                    std::thread::sleep(std::time::Duration::from_micros(50));
                }
                panic!("the old owner was never fenced out");
            });
            while landed.load(Ordering::SeqCst) < written + 20 {
                std::thread::yield_now();
            }
            let next = new.ownership.claim("queue:1", &format!("p{round}"), round as i64).expect("claim");
            assert_eq!(next, epoch + 1);
            epoch = next;
            let read = new.sessions.get(rec.id).expect("get").expect("session").play_minutes;
            let refused_at = writer.join().expect("writer");
            assert!(
                refused_at > read,
                "round {round}: the refused write {refused_at} comes after what the new owner read ({read})"
            );
            read
        });
        assert_eq!(
            landed.load(Ordering::SeqCst),
            read_by_new,
            "round {round}: the last write that landed is the one the new owner read"
        );
        assert_eq!(new.sessions.get(rec.id).expect("get").expect("session").play_minutes, read_by_new);
        written = read_by_new;
    }
}

pub fn quality_reports(store: &Store) {
    let alice = user(store, "13700000011").uid;
    let bob = user(store, "13700000012").uid;
    let played = |game_id: i64, at: i64| {
        let r = store.sessions.insert(&new_session(alice, game_id, at)).expect("insert");
        let r = GameSessionRecord {
            status: 0,
            machine_id: Some("m".to_owned()),
            ready_at: Some(at + 10),
            playing_at: Some(at + 20),
            ended_at: Some(at + 90_000),
            end_reason: Some("over".to_owned()),
            ..r
        };
        store.sessions.update(&r).expect("update");
        r
    };
    let first = played(1, 1_000);
    let never = store
        .sessions
        .insert(&new_session(alice, 2, 2_000))
        .expect("a session that never played");
    let second = played(3, 3_000);
    let report = QualityReport {
        session_id: first.id,
        uid: alice,
        played_secs: 90,
        latency_p50_ms: 21.5,
        latency_p95_ms: 48.25,
        fps: 29.9,
        drops: 3,
        reconnects: 1,
        reported_at: 100_000,
    };
    assert_eq!(store.sessions.quality(first.id).expect("quality"), None);
    store.sessions.add_quality(&report).expect("add_quality");
    assert_eq!(store.sessions.quality(first.id).expect("quality"), Some(report.clone()));
    let again = QualityReport {
        fps: 1.0,
        ..report.clone()
    };
    assert!(conflict(&store.sessions.add_quality(&again)), "the first report stands");
    assert_eq!(store.sessions.quality(first.id).expect("quality"), Some(report.clone()));
    let foreign = QualityReport {
        session_id: second.id,
        uid: bob,
        ..report.clone()
    };
    assert!(conflict(&store.sessions.add_quality(&foreign)), "another player's session");
    let unknown = QualityReport {
        session_id: second.id + 1_000,
        ..report.clone()
    };
    assert_eq!(store.sessions.add_quality(&unknown), Err(Error::NotFound));

    let (rows, total) = store.sessions.played(alice, 0, 10).expect("played");
    assert_eq!(total, 2, "the session that never played is not counted");
    assert_eq!(rows, vec![(second.clone(), None), (first.clone(), Some(report.clone()))]);
    let (rows, total) = store.sessions.played(alice, 1, 10).expect("played page 2");
    assert_eq!((rows, total), (vec![(first, Some(report))], 2));
    assert_eq!(store.sessions.played(alice, 0, 1).expect("played").0, vec![(second, None)]);
    assert_eq!(store.sessions.played(bob, 0, 10).expect("played"), (vec![], 0));
    assert_eq!(store.sessions.quality(never.id).expect("quality"), None);
}

/// Whether a result is a conflict.
fn conflict<T>(result: &Result<T>) -> bool {
    matches!(result, Err(Error::Conflict(_)))
}

/// Whether a result is the conflict of a charge with no play time left.
fn no_play_time<T>(result: &Result<T>) -> bool {
    matches!(result, Err(Error::Conflict(m)) if m == "no play time")
}

fn stored(store: &Store, id: i64) -> GameSessionRecord {
    store.sessions.get(id).expect("get session").expect("session exists")
}

fn balances(store: &Store, uid: i64) -> (i64, i64) {
    let user = store.users.get(uid).expect("get user").expect("user exists");
    (user.play_time_free, user.play_time_paid)
}

/// Runs `f(i)` for i in 0..n on n threads released together, and returns the results by i.
fn race<T: Send>(n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let start = Barrier::new(n);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let (start, f) = (&start, &f);
                s.spawn(move || {
                    start.wait();
                    f(i)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("thread")).collect()
    })
}

/// Queue places: the lane given at insert, set_place, update of the place and minutes, the lane
/// range, and max_admitted_tag (only sessions with ready_at count, per node, all games).
pub fn session_places(store: &Store) {
    let uid = user(store, "13500000001").uid;
    let queued = store
        .sessions
        .insert(&NewGameSession {
            lane: 4,
            ..new_session(uid, 1, 1_000)
        })
        .expect("insert");
    assert_eq!(
        (queued.lane, queued.tag, queued.seq, queued.play_minutes),
        (4, 0, 0, 0),
        "insert stores the lane and no place"
    );
    assert_eq!(stored(store, queued.id), queued);

    store.sessions.set_place(queued.id, 6, 41, 7).expect("set_place");
    let placed = GameSessionRecord {
        lane: 6,
        tag: 41,
        seq: 7,
        ..queued.clone()
    };
    assert_eq!(stored(store, queued.id), placed, "place read back");
    assert_eq!(store.sessions.set_place(queued.id + 1_000, 0, 1, 1), Err(Error::NotFound));

    let moved = GameSessionRecord {
        lane: 2,
        tag: 50,
        seq: 9,
        play_minutes: 12,
        ..placed
    };
    store.sessions.update(&moved).expect("update");
    assert_eq!(stored(store, moved.id), moved, "update replaces the place and minutes");

    for lane in [-1, 7, i32::MAX] {
        let insert = store.sessions.insert(&NewGameSession {
            lane,
            ..new_session(uid, 1, 1_000)
        });
        assert!(conflict(&insert), "insert with lane {lane}: {insert:?}");
        let set = store.sessions.set_place(moved.id, lane, 1, 1);
        assert!(conflict(&set), "set_place with lane {lane}: {set:?}");
        let update = store.sessions.update(&GameSessionRecord { lane, ..moved.clone() });
        assert!(conflict(&update), "update with lane {lane}: {update:?}");
    }
    assert_eq!(stored(store, moved.id), moved, "refused lanes change nothing");
    for lane in [0, 6] {
        let record = store
            .sessions
            .insert(&NewGameSession {
                lane,
                ..new_session(uid, 1, 1_000)
            })
            .expect("insert with a lane in range");
        assert_eq!(record.lane, lane);
    }

    // Sessions of nodes 3 and 4 only, so that the ones above (node 1) never count.
    let admitted = |node_id: i64| store.sessions.max_admitted_tag(node_id).expect("max_admitted_tag");
    let place = |game_id: i64, node_id: i64, tag: i64| {
        let record = store
            .sessions
            .insert(&NewGameSession {
                node_id,
                lane: 1,
                ..new_session(uid, game_id, 2_000)
            })
            .expect("insert");
        store.sessions.set_place(record.id, 1, tag, tag).expect("set_place");
        stored(store, record.id)
    };
    let update = |r: GameSessionRecord| store.sessions.update(&r).expect("update");
    let ready = |r: &GameSessionRecord| GameSessionRecord {
        status: 3,
        machine_id: Some("machine-1".to_owned()),
        ready_at: Some(3_000),
        ..r.clone()
    };
    let ended = |r: &GameSessionRecord| GameSessionRecord {
        status: 0,
        ended_at: Some(4_000),
        end_reason: Some("user".to_owned()),
        ..r.clone()
    };
    assert_eq!(admitted(3), None, "nobody left the queue");
    let a = place(3, 3, 10);
    let b = place(4, 3, 20);
    let c = place(3, 3, 30);
    assert_eq!(admitted(3), None, "queued sessions do not count");
    update(ended(&c));
    assert_eq!(admitted(3), None, "a session that left the queue without a machine does not count");
    update(ready(&a));
    assert_eq!(admitted(3), Some(10));
    update(ended(&ready(&b)));
    assert_eq!(admitted(3), Some(20), "ended sessions still count, whatever their game");
    let queued_high = place(3, 3, 90);
    assert_eq!(admitted(3), Some(20));
    update(ready(&place(3, 4, 99)));
    assert_eq!(admitted(3), Some(20), "other nodes do not count");
    assert_eq!(admitted(4), Some(99));
    assert_eq!(admitted(5), None);
    update(ready(&queued_high));
    assert_eq!(admitted(3), Some(90));
}

/// Play time: add_play_time, and charge_minute taking free time first, then paid, then refusing;
/// package minutes taking nothing; replays; play_minutes; and the refused calls.
pub fn play_time(store: &Store) {
    let alice = user(store, "13500000011");
    let bob = user(store, "13500000012");

    let topped = store.assets.add_play_time(alice.uid, 2, 1, 0).expect("add play time");
    assert_eq!(
        topped,
        User {
            play_time_free: 2,
            play_time_paid: 1,
            ..alice.clone()
        }
    );
    assert_eq!(store.users.get(alice.uid).expect("get"), Some(topped.clone()));
    assert_eq!(store.assets.add_play_time(alice.uid, 0, 0, 0).expect("add nothing"), topped);
    for (free, paid) in [(-1, 0), (0, -1), (-5, 5)] {
        let added = store.assets.add_play_time(alice.uid, free, paid, 0);
        assert!(conflict(&added), "adding ({free}, {paid}): {added:?}");
    }
    assert_eq!(store.assets.add_play_time(i64::MAX, 1, 1, 0), Err(Error::NotFound));
    store.assets.add_play_time(bob.uid, i64::MAX, 0, 0).expect("add the most there is");
    assert!(conflict(&store.assets.add_play_time(bob.uid, 1, 0, 0)), "a balance cannot overflow");
    assert_eq!(balances(store, bob.uid), (i64::MAX, 0));
    assert_eq!(balances(store, alice.uid), (2, 1), "refused adds change nothing");

    let played = store.sessions.insert(&new_session(alice.uid, 1, 1_000)).expect("insert");
    let charge = |minute: i64, package: bool, now: i64| store.assets.charge_minute(alice.uid, played.id, minute, package, now);
    let expected = |minute: i64, free: i64, paid: i64, package: bool, charged_at: i64| PlayCharge {
        session_id: played.id,
        minute,
        uid: alice.uid,
        free,
        paid,
        package,
        charged_at,
    };
    let minutes = || stored(store, played.id).play_minutes;

    // Free time first, then paid time, then nothing.
    let (first, after, replayed) = charge(0, false, 60_000).expect("minute 0");
    assert_eq!(first, expected(0, 1, 0, false, 60_000));
    assert_eq!((after.play_time_free, after.play_time_paid, replayed), (1, 1, false));
    assert_eq!(store.users.get(alice.uid).expect("get"), Some(after));
    assert_eq!(minutes(), 1);
    let (second, after, _) = charge(1, false, 120_000).expect("minute 1");
    assert_eq!(second, expected(1, 1, 0, false, 120_000));
    assert_eq!((after.play_time_free, after.play_time_paid), (0, 1));
    let (third, after, _) = charge(2, false, 180_000).expect("minute 2");
    assert_eq!(third, expected(2, 0, 1, false, 180_000));
    assert_eq!((after.play_time_free, after.play_time_paid), (0, 0));
    assert_eq!(minutes(), 3);
    let refused = charge(3, false, 240_000);
    assert!(no_play_time(&refused), "{refused:?}");
    assert_eq!(minutes(), 3, "a refused charge writes nothing");
    assert_eq!(balances(store, alice.uid), (0, 0));

    // A package minute takes nothing, even with nothing left.
    let (package, after, replayed) = charge(3, true, 240_500).expect("package minute");
    assert_eq!(package, expected(3, 0, 0, true, 240_500));
    assert_eq!((after.play_time_free, after.play_time_paid, replayed), (0, 0, false));
    assert_eq!(minutes(), 4);

    // Replays take nothing and return the first charge, whatever they ask for.
    store.assets.add_play_time(alice.uid, 5, 5, 0).expect("top up");
    let now_user = store.users.get(alice.uid).expect("get").expect("alice");
    assert_eq!(charge(0, true, 999_000), Ok((first.clone(), now_user.clone(), true)));
    assert_eq!(charge(2, false, 999_000), Ok((third.clone(), now_user.clone(), true)));
    assert_eq!(
        charge(3, false, 999_000),
        Ok((package.clone(), now_user.clone(), true)),
        "a package minute stays free"
    );
    assert_eq!(balances(store, alice.uid), (5, 5), "replays take nothing");
    assert_eq!(minutes(), 4);

    // play_minutes only grows: max(play_minutes, minute + 1).
    charge(9, false, 600_000).expect("minute 9");
    assert_eq!(minutes(), 10);
    let (late, _, replayed) = charge(5, false, 610_000).expect("minute 5, late");
    assert_eq!((late.free, late.paid, replayed), (1, 0, false));
    assert_eq!(minutes(), 10);
    assert_eq!(balances(store, alice.uid), (3, 5));

    // Refused calls write nothing.
    assert_eq!(
        store.assets.charge_minute(alice.uid, played.id + 1_000, 0, false, 1),
        Err(Error::NotFound),
        "unknown session"
    );
    for minute in [-1, i64::MIN, i64::MAX] {
        let refused = charge(minute, false, 1);
        assert!(conflict(&refused), "minute {minute}: {refused:?}");
    }
    let theft = store.assets.charge_minute(bob.uid, played.id, 20, false, 1);
    assert!(conflict(&theft), "charging another user's session: {theft:?}");
    let theft = store.assets.charge_minute(bob.uid, played.id, 0, false, 1);
    assert!(conflict(&theft), "replaying another user's charge: {theft:?}");
    assert_eq!(balances(store, alice.uid), (3, 5));
    assert_eq!(balances(store, bob.uid), (i64::MAX, 0));
    assert_eq!(minutes(), 10);
}

/// Entitlements: a grant starts a run or extends the active one; expires_at == now is expired.
pub fn entitlements(store: &Store) {
    const HOUR: i64 = 3_600_000;
    let uid = user(store, "13500000021").uid;
    let other = user(store, "13500000022").uid;
    let grant =
        |uid: i64, kind: &str, duration_ms: i64, now: i64| store.assets.grant_entitlement(uid, kind, duration_ms, now).expect("grant");
    let active = |uid: i64, now: i64| store.assets.entitlements(uid, now).expect("entitlements");
    let entitlement = |kind: &str, starts_at: i64, expires_at: i64| Entitlement {
        uid,
        kind: kind.to_owned(),
        starts_at,
        expires_at,
    };
    assert_eq!(active(uid, 0), vec![]);

    let vip = grant(uid, "vip", HOUR, 10_000);
    assert_eq!(vip, entitlement("vip", 10_000, 10_000 + HOUR));
    let vip = grant(uid, "vip", HOUR, 20_000);
    assert_eq!(
        vip,
        entitlement("vip", 10_000, 10_000 + 2 * HOUR),
        "an active entitlement is extended"
    );
    let daily = grant(uid, "daily", 1_000, 20_000);
    assert_eq!(daily, entitlement("daily", 20_000, 21_000));
    assert_eq!(active(uid, 20_000), vec![daily.clone(), vip.clone()], "by kind");
    assert_eq!(active(uid, 20_999), vec![daily.clone(), vip.clone()]);
    assert_eq!(active(uid, 21_000), vec![vip.clone()], "expires_at == now is expired");
    assert_eq!(active(uid, 10_000 + 2 * HOUR), vec![]);
    assert_eq!(active(other, 20_000), vec![], "others own nothing of it");

    // A grant at the very moment of expiry starts a new run.
    let daily = grant(uid, "daily", 500, 21_000);
    assert_eq!(daily, entitlement("daily", 21_000, 21_500));
    let daily = grant(uid, "daily", 500, 30_000);
    assert_eq!(daily, entitlement("daily", 30_000, 30_500), "long expired");
    assert_eq!(active(uid, 30_000), vec![daily, vip.clone()]);

    let theirs = grant(other, "night", HOUR, 20_000);
    assert_eq!(
        theirs,
        Entitlement {
            uid: other,
            kind: "night".to_owned(),
            starts_at: 20_000,
            expires_at: 20_000 + HOUR,
        }
    );
    assert_eq!(active(other, 20_000), vec![theirs]);
    assert_eq!(
        active(uid, 40_000).iter().map(|e| e.kind.as_str()).collect::<Vec<_>>(),
        vec!["vip"],
        "another user's grant is theirs"
    );

    let empty = grant(uid, "tyvip", 0, 50_000);
    assert_eq!(empty, entitlement("tyvip", 50_000, 50_000));
    assert_eq!(active(uid, 50_000), vec![vip.clone()], "a zero grant is not active");
    let negative = store.assets.grant_entitlement(uid, "vip", -1, 50_000);
    assert!(conflict(&negative), "{negative:?}");
    assert_eq!(active(uid, 50_000), vec![vip]);
}

/// Fast-entry cards: add, the usable list's order and expiry, and the conditions of use.
pub fn fast_enter_cards(store: &Store) {
    let uid = user(store, "13500000031").uid;
    let other = user(store, "13500000032").uid;
    let played = store.sessions.insert(&new_session(uid, 1, 1_000)).expect("insert");
    let theirs_played = store.sessions.insert(&new_session(other, 1, 1_000)).expect("insert");
    let add = |uid: i64, expires_at: i64, source: &str, now: i64| {
        store.assets.add_card(uid, "快速通道卡", expires_at, source, now).expect("add card")
    };
    let usable = |uid: i64, now: i64| store.assets.cards(uid, now).expect("cards");

    let later = add(uid, 5_000, "shop", 1_000);
    assert_eq!(
        later,
        FastEnterCard {
            id: later.id,
            uid,
            goods_title: "快速通道卡".to_owned(),
            status: 0,
            expires_at: 5_000,
            created_at: 1_000,
            used_at: None,
            used_session: None,
            source: "shop".to_owned(),
            play_type: 0,
            minutes: 0,
            remain_give_times: 0,
            given_to: None,
            given_from: None,
        }
    );
    let sooner = add(uid, 3_000, "gift", 1_100);
    let tie = add(uid, 3_000, "gift", 1_200);
    let theirs = add(other, 9_000, "shop", 1_000);
    assert!(later.id < sooner.id && sooner.id < tie.id && tie.id < theirs.id, "ids increase");

    let all = vec![sooner.clone(), tie.clone(), later.clone()];
    assert_eq!(usable(uid, 1_000), all, "soonest expiry first, then id");
    assert_eq!(usable(uid, 2_999), all);
    assert_eq!(usable(uid, 3_000), vec![later.clone()], "expires_at == now is expired");
    assert_eq!(usable(uid, 5_000), vec![]);
    assert_eq!(usable(other, 1_000), vec![theirs.clone()]);

    let use_card = |uid: i64, card_id: i64, session_id: i64, now: i64| store.assets.use_card(uid, card_id, session_id, now);
    assert_eq!(
        use_card(other, sooner.id, theirs_played.id, 2_000),
        Err(Error::NotFound),
        "another user's card"
    );
    assert_eq!(use_card(uid, i64::MAX, played.id, 2_000), Err(Error::NotFound));
    let expired = use_card(uid, sooner.id, played.id, 3_000);
    assert!(conflict(&expired), "expired at now: {expired:?}");
    assert_eq!(usable(uid, 2_000), all, "refused uses change nothing");

    let used = use_card(uid, sooner.id, played.id, 2_000).expect("use");
    assert_eq!(
        used,
        FastEnterCard {
            status: 1,
            used_at: Some(2_000),
            used_session: Some(played.id),
            ..sooner.clone()
        }
    );
    let again = use_card(uid, sooner.id, played.id, 2_100);
    assert!(conflict(&again), "used: {again:?}");
    assert_eq!(usable(uid, 2_000), vec![tie.clone(), later.clone()]);
    assert_eq!(usable(other, 2_000), vec![theirs]);

    let (tie_used, later_used) = (
        use_card(uid, tie.id, played.id, 2_999).expect("use at the last moment"),
        use_card(uid, later.id, played.id, 2_999).expect("use"),
    );
    assert_eq!((tie_used.status, later_used.status), (1, 1));
    assert_eq!(usable(uid, 0), vec![]);
}

/// Monthly claims: once per user and month, creating the cards atomically; newest first.
pub fn monthly_claims(store: &Store) {
    let uid = user(store, "13500000041").uid;
    let other = user(store, "13500000042").uid;
    let claim = |uid: i64, month: &str, cards: i32, now: i64| store.assets.claim_monthly(uid, month, cards, "月卡快速通道", 90_000, now);
    let claims = |uid: i64| store.assets.monthly_claims(uid).expect("claims");
    let usable = |uid: i64| store.assets.cards(uid, 1_000).expect("cards");
    assert_eq!(claims(uid), vec![]);

    let (november, cards) = claim(uid, "2026-11", 3, 1_000).expect("claim");
    assert_eq!(
        november,
        MonthlyClaim {
            uid,
            month: "2026-11".to_owned(),
            cards: 3,
            claimed_at: 1_000,
        }
    );
    assert_eq!(cards.len(), 3);
    for card in &cards {
        assert_eq!(
            card,
            &FastEnterCard {
                id: card.id,
                uid,
                goods_title: "月卡快速通道".to_owned(),
                status: 0,
                expires_at: 90_000,
                created_at: 1_000,
                used_at: None,
                used_session: None,
                source: "monthly".to_owned(),
                play_type: 0,
                minutes: 0,
                remain_give_times: 0,
                given_to: None,
                given_from: None,
            }
        );
    }
    assert!(cards.windows(2).all(|w| w[0].id < w[1].id), "by id");
    assert_eq!(usable(uid), cards);

    let again = claim(uid, "2026-11", 3, 2_000);
    assert!(conflict(&again), "claimed twice: {again:?}");
    assert_eq!(usable(uid).len(), 3, "a refused claim creates no cards");
    assert_eq!(claims(uid), vec![november.clone()]);

    let (december, more) = claim(uid, "2026-12", 2, 3_000).expect("next month");
    assert_eq!(more.len(), 2);
    let (january, none) = claim(uid, "2027-01", 0, 4_000).expect("a claim of no cards");
    assert_eq!((january.cards, none), (0, vec![]));
    assert_eq!(claims(uid), vec![january, december, november.clone()], "newest first");
    assert_eq!(usable(uid).len(), 5);

    let (theirs, their_cards) = claim(other, "2026-11", 1, 5_000).expect("another user");
    assert_eq!(claims(other), vec![theirs]);
    assert_eq!(usable(other), their_cards);
    assert_eq!(usable(uid).len(), 5);

    let negative = claim(uid, "2027-02", -1, 6_000);
    assert!(conflict(&negative), "{negative:?}");
    assert_eq!(claims(uid).len(), 3);
}

/// Concurrent spending cannot spend twice. `stores` are views of one backing database (one store,
/// or several opened on it); thread i uses `stores[i % len]`.
/// Time cards: granted, listed with the fast-entry cards, used once for play time of their type
/// with the ledger entry in the same step; refused when expired, used, exclusive or fast-entry.
pub fn time_cards(store: &Store) {
    let uid = user(store, "13500000061").uid;
    let other = user(store, "13500000062").uid;
    let paid = store
        .assets
        .add_time_card(
            uid,
            NewTimeCard {
                goods_title: "1小时付费时长卡",
                play_type: 1,
                minutes: 60,
                expires_at: 10_000,
                give_times: 0,
            },
            1_000,
        )
        .expect("paid card");
    let free = store
        .assets
        .add_time_card(
            uid,
            NewTimeCard {
                goods_title: "30分钟免费时长卡",
                play_type: 2,
                minutes: 30,
                expires_at: 10_000,
                give_times: 0,
            },
            1_001,
        )
        .expect("free card");
    let exclusive = store
        .assets
        .add_time_card(
            uid,
            NewTimeCard {
                goods_title: "专属时长卡",
                play_type: 4,
                minutes: 30,
                expires_at: 10_000,
                give_times: 0,
            },
            1_002,
        )
        .expect("exclusive card");
    let stale = store
        .assets
        .add_time_card(
            uid,
            NewTimeCard {
                goods_title: "过期卡",
                play_type: 2,
                minutes: 30,
                expires_at: 2_000,
                give_times: 0,
            },
            1_003,
        )
        .expect("stale card");
    let fast = store.assets.add_card(uid, "速进卡", 10_000, "shop", 1_004).expect("fast card");
    assert_eq!((paid.play_type, paid.minutes, paid.status), (1, 60, 0));
    assert!(
        conflict(&store.assets.add_time_card(
            uid,
            NewTimeCard {
                goods_title: "x",
                play_type: 3,
                minutes: 60,
                expires_at: 10_000,
                give_times: 0
            },
            1_000
        )),
        "type 3 is no play-time type"
    );
    assert!(
        conflict(&store.assets.add_time_card(
            uid,
            NewTimeCard {
                goods_title: "x",
                play_type: 1,
                minutes: 0,
                expires_at: 10_000,
                give_times: 0
            },
            1_000
        )),
        "no minutes"
    );
    assert!(matches!(
        store.assets.add_time_card(
            999_999,
            NewTimeCard {
                goods_title: "x",
                play_type: 1,
                minutes: 5,
                expires_at: 10_000,
                give_times: 0
            },
            1_000
        ),
        Err(Error::NotFound)
    ));
    let ids: Vec<i64> = store.assets.backpack(uid).expect("backpack").iter().map(|c| c.id).collect();
    assert_eq!(ids, vec![fast.id, stale.id, exclusive.id, free.id, paid.id], "newest first");
    assert_eq!(
        store.assets.cards(uid, 1_500).expect("cards"),
        vec![fast.clone()],
        "fast-entry cards only"
    );

    let (used, after) = store.assets.use_time_card(uid, paid.id, 3_000).expect("use paid");
    assert_eq!((used.status, used.used_at), (1, Some(3_000)));
    assert_eq!((after.play_time_free, after.play_time_paid), (0, 60));
    let (_, after) = store.assets.use_time_card(uid, free.id, 3_001).expect("use free");
    assert_eq!((after.play_time_free, after.play_time_paid), (30, 60));
    let entries: Vec<(String, i64, i64, String)> = store
        .commerce
        .ledger(uid)
        .expect("ledger")
        .into_iter()
        .filter(|e| e.reason == "card_use")
        .map(|e| (e.asset, e.delta, e.balance_after, e.reference))
        .collect();
    assert_eq!(
        entries,
        vec![
            ("play_paid".to_owned(), 60, 60, format!("card:{}", paid.id)),
            ("time_cards".to_owned(), -1, 3, format!("card:{}", paid.id)),
            ("play_free".to_owned(), 30, 30, format!("card:{}", free.id)),
            ("time_cards".to_owned(), -1, 2, format!("card:{}", free.id)),
        ]
    );
    for (id, why) in [
        (paid.id, "used"),
        (stale.id, "expired"),
        (exclusive.id, "exclusive"),
        (fast.id, "fast-entry"),
    ] {
        let r = store.assets.use_time_card(uid, id, 3_002);
        assert!(conflict(&r), "{why}: {r:?}");
    }
    assert!(
        matches!(store.assets.use_time_card(other, free.id, 3_002), Err(Error::NotFound)),
        "another's card"
    );
    assert!(matches!(store.assets.use_time_card(uid, 999_999, 3_002), Err(Error::NotFound)));
    assert_eq!(balances(store, uid), (30, 60), "refused uses change nothing");
    assert_eq!(balances(store, other), (0, 0));
    assert!(store.commerce.ledger_mismatches(uid).expect("check").is_empty());

    // Giving: once per remaining give, never to oneself, never a used or expired card.
    let giftable = NewTimeCard {
        goods_title: "60分钟付费时长卡",
        play_type: 1,
        minutes: 60,
        expires_at: 10_000,
        give_times: 1,
    };
    let card = store.assets.add_time_card(uid, giftable, 4_000).expect("giftable");
    assert!(
        conflict(&store.assets.give_card(uid, card.id, (uid, "13500000061"), "13500000061", 4_001)),
        "to oneself"
    );
    let (given, received) = store
        .assets
        .give_card(uid, card.id, (other, "13500000062"), "13500000061", 4_002)
        .expect("give");
    assert_eq!((given.status, given.given_to.as_deref()), (1, Some("13500000062")));
    assert_eq!(
        (
            received.uid,
            received.status,
            received.remain_give_times,
            received.given_from.as_deref(),
            received.expires_at
        ),
        (other, 0, 0, Some("13500000061"), 10_000)
    );
    assert!(
        conflict(&store.assets.give_card(uid, card.id, (other, "13500000062"), "13500000061", 4_003)),
        "given already"
    );
    assert!(
        conflict(
            &store
                .assets
                .give_card(other, received.id, (uid, "13500000061"), "13500000062", 4_003)
        ),
        "no gives left"
    );
    let late = store.assets.add_time_card(uid, giftable, 4_000).expect("giftable");
    assert!(
        conflict(&store.assets.give_card(uid, late.id, (other, "13500000062"), "13500000061", 10_000)),
        "expired"
    );
    assert!(matches!(
        store.assets.give_card(other, late.id, (uid, "13500000061"), "13500000062", 5_000),
        Err(Error::NotFound)
    ));
    let (_, after) = store.assets.use_time_card(other, received.id, 5_000).expect("the receiver uses it");
    assert_eq!(after.play_time_paid, 60);
    assert!(store.commerce.ledger_mismatches(uid).expect("check").is_empty());
    assert!(store.commerce.ledger_mismatches(other).expect("check").is_empty());
}

pub fn asset_races(stores: &[Store]) {
    const THREADS: usize = 8;
    let store = &stores[0];
    let on = |i: usize| &stores[i % stores.len()];
    let alice = user(store, "13500000051").uid;
    let played = store.sessions.insert(&new_session(alice, 1, 1_000)).expect("insert");

    // Many charges of one minute: one charge, the rest replay it.
    store.assets.add_play_time(alice, 5, 5, 0).expect("top up");
    let charged = race(THREADS, |i| {
        on(i)
            .assets
            .charge_minute(alice, played.id, 0, false, 1_000 + i as i64)
            .expect("charge")
    });
    assert_eq!(charged.iter().filter(|(_, _, replayed)| !replayed).count(), 1, "one charge");
    assert!(
        charged.iter().all(|(charge, _, _)| *charge == charged[0].0),
        "every caller sees the one charge"
    );
    assert_eq!(balances(store, alice), (4, 5), "one minute taken");
    assert_eq!(stored(store, played.id).play_minutes, 1);

    // Many uses of one card: one succeeds.
    let card = store.assets.add_card(alice, "快速通道卡", 10_000, "shop", 1_000).expect("add card");
    let used = race(THREADS, |i| on(i).assets.use_card(alice, card.id, played.id, 2_000));
    assert_eq!(used.iter().filter(|r| r.is_ok()).count(), 1, "one use");
    assert!(used.iter().all(|r| r.is_ok() || conflict(r)), "the others conflict: {used:?}");
    assert_eq!(store.assets.cards(alice, 2_000).expect("cards"), vec![]);

    // Many uses of one time card: one succeeds, its minutes are added once.
    let before = balances(store, alice);
    let card = store
        .assets
        .add_time_card(
            alice,
            NewTimeCard {
                goods_title: "1小时付费时长卡",
                play_type: 1,
                minutes: 60,
                expires_at: 10_000,
                give_times: 0,
            },
            1_000,
        )
        .expect("add time card");
    let used = race(THREADS, |i| on(i).assets.use_time_card(alice, card.id, 2_000));
    assert_eq!(used.iter().filter(|r| r.is_ok()).count(), 1, "one use");
    assert!(used.iter().all(|r| r.is_ok() || conflict(r)), "the others conflict: {used:?}");
    assert_eq!(balances(store, alice), (before.0, before.1 + 60), "the minutes added once");

    // Three minutes of play time, ten minutes charged at once: three succeed.
    let bob = user(store, "13500000052").uid;
    store.assets.add_play_time(bob, 2, 1, 0).expect("top up");
    let bobs = store.sessions.insert(&new_session(bob, 1, 1_000)).expect("insert");
    let charged = race(10, |i| on(i).assets.charge_minute(bob, bobs.id, i as i64, false, 5_000));
    let ok: Vec<&PlayCharge> = charged
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .map(|(charge, user, replayed)| {
            assert!(!replayed, "distinct minutes never replay");
            assert!(
                user.play_time_free >= 0 && user.play_time_paid >= 0,
                "balances never negative: {user:?}"
            );
            charge
        })
        .collect();
    assert_eq!(ok.len(), 3, "three minutes charged");
    assert!(
        charged.iter().all(|r| r.is_ok() || no_play_time(r)),
        "the rest have no play time: {charged:?}"
    );
    assert_eq!(
        (ok.iter().map(|c| c.free).sum::<i64>(), ok.iter().map(|c| c.paid).sum::<i64>()),
        (2, 1)
    );
    assert_eq!(balances(store, bob), (0, 0));
    let last = ok.iter().map(|c| c.minute).max().expect("a charge");
    assert_eq!(stored(store, bobs.id).play_minutes, last + 1);

    // Many claims of one month: one claim, its cards once.
    let claimed = race(THREADS, |i| {
        on(i).assets.claim_monthly(bob, "2026-11", 3, "月卡快速通道", 90_000, 1_000)
    });
    assert_eq!(claimed.iter().filter(|r| r.is_ok()).count(), 1, "one claim");
    assert!(claimed.iter().all(|r| r.is_ok() || conflict(r)));
    assert_eq!(store.assets.cards(bob, 1_000).expect("cards").len(), 3);
    assert_eq!(store.assets.monthly_claims(bob).expect("claims").len(), 1);

    // Concurrent top-ups all land.
    race(THREADS, |i| on(i).assets.add_play_time(bob, 1, 2, 0).expect("top up"));
    assert_eq!(balances(store, bob), (THREADS as i64, 2 * THREADS as i64));

    // Concurrent grants all extend.
    race(THREADS, |i| {
        on(i).assets.grant_entitlement(bob, "vip", 1_000, 10_000).expect("grant")
    });
    assert_eq!(
        store.assets.entitlements(bob, 10_000).expect("entitlements"),
        vec![Entitlement {
            uid: bob,
            kind: "vip".to_owned(),
            starts_at: 10_000,
            expires_at: 10_000 + 1_000 * THREADS as i64,
        }]
    );
    for uid in [alice, bob] {
        assert_ledger_matches(store, uid);
    }
}

/// Records (what players own included) survive closing and reopening, and reopening neither
/// re-seeds nor duplicates the catalogue. `open` opens the same backing database each time.
pub fn persistence(open: &dyn Fn() -> Store) {
    let store = open();
    let alice = user(&store, "13600000001");
    let session = login("persisted", alice.uid, 10_000);
    store.logins.insert(&session).expect("insert login");
    let record = store.sessions.insert(&new_session(alice.uid, 2, 3_000)).expect("insert session");
    store.sessions.set_place(record.id, 5, 12, 3).expect("set_place");
    store.assets.add_play_time(alice.uid, 10, 20, 0).expect("add play time");
    let (charge, _, _) = store.assets.charge_minute(alice.uid, record.id, 0, false, 3_500).expect("charge");
    let vip = store.assets.grant_entitlement(alice.uid, "vip", 100_000, 3_000).expect("grant");
    let (claim, claimed) = store
        .assets
        .claim_monthly(alice.uid, "2026-11", 2, "月卡快速通道", 50_000, 3_000)
        .expect("claim");
    let used = store.assets.use_card(alice.uid, claimed[0].id, record.id, 3_600).expect("use card");
    let record = stored(&store, record.id);
    assert_eq!((record.lane, record.tag, record.seq, record.play_minutes), (5, 12, 3, 1));
    let alice = store.users.get(alice.uid).expect("get").expect("alice");
    assert_eq!((alice.play_time_free, alice.play_time_paid), (9, 20));
    let renamed = Game {
        name: "龙脊山脉 典藏版".to_owned(),
        ..seed::catalogue()[1].clone()
    };
    store.games.upsert_all(std::slice::from_ref(&renamed)).expect("rename");
    let node = Node {
        id: 9,
        name: "海外一区".to_owned(),
        status: 1,
    };
    store.nodes.upsert(&node).expect("upsert node");
    let (listed_before, total_before) = store.games.list(None, 1, 100).expect("list");
    let guard = PhoneGuard {
        sends: vec![1_000, 2_000],
        code: Some(PendingCode {
            code_hash: "h".to_owned(),
            sent_at: 2_000,
            tries: 3,
        }),
        failures: 4,
        locked_until: 0,
    };
    let all = CounterKey {
        scope: "all".to_owned(),
        window_start: 0,
    };
    store
        .sms
        .update("13600000001", std::slice::from_ref(&all), 2_000, &mut |g, c| {
            *g = guard.clone();
            c[0] = 7;
            true
        })
        .expect("sms update");
    drop(store);

    let store = open();
    assert_eq!(store.users.get(alice.uid).expect("get user"), Some(alice.clone()));
    let (found, created) = store.users.get_or_create_by_phone("13600000001", "x", 9_000).expect("find user");
    assert_eq!((found, created), (alice.clone(), false));
    assert_eq!(store.logins.get("persisted", 5_000).expect("get login"), Some(session));
    assert_eq!(store.sessions.get(record.id).expect("get session"), Some(record.clone()));
    assert_eq!(store.sessions.list_open().expect("list_open"), vec![record.clone()]);
    assert_eq!(store.games.count().expect("count"), seed::catalogue().len() as u64, "seeded once");
    assert_eq!(store.games.get(2).expect("get game"), Some(renamed), "seed does not overwrite");
    assert_eq!(store.games.list(None, 1, 100).expect("list"), (listed_before, total_before));
    assert_eq!(store.nodes.get(9).expect("get node"), Some(node));
    assert_eq!(store.nodes.list().expect("nodes").len(), seed::nodes().len() + 1);
    assert_eq!(
        store.sms.guard("13600000001").expect("guard"),
        Some(guard),
        "the sms guard and its tries"
    );
    assert_eq!(counters(&store, &[all]), vec![7], "the sms counters");

    assert_eq!(store.sessions.max_admitted_tag(9).expect("max_admitted_tag"), None);
    assert_eq!(
        store.assets.charge_minute(alice.uid, record.id, 0, false, 9_000),
        Ok((charge, alice.clone(), true)),
        "charges are remembered"
    );
    assert_eq!(store.assets.entitlements(alice.uid, 5_000).expect("entitlements"), vec![vip]);
    assert_eq!(store.assets.cards(alice.uid, 5_000).expect("cards"), vec![claimed[1].clone()]);
    assert_eq!(store.assets.monthly_claims(alice.uid).expect("claims"), vec![claim]);
    assert!(conflict(&store.assets.claim_monthly(
        alice.uid,
        "2026-11",
        2,
        "月卡快速通道",
        50_000,
        9_000
    )));
    assert!(conflict(&store.assets.use_card(alice.uid, used.id, record.id, 9_000)));

    let next = store.sessions.insert(&new_session(record.uid, 1, 4_000)).expect("insert");
    assert!(next.id > record.id, "ids keep increasing across reopen");
    let card = store
        .assets
        .add_card(alice.uid, "快速通道卡", 50_000, "shop", 9_000)
        .expect("add card");
    assert!(card.id > claimed[1].id, "card ids keep increasing across reopen");
}

/// The current values of some counters (through a read-only update).
fn counters(store: &Store, keys: &[CounterKey]) -> Vec<u64> {
    let mut seen = vec![];
    store
        .sms
        .update("00000000000", keys, 0, &mut |_, c| {
            seen = c.to_vec();
            false
        })
        .expect("read counters");
    seen
}

/// SMS guards: absent is the default; `update` stores what `f` leaves, nothing when it says
/// false, removes a guard left at the default; counters start at 0, a new window of a scope
/// replaces the older ones, other scopes are untouched; prune forgets idle unlocked guards and
/// old windows.
pub fn sms_guards(store: &Store) {
    let phone = "13500000001";
    assert_eq!(store.sms.guard(phone).expect("guard"), None);
    let key = |scope: &str, window_start: i64| CounterKey {
        scope: scope.to_owned(),
        window_start,
    };
    let (ip, all) = (key("ip:10.0.0.1", 0), key("all", 60_000));
    store
        .sms
        .update(phone, &[ip.clone(), all.clone()], 1_000, &mut |g, c| {
            assert_eq!((g.clone(), c.to_vec()), (PhoneGuard::default(), vec![0, 0]), "the defaults");
            g.sends.push(1_000);
            g.code = Some(PendingCode {
                code_hash: "abc".to_owned(),
                sent_at: 1_000,
                tries: 0,
            });
            c[0] += 1;
            c[1] += 1;
            true
        })
        .expect("update");
    let stored = store.sms.guard(phone).expect("guard").expect("stored");
    assert_eq!(
        (stored.sends.clone(), stored.code.as_ref().map(|c| c.tries)),
        (vec![1_000], Some(0))
    );
    store
        .sms
        .update(phone, std::slice::from_ref(&ip), 2_000, &mut |g, c| {
            g.failures = 99;
            c[0] = 50;
            false
        })
        .expect("update refused by f");
    assert_eq!(store.sms.guard(phone).expect("guard"), Some(stored.clone()), "false writes nothing");
    assert_eq!(counters(store, &[ip.clone(), all.clone()]), vec![1, 1]);

    // A new window of the ip scope replaces its older one; the global one stays.
    let ip2 = key("ip:10.0.0.1", 3_600_000);
    store
        .sms
        .update(phone, std::slice::from_ref(&ip2), 3_600_000, &mut |_, c| {
            assert_eq!(c[0], 0, "a new window starts at 0");
            c[0] = 1;
            true
        })
        .expect("update");
    assert_eq!(counters(store, &[ip.clone(), ip2.clone(), all.clone()]), vec![0, 1, 1]);

    // Lock the phone, then clear the guard back to the default: the row goes.
    store
        .sms
        .update(phone, &[], 4_000, &mut |g, _| {
            g.failures = 10;
            g.locked_until = 9_000_000;
            true
        })
        .expect("lock");
    assert_eq!(store.sms.guard(phone).expect("guard").map(|g| g.locked_until), Some(9_000_000));
    let other = "13500000002";
    store
        .sms
        .update(other, &[], 5_000, &mut |g, _| {
            g.sends = vec![5_000];
            true
        })
        .expect("other phone");
    // Idle since before 6 000: the unlocked guard goes, the locked one stays until its lock ends.
    assert!(store.sms.prune(6_000).expect("prune") >= 1);
    assert_eq!(store.sms.guard(other).expect("guard"), None, "pruned");
    assert!(store.sms.guard(phone).expect("guard").is_some(), "locked guards stay");
    assert_eq!(counters(store, &[ip2.clone(), all.clone()]), vec![1, 1], "windows after 6 000 stay");
    store.sms.prune(9_000_001).expect("prune");
    assert_eq!(store.sms.guard(phone).expect("guard"), None, "unlocked and idle");
    assert_eq!(counters(store, &[ip2, all]), vec![0, 0], "old windows go");

    store
        .sms
        .update(phone, &[], 10_000, &mut |g, _| {
            g.sends = vec![10_000];
            true
        })
        .expect("update");
    store
        .sms
        .update(phone, &[], 11_000, &mut |g, _| {
            *g = PhoneGuard::default();
            true
        })
        .expect("clear");
    assert_eq!(store.sms.guard(phone).expect("guard"), None, "a default guard is not kept");
}

/// Concurrent updates of one phone and one counter never lose a write (each adds one); the
/// threads take turns among `stores` (one store, or several on one database).
pub fn sms_races(stores: &[Store]) {
    const THREADS: usize = 8;
    const EACH: usize = 25;
    let all = CounterKey {
        scope: "all".to_owned(),
        window_start: 0,
    };
    let barrier = Barrier::new(THREADS);
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let (barrier, all, store) = (&barrier, &all, &stores[t % stores.len()]);
            s.spawn(move || {
                barrier.wait();
                for i in 0..EACH {
                    store
                        .sms
                        .update("13500000009", std::slice::from_ref(all), (t * EACH + i) as i64, &mut |g, c| {
                            g.failures += 1;
                            c[0] += 1;
                            true
                        })
                        .expect("update");
                }
            });
        }
    });
    let g = stores[0].sms.guard("13500000009").expect("guard").expect("stored");
    assert_eq!(g.failures as usize, THREADS * EACH, "no lost update of the guard");
    assert_eq!(
        counters(&stores[0], &[all]),
        vec![(THREADS * EACH) as u64],
        "no lost update of the counter"
    );
}

/// Operator flags are off for a new user; `set_flags` writes all three and answers the user
/// after; an unknown user is NotFound.
pub fn user_flags(store: &Store) {
    let alice = user(store, "13800000071");
    assert_eq!((alice.status, alice.minor, alice.relay_banned), (0, false, false));
    let after = store.users.set_flags(alice.uid, 3, true, true).expect("set flags");
    assert_eq!(
        after,
        User {
            status: 3,
            minor: true,
            relay_banned: true,
            ..alice.clone()
        }
    );
    assert_eq!(store.users.get(alice.uid).expect("get"), Some(after));
    store.users.set_flags(alice.uid, 1, false, false).expect("set back");
    assert_eq!(
        store.users.get(alice.uid).expect("get").map(|u| (u.status, u.minor)),
        Some((1, false))
    );
    assert_eq!(store.users.set_flags(i64::MAX, 0, false, false), Err(Error::NotFound));

    // The account centre's changes: one field at a time, the other kept; an unknown user is
    // NotFound.
    let named = store.users.set_profile(alice.uid, Some("新昵称"), None).expect("nickname");
    assert_eq!((named.nickname.as_str(), named.avatar.as_str()), ("新昵称", alice.avatar.as_str()));
    let pictured = store.users.set_profile(alice.uid, None, Some("/a/1.svg")).expect("avatar");
    assert_eq!((pictured.nickname.as_str(), pictured.avatar.as_str()), ("新昵称", "/a/1.svg"));
    assert_eq!(store.users.get(alice.uid).expect("get"), Some(pictured));
    assert_eq!(store.users.set_profile(i64::MAX, Some("x"), None), Err(Error::NotFound));

    // The card notice's mark: never told, then told at 5_000; an older mark never moves it back.
    assert_eq!(store.users.mark_card_notice(alice.uid, 5_000), Ok(0));
    assert_eq!(store.users.mark_card_notice(alice.uid, 3_000), Ok(5_000));
    assert_eq!(store.users.mark_card_notice(alice.uid, 9_000), Ok(5_000));
    assert_eq!(store.users.mark_card_notice(i64::MAX, 1), Err(Error::NotFound));
}

fn new_room(host: i64, created_at: i64) -> NewRoom {
    NewRoom {
        host_uid: host,
        name: "一起来玩".to_owned(),
        mode: 2,
        is_show: true,
        password: Some(RoomPassword {
            salt: "s1".to_owned(),
            hash: "h1".to_owned(),
        }),
        game_id: seed::catalogue()[0].id,
        created_at,
    }
}

/// Rooms get increasing ids and serials of their own sequence; a host has one open room
/// (a second is a Conflict, another after the first ended is fine); `update` writes every
/// mutable field and NotFound for an unknown room; the relay lookup finds ended rooms too;
/// blacklists are per owner, idempotent, newest first and paged; reports keep their order.
pub fn rooms(store: &Store) {
    let alice = user(store, "13800000081");
    let bob = user(store, "13800000082");
    let carol = user(store, "13800000083");

    let a = store.rooms.insert(&new_room(alice.uid, 1_000)).expect("insert");
    assert_eq!((a.host_uid, a.name.as_str(), a.mode, a.is_show), (alice.uid, "一起来玩", 2, true));
    assert_eq!((a.relay_session, a.ended_at, a.audience_count, a.control_count), (None, None, 0, 0));
    assert_eq!(a.password.as_ref().map(|p| p.hash.as_str()), Some("h1"));
    assert!(
        matches!(store.rooms.insert(&new_room(alice.uid, 1_100)), Err(Error::Conflict(_))),
        "one open room per host"
    );
    let b = store.rooms.insert(&new_room(bob.uid, 1_200)).expect("bob's room");
    assert!(b.dd_rid > a.dd_rid && b.room_serial > a.room_serial);
    assert_ne!(a.dd_rid, a.room_serial, "serials are their own sequence");

    assert_eq!(store.rooms.get(a.dd_rid).expect("get"), Some(a.clone()));
    assert_eq!(store.rooms.by_serial(b.room_serial).expect("by serial"), Some(b.clone()));
    assert_eq!(store.rooms.open_by_host(alice.uid).expect("open"), Some(a.clone()));
    assert_eq!(store.rooms.open_by_host(carol.uid).expect("open"), None);
    assert_eq!(store.rooms.get(i64::MAX).expect("get"), None);
    let open: Vec<i64> = store.rooms.list_open().expect("list").iter().map(|r| r.dd_rid).collect();
    assert_eq!(open, vec![a.dd_rid, b.dd_rid]);

    let mut ended = a.clone();
    ended.name = "改名".to_owned();
    ended.is_show = false;
    ended.password = None;
    ended.relay_session = Some(77);
    ended.ended_at = Some(5_000);
    ended.audience_count = 12;
    ended.mike_count = 3;
    ended.control_count = 2;
    store.rooms.update(&ended).expect("update");
    assert_eq!(store.rooms.get(a.dd_rid).expect("get"), Some(ended.clone()));
    assert_eq!(store.rooms.by_relay_session(77).expect("relay"), Some(ended.clone()));
    assert_eq!(store.rooms.by_relay_session(78).expect("relay"), None);
    assert_eq!(store.rooms.open_by_host(alice.uid).expect("open"), None);
    let open: Vec<i64> = store.rooms.list_open().expect("list").iter().map(|r| r.dd_rid).collect();
    assert_eq!(open, vec![b.dd_rid]);
    let again = store.rooms.insert(&new_room(alice.uid, 6_000)).expect("a new room after the end");
    assert!(again.room_serial > b.room_serial);
    let mut unknown = ended.clone();
    unknown.dd_rid = i64::MAX;
    assert_eq!(store.rooms.update(&unknown), Err(Error::NotFound));

    // Blacklists.
    let first = store.rooms.block(alice.uid, bob.uid, 100).expect("block");
    assert_eq!(
        first,
        RoomBlock {
            owner_uid: alice.uid,
            blocked_uid: bob.uid,
            created_at: 100
        }
    );
    assert_eq!(
        store.rooms.block(alice.uid, bob.uid, 200).expect("again"),
        first,
        "blocking again keeps the first time"
    );
    store.rooms.block(alice.uid, carol.uid, 300).expect("block carol");
    assert!(matches!(store.rooms.block(alice.uid, alice.uid, 300), Err(Error::Conflict(_))));
    assert!(store.rooms.is_blocked(alice.uid, bob.uid).expect("is"));
    assert!(!store.rooms.is_blocked(bob.uid, alice.uid).expect("per owner"));
    let (page, total) = store.rooms.blocks(alice.uid, 0, 10).expect("blocks");
    assert_eq!(total, 2);
    assert_eq!(
        page.iter().map(|b| b.blocked_uid).collect::<Vec<_>>(),
        vec![carol.uid, bob.uid],
        "newest first"
    );
    let (page, total) = store.rooms.blocks(alice.uid, 1, 10).expect("page 2");
    assert_eq!((page.len(), total), (1, 2));
    assert!(store.rooms.unblock(alice.uid, bob.uid).expect("unblock"));
    assert!(!store.rooms.unblock(alice.uid, bob.uid).expect("again"));
    assert!(!store.rooms.is_blocked(alice.uid, bob.uid).expect("is"));

    // Reports.
    let report = |target, reason| RoomReport {
        dd_rid: b.dd_rid,
        reporter: alice.uid,
        target,
        reason,
        text: "刷屏".to_owned(),
        created_at: 400,
    };
    let r1 = store.rooms.add_report(&report(Some(carol.uid), 4)).expect("report");
    let r2 = store.rooms.add_report(&report(None, 6)).expect("report");
    assert!(r2 > r1);
    assert_eq!(
        store.rooms.reports(b.dd_rid).expect("reports"),
        vec![report(Some(carol.uid), 4), report(None, 6)]
    );
    assert_eq!(store.rooms.reports(a.dd_rid).expect("reports"), vec![]);
}

/// The ledger replayed equals every balance of the user (an entry per change, nothing missed,
/// nothing doubled); false, after printing the differences, when it does not.
pub fn ledger_matches(store: &Store, uid: i64) -> bool {
    let mismatches = store.commerce.ledger_mismatches(uid).expect("replay the ledger");
    if !mismatches.is_empty() {
        eprintln!("ledger of {uid} differs (asset, replayed, stored): {mismatches:?}");
    }
    mismatches.is_empty()
}

fn assert_ledger_matches(store: &Store, uid: i64) {
    assert!(ledger_matches(store, uid), "the ledger of {uid} replays to its balances");
}

fn order(uid: i64, no: &str, key: &str, amount: i64, grant: GoodsGrant, now: i64) -> NewOrder {
    NewOrder {
        order_no: no.to_owned(),
        uid,
        goods_id: 101,
        goods_code: "time_300".to_owned(),
        goods_type: 2,
        title: "畅玩时长5小时".to_owned(),
        count: 1,
        amount_fen: amount,
        retail_total: amount,
        pay_method: "wechat".to_owned(),
        coupon_id: None,
        grant,
        idem_key: key.to_owned(),
        created_at: now,
        expires_at: now + 900_000,
    }
}

/// The shop's goods and sections are seeded; orders are created once per key; settling pays and
/// fulfils once (a repeat changes nothing, another amount or a closed order is refused); an
/// order paid in time but expired meanwhile is settled; coin payment debits and fulfils in one
/// step or not at all; every write of the asset repository and of this one keeps the ledger.
pub fn commerce(store: &Store) {
    for key in seed::SECTIONS {
        assert!(!store.commerce.section(key).expect("section").is_empty(), "{key} seeded");
    }
    let vvip = store.commerce.section("shop_vvip").expect("section");
    assert!(vvip.iter().any(|(_, speci)| speci.len() == 3), "memberships have duration options");
    let by_code = store.commerce.goods_by_code("time_300").expect("by code").expect("seeded");
    assert_eq!(store.commerce.goods(by_code.id).expect("by id"), Some(by_code.clone()));
    assert_eq!(store.commerce.section("no_such_section").expect("section"), vec![]);

    let alice = user(store, "13700000001").uid;
    assert_eq!(store.commerce.wallet(alice).expect("wallet"), Wallet::default());

    // One order per key.
    let first = order(alice, "N1", "k1", 600, GoodsGrant::PlayTime { minutes: 300 }, 1_000);
    let (created, new) = store.commerce.create_order(&first).expect("create");
    assert!(new);
    assert_eq!(created.state, OrderState::Created);
    let again = NewOrder {
        order_no: "N2".to_owned(),
        ..first.clone()
    };
    let (same, new) = store.commerce.create_order(&again).expect("create again");
    assert!(!new);
    assert_eq!(same.order.order_no, "N1");
    assert_eq!(store.commerce.order("N2").expect("order"), None);

    // Scanning, then settling once.
    assert_eq!(store.commerce.mark_scanned("N1", 1_500).expect("scan").scanned_at, Some(1_500));
    assert_eq!(store.commerce.mark_scanned("N1", 1_600).expect("scan").scanned_at, Some(1_500));
    assert!(
        conflict(&store.commerce.settle("N1", 599, "T1", 2_000, 2_000, &crate::activity::NoFollowUps)),
        "another amount"
    );
    let settled = store
        .commerce
        .settle("N1", 600, "T1", 2_000, 2_000, &crate::activity::NoFollowUps)
        .expect("settle");
    let Settled::Fulfilled(paid) = settled else {
        panic!("first settle fulfils: {settled:?}")
    };
    assert_eq!(
        (paid.state, paid.paid_at, paid.fulfilled_at),
        (OrderState::Fulfilled, Some(2_000), Some(2_000))
    );
    assert!(matches!(
        store.commerce.settle("N1", 600, "T1", 2_000, 3_000, &crate::activity::NoFollowUps),
        Ok(Settled::Already(_))
    ));
    assert!(
        conflict(&store.commerce.settle("N1", 600, "T9", 2_000, 3_000, &crate::activity::NoFollowUps)),
        "another trade"
    );
    assert_eq!(
        store.users.get(alice).expect("get").expect("alice").play_time_paid,
        300,
        "granted once"
    );
    assert!(
        !store.commerce.expire("N1", 10_000_000).expect("expire"),
        "a fulfilled order does not expire"
    );
    assert!(!store.commerce.cancel("N1", 3_000).expect("cancel"));

    // Expiry, cancel, and a payment made in time that arrives late.
    store
        .commerce
        .create_order(&order(alice, "N3", "k3", 100, GoodsGrant::Coins { amount: 100 }, 1_000))
        .expect("create");
    assert!(!store.commerce.expire("N3", 1_000 + 899_999).expect("not yet"));
    assert!(store.commerce.expire("N3", 1_000 + 900_000).expect("expire"));
    assert!(!store.commerce.expire("N3", 1_000 + 900_001).expect("once"));
    assert!(
        conflict(
            &store
                .commerce
                .settle("N3", 100, "T3", 1_000 + 900_000, 1_000 + 900_100, &crate::activity::NoFollowUps)
        ),
        "paid too late"
    );
    assert!(matches!(
        store
            .commerce
            .settle("N3", 100, "T3", 1_000 + 899_000, 1_000 + 900_100, &crate::activity::NoFollowUps),
        Ok(Settled::Fulfilled(_))
    ));
    assert_eq!(store.commerce.wallet(alice).expect("wallet").coins, 100);
    store
        .commerce
        .create_order(&order(alice, "N4", "k4", 100, GoodsGrant::Coins { amount: 100 }, 1_000))
        .expect("create");
    assert!(store.commerce.cancel("N4", 1_100).expect("cancel"));
    assert!(
        conflict(&store.commerce.settle("N4", 100, "T4", 1_050, 1_200, &crate::activity::NoFollowUps)),
        "a cancelled order is not paid"
    );
    assert_eq!(
        store.commerce.settle("N404", 1, "T", 1, 1, &crate::activity::NoFollowUps),
        Err(Error::NotFound)
    );

    // Coins: debit and fulfil at once, or nothing.
    let mut by_coins = order(alice, "N5", "k5", 60, GoodsGrant::Cards { count: 2 }, 5_000);
    by_coins.pay_method = "yunyoubi".to_owned();
    assert!(matches!(
        store.commerce.pay_with_coins(&by_coins, 5_000, &crate::activity::NoFollowUps),
        Ok(Settled::Fulfilled(_))
    ));
    assert!(
        matches!(
            store.commerce.pay_with_coins(&by_coins, 5_001, &crate::activity::NoFollowUps),
            Ok(Settled::Already(_))
        ),
        "the key replays"
    );
    assert_eq!(store.commerce.wallet(alice).expect("wallet").coins, 40);
    assert_eq!(store.assets.cards(alice, 5_000).expect("cards").len(), 2);
    let too_dear = NewOrder {
        order_no: "N6".to_owned(),
        idem_key: "k6".to_owned(),
        amount_fen: 41,
        ..by_coins.clone()
    };
    assert_eq!(
        store.commerce.pay_with_coins(&too_dear, 5_000, &crate::activity::NoFollowUps),
        Err(Error::Refused(crate::Refusal::InsufficientCoins))
    );
    assert_eq!(store.commerce.order("N6").expect("order"), None, "no order without the coins");

    // Grants, and the orders list.
    store
        .commerce
        .grant(
            alice,
            &[
                GoodsGrant::Entitlement {
                    kind: "vvip".to_owned(),
                    days: 31,
                },
                GoodsGrant::Yoodo { amount: 7 },
            ],
            "grant",
            "",
            6_000,
        )
        .expect("grant");
    assert_eq!(store.commerce.wallet(alice).expect("wallet").yoodo, 7);
    // An upgrade takes days from the end of a running membership and gives them to another;
    // one that has ended gives them all the same, taking nothing; the ledger follows both.
    let day = 24 * 3600 * 1000;
    let ends = |kind: &str| {
        store
            .assets
            .entitlements(alice, 6_000)
            .expect("entitlements")
            .into_iter()
            .find(|e| e.kind == kind)
            .map(|e| e.expires_at)
    };
    store
        .commerce
        .grant(alice, &[GoodsGrant::from_parts("vip", 10)], "grant", "", 6_000)
        .expect("vip");
    let (vip, vvip) = (ends("vip").expect("vip"), ends("vvip").expect("vvip"));
    let upgrade = GoodsGrant::from_parts("upgrade:vip:vvip", 3);
    store
        .commerce
        .grant(alice, std::slice::from_ref(&upgrade), "order", "U1", 6_000)
        .expect("upgrade");
    assert_eq!((ends("vip"), ends("vvip")), (Some(vip - 3 * day), Some(vvip + 3 * day)));
    store
        .commerce
        .grant(alice, &[GoodsGrant::from_parts("upgrade:vip:vvip", 30)], "order", "U2", 6_000)
        .expect("upgrade past the end");
    assert_eq!(ends("vip"), None, "cut back to now: ended");
    assert_eq!(ends("vvip"), Some(vvip + 33 * day));
    assert!(ledger_matches(store, alice), "the ledger follows the upgrade");
    assert_eq!(
        store.commerce.grant(i64::MAX, &[GoodsGrant::Yoodo { amount: 1 }], "grant", "", 1),
        Err(Error::NotFound)
    );
    let (all, total) = store.commerce.orders(alice, None, 0, 100).expect("orders");
    assert_eq!((all.len(), total), (4, 4));
    assert_eq!(store.commerce.orders(alice, Some(2), 0, 100).expect("orders").1, 4);
    assert_eq!(store.commerce.orders(alice, Some(27), 0, 100).expect("orders").1, 0);
    assert!(store.commerce.open_orders().expect("open").is_empty());

    // Callbacks are kept as received.
    store
        .commerce
        .log_callback("N1", "sandbox", "{}", false, "bad signature", 7_000)
        .expect("log");
    store
        .commerce
        .log_callback("N1", "sandbox", "{}", true, "paid", 7_001)
        .expect("log");
    let logged = store.commerce.callbacks("N1").expect("callbacks");
    assert_eq!(
        logged.iter().map(|c| (c.accepted, c.outcome.as_str())).collect::<Vec<_>>(),
        [(false, "bad signature"), (true, "paid")]
    );

    // Every asset write keeps the ledger: play time, charges, cards, entitlements, claims.
    store.assets.add_play_time(alice, 3, 0, 8_000).expect("top up");
    let played = store.sessions.insert(&new_session(alice, 1, 8_000)).expect("insert");
    store.assets.charge_minute(alice, played.id, 0, false, 8_100).expect("charge");
    store.assets.charge_minute(alice, played.id, 0, false, 8_200).expect("replay");
    let card = store.assets.add_card(alice, "速进卡", 99_000, "grant", 8_000).expect("card");
    store.assets.use_card(alice, card.id, played.id, 8_300).expect("use");
    store.assets.grant_entitlement(alice, "vip", 1_000, 8_000).expect("vip");
    store
        .assets
        .grant_entitlement(alice, "vip", 1_000, 100_000)
        .expect("vip again, after it ran out");
    store
        .assets
        .claim_monthly(alice, "2026-11", 3, "月卡", 99_000, 8_000)
        .expect("claim");
    assert_ledger_matches(store, alice);
    let entries = store.commerce.ledger(alice).expect("ledger");
    assert!(entries
        .iter()
        .any(|e| e.asset == Asset::Coins.key() && e.delta == -60 && e.reference == "N5"));
    assert!(entries.iter().all(|e| e.delta != 0));
}

/// Concurrent coin purchases by one player whose coins cover exactly some of them: exactly
/// those succeed and the rest find too few coins; one key sent many times makes one order.
pub fn commerce_races(stores: &[Store]) {
    const THREADS: usize = 16;
    let store = &stores[0];
    let on = |i: usize| &stores[i % stores.len()];
    let bob = user(store, "13700000002").uid;
    store
        .commerce
        .grant(bob, &[GoodsGrant::Coins { amount: 5 * 30 }], "grant", "", 1_000)
        .expect("coins");
    let paid = race(THREADS, |i| {
        let mut o = order(
            bob,
            &format!("R{i}"),
            &format!("r{i}"),
            30,
            GoodsGrant::PlayTime { minutes: 60 },
            2_000,
        );
        o.pay_method = "yunyoubi".to_owned();
        on(i).commerce.pay_with_coins(&o, 2_000, &crate::activity::NoFollowUps)
    });
    assert_eq!(paid.iter().filter(|r| r.is_ok()).count(), 5, "exactly the five the coins cover");
    assert!(paid
        .iter()
        .all(|r| r.is_ok() || *r == Err(Error::Refused(crate::Refusal::InsufficientCoins))));
    assert_eq!(store.commerce.wallet(bob).expect("wallet").coins, 0);
    assert_eq!(store.users.get(bob).expect("get").expect("bob").play_time_paid, 5 * 60);

    let created = race(THREADS, |i| {
        on(i)
            .commerce
            .create_order(&order(bob, &format!("S{i}"), "same", 600, GoodsGrant::Coins { amount: 1 }, 3_000))
    });
    assert_eq!(
        created.iter().filter(|r| matches!(r, Ok((_, true)))).count(),
        1,
        "one order per key"
    );
    let no = &created[0].as_ref().expect("created").0.order.order_no;
    assert!(created.iter().all(|r| &r.as_ref().expect("created").0.order.order_no == no));
    let settled = race(THREADS, |i| {
        on(i)
            .commerce
            .settle(no, 600, "T-same", 3_100, 3_100, &crate::activity::NoFollowUps)
    });
    assert_eq!(
        settled.iter().filter(|r| matches!(r, Ok(Settled::Fulfilled(_)))).count(),
        1,
        "one fulfilment"
    );
    assert!(settled.iter().all(Result::is_ok));
    assert_eq!(store.commerce.wallet(bob).expect("wallet").coins, 1);
    assert_ledger_matches(store, bob);
}

/// Auto-renewal agreements: one per first order; paid → active with the next charge; renewals
/// recorded; found by their first or latest order; cancelled once, by their owner only, and
/// a cancelled one is never activated again.
pub fn agreements(store: &Store) {
    use crate::agreements::{Agreement, AGREEMENT_ACTIVE, AGREEMENT_CANCELLED, AGREEMENT_PENDING};
    let alice = user(store, "13800000081");
    let bob = user(store, "13800000082");
    let new = |no: &str, order: &str| Agreement {
        agreement_no: no.to_owned(),
        uid: alice.uid,
        goods_id: 321,
        goods_code: "vip_auto".to_owned(),
        title: "VIP连续包月".to_owned(),
        amount_fen: 2500,
        state: AGREEMENT_PENDING,
        first_order: order.to_owned(),
        last_order: order.to_owned(),
        next_at: 0,
        periods: 0,
        created_at: 1_000,
        cancelled_at: None,
    };
    let a = store.agreements.create(&new("AG1", "O1")).expect("create");
    assert_eq!((a.state, a.periods, a.next_at), (AGREEMENT_PENDING, 0, 0));
    assert_eq!(
        store.agreements.create(&new("AG1-again", "O1")).expect("again").agreement_no,
        "AG1",
        "one per first order"
    );
    assert_eq!(
        store.agreements.by_order("O1").expect("by order").map(|a| a.agreement_no),
        Some("AG1".to_owned())
    );
    assert_eq!(store.agreements.active().expect("active"), vec![]);

    let paid = store.agreements.paid("AG1", "O1", 50_000).expect("paid").expect("active");
    assert_eq!((paid.state, paid.periods, paid.next_at), (AGREEMENT_ACTIVE, 1, 50_000));
    store.agreements.renewing("AG1", "O2").expect("renewing");
    assert_eq!(
        store.agreements.by_order("O2").expect("by order").map(|a| a.agreement_no),
        Some("AG1".to_owned())
    );
    let renewed = store.agreements.paid("AG1", "O2", 90_000).expect("paid").expect("active");
    assert_eq!((renewed.periods, renewed.next_at, renewed.last_order.as_str()), (2, 90_000, "O2"));
    assert_eq!(store.agreements.active().expect("active").len(), 1);

    store.agreements.create(&new("AG2", "O3")).expect("second");
    let mine = store.agreements.of_user(alice.uid).expect("mine");
    assert_eq!(mine.iter().map(|a| a.agreement_no.as_str()).collect::<Vec<_>>().len(), 2);
    assert_eq!(store.agreements.of_user(bob.uid).expect("bob's"), vec![]);

    assert_eq!(store.agreements.cancel("AG1", bob.uid, 60_000), Err(Error::NotFound), "not bob's");
    assert_eq!(store.agreements.cancel("nope", alice.uid, 60_000), Err(Error::NotFound));
    assert_eq!(store.agreements.cancel("AG1", alice.uid, 60_000), Ok(true));
    assert_eq!(store.agreements.cancel("AG1", alice.uid, 61_000), Ok(false), "once");
    let gone = store.agreements.get("AG1").expect("get").expect("kept");
    assert_eq!(
        (gone.state, gone.next_at, gone.cancelled_at),
        (AGREEMENT_CANCELLED, 0, Some(60_000))
    );
    assert_eq!(
        store.agreements.paid("AG1", "O4", 1).expect("paid"),
        None,
        "a cancelled one stays cancelled"
    );
    assert_eq!(store.agreements.active().expect("active"), vec![]);

    // Settling the first order activates its agreement in the same transaction: the next
    // period is charged a day before the entitlement the order granted ends.
    const DAY: i64 = 86_400_000;
    let vip = GoodsGrant::Entitlement {
        kind: "vip".to_owned(),
        days: 31,
    };
    store
        .commerce
        .create_order(&order(bob.uid, "O5", "k-ag5", 1500, vip, 2_000))
        .expect("order");
    store
        .agreements
        .create(&Agreement {
            uid: bob.uid,
            ..new("AG5", "O5")
        })
        .expect("agreement");
    assert!(matches!(
        store.commerce.settle("O5", 1500, "T5", 2_000, 2_000, &crate::activity::NoFollowUps),
        Ok(Settled::Fulfilled(_))
    ));
    let signed = store.agreements.get("AG5").expect("get").expect("kept");
    assert_eq!(
        (signed.state, signed.periods, signed.next_at, signed.last_order.as_str()),
        (AGREEMENT_ACTIVE, 1, 2_000 + 31 * DAY - crate::agreements::RENEW_AHEAD_MS, "O5"),
        "active as soon as its first order is settled"
    );
}

/// Game tips: the seeded one, replace, remove, an unknown ad refused; loading tips replaced whole.
pub fn tips(store: &Store) {
    use crate::tips::GameTip;
    let seeded = store.tips.game_tip(13).expect("read").expect("game 13 has a seeded tip");
    assert!(!seeded.tip.is_empty());
    assert!(seeded.ad_id.is_some(), "the seeded tip shows an ad");
    assert_eq!(store.tips.game_tip(1).expect("read"), None);

    let tip = GameTip {
        game_id: 1,
        tip: "first".to_owned(),
        ad_id: None,
        updated_at: 5,
    };
    store.tips.set_game_tip(&tip).expect("set");
    assert_eq!(store.tips.game_tip(1).expect("read"), Some(tip.clone()));
    let replaced = GameTip {
        tip: "second".to_owned(),
        ad_id: seeded.ad_id,
        updated_at: 6,
        ..tip.clone()
    };
    store.tips.set_game_tip(&replaced).expect("replace");
    assert_eq!(store.tips.game_tip(1).expect("read"), Some(replaced.clone()));

    let unknown_ad = GameTip {
        ad_id: Some(999_999),
        ..replaced.clone()
    };
    assert!(matches!(store.tips.set_game_tip(&unknown_ad), Err(crate::Error::Conflict(_))));
    assert_eq!(
        store.tips.game_tip(1).expect("read"),
        Some(replaced),
        "a refused write changes nothing"
    );

    store.tips.set_game_tip(&GameTip { tip: String::new(), ..tip }).expect("remove");
    assert_eq!(store.tips.game_tip(1).expect("read"), None);

    assert!(store.tips.loading_tips().expect("read").len() >= 3, "loading tips are seeded");
    let list = vec!["a".to_owned(), "b".to_owned()];
    store.tips.set_loading_tips(&list).expect("set");
    assert_eq!(store.tips.loading_tips().expect("read"), list);
    store.tips.set_loading_tips(&[]).expect("clear");
    assert!(store.tips.loading_tips().expect("read").is_empty());
}

/// The message centre: a user's own messages and the announcements (stored once, seen by the
/// users who joined before them), newest first, by sender, paged; marking read and clearing
/// touch only the caller's messages and marks; a message for uid 0 is refused.
pub fn messages(store: &Store) {
    use crate::messages::NewMessage;
    let msg = |sender: i32, name: &str, sent_at: i64| NewMessage {
        sender,
        name: name.to_owned(),
        image: String::new(),
        content: format!("{name} 的内容"),
        link: String::new(),
        tep_param: if sender == 5 {
            r#"{"goods_type":1,"auto_activate":0}"#.to_owned()
        } else {
            String::new()
        },
        sent_at,
    };
    let before = store.messages.announce(&msg(4, "早年的公告", 500)).expect("announce");
    let a = store.users.get_or_create_by_phone("13900000701", "a", 1_000).expect("user").0.uid;
    let b = store.users.get_or_create_by_phone("13900000702", "b", 1_000).expect("user").0.uid;
    let welcome = store.messages.send(a, &msg(1, "欢迎", 2_000)).expect("send");
    assert_eq!((welcome.read, &welcome.message), (false, &msg(1, "欢迎", 2_000)));
    store.messages.send(a, &msg(5, "福利", 3_000)).expect("send");
    store.messages.send(b, &msg(1, "欢迎 b", 2_500)).expect("send");
    let notice = store.messages.announce(&msg(4, "公告", 4_000)).expect("announce");
    assert!(notice.id > before.id);

    let page = store.messages.page(a, None, 0, 10).expect("page");
    assert_eq!(page.total, 3, "own two and the announcement since joining: {page:?}");
    let names: Vec<_> = page.messages.iter().map(|m| m.message.name.as_str()).collect();
    assert_eq!(names, ["公告", "福利", "欢迎"], "newest first");
    assert!(page.messages.iter().all(|m| !m.read));
    assert_eq!(page.messages[1].message.tep_param, r#"{"goods_type":1,"auto_activate":0}"#);
    let second = store.messages.page(a, None, 1, 1).expect("page");
    assert_eq!(
        (second.total, second.messages.len(), second.messages[0].message.name.as_str()),
        (3, 1, "福利")
    );
    let beyond = store.messages.page(a, None, 10, 10).expect("page");
    assert_eq!((beyond.total, beyond.messages.len()), (3, 0));
    let welfare = store.messages.page(a, Some(5), 0, 10).expect("page");
    assert_eq!((welfare.total, welfare.messages[0].message.name.as_str()), (1, "福利"));
    assert_eq!(store.messages.page(a, Some(6), 0, 10).expect("page").total, 0);

    let summary = store.messages.summary(a).expect("summary");
    let brief: Vec<_> = summary
        .iter()
        .map(|s| (s.sender, s.unread, s.last_name.as_str(), s.last_sent_at))
        .collect();
    assert_eq!(brief, [(1, 1, "欢迎", 2_000), (4, 1, "公告", 4_000), (5, 1, "福利", 3_000)]);

    // a's marks and clearing change nothing of b's
    assert_eq!(store.messages.mark_all_read(a).expect("mark"), 3);
    assert_eq!(store.messages.mark_all_read(a).expect("mark again"), 0);
    assert!(store.messages.summary(a).expect("summary").iter().all(|s| s.unread == 0));
    assert!(store.messages.page(a, None, 0, 10).expect("page").messages.iter().all(|m| m.read));
    let of_b: Vec<_> = store
        .messages
        .summary(b)
        .expect("summary")
        .iter()
        .map(|s| (s.sender, s.unread))
        .collect();
    assert_eq!(of_b, [(1, 1), (4, 1)]);

    let later = store.messages.announce(&msg(4, "新公告", 5_000)).expect("announce");
    let s = store.messages.summary(a).expect("summary");
    assert_eq!(s.iter().map(|s| s.unread).sum::<u64>(), 1, "the new announcement is unread: {s:?}");
    assert_eq!(store.messages.clear(a).expect("clear"), 4);
    assert_eq!(
        store.messages.page(a, None, 0, 10).expect("page"),
        crate::messages::MessagePage {
            messages: vec![],
            total: 0
        }
    );
    assert!(store.messages.summary(a).expect("summary").is_empty());
    let page_b = store.messages.page(b, None, 0, 10).expect("page");
    let names_b: Vec<_> = page_b.messages.iter().map(|m| (m.id, m.read)).collect();
    assert_eq!(names_b.len(), 3, "b keeps its own and both announcements: {page_b:?}");
    assert!(names_b.contains(&(later.id, false)));

    // after clearing, what comes is seen again
    store.messages.send(a, &msg(2, "小助手", 6_000)).expect("send");
    assert_eq!(store.messages.page(a, None, 0, 10).expect("page").total, 1);
    assert!(matches!(store.messages.send(0, &msg(1, "x", 1)), Err(crate::Error::Conflict(_))));
    assert_eq!(
        store.messages.page(999_999, None, 0, 10).expect("page").total,
        0,
        "an unknown user sees no announcement"
    );
}

/// Recently played games and favourites: most recent first, one row per game, bounded, cleared
/// per user; collecting is idempotent and refused for an unknown or deleted game; another
/// user's lists are untouched; the favourite section and the played-first listing.
pub fn collect(store: &Store) {
    use crate::collect::PLAYED_KEPT;
    let ids = |games: &[Game]| games.iter().map(|g| g.id).collect::<Vec<_>>();
    let (alice, _) = store.users.get_or_create_by_phone("13800007001", "alice", 1).expect("alice");
    let (bob, _) = store.users.get_or_create_by_phone("13800007002", "bob", 1).expect("bob");
    let (a, b) = (alice.uid, bob.uid);

    assert!(store.collect.played(a, 10).expect("played").is_empty());
    store.collect.record_played(a, 1, 100).expect("play");
    store.collect.record_played(a, 2, 200).expect("play");
    store.collect.record_played(a, 3, 200).expect("play");
    store.collect.record_played(a, 1, 300).expect("play again");
    store.collect.record_played(a, 28, 400).expect("a deleted game");
    store.collect.record_played(b, 5, 500).expect("bob plays");
    assert_eq!(
        ids(&store.collect.played(a, 10).expect("played")),
        vec![1, 3, 2],
        "most recent first, one row a game, the later write first on a tie, no deleted game"
    );
    assert_eq!(ids(&store.collect.played(a, 2).expect("played")), vec![1, 3]);

    let (listed, total) = store.collect.list_played_first(a, None, 1, 5).expect("list");
    assert_eq!(
        (ids(&listed), total),
        (vec![1, 3, 2, 4, 5], store.games.list(None, 1, 1).expect("list").1)
    );
    let (listed, _) = store.collect.list_played_first(b, None, 1, 3).expect("list");
    assert_eq!(ids(&listed), vec![5, 1, 2], "bob's own played games first");
    let (listed, total) = store.collect.list_played_first(a, Some("星海"), 1, 10).expect("list");
    assert_eq!((ids(&listed), total), (vec![1, 8], 2), "the keyword still filters");

    assert_eq!(store.collect.clear_played(a).expect("clear"), 4);
    assert!(store.collect.played(a, 10).expect("played").is_empty());
    assert_eq!(ids(&store.collect.played(b, 10).expect("played")), vec![5], "bob's history stays");

    for i in 0..i64::from(PLAYED_KEPT) + 5 {
        store.collect.record_played(a, 1000 + i, 1000 + i).expect("play");
    }
    store.collect.record_played(a, 1, 5000).expect("play");
    store.collect.record_played(a, 2, 5001).expect("play");
    assert_eq!(
        store.collect.clear_played(a).expect("clear"),
        u64::from(PLAYED_KEPT),
        "bounded per user"
    );

    assert_eq!(store.collect.collected(a, 0, 20).expect("collected"), (vec![], 0));
    assert!(store.collect.collect(a, 3, 10).expect("collect"));
    assert!(store.collect.collect(a, 7, 20).expect("collect"));
    assert!(!store.collect.collect(a, 3, 30).expect("collect twice"), "idempotent");
    assert!(matches!(store.collect.collect(a, 999_999, 40), Err(crate::Error::NotFound)));
    assert!(matches!(store.collect.collect(a, 28, 40), Err(crate::Error::NotFound)), "deleted");
    assert!(store.collect.collect(b, 9, 50).expect("bob collects"));
    let (list, total) = store.collect.collected(a, 0, 20).expect("collected");
    assert_eq!((ids(&list), total), (vec![7, 3], 2), "the latest collected first");
    let (list, total) = store.collect.collected(a, 1, 20).expect("collected");
    assert_eq!((ids(&list), total), (vec![3], 2));
    assert_eq!(store.collect.collected_among(a, &[1, 3, 7, 9]).expect("among"), vec![3, 7]);
    assert_eq!(store.collect.collected_among(a, &[]).expect("among"), Vec::<i64>::new());
    assert!(store.collect.uncollect(a, 3).expect("uncollect"));
    assert!(!store.collect.uncollect(a, 3).expect("uncollect twice"));
    assert!(!store.collect.uncollect(a, 9).expect("not alice's"));
    assert_eq!(ids(&store.collect.collected(a, 0, 20).expect("collected").0), vec![7]);
    assert_eq!(ids(&store.collect.collected(b, 0, 20).expect("collected").0), vec![9], "bob's stay");

    let favourites = store.collect.section_games("favorite_game", 20).expect("section");
    assert!(favourites.len() >= 4, "the favourite section is seeded");
    assert!(favourites.iter().all(|g| !g.deleted && g.status == 1 && g.available));
    assert_eq!(store.collect.section_games("favorite_game", 2).expect("section").len(), 2);
    assert!(store.collect.section_games("no_such_section", 20).expect("section").is_empty());
}

/// The money races beyond one user's coins, as many processes would run them: a thousand coin
/// purchases by twenty buyers at once (each buyer's coins cover exactly thirty of their fifty:
/// no balance below zero, no purchase lost, the ledger replaying to every balance); one coupon
/// held by many orders at once (one holds it, the rest are refused); an ad's purchase limit
/// under many purchases at once (exactly its limit made).
pub fn money_races(stores: &[Store]) {
    const BUYERS: usize = 20;
    const BUYS: usize = 50;
    const COVERED: usize = 30;
    const THREADS: usize = 40;
    let store = &stores[0];
    let on = |i: usize| &stores[i % stores.len()];
    let buyers: Vec<i64> = (0..BUYERS).map(|b| user(store, &format!("1360000{b:04}")).uid).collect();
    for &uid in &buyers {
        store
            .commerce
            .grant(
                uid,
                &[GoodsGrant::Coins {
                    amount: (COVERED * 10) as i64,
                }],
                "grant",
                "",
                1_000,
            )
            .expect("coins");
    }
    // Thread t buys for buyers t % 20: each buyer's 50 purchases spread over two threads.
    let paid = race(THREADS, |t| {
        let mut outcomes = Vec::new();
        for k in 0..(BUYERS * BUYS / THREADS) {
            let uid = buyers[t % BUYERS];
            let n = t * 1_000 + k;
            let mut o = order(
                uid,
                &format!("M{n}"),
                &format!("m{n}"),
                10,
                GoodsGrant::PlayTime { minutes: 1 },
                2_000,
            );
            o.pay_method = "yunyoubi".to_owned();
            outcomes.push(on(t).commerce.pay_with_coins(&o, 2_000, &crate::activity::NoFollowUps));
        }
        outcomes
    });
    let all: Vec<&Result<Settled>> = paid.iter().flatten().collect();
    assert_eq!(all.len(), BUYERS * BUYS, "a thousand purchases");
    assert_eq!(
        all.iter().filter(|r| r.is_ok()).count(),
        BUYERS * COVERED,
        "exactly what the coins cover"
    );
    assert!(all
        .iter()
        .all(|r| r.is_ok() || **r == Err(Error::Refused(crate::Refusal::InsufficientCoins))));
    for &uid in &buyers {
        assert_eq!(store.commerce.wallet(uid).expect("wallet").coins, 0);
        assert_eq!(store.users.get(uid).expect("get").expect("buyer").play_time_paid, COVERED as i64);
        assert_ledger_matches(store, uid);
    }

    // One coupon, sixteen orders holding it at once: one holds it.
    let holder = buyers[0];
    let spec = crate::model::CouponSpec {
        sid: "race".to_owned(),
        title: "满减券".to_owned(),
        goods_code: String::new(),
        goods_types: vec![],
        face_value: 100,
        min_order_money: 0,
        supermarket: false,
        valid_days: 7,
    };
    let coupon = store
        .coupons
        .grant_coupons(holder, &[(spec, 10_000_000)], "grant", 3_000)
        .expect("coupon")[0]
        .clone();
    let held = race(16, |i| {
        let mut o = order(
            holder,
            &format!("C{i}"),
            &format!("c{i}"),
            500,
            GoodsGrant::PlayTime { minutes: 60 },
            3_000,
        );
        o.coupon_id = Some(coupon.id);
        on(i).commerce.create_order(&o)
    });
    assert_eq!(held.iter().filter(|r| r.is_ok()).count(), 1, "one order holds the coupon: {held:?}");
    assert!(held
        .iter()
        .all(|r| r.is_ok() || *r == Err(Error::Refused(crate::Refusal::CouponUnusable))));

    // An ad of limit 3, twenty purchases through it at once, coins covering all: three made.
    let ad = store
        .ads
        .set_slot(
            "header_right",
            &[crate::ads::AdSpec {
                id: None,
                title: "畅玩时长 限购3次".to_owned(),
                target_title: String::new(),
                image: String::new(),
                target_type: 5,
                target_value: "time_300".to_owned(),
                need_login: true,
                sort_order: 1,
                start_at: 0,
                end_at: 0,
                pay_times: 3,
            }],
        )
        .expect("ad")[0]
        .id;
    let shopper = user(store, "13600009999").uid;
    store
        .commerce
        .grant(shopper, &[GoodsGrant::Coins { amount: 20 * 10 }], "grant", "", 4_000)
        .expect("coins");
    let through_ad = race(20, |i| {
        let mut o = order(
            shopper,
            &format!("A{i}"),
            &format!("a{i}"),
            10,
            GoodsGrant::PlayTime { minutes: 1 },
            4_000,
        );
        o.pay_method = "yunyoubi".to_owned();
        on(i).ads.pay_with_coins(&o, ad, 4_000, &crate::activity::NoFollowUps)
    });
    assert_eq!(through_ad.iter().filter(|r| r.is_ok()).count(), 3, "the ad's limit: {through_ad:?}");
    assert!(through_ad
        .iter()
        .all(|r| r.is_ok() || *r == Err(Error::Refused(crate::Refusal::AdPayTimesUsed))));
    assert_eq!(store.commerce.wallet(shopper).expect("wallet").coins, 20 * 10 - 3 * 10);
    assert_ledger_matches(store, shopper);
}
