//! The activities (commerce.md §2.16, §7): the recharge gift (its title shows in the coin pay
//! method's tooltip), the lottery (rotary, draw, records) and the invite activity (rewards, the
//! caller's code and link, rules, records). Grants are storage's, each with its ledger entry in
//! the transaction that decides it.

use actix_web::{get, http::StatusCode, post, web};
use actors::activity::rules::{invite_code, ONGOING};
use actors::beijing::format as format_cst;
use serde::{Deserialize, Serialize};
use storage::activity::{DrawOutcome, Invite, InviteReward, LotteryDraw};
use storage::GoodsGrant;
use utoipa::{IntoParams, ToSchema};

use crate::auth::{Caller, MaybeCaller};
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope};
use crate::routes::accounts::dto::mask_phone;
use crate::routes::commerce::shop::GrantDto;
use crate::state::AppState;

/// The lottery the landing page shows when the body names none.
const DEFAULT_LOTTERY: i64 = 1;
/// Lottery records per page (commerce.md §9).
pub const LOTTERY_PAGE_SIZE: u32 = 20;
/// Invite records per page.
const INVITE_PAGE_SIZE: u32 = 20;

/// 20460: the lottery is not running (not started, ended, or no such lottery).
pub fn lottery_closed() -> ApiError {
    ApiError::new(StatusCode::CONFLICT, 20460, "活动未开始或已结束")
}
/// 20461: no draw left today.
pub fn no_chances() -> ApiError {
    ApiError::new(StatusCode::CONFLICT, 20461, "今日抽奖次数已用完，明天再来吧")
}
/// 20462: every prize is gone.
pub fn sold_out() -> ApiError {
    ApiError::new(StatusCode::CONFLICT, 20462, "奖品已被抽完，请稍后再来")
}

fn grant_dto(g: &GoodsGrant) -> GrantDto {
    let (kind, amount) = g.to_parts();
    GrantDto { kind, amount }
}

/// One tier of the recharge gift.
#[derive(Serialize, ToSchema)]
pub struct RechargeTierDto {
    /// A coin recharge paying at least this many fen ...
    pub min_fen: i64,
    /// ... gets this many bonus coins.
    pub bonus_coins: i64,
}

/// The recharge-gift activity (§3 "Activity config").
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RechargeGiveDto {
    /// Empty when no activity is configured.
    pub title: String,
    /// 0 not started, 1 ongoing, 2 ended (§4.13).
    pub status: i32,
    /// 'YYYY-MM-DD HH:mm:ss', UTC+8.
    pub start_time: String,
    pub end_time: String,
    /// ms
    #[serde(rename = "sys_time")]
    pub sys_time: i64,
    pub tiers: Vec<RechargeTierDto>,
}

refusals!(RechargeGiveRefusals: common::maybe_logged_in(), common::internal());

