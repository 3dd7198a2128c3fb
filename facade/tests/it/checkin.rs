//! Check-in and tasks over real HTTP against a real server and SQLite (commerce.md §2.11,
//! §2.12, §4.10, §4.11, §8): once a day however concurrent, the streak across midnight on paused
//! time and its reset after a missed day, the reward granted with its ledger entry; tasks moved
//! by real events (a check-in, a game start), claimed once (140202 before finished, twice, or
//! concurrently), a claim touching only the caller's own task.

use crate::common;

use std::time::Duration;

use common::{code, config_with, ledger_holds, ledger_holds_in, profile, temp_dir, Client};
use futures_util::future::join_all;
use serde_json::{json, Value};

async fn free_minutes(c: &mut Client) -> i64 {
    profile(c).await["play_time_free"].as_i64().unwrap()
}

async fn tasks(c: &mut Client) -> Vec<Value> {
    let (_, r) = c.post("/api/japi/social/tsk/unfinished", json!({})).await;
    assert_eq!(code(&r), 0, "{r}");
    r["data"].as_array().unwrap().clone()
}

fn find<'a>(list: &'a [Value], code: &str) -> &'a Value {
    list.iter().find(|t| t["taskCode"] == code).unwrap()
}

/// `n` POSTs at once with `c`'s login; their envelopes.
async fn race(c: &Client, n: usize, path: &str, body: Value) -> Vec<Value> {
    let cookies = c.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
    let csrf = c.cookies["_csrfToken"].clone();
    join_all((0..n).map(|_| {
        let (base, cookies, csrf, body, path) = (c.base.clone(), cookies.clone(), csrf.clone(), body.clone(), path.to_owned());
        async move {
            let mut resp = awc::Client::default()
                .post(format!("{base}{path}"))
                .insert_header(("cookie", cookies))
                .insert_header(("x-csrf-token", csrf))
                .timeout(Duration::from_secs(120))
                .send_json(&body)
                .await
                .unwrap();
            serde_json::from_slice::<Value>(&resp.body().await.unwrap()).unwrap()
        }
    }))
    .await
}

