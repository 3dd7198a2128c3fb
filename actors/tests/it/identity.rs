//! Certification and the hours minors may play, on paused time (core-platform.md §4.9, §8.2): a
//! certified minor starts inside Friday's 20:00–21:00 window, is told at 20:59 (130135) and the
//! game ends at 21:00; a start after it, or on a Monday, is refused (20151) unless the day is a
//! configured holiday; an adult plays any time; certification is checked by the sandbox, sealed,
//! and allows one recertification.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use actors::config::IdentityConfig;
use actors::identity::idcard;
use actors::play::player::SessionOp;
use actors::view::{GameState, Notice, Status};
use actors::{DomainConfig, DomainError, Platform};
use common::{node, online, settle, temp_dir, user, Recorder};

/// Unix ms of a Beijing wall-clock time.
fn beijing(y: i64, m: i64, d: i64, h: i64, min: i64) -> i64 {
    actors::beijing::at(y, m, d, h, min)
}

fn id_born(y: i64, m: i64, d: i64) -> String {
    let first17 = format!("110101{y:04}{m:02}{d:02}123");
    format!("{first17}{}", idcard::check_char(first17.as_bytes()) as char)
}

async fn platform(name: &str, start_ms: i64, holidays: &[&str]) -> Platform {
    let store = storage::Store::open_sqlite(&temp_dir(name)).unwrap();
    let config = DomainConfig {
        connect_countdown_secs: 600,
        connect_delay_ms: 100,
        sms_fail_numbers: vec![],
        register_gift_minutes: 600,
        nodes: vec![node(2)],
        clock_start_ms: start_ms,
        identity: IdentityConfig {
            holidays: holidays.iter().map(|h| h.to_string()).collect(),
            sandbox_mismatch: vec![id_born(1990, 1, 2)],
            ..IdentityConfig::default()
        },
        ..DomainConfig::default()
    };
    Platform::start(store, config).await.unwrap()
}

#[tokio::test(start_paused = true)]
async fn a_minor_plays_in_fridays_window_and_is_cut_at_nine() {
    // Friday 2026-11-27, 20:50 Beijing
    let p = platform("minor-friday", beijing(2026, 11, 27, 20, 50), &[]).await;
    let kid = user(&p, "13800000101").await;
    let a = p.identity.certify(kid, "小明同学", &id_born(2012, 5, 1)).await.unwrap();
    assert!(a.minor);
    assert_eq!(p.identity.youth_mode(kid).await.unwrap(), 2);
    let rec = Arc::new(Recorder::default());
    p.play.connect(kid, rec.clone()).await.unwrap();

    let v = p.play.start_game(kid, "d", 1, Some(1), &[]).await.unwrap();
    settle().await;
    p.play.session_op(kid, SessionOp::Confirm, v.id).await.unwrap();
    tokio::time::advance(Duration::from_millis(200)).await;
    settle().await;
    assert_eq!(online(&p, kid).await.status, Status::Playing);

    // 20:58:59: nothing yet; 20:59: the notice; 21:00: the game is over
    tokio::time::advance(Duration::from_secs(8 * 60 + 59)).await;
    settle().await;
    assert!(!rec.notices().contains(&130135));
    tokio::time::advance(Duration::from_secs(1)).await;
    settle().await;
    assert!(rec.notice_list().iter().any(|n| matches!(n, Notice::ChildrenLimit { .. })));
    assert_eq!(online(&p, kid).await.status, Status::Playing, "a minute to finish");
    tokio::time::advance(Duration::from_secs(60)).await;
    settle().await;
    assert!(
        !matches!(p.play.game_state(kid).await.unwrap(), GameState::Online(_)),
        "ended at 21:00"
    );

    // after 21:00 no start; an adult plays on
    assert_eq!(
        p.play.start_game(kid, "d", 1, Some(1), &[]).await.map(|_| ()),
        Err(DomainError::MinorPlayLimit)
    );
    let grown = user(&p, "13800000102").await;
    assert!(!p.identity.certify(grown, "张三", &id_born(1990, 1, 1)).await.unwrap().minor);
    assert!(p.play.start_game(grown, "d", 1, Some(1), &[]).await.is_ok());
}

