//! The message centre over real HTTP and the socket (social.md §2.9, §3, §4.10, §7): the
//! welcome messages of a new account, pages and sender tabs, page bounds refused with 40000
//! (never a 500), guests refused with 20119, the operator's announcement (token route, stored
//! once) and a granted card's welfare message arriving as NEW_MESSAGE, and marking read and
//! clearing that touch the caller's messages only.

use crate::common;

use common::{code, config, temp_dir, Client, Socket};
use facade::proto::MessageType;
use serde_json::{json, Value};

const TOKEN: &str = "an-operator-token-for-the-messages";

fn operator(srv: &facade::Running, token: &str) -> Client {
    let mut c = Client::new(srv.addr, "operator");
    c.headers.push(("x-operator-token".into(), token.into()));
    c
}

async fn page(c: &mut Client, body: Value) -> Value {
    let (status, r) = c.post("/api/japi/msg/center/page", body).await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    r["data"].clone()
}

/// The displayed total: the sum over unreadCountVos.
async fn unread(c: &mut Client) -> i64 {
    let (_, r) = c.post("/api/japi/msg/center/unreadCount", json!({"ignoreSenders": 3})).await;
    assert_eq!(code(&r), 0, "{r}");
    let vos = r["data"]["unreadCountVos"].as_array().unwrap();
    let sum = vos.iter().map(|v| v["unReadCount"].as_i64().unwrap()).sum();
    assert_eq!(r["data"]["unReadCount"], json!(sum), "{r}");
    sum
}

/// Waits for a NEW_MESSAGE frame (other pushes skipped).
async fn new_message(s: &mut Socket) {
    loop {
        if s.next(5).await.r#type == MessageType::NewMessage as i32 {
            return;
        }
    }
}