/// The recharge-gift activity: a coin recharge (section shop_card_coin) paying at least a tier's
/// fen gets its bonus coins when the order is fulfilled, once per order.
#[utoipa::path(responses((status = 200, body = Envelope<RechargeGiveDto>), RechargeGiveRefusals))]
#[get("/api/activity/recharge_give")]
pub async fn recharge_give(state: web::Data<AppState>, _caller: MaybeCaller) -> ApiResult<RechargeGiveDto> {
    let now = state.platform.clock().now_ms();
    let give = state.platform.activity.recharge_give().await?;
    Ok(ok(match give {
        Some((g, status)) => RechargeGiveDto {
            title: g.title,
            status,
            start_time: format_cst(g.starts_at),
            end_time: format_cst(g.ends_at),
            sys_time: now,
            tiers: g
                .tiers
                .iter()
                .map(|t| RechargeTierDto {
                    min_fen: t.min_fen,
                    bonus_coins: t.bonus_coins,
                })
                .collect(),
        },
        None => RechargeGiveDto {
            title: String::new(),
            status: 2,
            start_time: String::new(),
            end_time: String::new(),
            sys_time: now,
            tiers: vec![],
        },
    }))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct LotteryBody {
    /// The lottery (1 when absent).
    #[serde(default)]
    id: Option<i64>,
}

/// A prize of the rotary, in rotary order.
#[derive(Serialize, ToSchema)]
pub struct LotteryItemDto {
    pub id: i64,
    pub name: String,
    pub image: String,
    /// None for a consolation slot.
    pub grant: Option<GrantDto>,
}

/// A lottery (§3 "Lottery").
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LotteryDto {
    pub id: i64,
    pub title: String,
    /// 0 not started, 1 ongoing, 2 ended.
    pub status: i32,
    pub start_time: String,
    pub end_time: String,
    #[serde(rename = "sys_time")]
    pub sys_time: i64,
    /// Draws per day (UTC+8).
    pub daily_chances: i64,
    /// The caller's draws left today; null for a guest.
    pub chances: Option<i64>,
    pub lottery_item_list: Vec<LotteryItemDto>,
}

refusals!(LotteryListRefusals: common::input(), common::maybe_logged_in(), lottery_closed(), common::internal());

/// The lottery's rotary: its prizes and the caller's draws left today.
#[utoipa::path(request_body = LotteryBody, responses((status = 200, body = Envelope<LotteryDto>), LotteryListRefusals))]
#[post("/api/japi/social/lottery/list")]
pub async fn lottery_list(state: web::Data<AppState>, caller: MaybeCaller, body: Option<web::Json<LotteryBody>>) -> ApiResult<LotteryDto> {
    let id = body.and_then(|b| b.id).unwrap_or(DEFAULT_LOTTERY);
    let uid = caller.0.as_ref().map(|s| s.uid);
    let view = state.platform.activity.lottery(uid, id).await?.ok_or_else(lottery_closed)?;
    let l = view.lottery;
    Ok(ok(LotteryDto {
        id: l.id,
        title: l.title,
        status: view.status,
        start_time: format_cst(l.starts_at),
        end_time: format_cst(l.ends_at),
        sys_time: state.platform.clock().now_ms(),
        daily_chances: l.daily_chances,
        chances: view.chances_left,
        lottery_item_list: l
            .items
            .iter()
            .map(|i| LotteryItemDto {
                id: i.id,
                name: i.name.clone(),
                image: i.image.clone(),
                grant: i.grant.as_ref().map(grant_dto),
            })
            .collect(),
    }))
}

/// A draw's result.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DrawResult {
    /// The draw (its record's id).
    pub record_id: i64,
    /// The prize won (an id of lotteryItemList).
    pub lottery_item_id: i64,
    pub name: String,
    /// Whether the prize grants something (false for a consolation slot).
    pub won: bool,
    /// Draws left today.
    pub chances: i64,
}

refusals!(LotteryChanceRefusals: common::input(), common::logged_in(), lottery_closed(), no_chances(), sold_out(), common::internal());