// A restart in the window keeps both cuts: the queued minor's (the node queue restores it from
// the session's record) and the playing minor's (its session actor restores it): both are told
// at 20:59 and both games end at 21:00, on the platform started after the crash.
#[tokio::test(start_paused = true)]
async fn a_restart_keeps_the_minors_cut() {
    let dir = temp_dir("minor-restart");
    let config = |start_ms: i64| DomainConfig {
        connect_countdown_secs: 600,
        connect_delay_ms: 100,
        sms_fail_numbers: vec![],
        register_gift_minutes: 600,
        nodes: vec![node(1)],
        clock_start_ms: start_ms,
        ..DomainConfig::default()
    };
    let p1 = Platform::start(storage::Store::open_sqlite(&dir).unwrap(), config(beijing(2026, 11, 27, 20, 50)))
        .await
        .unwrap();
    let playing = user(&p1, "13800000111").await;
    let queued = user(&p1, "13800000112").await;
    for (kid, id) in [(playing, id_born(2012, 5, 1)), (queued, id_born(2012, 6, 1))] {
        assert!(p1.identity.certify(kid, "小明同学", &id).await.unwrap().minor);
    }
    let v = p1.play.start_game(playing, "d", 1, Some(1), &[]).await.unwrap();
    settle().await;
    p1.play.session_op(playing, SessionOp::Confirm, v.id).await.unwrap();
    tokio::time::advance(Duration::from_millis(200)).await;
    settle().await;
    assert_eq!(online(&p1, playing).await.status, Status::Playing);
    assert_eq!(
        p1.play.start_game(queued, "d", 1, Some(1), &[]).await.unwrap().status,
        Status::Queue
    );

    // 20:55: the process dies; another starts on the same store.
    tokio::time::advance(Duration::from_secs(5 * 60)).await;
    settle().await;
    p1.halt();
    settle().await;
    let p2 = Platform::start(storage::Store::open_sqlite(&dir).unwrap(), config(p1.clock().now_ms()))
        .await
        .unwrap();
    let (rp, rq) = (Arc::new(Recorder::default()), Arc::new(Recorder::default()));
    p2.play.connect(playing, rp.clone()).await.unwrap();
    p2.play.connect(queued, rq.clone()).await.unwrap();
    assert_eq!(online(&p2, playing).await.status, Status::Playing);
    assert_eq!(online(&p2, queued).await.status, Status::Queue);

    tokio::time::advance(Duration::from_secs(4 * 60)).await;
    settle().await;
    for (rec, who) in [(&rp, "playing"), (&rq, "queued")] {
        assert!(
            rec.notice_list().iter().any(|n| matches!(n, Notice::ChildrenLimit { .. })),
            "the {who} minor is told at 20:59"
        );
    }
    tokio::time::advance(Duration::from_secs(61)).await;
    settle().await;
    for kid in [playing, queued] {
        assert!(
            !matches!(p2.play.game_state(kid).await.unwrap(), GameState::Online(_)),
            "ended at 21:00"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn mondays_are_refused_unless_a_holiday() {
    let monday = beijing(2026, 11, 30, 20, 30);
    let p = platform("minor-monday", monday, &[]).await;
    let kid = user(&p, "13800000103").await;
    p.identity.certify(kid, "小红同学", &id_born(2013, 7, 7)).await.unwrap();
    assert_eq!(
        p.play.start_game(kid, "d", 1, Some(1), &[]).await.map(|_| ()),
        Err(DomainError::MinorPlayLimit)
    );

    let p = platform("minor-holiday", monday, &["2026-11-30"]).await;
    let kid = user(&p, "13800000104").await;
    p.identity.certify(kid, "小红同学", &id_born(2013, 7, 7)).await.unwrap();
    assert!(p.play.start_game(kid, "d", 1, Some(1), &[]).await.is_ok());
}

#[tokio::test(start_paused = true)]
async fn certification_rules_mismatch_and_one_recertification() {
    let p = platform("certify", beijing(2026, 11, 24, 10, 0), &[]).await;
    let u = user(&p, "13800000105").await;
    assert_eq!(p.identity.pre_check(u).await.unwrap(), 0, "pass by default");
    assert!(p.identity.idauth(u).await.unwrap().is_none());
    assert_eq!(
        p.identity.certify(u, "张三", &id_born(1990, 1, 2)).await.map(|_| ()),
        Err(DomainError::CertMismatch)
    );
    let mut wrong = id_born(1990, 1, 1).into_bytes();
    wrong[17] = if wrong[17] == b'1' { b'2' } else { b'1' };
    assert!(matches!(
        p.identity.certify(u, "张三", std::str::from_utf8(&wrong).unwrap()).await,
        Err(DomainError::CertForm(_))
    ));
    assert!(p.identity.idauth(u).await.unwrap().is_none(), "nothing stored for a refusal");

    let a = p.identity.certify(u, "张三丰", &id_born(1990, 1, 1)).await.unwrap();
    assert_eq!((a.real_name.as_str(), a.recerts_left), ("张**", 1));
    assert_eq!(a.id_no, format!("1101{}{}", "*".repeat(10), &id_born(1990, 1, 1)[14..]));
    let again = p.identity.certify(u, "张三丰", &id_born(1991, 1, 1)).await.unwrap();
    assert_eq!(again.recerts_left, 0);
    assert_eq!(
        p.identity.certify(u, "张三丰", &id_born(1992, 1, 1)).await.map(|_| ()),
        Err(DomainError::CertNoRecert)
    );
    // sealed: the store holds no plain text
    let c = p.store().accounts.certification(u).unwrap().unwrap();
    let id = id_born(1991, 1, 1);
    assert!(!c.id_sealed.windows(6).any(|w| w == &id.as_bytes()[..6]));
    assert!(!String::from_utf8_lossy(&c.name_sealed).contains("张"));
}
