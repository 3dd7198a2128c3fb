//! The daily and night packages (commerce.md §2.7, §7 "night-play"): each package's state and
//! the minutes played under it, and the rules shown in the package dialog. The packages' SKUs
//! are the shop's sections `shop_card_day` / `shop_card_night` (`GET /api/web/v1/section/goods
//! ?section_key&page_size=1`), their records `GET /api/v3/user/order?goods_type=27|22`.

use actix_web::{get, post, web};
use actors::commerce::packages::{PackageInfo, PACKAGE_KINDS};
use actors::commerce::service::GoodsItem;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::dto::{card_at, Card};
use super::shop::{goods_dto, GoodsDto};
use crate::auth::{Caller, MaybeCaller};
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope};
use crate::routes::catalogue::dto::{catalogue_game, CatalogueGame};
use crate::state::AppState;

/// One package as the dialog shows it.
#[derive(Serialize, ToSchema)]
pub struct NightPlay {
    /// "daily" or "night".
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// "daily_package" or "night_package".
    pub name: &'static str,
    /// 1 active, 2 expired (or never bought).
    pub status: i32,
    /// Minutes played under the package during its current (or last) run.
    pub play_time: i64,
    /// The end of the current (or last) run, ms; 0 when never bought.
    pub expired_at: i64,
    /// 1 when never bought: the card shows no expiry.
    pub exp_hide: i32,
}