fn names(page: &Value) -> Vec<String> {
    page["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_owned())
        .collect()
}

// A new account finds the welcome (system) and its coupons' welfare message, newest first,
// with Beijing 'YYYY-MM-DD HH:mm:ss' times; the tabs list every sender with the unread dot's
// counts and the last title; a sender filters; pages beyond the last are empty; bad page
// numbers and sizes are 40000; a guest is asked to log in on every call.
#[actix_rt::test]
async fn a_new_player_reads_the_welcome() {
    let dir = temp_dir("messages-welcome");
    let srv = facade::start(config(&dir, 0, 60)).await.unwrap();
    let mut guest = Client::new(srv.addr, "guest");
    for path in [
        "/api/japi/msg/center/page",
        "/api/japi/msg/center/unreadCount",
        "/api/japi/msg/center/updateRead",
        "/api/japi/msg/center/delete",
        "/api/message/msg/user/hasNewMessage",
    ] {
        let (status, r) = guest.post(path, json!({"pageNo": 1, "pageSize": 10})).await;
        assert_eq!((status, code(&r)), (401, 20119), "{path}: {r}");
    }

    let mut p = Client::new(srv.addr, "p");
    p.login("13800000801").await;
    let (_, flags) = p.post("/api/message/msg/user/hasNewMessage", json!({})).await;
    assert_eq!(flags["data"], json!({"sysMsgCount": 2, "userMsgCount": 0}), "{flags}");
    assert_eq!(unread(&mut p).await, 2);
    let (_, r) = p.post("/api/japi/msg/center/unreadCount", json!({"ignoreSenders": 3})).await;
    let vos = &r["data"]["unreadCountVos"];
    let senders: Vec<i64> = vos.as_array().unwrap().iter().map(|v| v["sender"].as_i64().unwrap()).collect();
    assert_eq!(senders, [1, 2, 4, 5, 6]);
    assert_eq!(
        (&vos[0]["name"], &vos[0]["lastMsgTitle"], &vos[0]["unReadCount"]),
        (&json!("系统消息"), &json!("欢迎来到云游"), &json!(1))
    );
    assert_eq!(
        (&vos[1]["lastMsgTitle"], &vos[1]["sendTime"]),
        (&json!(""), &json!("")),
        "no assistant message"
    );
    let (_, r) = p.post("/api/japi/msg/center/unreadCount", json!({"ignoreSenders": 5})).await;
    assert_eq!(
        r["data"]["unreadCountVos"].as_array().unwrap().len(),
        4,
        "an ignored sender has no tab"
    );

    let all = page(&mut p, json!({"pageNo": 1, "pageSize": 10})).await;
    assert_eq!((&all["totalCount"], &all["totalPageCount"]), (&json!(2), &json!(1)), "{all}");
    assert_eq!(names(&all), ["优惠券到账提醒", "欢迎来到云游"], "newest first");
    let welcome = &all["list"][1];
    let time = welcome["sendTime"].as_str().unwrap();
    assert!(
        time.len() == 19 && time.as_bytes()[4] == b'-' && time.as_bytes()[10] == b' ' && time.as_bytes()[13] == b':',
        "{time}"
    );
    assert_eq!((&welcome["msgTepParam"], &welcome["read"]), (&json!(""), &json!(false)));
    assert_eq!(all["list"][0]["link"], "/user/card/coupon");

    let one = page(&mut p, json!({"pageNo": "2", "pageSize": 1})).await;
    assert_eq!((names(&one), &one["totalPageCount"]), (vec!["欢迎来到云游".to_owned()], &json!(2)));
    let beyond = page(&mut p, json!({"pageNo": 3, "pageSize": 10})).await;
    assert_eq!((&beyond["totalCount"], beyond["list"].as_array().unwrap().len()), (&json!(2), 0));
    let system = page(&mut p, json!({"pageNo": 1, "pageSize": 10, "sender": 1})).await;
    assert_eq!(names(&system), ["欢迎来到云游"]);

    for bad in [
        json!({"pageNo": 0, "pageSize": 10}),
        json!({"pageNo": -1, "pageSize": 10}),
        json!({"pageNo": 10001, "pageSize": 10}),
        json!({"pageNo": 1, "pageSize": 0}),
        json!({"pageNo": 1, "pageSize": 51}),
        json!({"pageNo": 1, "pageSize": 10, "sender": 3}),
        json!({"pageNo": "x", "pageSize": 10}),
        json!({"pageNo": 1.5, "pageSize": 10}),
        json!({"pageSize": 10}),
        json!([1]),
    ] {
        let (status, r) = p.post("/api/japi/msg/center/page", bad.clone()).await;
        assert_eq!(
            (status, code(&r), r["message"].as_str()),
            (400, 40000, Some("请求参数错误")),
            "{bad}: {r}"
        );
    }
    let (status, r) = p.post_raw("/api/japi/msg/center/page", "{").await;
    assert_eq!((status, code(&r)), (400, 40000), "{r}");
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

// The operator's announcement (no or a wrong token: 40006; bad fields: 40000, nothing sent) is
// stored once and told to every connected player as NEW_MESSAGE; a granted time card arrives as
// a welfare message with its msgTepParam; marking read and clearing change the caller's
// messages only, whatever ids the body names.
#[actix_rt::test]
async fn announcements_and_grants_arrive_and_marks_stay_with_their_owner() {
    let dir = temp_dir("messages-push");
    let mut cfg = config(&dir, 0, 60);
    cfg.operator_token_sha256 = Some(actors::accounts::passport::secret_hash(TOKEN));
    let srv = facade::start(cfg).await.unwrap();
    let mut a = Client::new(srv.addr, "a");
    a.login("13800000802").await;
    let mut b = Client::new(srv.addr, "b");
    b.login("13800000803").await;
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;

    let notice = json!({"name": "停服维护公告", "content": "今晚 2:00-4:00 停服维护", "link": "/service"});
    for token in ["", "wrong"] {
        let (status, r) = operator(&srv, token).post("/api/ops/msg/announce", notice.clone()).await;
        assert_eq!((status, code(&r)), (403, 40006), "{r}");
    }
    let mut ops = operator(&srv, TOKEN);
    for bad in [
        json!({"name": "", "content": "x"}),
        json!({"name": "x", "content": ""}),
        json!({"name": "x", "content": "y", "link": "javascript:alert(1)"}),
        json!({"name": "x", "content": "y", "extra": 1}),
    ] {
        let (status, r) = ops.post("/api/ops/msg/announce", bad.clone()).await;
        assert_eq!((status, code(&r)), (400, 40000), "{bad}: {r}");
    }
    assert_eq!(unread(&mut a).await, 2, "nothing was announced");

    let (status, r) = ops.post("/api/ops/msg/announce", notice).await;
    assert_eq!((status, code(&r)), (200, 0), "{r}");
    assert!(r["data"]["told"].as_u64().unwrap() >= 2, "{r}");
    new_message(&mut sa).await;
    new_message(&mut sb).await;
    for c in [&mut a, &mut b] {
        assert_eq!(unread(c).await, 3);
        let notices = page(c, json!({"pageNo": 1, "pageSize": 10, "sender": 4})).await;
        assert_eq!(
            (names(&notices), &notices["list"][0]["link"]),
            (vec!["停服维护公告".to_owned()], &json!("/service"))
        );
    }
    let stored: i64 = {
        let conn = rusqlite::Connection::open(dir.join("yoo.db")).unwrap();
        conn.query_row("SELECT COUNT(*) FROM messages WHERE sender = 4", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(stored, 1, "an announcement is one row whatever the number of players");

    // a card granted to b: its welfare message, pushed to b alone
    let (_, r) = Client::new(srv.addr, "dev")
        .post(
            "/api/dev/grant",
            json!({"cellphone": "13800000803", "kind": "time_card", "minutes": 60, "days": 7}),
        )
        .await;
    assert_eq!(code(&r), 0, "{r}");
    new_message(&mut sb).await;
    let welfare = page(&mut b, json!({"pageNo": 1, "pageSize": 10, "sender": 5})).await;
    let card = &welfare["list"][0];
    assert_eq!(card["name"], "60分钟付费时长卡到账提醒", "{welfare}");
    let param: Value = serde_json::from_str(card["msgTepParam"].as_str().unwrap()).unwrap();
    assert_eq!(param, json!({"goods_type": "time_card", "auto_activate": 0}));
    assert_eq!(unread(&mut a).await, 3, "a received nothing");

    // a marks read and clears, naming b's message: only a's change
    let b_ids: Vec<i64> = page(&mut b, json!({"pageNo": 1, "pageSize": 10})).await["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    let (_, r) = a.post("/api/japi/msg/center/updateRead", json!({"ids": b_ids})).await;
    assert_eq!(code(&r), 0, "{r}");
    assert_eq!(unread(&mut a).await, 0);
    assert_eq!(unread(&mut b).await, 4, "b's messages stay unread");
    let (_, flags) = a.post("/api/message/msg/user/hasNewMessage", json!({})).await;
    assert_eq!(flags["data"], json!({"sysMsgCount": 0, "userMsgCount": 0}));
    let read = page(&mut a, json!({"pageNo": 1, "pageSize": 10})).await;
    assert!(read["list"].as_array().unwrap().iter().all(|m| m["read"] == true), "{read}");

    let (_, r) = a.post("/api/japi/msg/center/delete", json!({"ids": b_ids, "id": b_ids[0]})).await;
    assert_eq!(code(&r), 0, "{r}");
    let emptied = page(&mut a, json!({"pageNo": 1, "pageSize": 10})).await;
    assert_eq!((&emptied["totalCount"], &emptied["totalPageCount"]), (&json!(0), &json!(0)));
    let of_b = page(&mut b, json!({"pageNo": 1, "pageSize": 10})).await;
    assert_eq!(of_b["totalCount"], 4, "b keeps every message: {of_b}");

    // after clearing, a new announcement is seen again, unread
    let (_, r) = ops
        .post("/api/ops/msg/announce", json!({"name": "新活动", "content": "周末双倍时长"}))
        .await;
    assert_eq!(code(&r), 0, "{r}");
    new_message(&mut sa).await;
    assert_eq!(unread(&mut a).await, 1);
    assert_eq!(names(&page(&mut a, json!({"pageNo": 1, "pageSize": 10})).await), ["新活动"]);
    srv.handle.stop(true).await;
    let _ = std::fs::remove_dir_all(&dir);
}