/// Draws once: spends one of today's chances; the prize is granted at once (with its ledger
/// entry). Concurrent draws never exceed the chances nor a prize's stock.
#[utoipa::path(request_body = LotteryBody, responses((status = 200, body = Envelope<DrawResult>), LotteryChanceRefusals))]
#[post("/api/japi/social/lottery/chance")]
pub async fn lottery_chance(state: web::Data<AppState>, caller: Caller, body: Option<web::Json<LotteryBody>>) -> ApiResult<DrawResult> {
    let id = body.and_then(|b| b.id).unwrap_or(DEFAULT_LOTTERY);
    let uid = caller.0.uid;
    let draw = match state.platform.activity.draw(uid, id).await? {
        DrawOutcome::Won(d) => d,
        DrawOutcome::NoChances => return Err(no_chances()),
        DrawOutcome::SoldOut => return Err(sold_out()),
        DrawOutcome::Closed => return Err(lottery_closed()),
    };
    let view = state.platform.activity.lottery(Some(uid), id).await?.ok_or_else(lottery_closed)?;
    let won = view
        .lottery
        .items
        .iter()
        .find(|i| i.id == draw.item_id)
        .is_some_and(|i| i.grant.is_some());
    Ok(ok(DrawResult {
        record_id: draw.id,
        lottery_item_id: draw.item_id,
        name: draw.item_name,
        won,
        chances: view.chances_left.unwrap_or(0),
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordBody {
    #[serde(default)]
    id: Option<i64>,
    /// 1: the caller's draws; anything else: everyone's.
    #[serde(rename = "type", default)]
    kind: Option<i64>,
    /// From 1.
    #[serde(default)]
    page: Option<i64>,
}

/// One draw in the records.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DrawRecord {
    pub id: i64,
    /// The drawer's phone, masked.
    pub phone: String,
    pub lottery_item_id: i64,
    pub name: String,
    /// 'YYYY-MM-DD HH:mm:ss', UTC+8.
    pub create_time: String,
}

/// A page of draws.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DrawRecords {
    pub rows: Vec<DrawRecord>,
    pub page_size: u32,
    pub total_rows: u64,
}

fn draw_record(d: &LotteryDraw) -> DrawRecord {
    DrawRecord {
        id: d.id,
        phone: mask_phone(&d.cellphone),
        lottery_item_id: d.item_id,
        name: d.item_name.clone(),
        create_time: format_cst(d.at),
    }
}

refusals!(LotteryRecordRefusals: common::input(), common::maybe_logged_in(), DomainError::NotLoggedIn, common::internal());

/// The lottery's records: the caller's (`type` 1, login needed) or everyone's, newest first,
/// 20 a page; phones are masked.
#[utoipa::path(request_body = RecordBody, responses((status = 200, body = Envelope<DrawRecords>), LotteryRecordRefusals))]
#[post("/api/japi/social/lottery/record")]
pub async fn lottery_record(state: web::Data<AppState>, caller: MaybeCaller, body: web::Json<RecordBody>) -> ApiResult<DrawRecords> {
    let id = body.id.unwrap_or(DEFAULT_LOTTERY);
    let page = body.page.unwrap_or(1);
    if !(1..=100_000).contains(&page) {
        return Err(ApiError::bad_request());
    }
    let uid = match body.kind {
        Some(1) => Some(caller.0.as_ref().map(|s| s.uid).ok_or_else(ApiError::not_logged_in)?),
        _ => None,
    };
    let offset = (page as u64 - 1) * u64::from(LOTTERY_PAGE_SIZE);
    let (rows, total) = state.platform.activity.draws(id, uid, offset, LOTTERY_PAGE_SIZE).await?;
    Ok(ok(DrawRecords {
        rows: rows.iter().map(draw_record).collect(),
        page_size: LOTTERY_PAGE_SIZE,
        total_rows: total,
    }))
}

/// A reward of the invite activity.
#[derive(Serialize, ToSchema)]
pub struct InviteRewardDto {
    pub name: String,
    pub grant: GrantDto,
}

fn reward_dto(r: &InviteReward) -> InviteRewardDto {
    InviteRewardDto {
        name: r.name.clone(),
        grant: grant_dto(&r.grant),
    }
}

/// The invite rewards: basic when the invitee registers, advanced at the invitee's first purchase.
#[derive(Serialize, ToSchema)]
pub struct InviteConfigDto {
    pub basic_rewards: Vec<InviteRewardDto>,
    pub advanced_rewards: Vec<InviteRewardDto>,
}

/// A filter of the invite records.
#[derive(Serialize, ToSchema)]
pub struct FilterStatus {
    /// The `status` query value of the records call.
    pub value: i32,
    pub label: &'static str,
}

/// The invite activity (§3 "Invite data").
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InviteData {
    #[serde(rename = "invite_config")]
    pub invite_config: InviteConfigDto,
    /// 1 ongoing.
    pub status: i32,
    pub filter_status: Vec<FilterStatus>,
    /// The caller's code and landing link; empty for a guest.
    #[serde(rename = "invite_code")]
    pub invite_code: String,
    #[serde(rename = "invite_link")]
    pub invite_link: String,
    /// Users who registered with the caller's code.
    #[serde(rename = "invited_count")]
    pub invited_count: u64,
    /// Of them, those whose first purchase gave the advanced reward.
    #[serde(rename = "advanced_count")]
    pub advanced_count: u64,
}

fn filters() -> Vec<FilterStatus> {
    vec![
        FilterStatus { value: 0, label: "全部" },
        FilterStatus {
            value: 1, label: "已注册"
        },
        FilterStatus {
            value: 2, label: "已首购"
        },
    ]
}

refusals!(InviteRefusals: common::maybe_logged_in(), common::internal());

/// The invite activity: the rewards and, for a logged-in caller, their code, link and counts.
#[utoipa::path(responses((status = 200, body = Envelope<InviteData>), InviteRefusals))]
#[get("/api/v3/activity/invite")]
pub async fn invite(state: web::Data<AppState>, caller: MaybeCaller) -> ApiResult<InviteData> {
    let (config, code, invited, advanced) = match caller.0.as_ref() {
        Some(s) => {
            let sum = state.platform.activity.invite_summary(s.uid).await?;
            (sum.config, invite_code(s.uid), sum.invited, sum.advanced)
        }
        None => (state.platform.activity.invite_config().await?, String::new(), 0, 0),
    };
    let invite_link = if code.is_empty() {
        String::new()
    } else {
        format!("/land/invite?invite_code={code}")
    };
    Ok(ok(InviteData {
        invite_config: InviteConfigDto {
            basic_rewards: config.basic.iter().map(reward_dto).collect(),
            advanced_rewards: config.advanced.iter().map(reward_dto).collect(),
        },
        status: ONGOING,
        filter_status: filters(),
        invite_code: code,
        invite_link,
        invited_count: invited,
        advanced_count: advanced,
    }))
}

/// The invite rules text.
#[derive(Serialize, ToSchema)]
pub struct InviteRule {
    /// Newline-separated.
    pub content: String,
}

refusals!(InviteRuleRefusals: common::maybe_logged_in(), common::internal());

/// The invite activity's rules, written from its rewards.
#[utoipa::path(responses((status = 200, body = Envelope<InviteRule>), InviteRuleRefusals))]
#[get("/api/v3/activity/invite/rule")]
pub async fn invite_rule(state: web::Data<AppState>, _caller: MaybeCaller) -> ApiResult<InviteRule> {
    let config = state.platform.activity.invite_config().await?;
    let names = |r: &[InviteReward]| r.iter().map(|r| r.name.as_str()).collect::<Vec<_>>().join("、");
    let content = [
        "1. 分享你的专属邀请链接或邀请码，好友通过链接首次注册即成为你邀请的好友。".to_owned(),
        format!("2. 好友注册成功，你可获得基础奖励：{}。", names(&config.basic)),
        format!("3. 好友完成首次付费购买，你可再获得进阶奖励：{}。", names(&config.advanced)),
        "4. 每位好友的基础奖励与进阶奖励各发放一次；不能邀请自己，已注册的用户不能被再次邀请。".to_owned(),
        "5. 奖励发放至你的账户，可在背包与时长明细中查看。".to_owned(),
    ]
    .join("\n");
    Ok(ok(InviteRule { content }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct InviteRecordQuery {
    /// 0 all (default), 1 registered only, 2 first purchase done.
    #[serde(default)]
    status: Option<i32>,
    /// From 1.
    #[serde(default)]
    page: Option<i64>,
}

/// One invited friend.
#[derive(Serialize, ToSchema)]
pub struct InviteRecord {
    /// The friend's phone, masked.
    pub phone: String,
    /// 'YYYY-MM-DD HH:mm:ss', UTC+8.
    pub register_time: String,
    /// 1 registered (basic reward granted), 2 first purchase done (advanced reward granted).
    pub status: i32,
}

/// A page of invited friends.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InviteRecords {
    pub rows: Vec<InviteRecord>,
    pub page_size: u32,
    pub total_rows: u64,
}

fn invite_record(i: &Invite) -> InviteRecord {
    InviteRecord {
        phone: mask_phone(&i.invitee_phone),
        register_time: format_cst(i.at),
        status: if i.advanced_at.is_some() { 2 } else { 1 },
    }
}

refusals!(InviteRecordRefusals: common::input(), common::logged_in(), common::internal());

/// The friends the caller invited, newest first, 20 a page.
#[utoipa::path(params(InviteRecordQuery), responses((status = 200, body = Envelope<InviteRecords>), InviteRecordRefusals))]
#[get("/api/v3/activity/invite/record")]
pub async fn invite_record_list(state: web::Data<AppState>, caller: Caller, q: web::Query<InviteRecordQuery>) -> ApiResult<InviteRecords> {
    let status = q.status.unwrap_or(0);
    let page = q.page.unwrap_or(1);
    if !(0..=2).contains(&status) || !(1..=100_000).contains(&page) {
        return Err(ApiError::bad_request());
    }
    let (all, _) = state.platform.activity.invites(caller.0.uid, 0, 100_000).await?;
    let kept: Vec<&Invite> = all
        .iter()
        .filter(|i| match status {
            1 => i.advanced_at.is_none(),
            2 => i.advanced_at.is_some(),
            _ => true,
        })
        .collect();
    let skip = usize::try_from((page - 1) * i64::from(INVITE_PAGE_SIZE)).unwrap_or(usize::MAX);
    Ok(ok(InviteRecords {
        rows: kept
            .iter()
            .skip(skip)
            .take(INVITE_PAGE_SIZE as usize)
            .map(|i| invite_record(i))
            .collect(),
        page_size: INVITE_PAGE_SIZE,
        total_rows: kept.len() as u64,
    }))
}

/// The `activity_config` group of the config list (§3 "Activity config"): `sys_time`, and for
/// each activity a JSON string `{activityId, startTime, endTime, status}` (times
/// 'YYYY-MM-DD HH:mm:ss' in UTC+8) that the page reads its status from.
pub async fn config_pairs(state: &AppState, now: i64) -> Result<Vec<(&'static str, String)>, ApiError> {
    let entry = |id: i64, starts_at: i64, ends_at: i64| {
        serde_json::json!({
            "activityId": id,
            "startTime": format_cst(starts_at),
            "endTime": format_cst(ends_at),
            "status": actors::activity::rules::status_ms(starts_at, ends_at, now),
        })
        .to_string()
    };
    let mut pairs = vec![("sys_time", now.to_string())];
    if let Some((g, _)) = state.platform.activity.recharge_give().await? {
        pairs.push(("recharge_give", entry(1, g.starts_at, g.ends_at)));
    }
    if let Some(view) = state.platform.activity.lottery(None, DEFAULT_LOTTERY).await? {
        pairs.push(("lottery", entry(view.lottery.id, view.lottery.starts_at, view.lottery.ends_at)));
    }
    Ok(pairs)
}
