//! One player on two devices (core-platform.md §4.5, §8.2): a game left running on one device is
//! ended with `over` from the other, whatever its status.

use crate::common;

use serde_json::json;

// `over` from a second device of the same player ends a PLAYING, READY or queued game of the first
// one; a start of the same game there is 130115 with the session id to end.
#[actix_rt::test]
async fn over_from_another_device_ends_the_game() {
    let dir = common::temp_dir("devices");
    let srv = facade::start(common::config(&dir, 1, 60)).await.unwrap();
    let mut a = common::Client::new(srv.addr, "device-a");
    let mut b = common::Client::new(srv.addr, "device-b");
    a.login("13700000001").await;
    b.login("13700000001").await;

    for confirm in [true, false] {
        let (_, started) = a.post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1})).await;
        assert_eq!(started["code"], 0, "{started}");
        let id = started["data"]["id"].clone();
        if confirm {
            let (_, r) = a.post("/api/japi/yoo/game/confirmConnect", json!({"id": id})).await;
            assert_eq!(r["code"], 0, "{r}");
        }
        // B sees the game as another device's, and its own start of it is 130115 with the id
        let (_, seen) = b.post("/api/japi/yoo/game/floatBall", json!({})).await;
        assert_eq!(
            (seen["data"]["hasGameOnline"].clone(), seen["data"]["clientType"].clone()),
            (json!(true), json!("other"))
        );
        let (_, refused) = b.post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1})).await;
        assert_eq!(refused["code"], 130115, "{refused}");
        assert_eq!(refused["data"]["id"], id);

        let (_, over) = b.post("/api/japi/yoo/game/over", json!({"id": id})).await;
        assert_eq!(over["code"], 0, "{over}");
        let (_, after) = a.post("/api/japi/yoo/game/floatBall", json!({})).await;
        assert_eq!(after["data"]["hasGameOnline"], false, "{after}");
    }

    // a queued game of A (the only machine is taken by C) is ended from B the same way
    let mut c = common::Client::new(srv.addr, "device-c");
    c.login("13700000002").await;
    let (_, r) = c.post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1})).await;
    assert_eq!(r["code"], 0, "{r}");
    let (_, queued) = a.post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1})).await;
    assert_eq!(queued["data"]["status"], 1, "{queued}");
    let (_, over) = b.post("/api/japi/yoo/game/over", json!({"id": queued["data"]["id"]})).await;
    assert_eq!(over["code"], 0, "{over}");
    let (_, after) = a.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(after["data"]["hasGameOnline"], false, "{after}");

    srv.handle.stop(false).await;
    let _ = std::fs::remove_dir_all(dir);
}
