//! Lanes, fast-entry cards, monthly claims, cross-screen moves and play time through the real
//! actors and a real SQLite store, on paused tokio time.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use actors::play::player::SessionOp;
use actors::play::service::Grant;
use actors::view::{EndReason, GameState, Status};
use actors::{DomainConfig, DomainError, Platform};
use common::{node, online, settle, temp_dir, user, Recorder};

async fn platform(name: &str, machines: usize, gift: i64) -> Platform {
    let dir = temp_dir(name);
    let store = storage::Store::open_sqlite(&dir).unwrap();
    let config = DomainConfig {
        connect_countdown_secs: 30,
        connect_delay_ms: 100,
        rank_refresh_ms: 100,
        play_minute_ms: 1000,
        science_duration_secs: 5,
        register_gift_minutes: gift,
        sms_fail_numbers: vec![],
        nodes: vec![node(machines)],
        ..DomainConfig::default()
    };
    Platform::start(store, config).await.unwrap()
}

fn days(kind: &str, days: i64) -> Grant {
    Grant::Entitlement { kind: kind.into(), days }
}

/// Members join their lane ahead of the normal backlog; a grant while queued upgrades at once.
#[tokio::test(start_paused = true)]
async fn lanes_follow_what_players_hold() {
    let p = platform("lanes", 0, 60).await;
    let normal: Vec<i64> = futures_join(&p, &["15000000001", "15000000002", "15000000003"]).await;
    for u in &normal {
        assert_eq!(p.play.start_game(*u, "d", 1, Some(1), &[]).await.unwrap().is_fast, 0);
    }
    let vip = user(&p, "15000000010").await;
    p.play.grant(vip, days("vip", 30)).await.unwrap();
    let v = p.play.start_game(vip, "d", 1, Some(1), &[]).await.unwrap();
    assert_eq!((v.is_fast, v.sort), (4, 1), "a VIP joins the VIP lane, ahead of the normal backlog");
    assert_eq!(online(&p, normal[0]).await.sort, 2);

    // A grant while queued moves the player up at once (the engine call behind a purchase).
    p.play.grant(normal[2], days("vvip", 30)).await.unwrap();
    let up = online(&p, normal[2]).await;
    assert_eq!((up.is_fast, up.sort), (3, 1));
    let preview = p.play.channel_preview(normal[0], 0).await.unwrap();
    assert_eq!((preview.pre_sort, preview.lane), (4, 0), "a new normal player would have 4 ahead");
    assert_eq!(
        (preview.wait, preview.own_wait, preview.wait_duration()),
        (None, None, 0),
        "nobody admitted yet: no measured wait, and no guess"
    );
    assert_eq!(
        p.play.channel_preview(normal[0], 1).await.unwrap().pre_sort,
        0,
        "member fast entry skips the queue"
    );
}

/// A lane change's new place is in storage when the change answers, and two changes in a row
/// leave the second's (the place a restart restores the queue from).
#[tokio::test(start_paused = true)]
async fn a_lane_change_is_stored_before_it_answers() {
    let p = platform("lane-stored", 0, 60).await;
    let ahead = futures_join(&p, &["15000000021", "15000000022"]).await;
    for u in &ahead {
        p.play.start_game(*u, "d", 1, Some(1), &[]).await.unwrap();
    }
    let u = user(&p, "15000000023").await;
    let v = p.play.start_game(u, "d", 1, Some(1), &[]).await.unwrap();
    let stored = |p: &Platform| {
        let r = p.store().sessions.get(v.id).unwrap().unwrap();
        (r.lane, r.tag, r.seq)
    };
    assert_eq!(stored(&p).0, 0);
    // No yield between the change and the read: the write is part of the change.
    p.play.grant(u, days("vip", 30)).await.unwrap();
    let after_vip = stored(&p);
    assert_eq!(after_vip.0, 4, "the VIP lane is stored");
    p.play.grant(u, days("vvip", 30)).await.unwrap();
    let after_vvip = stored(&p);
    assert_eq!(after_vvip.0, 3, "the second change is the one stored");
    assert!(after_vvip.1 < after_vip.1, "a further-forward tag");
    assert_eq!(online(&p, u).await.sort, 1);
}

