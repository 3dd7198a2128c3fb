//! Tasks moved by the platform's real events, through the real actors and a real SQLite store on
//! paused tokio time: a game start finishes gameStart, charged minutes count for gamePlay; and
//! check-ins across midnights make and break the streak.

use crate::common;

use std::time::Duration;

use actors::play::player::SessionOp;
use actors::view::Status;
use actors::{DomainConfig, DomainError, Platform};
use common::{node, online, settle, temp_dir, user};

async fn platform(name: &str) -> (Platform, std::path::PathBuf) {
    let dir = temp_dir(name);
    let store = storage::Store::open_sqlite(&dir).unwrap();
    let config = DomainConfig {
        connect_countdown_secs: 10,
        connect_delay_ms: 500,
        play_minute_ms: 1000,
        rank_refresh_ms: 250,
        sms_fail_numbers: vec![],
        register_gift_minutes: 600,
        nodes: vec![node(1)],
        ..DomainConfig::default()
    };
    (Platform::start(store, config).await.unwrap(), dir)
}

#[tokio::test(start_paused = true)]
async fn a_start_and_played_minutes_move_the_game_tasks() {
    let (p, dir) = platform("missions-play").await;
    let a = user(&p, "13800000091").await;
    let status = |code: &'static str| {
        let p = p.clone();
        async move { p.activity.task(a, code).await.unwrap().progress }
    };
    assert_eq!(status("daily_game_start").await.status, 0);
    let v = p.play.start_game(a, "dev-a", 1, Some(1), &[]).await.unwrap();
    assert_eq!(status("daily_game_start").await.status, 1, "the start finished gameStart");
    settle().await;
    p.play.session_op(a, SessionOp::Confirm, v.id).await.unwrap();
    tokio::time::advance(Duration::from_millis(600)).await;
    settle().await;
    assert_eq!(online(&p, a).await.status, Status::Playing);
    for _ in 0..12 {
        tokio::time::advance(Duration::from_secs(1)).await;
        settle().await;
    }
    let played = status("daily_game_play").await;
    assert!(played.progress >= 10 && played.status == 0, "{played:?}");
    for _ in 0..25 {
        tokio::time::advance(Duration::from_secs(1)).await;
        settle().await;
    }
    let played = status("daily_game_play").await;
    assert_eq!((played.progress, played.status), (30, 1), "capped at 30 and claimable");
    p.activity.claim_task(a, "daily_game_play").await.unwrap();
    assert_eq!(
        p.activity.claim_task(a, "daily_game_play").await,
        Err(DomainError::TaskNotClaimable)
    );
    assert!(p.store().commerce.ledger_mismatches(a).unwrap().is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(start_paused = true)]
async fn check_ins_across_midnights() {
    let (p, dir) = platform("missions-days").await;
    let a = user(&p, "13800000092").await;
    let day = Duration::from_secs(24 * 3600);
    assert_eq!(p.activity.check_in(a).await.unwrap().count, 1);
    assert_eq!(p.activity.check_in(a).await, Err(DomainError::CheckedInToday));
    for want in 2..=11 {
        tokio::time::advance(day).await;
        let r = p.activity.check_in(a).await.unwrap();
        assert_eq!(r.count, want);
        let info = p.activity.checkin_info(a).await.unwrap();
        assert!(info.sign_in_today && info.count == want);
        assert_eq!(info.cells.iter().filter(|c| c.is_today).count(), 1);
    }
    // Day 11 began the cycle again: its reward is day 1's.
    let info = p.activity.checkin_info(a).await.unwrap();
    assert!(info.cells[0].is_today && info.cells[0].sign);
    tokio::time::advance(day * 2).await;
    assert_eq!(p.activity.checkin_info(a).await.unwrap().count, 0);
    assert_eq!(p.activity.check_in(a).await.unwrap().count, 1, "a missed day starts again");
    let entries = p
        .store()
        .commerce
        .ledger(a)
        .unwrap()
        .into_iter()
        .filter(|e| e.reason == "checkin")
        .count();
    assert_eq!(entries, 12);
    assert!(p.store().commerce.ledger_mismatches(a).unwrap().is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(start_paused = true)]
async fn a_room_entry_and_a_chat_message_move_the_room_tasks() {
    use actors::rooms::view::{EnterRoom, RoomForm, MODE_RELAY};
    let (p, dir) = platform("missions-room").await;
    let host = user(&p, "13800000093").await;
    let a = user(&p, "13800000094").await;
    let room = p
        .rooms
        .create_room(
            host,
            RoomForm {
                room_name: "一起来玩".into(),
                mode: MODE_RELAY,
                game_id: 1,
                is_show: true,
                password: None,
                is_update_pass: false,
            },
        )
        .await
        .unwrap();
    assert_eq!(p.activity.task(a, "once_game_live").await.unwrap().progress.status, 0);
    p.rooms
        .enter_room(
            a,
            "d-a",
            EnterRoom {
                dd_rid: room.dd_rid,
                mode: MODE_RELAY,
                force: false,
                password: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(
        p.activity.task(a, "once_game_live").await.unwrap().progress.status,
        1,
        "the entry counts"
    );
    assert_eq!(p.activity.task(a, "daily_barrage").await.unwrap().progress.status, 0);
    p.rooms.chat_send(a, room.dd_rid, "你好".into(), None).await.unwrap();
    assert_eq!(
        p.activity.task(a, "daily_barrage").await.unwrap().progress.status,
        1,
        "the message counts"
    );
    assert_eq!(
        p.activity.task(host, "daily_barrage").await.unwrap().progress.status,
        0,
        "the host's own tasks are untouched"
    );
    let _ = std::fs::remove_dir_all(dir);
}
