//! Commerce (`actors::commerce`): the shop and the money path with the providers' callback
//! (`shop`), coupons and the coupon activity (`coupons`), memberships (`member`), the merchant's
//! group purchases and redemption (`merchant`), the day and night packages (`package`),
//! auto-renewals (`agreements`) and the backpack: cards, the monthly claim (`assets`); a card of
//! the backpack is `dto`. In dev mode the operator's grants and the sandbox pay page
//! (`dev_pay`, which also carries the sandbox's notices to the callback route).
//!
//! Imports `accounts` (the dev grant answers the profile) and `catalogue` (the games of a
//! package zone).

pub mod agreements;
pub mod assets;
pub mod coupons;
pub mod dev_pay;
pub mod dto;
pub mod member;
pub mod merchant;
pub mod package;
pub mod shop;

use utoipa_actix_web::service_config::ServiceConfig;

use crate::dto::ResponseLink;

/// A submitted coupon group is the order its query and its record name.
pub fn links() -> Vec<ResponseLink> {
    const ORDER_NO: &str = "$response.body#/data/order/order_no";
    vec![
        ResponseLink {
            from: "group_submit",
            status: "200",
            to: "group_query",
            body: &[],
            parameters: &[("deposit_order_id", ORDER_NO)],
        },
        ResponseLink {
            from: "group_submit",
            status: "200",
            to: "group_record",
            body: &[],
            parameters: &[("order_no", ORDER_NO)],
        },
    ]
}

/// The feature's routes in every mode.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(assets::card_list)
        .service(assets::card_total)
        .service(assets::card_notice)
        .service(assets::card_give)
        .service(assets::card_activate)
        .service(assets::monthly_records)
        .service(assets::monthly_receive);
    cfg.service(shop::section_goods)
        .service(shop::goods_item)
        .service(shop::coupon_check)
        .service(shop::submit)
        .service(shop::qrcode)
        .service(shop::polling)
        .service(shop::payment_query)
        .service(shop::balance)
        .service(shop::orders)
        .service(shop::notify);
    cfg.service(coupons::coupon_list)
        .service(coupons::activity_item)
        .service(coupons::activity_receive)
        .service(coupons::activity_coupon_check)
        .service(coupons::card_goods_total);
    cfg.service(member::member_info)
        .service(member::member_privileges)
        .service(member::member_playtime_receive);
    cfg.service(package::night_play_info)
        .service(package::night_play_all)
        .service(package::config_content)
        .service(package::game_package)
        .service(package::game_package_item)
        .service(package::available_cards)
        .service(package::yoodo_rule)
        .service(package::subscriptions)
        .service(package::package_zone);
    agreements::routes(cfg);
    merchant::routes(cfg);
}

/// The feature's dev-mode routes in the document: the operator's grants.
pub fn dev_routes(cfg: &mut ServiceConfig) {
    cfg.service(assets::dev_grant).service(coupons::dev_coupon_grant);
}

/// The sandbox pay page and its settings (dev mode; HTML pages, not in the document).
pub fn sandbox_routes(cfg: &mut ServiceConfig) {
    dev_pay::routes(cfg);
}