async fn futures_join(p: &Platform, phones: &[&str]) -> Vec<i64> {
    let mut v = vec![];
    for ph in phones {
        v.push(user(p, ph).await);
    }
    v
}

/// A fast-entry card moves a queued player to the fast lane at once, once; not outside a queue.
#[tokio::test(start_paused = true)]
async fn fast_entry_cards_and_monthly_claims() {
    let p = platform("cards", 0, 60).await;
    let a = user(&p, "15100000001").await;
    let b = user(&p, "15100000002").await;
    p.play.start_game(a, "d", 1, Some(1), &[]).await.unwrap();
    let vb = p.play.start_game(b, "d", 1, Some(1), &[]).await.unwrap();
    assert_eq!(vb.sort, 2);
    assert_eq!(p.play.use_card(b, 1).await.unwrap_err(), DomainError::UnknownCard);
    p.play.grant(b, Grant::Cards { count: 2 }).await.unwrap();
    let cards = p.play.cards(b).await.unwrap();
    assert_eq!(cards.len(), 2);
    let (card, view) = p.play.use_card(b, cards[0].id).await.unwrap();
    assert_eq!(card.used_session, Some(vb.id));
    assert_eq!((view.is_fast, view.sort), (1, 1));
    // The card is an hour of fast entry: B's next start within the hour is on the fast lane.
    assert_eq!(
        p.play.holdings(b).await.unwrap().lane(p.clock().now_ms()),
        actors::play::lanes::Lane::Member
    );
    assert_eq!(p.play.use_card(b, cards[0].id).await.unwrap_err(), DomainError::CardUnusable);
    assert_eq!(p.play.cards(b).await.unwrap().len(), 1);
    p.play.session_op(a, SessionOp::CancelQueue, online(&p, a).await.id).await.unwrap();
    assert_eq!(p.play.use_card(a, cards[1].id).await.unwrap_err(), DomainError::CardNotQueued);

    // Monthly member fast entry: members only, once a month.
    assert_eq!(p.play.claim_monthly(a).await.unwrap_err(), DomainError::NotMember);
    p.play.grant(a, days("vvip", 30)).await.unwrap();
    let (claims, per_month, open) = p.play.monthly_records(a).await.unwrap();
    assert_eq!((claims.len(), per_month, open), (0, 5, true), "vvip: 5 one-hour cards a month");
    let claimed = p.play.claim_monthly(a).await.unwrap();
    assert_eq!(claimed.len(), 5);
    assert_eq!(claimed[0].goods_title, actors::play::service::MONTHLY_CARD_TITLE);
    assert_eq!(p.play.claim_monthly(a).await.unwrap_err(), DomainError::MonthlyClaimed);
    assert!(!p.play.monthly_records(a).await.unwrap().2);
    assert_eq!(p.play.cards(a).await.unwrap().len(), 5);
    tokio::time::advance(Duration::from_secs(3601)).await;
    assert_eq!(
        p.play.holdings(b).await.unwrap().lane(p.clock().now_ms()),
        actors::play::lanes::Lane::Normal,
        "the card's fast entry lasts an hour"
    );

    // A vip claims 3; a carrier member (tyvip) is no member and claims none.
    let v = user(&p, "15100000003").await;
    p.play.grant(v, days("vip", 30)).await.unwrap();
    assert_eq!(p.play.claim_monthly(v).await.unwrap().len(), 3);
    let t = user(&p, "15100000004").await;
    p.play.grant(t, days("tyvip", 30)).await.unwrap();
    assert_eq!(p.play.claim_monthly(t).await.unwrap_err(), DomainError::NotMember);
    assert_eq!(p.play.monthly_records(t).await.unwrap().1, 0);
}