/// Concurrent check-ins make one; the dialog's data follows; the signIn task becomes claimable
/// and is claimed once (concurrently too); another user's claim of it changes nothing of ours;
/// then across midnight on paused time the streak is 2, and after a missed day it is 1 again.
#[actix_rt::test]
async fn check_in_once_a_day_with_streak_reward_and_ledger() {
    const N: usize = 20;
    let dir = temp_dir("checkin");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    let mut b = Client::new(srv.addr, "dev-b");
    a.login("15600000101").await;
    b.login("15600000102").await;
    let uid = profile(&mut a).await["uid"].as_i64().unwrap();
    let buid = profile(&mut b).await["uid"].as_i64().unwrap();
    let free0 = free_minutes(&mut a).await;

    let (_, info) = a.get("/api/activity/sign/info").await;
    assert_eq!(code(&info), 0, "{info}");
    let d = &info["data"];
    assert_eq!((d["count"].as_i64(), d["sign_in_today"].as_bool()), (Some(0), Some(false)), "{d}");
    let items = d["sign_items"].as_array().unwrap();
    assert_eq!(items.len(), 10);
    assert_eq!(items[0]["is_today"], true);
    assert_eq!(
        items[2]["reward"]["play_time"].as_i64(),
        Some(items[2]["reward"]["origin_play_time"].as_i64().unwrap() * 2),
        "day 3 doubled"
    );
    let first_reward = d["reward_play_time"].as_i64().unwrap();
    assert!(first_reward > 0);

    // The signIn task waits for a check-in: claiming it now is refused.
    let (_, early) = a
        .post("/api/japi/social/tsk/receive", json!({"taskCode": "daily_sign_in", "taskClass": 1}))
        .await;
    assert_eq!(code(&early), 140202, "{early}");
    assert_eq!(find(&tasks(&mut a).await, "daily_sign_in")["status"], 0);

    let answers = race(&a, N, "/api/activity/signin", json!({})).await;
    assert_eq!(answers.iter().filter(|r| code(r) == 0).count(), 1, "one check-in: {answers:?}");
    assert_eq!(answers.iter().filter(|r| code(r) == 140203).count(), N - 1, "the rest refused");
    let made = answers.iter().find(|r| code(r) == 0).unwrap();
    assert_eq!(made["data"]["count"].as_i64(), Some(1));
    assert_eq!(made["data"]["reward_play_time"].as_i64(), Some(first_reward));
    assert!(made["data"]["reward_play_time_next"].as_i64().unwrap() > 0);
    assert_eq!(free_minutes(&mut a).await, free0 + first_reward, "the minutes once");
    let (_, again) = a.post("/api/activity/signin", json!({})).await;
    assert_eq!(code(&again), 140203, "{again}");
    let (_, info) = a.get("/api/activity/sign/info").await;
    assert_eq!(
        (info["data"]["count"].as_i64(), info["data"]["sign_in_today"].as_bool()),
        (Some(1), Some(true))
    );
    assert_eq!(info["data"]["sign_items"][0]["sign"], true);
    let checkins = srv
        .platform
        .store()
        .commerce
        .ledger(uid)
        .unwrap()
        .into_iter()
        .filter(|e| e.reason == "checkin")
        .count();
    assert_eq!(checkins, 1, "one ledger entry");

    // The check-in finished the signIn task; b's claim of it is b's own (not finished).
    let t = find(&tasks(&mut a).await, "daily_sign_in").clone();
    assert_eq!((t["status"].as_i64(), t["progress"].as_i64()), (Some(1), Some(1)), "{t}");
    let reward = t["rewards"][0]["faceValue"].as_i64().unwrap();
    let (_, other) = b
        .post("/api/japi/social/tsk/receive", json!({"taskCode": "daily_sign_in", "taskClass": 1}))
        .await;
    assert_eq!(code(&other), 140202, "{other}");
    assert_eq!(find(&tasks(&mut a).await, "daily_sign_in")["status"], 1, "a's task untouched");
    let before = free_minutes(&mut a).await;
    let claims = race(
        &a,
        N,
        "/api/japi/social/tsk/receive",
        json!({"taskCode": "daily_sign_in", "taskClass": 1}),
    )
    .await;
    assert_eq!(claims.iter().filter(|r| code(r) == 0).count(), 1, "one claim: {claims:?}");
    assert_eq!(claims.iter().filter(|r| code(r) == 140202).count(), N - 1);
    let won = claims.iter().find(|r| code(r) == 0).unwrap();
    assert_eq!(won["data"]["task"]["status"], 2);
    assert!(won["data"]["notice"].as_str().unwrap().contains(&reward.to_string()));
    assert_eq!(free_minutes(&mut a).await, before + reward, "the reward once");
    let (_, twice) = a
        .post("/api/japi/social/tsk/receive", json!({"taskCode": "daily_sign_in", "taskClass": 1}))
        .await;
    assert_eq!(code(&twice), 140202);
    let (_, unknown) = a
        .post("/api/japi/social/tsk/receive", json!({"taskCode": "nope", "taskClass": 1}))
        .await;
    assert_eq!(code(&unknown), 140201, "{unknown}");
    let (_, detail) = a.get("/api/japi/social/point/taskDetail?taskCode=daily_sign_in").await;
    assert_eq!(detail["data"]["status"], 2, "{detail}");
    let (_, rules) = a.get("/api/activity/content?t=3").await;
    assert!(rules["data"]["content"].as_str().unwrap().contains("签到"), "{rules}");
    let (_, bad) = a.get("/api/activity/content?t=x").await;
    assert_eq!(code(&bad), 40000);
    let (_, cfg) = a.get("/api/japi/social/tsk/rewardConfig").await;
    assert_eq!(cfg["data"][0]["key"], "playTime");
    ledger_holds(&srv, uid);
    ledger_holds(&srv, buid);

    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The streak over HTTP on paused time, the server in this thread (`facade::InProcess`): the
/// next day's check-in makes a streak of 2 and the daily task claimable again, day 3 doubles
/// the reward, a missed day starts again from 1.
#[actix_rt::test]
async fn the_streak_runs_across_midnight_and_breaks_after_a_missed_day() {
    let dir = temp_dir("checkin-midnight");
    let srv = std::rc::Rc::new(facade::InProcess::start(config_with(&dir, 0, 60, "")).await.unwrap());
    tokio::time::pause();
    let mut a = Client::in_process(&srv, "dev-a");
    a.login("15600000104").await;
    let sign = async |c: &mut Client| c.post("/api/activity/signin", json!({})).await.1;
    let info = async |c: &mut Client| c.get("/api/activity/sign/info").await.1["data"].clone();
    let first = sign(&mut a).await;
    assert_eq!(first["data"]["count"], 1, "{first}");
    let first_reward = first["data"]["reward_play_time"].as_i64().unwrap();

    tokio::time::advance(Duration::from_secs(24 * 3600)).await;
    let i = info(&mut a).await;
    assert_eq!(
        (i["count"].as_i64(), i["sign_in_today"].as_bool()),
        (Some(1), Some(false)),
        "yesterday's streak stands: {i}"
    );
    let second = sign(&mut a).await;
    assert_eq!(second["data"]["count"], 2, "{second}");
    assert_eq!(code(&sign(&mut a).await), 140203, "once a day");
    assert_eq!(find(&tasks(&mut a).await, "daily_sign_in")["status"], 1, "the daily task again");

    tokio::time::advance(Duration::from_secs(24 * 3600)).await;
    let third = sign(&mut a).await;
    let d = &third["data"];
    assert_eq!(d["count"], 3, "{third}");
    assert_eq!(
        d["reward_play_time"].as_i64().unwrap(),
        2 * d["reward_play_time_origin"].as_i64().unwrap(),
        "day 3 doubles: {third}"
    );

    tokio::time::advance(Duration::from_secs(2 * 24 * 3600)).await;
    assert_eq!(info(&mut a).await["count"], 0, "the streak broke");
    let again = sign(&mut a).await;
    assert_eq!(
        (again["data"]["count"].as_i64(), again["data"]["reward_play_time"].as_i64()),
        (Some(1), Some(first_reward))
    );
    ledger_holds_in(&srv.platform, profile(&mut a).await["uid"].as_i64().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game start moves the gameStart task (a real start, not a button), which is then claimed.
#[actix_rt::test]
async fn a_game_start_finishes_the_game_start_task() {
    let dir = temp_dir("checkin-start");
    let srv = facade::start(config_with(&dir, 1, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15600000103").await;
    let uid = profile(&mut a).await["uid"].as_i64().unwrap();
    assert_eq!(find(&tasks(&mut a).await, "daily_game_start")["status"], 0);
    let game = srv
        .platform
        .play
        .games(None, 1, 50)
        .await
        .unwrap()
        .0
        .into_iter()
        .find(|g| g.status == 1 && g.available)
        .unwrap()
        .id;
    let (_, started) = a
        .post("/api/japi/yoo/game/start", json!({"gameId": game, "nodeId": 1, "nodeDelay": "[]"}))
        .await;
    assert_eq!(code(&started), 0, "{started}");
    let t = find(&tasks(&mut a).await, "daily_game_start").clone();
    assert_eq!((t["status"].as_i64(), t["progress"].as_i64()), (Some(1), Some(1)), "{t}");
    let before = free_minutes(&mut a).await;
    let (_, got) = a
        .post(
            "/api/japi/social/tsk/receive",
            json!({"taskCode": "daily_game_start", "taskClass": 1}),
        )
        .await;
    assert_eq!(code(&got), 0, "{got}");
    assert!(free_minutes(&mut a).await > before);
    ledger_holds(&srv, uid);
}

/// A fulfilled order (paid with coins) finishes the one-off orderSuccess task; a claim before it
/// was refused; the reward comes once, with the ledger.
#[actix_rt::test]
async fn a_fulfilled_order_finishes_the_order_task() {
    let dir = temp_dir("checkin-order");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut a = Client::new(srv.addr, "dev-a");
    a.login("15600000104").await;
    let uid = profile(&mut a).await["uid"].as_i64().unwrap();
    let (_, early) = a
        .post(
            "/api/japi/social/tsk/receive",
            json!({"taskCode": "once_order_success", "taskClass": 2}),
        )
        .await;
    assert_eq!(code(&early), 140202, "{early}");
    srv.platform
        .store()
        .commerce
        .grant(uid, &[storage::GoodsGrant::Coins { amount: 600 }], "grant", "", 0)
        .unwrap();
    let cookies = a.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
    let mut resp = awc::Client::default()
        .post(format!("{}/api/payment/goods", a.base))
        .insert_header(("cookie", cookies))
        .insert_header(("x-csrf-token", a.cookies["_csrfToken"].clone()))
        .insert_header(("Idempotency-Key", "order-task-1"))
        .send_json(&json!({"goods_id": 0, "goods_code": "time_300", "goods_num": 1, "pay_method": "yunyoubi", "confirm": 0}))
        .await
        .unwrap();
    let paid: Value = serde_json::from_slice(&resp.body().await.unwrap()).unwrap();
    assert_eq!(code(&paid), 0, "{paid}");
    let t = find(&tasks(&mut a).await, "once_order_success").clone();
    assert_eq!((t["status"].as_i64(), t["finishProgress"].as_i64()), (Some(1), Some(-1)), "{t}");
    let before = free_minutes(&mut a).await;
    let (_, got) = a
        .post(
            "/api/japi/social/tsk/receive",
            json!({"taskCode": "once_order_success", "taskClass": 2}),
        )
        .await;
    assert_eq!(code(&got), 0, "{got}");
    assert_eq!(free_minutes(&mut a).await, before + t["rewards"][0]["faceValue"].as_i64().unwrap());
    let (_, twice) = a
        .post(
            "/api/japi/social/tsk/receive",
            json!({"taskCode": "once_order_success", "taskClass": 2}),
        )
        .await;
    assert_eq!(code(&twice), 140202);
    ledger_holds(&srv, uid);
}
