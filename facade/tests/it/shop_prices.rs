//! The price the purchase dialog shows (issue 10): each goods of `section/goods` and
//! `shop/goods/item` carries `price`, what one unit costs the caller now, priced as a submit of
//! one unit is, so the browser restates no pricing rule (commerce.md §4.5).

use crate::common;

use common::{config_with, temp_dir, Client};
use serde_json::{json, Value};

fn price_of(section: &Value, code: &str) -> i64 {
    section["data"]["goods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["code"] == code)
        .unwrap_or_else(|| panic!("{code} in {section}"))["price"]
        .as_i64()
        .unwrap()
}

// A guest and a non-member see retail; a member sees the member price where it is below retail;
// an auto-renew goods shows its first price; the order of a submit charges what was shown.
#[actix_rt::test]
async fn the_price_shown_is_the_price_charged() {
    let dir = temp_dir("prices");
    let srv = facade::start(config_with(&dir, 0, 60, "")).await.unwrap();
    let mut guest = Client::new(srv.addr, "dev-guest");
    let (_, time) = guest.get("/api/web/v1/section/goods?section_key=shop_card_time").await;
    // time_600: retail 1000, member price 900
    assert_eq!(price_of(&time, "time_600"), 1000);

    let mut c = Client::new(srv.addr, "dev-p");
    c.login("15800000101").await;
    let uid = c.get("/api/user/profile").await.1["data"]["uid"].as_i64().unwrap();
    let (_, time) = c.get("/api/web/v1/section/goods?section_key=shop_card_time").await;
    assert_eq!(price_of(&time, "time_600"), 1000, "no member price without the privilege");
    let (_, vip) = c.get("/api/web/v1/section/goods?section_key=shop_vip").await;
    assert_eq!(price_of(&vip, "vip_renew"), 1500, "the first period of an auto-renew goods");

    let (_, granted) = c
        .post("/api/dev/grant", json!({"cellphone": "15800000101", "kind": "vvip", "days": 30}))
        .await;
    assert_eq!(granted["code"], 0, "{granted}");
    let (_, time) = c.get("/api/web/v1/section/goods?section_key=shop_card_time").await;
    assert_eq!(price_of(&time, "time_600"), 900, "a member's price below retail");
    assert_eq!(price_of(&time, "time_300"), 600, "no member price: retail");
    let (_, item) = c.get("/api/v3/shop/goods/item?goods_code=time_600&good_id=0").await;
    assert_eq!(item["data"]["price"], 900, "{item}");

    // the order of a submit charges what was shown
    srv.platform
        .store()
        .commerce
        .grant(uid, &[storage::GoodsGrant::Coins { amount: 900 }], "grant", "", 0)
        .unwrap();
    let (_, order) = c
        .post(
            "/api/payment/goods",
            json!({"goods_id": 0, "goods_code": "time_600", "goods_num": 1, "pay_method": "yunyoubi", "confirm": 0}),
        )
        .await;
    assert_eq!(order["code"], 0, "{order}");
    assert_eq!(order["data"]["payable"], 900);
}