fn night_play(p: &PackageInfo) -> NightPlay {
    NightPlay {
        kind: p.kind,
        name: if p.kind == "daily" { "daily_package" } else { "night_package" },
        status: p.status,
        play_time: p.play_time,
        expired_at: p.expired_at,
        exp_hide: i32::from(p.exp_hide),
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NightPlayQuery {
    /// "daily" (default) or "night".
    #[serde(rename = "type", default)]
    kind: Option<String>,
}

fn kind_of(s: Option<&str>) -> Result<&'static str, ApiError> {
    match s.unwrap_or("daily") {
        "daily" => Ok(PACKAGE_KINDS[0]),
        "night" => Ok(PACKAGE_KINDS[1]),
        _ => Err(ApiError::bad_request()),
    }
}

refusals!(NightPlayRefusals: common::input(), common::logged_in());

/// The caller's daily or night package.
#[utoipa::path(params(NightPlayQuery), responses((status = 200, body = Envelope<NightPlay>), NightPlayRefusals))]
#[get("/api/v3/user/night-play/info")]
pub async fn night_play_info(state: web::Data<AppState>, caller: Caller, q: web::Query<NightPlayQuery>) -> ApiResult<NightPlay> {
    let kind = kind_of(q.kind.as_deref())?;
    Ok(ok(night_play(&state.platform.commerce.package_info(caller.0.uid, kind).await?)))
}

refusals!(NightPlayAllRefusals: common::logged_in());

/// Both of the caller's packages, daily first.
#[utoipa::path(responses((status = 200, body = Envelope<Vec<NightPlay>>), NightPlayAllRefusals))]
#[get("/api/v3/user/night-play/all")]
pub async fn night_play_all(state: web::Data<AppState>, caller: Caller) -> ApiResult<Vec<NightPlay>> {
    let mut all = Vec::with_capacity(PACKAGE_KINDS.len());
    for kind in PACKAGE_KINDS {
        all.push(night_play(&state.platform.commerce.package_info(caller.0.uid, kind).await?));
    }
    Ok(ok(all))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RulesQuery {
    /// daily_play or allnight_play.
    #[param(example = "daily_play")]
    key: String,
}

/// A keyed configuration's content.
#[derive(Serialize, ToSchema)]
pub struct ConfigContent {
    pub key: String,
    /// HTML.
    pub content: &'static str,
}

const DAILY_PLAY: &str = "<p>1. 日卡生效期间，每日 08:00–24:00 游戏不消耗游戏时长，不限时长畅玩。</p>\
<p>2. 日卡用户排队时进入专属通道，排队更少。</p>\
<p>3. 生效期间佩戴专属头像挂件。</p>\
<p>4. 续费后有效期顺延；时段外游戏按正常规则消耗时长。</p>";

const ALLNIGHT_PLAY: &str = "<p>1. 夜卡生效期间，每晚 23:00 至次日 07:00 游戏不消耗游戏时长，不限时长畅玩。</p>\
<p>2. 夜卡用户排队时进入专属通道。</p>\
<p>3. 生效期间佩戴专属头像挂件。</p>\
<p>4. 续费后有效期顺延；时段外游戏按正常规则消耗时长。</p>";

refusals!(RulesRefusals: common::input(), common::maybe_logged_in());

/// The rules of a package (keyed configurations `daily_play` and `allnight_play`), as HTML.
#[utoipa::path(params(RulesQuery), responses((status = 200, body = Envelope<ConfigContent>), RulesRefusals))]
#[get("/api/v3/config/content")]
pub async fn config_content(_caller: MaybeCaller, q: web::Query<RulesQuery>) -> ApiResult<ConfigContent> {
    let content = match q.key.as_str() {
        "daily_play" => DAILY_PLAY,
        "allnight_play" => ALLNIGHT_PLAY,
        _ => return Err(ApiError::bad_request()),
    };
    Ok(ok(ConfigContent {
        key: q.key.clone(),
        content,
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GamePackageQuery {
    /// The game.
    #[serde(default)]
    game_id: Option<i64>,
    /// The same, as one reading of the call names it.
    #[serde(default, rename = "gameId")]
    game_id_camel: Option<i64>,
}

/// A game's subscription packages.
#[derive(Serialize, ToSchema)]
pub struct GamePackages {
    pub data: Vec<GoodsDto>,
}

async fn priced(state: &AppState, uid: Option<i64>, items: &[GoodsItem]) -> Result<Vec<GoodsDto>, ApiError> {
    let prices = state
        .platform
        .commerce
        .unit_prices(uid, &items.iter().map(|i| &i.goods).collect::<Vec<_>>())
        .await?;
    Ok(items
        .iter()
        .zip(prices)
        .map(|(item, price)| GoodsDto { price, ..goods_dto(item) })
        .collect())
}

refusals!(GamePackageRefusals: common::input(), common::maybe_logged_in());

/// The subscription packages that unlock a game (`game_id`, or `gameId`); an empty list for a
/// game without one.
#[utoipa::path(params(GamePackageQuery), responses((status = 200, body = Envelope<GamePackages>), GamePackageRefusals))]
#[get("/api/shop/goods/game-package")]
pub async fn game_package(state: web::Data<AppState>, caller: MaybeCaller, q: web::Query<GamePackageQuery>) -> ApiResult<GamePackages> {
    let game_id = q
        .game_id
        .or(q.game_id_camel)
        .filter(|id| *id > 0)
        .ok_or_else(ApiError::bad_request)?;
    let items = state.platform.commerce.game_packages(game_id).await?;
    let data = priced(&state, caller.0.as_ref().map(|c| c.uid), &items).await?;
    Ok(ok(GamePackages { data }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PackageItemQuery {
    /// The package (a goods of type 9 without a parent).
    #[param(example = 401)]
    package_id: i64,
}

refusals!(PackageItemRefusals: common::input(), common::maybe_logged_in(), DomainError::UnknownGoods);

/// One subscription package with its durations (`speci_list`, `face_value` in months); buying
/// a duration (`payment/goods` with its id) grants the subscription that unlocks the games.
#[utoipa::path(params(PackageItemQuery), responses((status = 200, body = Envelope<GoodsDto>), PackageItemRefusals))]
#[get("/api/shop/goods/game-package/item")]
pub async fn game_package_item(state: web::Data<AppState>, caller: MaybeCaller, q: web::Query<PackageItemQuery>) -> ApiResult<GoodsDto> {
    let item = state.platform.commerce.game_package_item(q.package_id).await?;
    let mut all = priced(&state, caller.0.as_ref().map(|c| c.uid), std::slice::from_ref(&item)).await?;
    Ok(ok(all.remove(0)))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AvailableQuery {
    game_id: i64,
    /// 1..=100, all without it.
    #[serde(default)]
    page_size: Option<u32>,
}

/// The time cards usable for a game.
#[derive(Serialize, ToSchema)]
pub struct AvailableCards {
    pub total: usize,
    pub data: Vec<Card>,
}

refusals!(AvailableRefusals: common::input(), common::logged_in(), DomainError::UnknownGame);

/// The caller's time cards usable for a game now (unused, unexpired paid or free play time),
/// soonest expiry first: the use-up prompt's card (`page_size=1`); used with `card/activate`.
#[utoipa::path(params(AvailableQuery), responses((status = 200, body = Envelope<AvailableCards>), AvailableRefusals))]
#[get("/api/v3/user/card/available")]
pub async fn available_cards(state: web::Data<AppState>, caller: Caller, q: web::Query<AvailableQuery>) -> ApiResult<AvailableCards> {
    let size = match q.page_size {
        None => usize::MAX,
        Some(n @ 1..=100) => n as usize,
        Some(_) => return Err(ApiError::bad_request()),
    };
    let (cards, now) = state.platform.commerce.usable_time_cards(caller.0.uid, q.game_id).await?;
    Ok(ok(AvailableCards {
        total: cards.len(),
        data: cards.iter().take(size).map(|c| card_at(c, now)).collect(),
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct YoodoRuleBody {
    game_id: i64,
}

/// A game's yoodo rule.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct YoodoRule {
    /// Yoodo an hour once play time has run out, as a decimal string.
    pub yoodo: String,
    /// The line that shows it: `%s` is the amount.
    pub yoodo_text: &'static str,
}

refusals!(YoodoRuleRefusals: common::input(), common::maybe_logged_in(), DomainError::UnknownGame);

/// The yoodo rule of a game (the use-up prompt's line).
#[utoipa::path(request_body = YoodoRuleBody, responses((status = 200, body = Envelope<YoodoRule>), YoodoRuleRefusals))]
#[post("/api/japi/yoo/game/yoodoRule")]
pub async fn yoodo_rule(state: web::Data<AppState>, _caller: MaybeCaller, body: web::Json<YoodoRuleBody>) -> ApiResult<YoodoRule> {
    let (yoodo, text) = state.platform.commerce.yoodo_rule(body.game_id).await?;
    Ok(ok(YoodoRule {
        yoodo: yoodo.to_string(),
        yoodo_text: text,
    }))
}

/// One of the caller's subscriptions.
#[derive(Serialize, ToSchema)]
pub struct SubscriptionDto {
    /// The package (its zone is /subscription/{package_id}); 0 when none is on sale.
    pub package_id: i64,
    pub title: String,
    pub game: CatalogueGame,
    /// 1 active, 2 expired.
    pub status: i32,
    /// ms
    pub expired_at: i64,
}

refusals!(SubscriptionsRefusals: common::logged_in());

/// The caller's subscriptions, ever held (the /user/subscription page).
#[utoipa::path(responses((status = 200, body = Envelope<Vec<SubscriptionDto>>), SubscriptionsRefusals))]
#[get("/api/v3/user/subscription")]
pub async fn subscriptions(state: web::Data<AppState>, caller: Caller) -> ApiResult<Vec<SubscriptionDto>> {
    let subs = state.platform.commerce.subscriptions(caller.0.uid).await?;
    Ok(ok(subs
        .iter()
        .map(|s| SubscriptionDto {
            package_id: s.package.as_ref().map_or(0, |p| p.id),
            title: s.package.as_ref().map_or_else(|| s.game.name.clone(), |p| p.title.clone()),
            game: catalogue_game(&s.game),
            status: s.status,
            expired_at: s.expired_at,
        })
        .collect()))
}

/// A package's zone: the package with its durations and the games it unlocks.
#[derive(Serialize, ToSchema)]
pub struct PackageZone {
    pub package: GoodsDto,
    pub games: Vec<CatalogueGame>,
}

refusals!(PackageZoneRefusals: common::input(), common::maybe_logged_in(), DomainError::UnknownGoods);

/// The subscription zone of a package (/subscription/{id}).
#[utoipa::path(params(PackageItemQuery), responses((status = 200, body = Envelope<PackageZone>), PackageZoneRefusals))]
#[get("/api/shop/goods/game-package/zone")]
pub async fn package_zone(state: web::Data<AppState>, caller: MaybeCaller, q: web::Query<PackageItemQuery>) -> ApiResult<PackageZone> {
    let item = state.platform.commerce.game_package_item(q.package_id).await?;
    let games = state.platform.commerce.package_games(&item.goods).await?;
    let mut all = priced(&state, caller.0.as_ref().map(|c| c.uid), std::slice::from_ref(&item)).await?;
    Ok(ok(PackageZone {
        package: all.remove(0),
        games: games.iter().map(catalogue_game).collect(),
    }))
}