/// The start checks: member-only games, subscription games, no play time.
#[tokio::test(start_paused = true)]
async fn start_checks_of_what_players_hold() {
    let p = platform("checks", 1, 0).await;
    let a = user(&p, "15200000001").await;
    assert_eq!(
        p.play.start_game(a, "d", 1, Some(1), &[]).await.unwrap_err(),
        DomainError::ShortOfTime
    );
    p.play.grant(a, Grant::PlayTime { free: 30, paid: 0 }).await.unwrap();
    assert_eq!(p.play.start_game(a, "d", 20, Some(1), &[]).await.unwrap_err(), DomainError::VipOnly);
    assert_eq!(
        p.play.start_game(a, "d", 21, Some(1), &[]).await.unwrap_err(),
        DomainError::VvipOnly
    );
    assert_eq!(
        p.play.start_game(a, "d", 19, Some(1), &[]).await.unwrap_err(),
        DomainError::NeedSubscription
    );
    p.play.grant(a, days("sub:19", 30)).await.unwrap();
    assert!(p.play.start_game(a, "d", 19, Some(1), &[]).await.is_ok());
}

/// Play time is spent minute by minute, free first; under 10 minutes the player is told; at zero
/// the player is told, the game lives on through the time-up countdown (`scienceDuration`), then
/// the session ends and the machine goes to the next player.
#[tokio::test(start_paused = true)]
async fn play_time_runs_out() {
    let p = platform("time", 1, 0).await;
    let a = user(&p, "15300000001").await;
    let b = user(&p, "15300000002").await;
    p.play.grant(a, Grant::PlayTime { free: 2, paid: 1 }).await.unwrap();
    p.play.grant(b, Grant::PlayTime { free: 5, paid: 0 }).await.unwrap();
    let rec = Arc::new(Recorder::default());
    p.play.connect(a, rec.clone()).await.unwrap();
    let v = p.play.start_game(a, "d", 1, Some(1), &[]).await.unwrap();
    settle().await;
    p.play.session_op(a, SessionOp::Confirm, v.id).await.unwrap();
    p.play.start_game(b, "d", 1, Some(1), &[]).await.unwrap();
    tokio::time::advance(Duration::from_millis(150)).await;
    settle().await;
    assert_eq!(online(&p, a).await.status, Status::Playing);
    let u = p.passport().user(a).await.unwrap();
    assert_eq!(
        (u.play_time_free, u.play_time_paid),
        (1, 1),
        "minute 0 is charged as play begins, free first"
    );
    assert_eq!(rec.notices(), vec![actors::view::USER_GAME_TIME_NOT_ENOUGH]);
    for _ in 0..3 {
        tokio::time::advance(Duration::from_millis(1000)).await;
        settle().await;
    }
    let u = p.passport().user(a).await.unwrap();
    assert_eq!((u.play_time_free, u.play_time_paid), (0, 0));
    assert_eq!(
        rec.notices(),
        vec![actors::view::USER_GAME_TIME_NOT_ENOUGH, actors::view::USER_TIME_END]
    );
    assert_eq!(online(&p, a).await.status, Status::Playing, "the countdown keeps the game alive");
    tokio::time::advance(Duration::from_millis(4000)).await;
    settle().await;
    assert_eq!(online(&p, a).await.status, Status::Playing);
    tokio::time::advance(Duration::from_millis(1100)).await;
    settle().await;
    assert!(matches!(
        rec.last_state(),
        Some(GameState::Ended {
            reason: EndReason::TimeUp,
            ..
        })
    ));
    assert_eq!(
        online(&p, b).await.status,
        Status::Ready,
        "the freed machine goes to the next player"
    );
    let record = p.store().sessions.get(v.id).unwrap().unwrap();
    assert_eq!(record.play_minutes, 3);
}

/// A member moves a running game to another device; others are told to exit first.
#[tokio::test(start_paused = true)]
async fn cross_screen_move() {
    let p = platform("move", 0, 60).await;
    let a = user(&p, "15400000001").await;
    let v = p.play.start_game(a, "phone", 1, Some(1), &[]).await.unwrap();
    assert_eq!(
        p.play.move_session(a, "laptop").await.unwrap_err(),
        DomainError::NoCrossScreen { session_id: v.id }
    );
    p.play.grant(a, days("vip", 30)).await.unwrap();
    let moved = p.play.move_session(a, "laptop").await.unwrap();
    assert_eq!(&*moved.device_no, "laptop");
    assert_eq!(&*online(&p, a).await.device_no, "laptop");
    assert_eq!(p.store().sessions.get(v.id).unwrap().unwrap().device_no, "laptop");
}

