//! The start sequence's tips over real HTTP (core-platform.md §4.7, §2.14, §7.4): a game's tip
//! (seeded, set by the operator's token route and the dev route, removed), its ad as the JSON
//! string `tipExt`, the yoodo line only for a game played on play time, the play page's loading
//! tips; login where the start needs it, bad input answered with the envelope, never a 500.

use crate::common;

use common::{code, config, temp_dir, Client};
use serde_json::{json, Value};

const TOKEN: &str = "an-operator-token-for-the-tips";

fn operator(srv: &facade::Running, token: &str) -> Client {
    let mut c = Client::new(srv.addr, "operator");
    c.headers.push(("x-operator-token".into(), token.into()));
    c
}

async fn tip(c: &mut Client, game_id: Value) -> (u16, Value) {
    c.post("/api/japi/yoo/game/startTip", json!({"gameId": game_id, "afterAuthCheck": 1}))
        .await
}

// The seeded tip of game 13 comes with its ad (tipExt, with target_title) and the yoodo line; a
// game without a tip answers null; a subscription game's tip has no yoodo line; a guest is
// asked to log in; bad ids are 40000 and an unknown game 130100.
#[actix_rt::test]
async fn a_player_reads_a_games_tip() {
    let dir = temp_dir("tips-read");
    let srv = facade::start(config(&dir, 0, 60)).await.unwrap();
    let mut guest = Client::new(srv.addr, "guest");
    let (status, r) = tip(&mut guest, json!(13)).await;
    assert_eq!((status, code(&r)), (401, 20119), "{r}");

    let mut p = Client::new(srv.addr, "p");
    p.login("13800000501").await;
    let (status, r) = tip(&mut p, json!("13")).await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    let t = &r["data"];
    assert!(t["tip"].as_str().unwrap().contains("云端"), "{t}");
    assert_eq!(
        (&t["yoodo"], &t["yoodoText"]),
        (&json!("60"), &json!("时长不足时，可消耗%s悠豆/小时继续畅玩"))
    );
    let ext: Value = serde_json::from_str(t["tipExt"].as_str().expect("tipExt is a JSON string")).unwrap();
    assert_eq!(
        (&ext["target_title"], &ext["target_type"]),
        (&json!("排队加速卡"), &json!(5)),
        "{ext}"
    );

    let (status, r) = tip(&mut p, json!(1)).await;
    assert_eq!((status, code(&r), &r["data"]), (200, 0, &Value::Null), "no tip: {r}");

    // 19 is a subscription game (the configuration's subscription_games): no yoodo line
    let (_, r) = operator(&srv, "")
        .post("/api/dev/game/tip", json!({"gameId": 19, "tip": "订阅期间不限时长"}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    let (_, r) = tip(&mut p, json!(19)).await;
    assert_eq!(
        r["data"],
        json!({"tip": "订阅期间不限时长", "tipExt": null, "yoodo": null, "yoodoText": null})
    );

    for bad in [json!(null), json!("x"), json!([1]), json!(1.5)] {
        let (status, r) = tip(&mut p, bad.clone()).await;
        assert_eq!(
            (status, code(&r), r["message"].as_str()),
            (400, 40000, Some("请求参数错误")),
            "{bad}: {r}"
        );
    }
    let (status, r) = p.post_raw("/api/japi/yoo/game/startTip", "{").await;
    assert_eq!((status, code(&r)), (400, 40000), "{r}");
    for unknown in [999, 28] {
        let (status, r) = tip(&mut p, json!(unknown)).await;
        assert_eq!(
            (status, code(&r), r["message"].as_str()),
            (404, 130100, Some("游戏不存在")),
            "{unknown}: {r}"
        );
    }
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// The operator's token route sets, replaces and removes a game's tip (no or a wrong token:
// 40006, nothing changes); a too long text, an unknown ad or unknown fields are 40000, an
// unknown game 130100, and nothing is written; an ad that is retired is left out of tipExt.
#[actix_rt::test]
async fn the_operator_sets_a_games_tip() {
    let dir = temp_dir("tips-ops");
    let mut cfg = config(&dir, 0, 60);
    cfg.operator_token_sha256 = Some(actors::accounts::passport::secret_hash(TOKEN));
    let srv = facade::start(cfg).await.unwrap();
    let mut p = Client::new(srv.addr, "p");
    p.login("13800000502").await;
    let mut ops = operator(&srv, TOKEN);

    for token in ["", "wrong"] {
        let (status, r) = operator(&srv, token)
            .post("/api/ops/game/tip", json!({"gameId": 2, "tip": "x"}))
            .await;
        assert_eq!((status, code(&r)), (403, 40006), "{r}");
    }
    assert_eq!(tip(&mut p, json!(2)).await.1["data"], Value::Null, "a refused call wrote nothing");

    // an ad of the slots the players see
    let (_, slots) = p.get("/api/web/v1/ad/slots?keys=gift_game_countdown").await;
    let ad_id = slots["data"][0]["items"][0]["id"].as_i64().unwrap();
    let (status, r) = ops
        .post(
            "/api/ops/game/tip",
            json!({"gameId": 2, "tip": "  龙脊山脉的雪夜很冷  ", "adId": ad_id}),
        )
        .await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    let (_, r) = tip(&mut p, json!(2)).await;
    assert_eq!(r["data"]["tip"], "龙脊山脉的雪夜很冷", "trimmed: {r}");
    let ext: Value = serde_json::from_str(r["data"]["tipExt"].as_str().unwrap()).unwrap();
    assert_eq!((ext["id"].as_i64(), &ext["target_title"]), (Some(ad_id), &json!("夜卡畅玩")));

    // the ad retired by the operator's replacement of its slot: the tip shows without it
    let (_, r) = ops
        .post("/api/ops/ad/slot", json!({"key": "gift_game_countdown", "items": []}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(tip(&mut p, json!(2)).await.1["data"]["tipExt"], Value::Null);

    for bad in [
        json!({"gameId": 2, "tip": "长".repeat(501)}),
        json!({"gameId": 2, "tip": "x", "adId": 999_999}),
        json!({"gameId": 2, "tip": "x", "adId": 0}),
        json!({"gameId": 2, "tip": "x", "extra": 1}),
        json!({"gameId": 2}),
        json!({"gameId": "two", "tip": "x"}),
    ] {
        let (status, r) = ops.post("/api/ops/game/tip", bad.clone()).await;
        assert_eq!((status, code(&r)), (400, 40000), "{bad}: {r}");
    }
    let (status, r) = ops.post("/api/ops/game/tip", json!({"gameId": 999, "tip": "x"})).await;
    assert_eq!((status, code(&r)), (404, 130100), "{r}");
    assert_eq!(
        tip(&mut p, json!(2)).await.1["data"]["tip"],
        "龙脊山脉的雪夜很冷",
        "refusals wrote nothing"
    );

    let (_, r) = ops.post("/api/ops/game/tip", json!({"gameId": 2, "tip": "   "})).await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(tip(&mut p, json!(2)).await.1["data"], Value::Null, "an empty text removes the tip");
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// Anyone reads the seeded loading tips; the operator replaces them (token required; too many or
// empty ones are 40000 and change nothing).
#[actix_rt::test]
async fn loading_tips_are_read_and_replaced() {
    let dir = temp_dir("tips-loading");
    let mut cfg = config(&dir, 0, 60);
    cfg.operator_token_sha256 = Some(actors::accounts::passport::secret_hash(TOKEN));
    let srv = facade::start(cfg).await.unwrap();
    let mut guest = Client::new(srv.addr, "guest");
    let (status, r) = guest.post("/api/japi/yoo/game/loadTip", json!({})).await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    let seeded = r["data"]["tips"].as_array().unwrap().clone();
    assert!(seeded.len() >= 3, "{r}");

    let (status, r) = operator(&srv, "").post("/api/ops/game/loadTips", json!({"tips": ["x"]})).await;
    assert_eq!((status, code(&r)), (403, 40006), "{r}");
    let mut ops = operator(&srv, TOKEN);
    let too_many: Vec<String> = (0..21).map(|i| format!("提示{i}")).collect();
    for bad in [
        json!({"tips": too_many}),
        json!({"tips": ["ok", " "]}),
        json!({"tips": "x"}),
        json!({}),
    ] {
        let (status, r) = ops.post("/api/ops/game/loadTips", bad.clone()).await;
        assert_eq!((status, code(&r)), (400, 40000), "{bad}: {r}");
    }
    assert_eq!(
        guest.post("/api/japi/yoo/game/loadTip", json!({})).await.1["data"]["tips"],
        json!(seeded)
    );

    let (_, r) = ops.post("/api/ops/game/loadTips", json!({"tips": [" 第一条 ", "第二条"]})).await;
    assert_eq!(code(&r), 0, "{r}");
    let (_, r) = guest.post("/api/japi/yoo/game/loadTip", json!({})).await;
    assert_eq!(r["data"]["tips"], json!(["第一条", "第二条"]));
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