/// The expected wait is a range measured from the node's admissions (a player's own and a
/// lane's), none before anyone was admitted after waiting.
#[tokio::test(start_paused = true)]
async fn waits_are_a_measured_range() {
    let p = platform("waits", 1, 600).await;
    let mut players = vec![];
    for i in 0..20 {
        let u = user(&p, &format!("1560000{i:04}")).await;
        let v = p.play.start_game(u, "d", 1 + (i % 3), Some(1), &[]).await.unwrap();
        players.push((u, v.id));
    }
    settle().await;
    let last = players[19].0;
    assert_eq!(p.play.channel_preview(last, 0).await.unwrap().own_wait, None, "not measured yet");
    // One machine, each player holds it for a second: about one admission a second, over
    // 14 s, so that at least one 30 s bucket has the 5 s of waiting a measurement needs.
    for (u, id) in players.iter().take(14) {
        tokio::time::advance(Duration::from_millis(1000)).await;
        settle().await;
        p.play.session_op(*u, SessionOp::Over, *id).await.unwrap();
        settle().await;
    }
    let preview = p.play.channel_preview(last, 0).await.unwrap();
    let own = preview.own_wait.expect("measured");
    let rank = online(&p, last).await.sort;
    assert_eq!(rank, 5, "one admitted on joining, 14 after waiting");
    assert!((3..=8).contains(&own.min_secs), "about a second a place: {own:?}");
    assert!(own.max_secs.is_some_and(|m| m >= own.min_secs), "{own:?}");
    let lane = preview.wait.expect("a lane's wait is measured too");
    assert!(lane.min_secs >= own.min_secs, "a joiner now waits behind the caller: {preview:?}");
    assert_eq!(preview.wait_duration(), lane.max_secs.unwrap());
}

/// Play time added during the time-up countdown keeps the game: the minute due is charged at
/// once and play goes on past the countdown.
#[tokio::test(start_paused = true)]
async fn topping_up_in_the_countdown_keeps_the_game() {
    let p = platform("topup", 1, 0).await;
    let a = user(&p, "15300000011").await;
    p.play.grant(a, Grant::PlayTime { free: 1, paid: 0 }).await.unwrap();
    let rec = Arc::new(Recorder::default());
    p.play.connect(a, rec.clone()).await.unwrap();
    let v = p.play.start_game(a, "d", 1, Some(1), &[]).await.unwrap();
    settle().await;
    p.play.session_op(a, SessionOp::Confirm, v.id).await.unwrap();
    tokio::time::advance(Duration::from_millis(150)).await;
    settle().await;
    assert_eq!(online(&p, a).await.status, Status::Playing);
    tokio::time::advance(Duration::from_millis(1000)).await;
    settle().await;
    assert!(
        rec.notice_list().contains(&actors::view::Notice::TimeUp {
            game_id: 1,
            science_duration_secs: 5
        }),
        "minute 1 found no time: the player is told, with the countdown"
    );
    tokio::time::advance(Duration::from_millis(2000)).await;
    settle().await;
    p.play.grant(a, Grant::PlayTime { free: 0, paid: 30 }).await.unwrap();
    settle().await;
    let u = p.passport().user(a).await.unwrap();
    assert_eq!(
        u.play_time_paid, 27,
        "the minutes played in the countdown (1, 2 and 3) are charged at once"
    );
    tokio::time::advance(Duration::from_millis(6000)).await;
    settle().await;
    assert_eq!(online(&p, a).await.status, Status::Playing, "past the countdown, still playing");
    let u = p.passport().user(a).await.unwrap();
    assert!(u.play_time_paid < 27, "and the minutes go on being charged");
}
