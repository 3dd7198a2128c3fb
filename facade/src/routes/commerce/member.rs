//! Memberships (commerce.md §4.7, §6, §7 "User assets and membership"): the member info with
//! the lapsed memberships, the privilege table, and the member play-time grant.

use actix_web::{get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use actors::commerce::member::{self as rules, Cell};

use crate::auth::{Caller, MaybeCaller};
use crate::envelope::{ok, refusals, ApiResult, Envelope};
use crate::routes::accounts::dto::{self, MemberInfo, MemberItem};
use crate::state::AppState;

/// The caller's memberships.
#[derive(Serialize, ToSchema)]
pub struct MemberInfoView {
    pub member_info: MemberInfo,
    /// Memberships and packages that have run out, latest expiry first.
    pub previous_info: Vec<MemberItem>,
    /// ms, server time.
    #[serde(rename = "systemTime")]
    pub system_time: i64,
    /// The upgrade the caller may buy now (the card panel's banner, commerce.md §2.4), or null.
    pub upgrade: Option<UpgradeInfo>,
}

/// commerce.md §3 "Upgrade info": the goods code the banner fetches (with good_id 0).
#[derive(Serialize, ToSchema)]
pub struct UpgradeInfo {
    pub code: &'static str,
    /// Whole days of the membership in use that the upgrade turns into the better one.
    pub up_days: i64,
}

refusals!(MemberInfoRefusals: common::logged_in(), common::internal());

/// The caller's memberships in use and those that lapsed.
#[utoipa::path(responses((status = 200, body = Envelope<MemberInfoView>), MemberInfoRefusals))]
#[get("/api/v3/user/member/info")]
pub async fn member_info(state: web::Data<AppState>, caller: Caller) -> ApiResult<MemberInfoView> {
    let (holdings, lapsed, now) = state.platform.commerce.member_info(caller.0.uid).await?;
    let upgrade = rules::upgrade_quote(&holdings, now).map(|q| UpgradeInfo {
        code: storage::seed::UPGRADE_CODE,
        up_days: q.up_days,
    });
    Ok(ok(MemberInfoView {
        member_info: dto::member_info(&holdings, now),
        previous_info: lapsed
            .into_iter()
            .map(|e| MemberItem {
                kind: e.kind,
                expired_at: e.expires_at,
            })
            .collect(),
        system_time: now,
        upgrade,
    }))
}

/// One member expiry popup (commerce.md §3 "Member expiry config"): the common config's
/// `member_expire` is a JSON string of a list of these.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberExpire {
    /// 4 near expiry, 8 expired.
    pub expire_type: i32,
    /// The days to (type 4) or since (type 8) the end on which the popup shows.
    pub day_step: &'static [i64],
    pub message: &'static str,
    pub privilege_hint: &'static str,
}

/// The common config's `member_expire` value.
pub fn member_expire_json() -> String {
    let list: Vec<MemberExpire> = rules::EXPIRY_POPUPS
        .iter()
        .map(|p| MemberExpire {
            expire_type: p.expire_type,
            day_step: p.day_step,
            message: p.message,
            privilege_hint: p.privilege_hint,
        })
        .collect();
    serde_json::to_string(&list).expect("the popups serialize")
}

/// A cell of the privilege table: a yes/no, or a text.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum PrivilegeCell {
    Flag(bool),
    Text(String),
}

impl From<Cell> for PrivilegeCell {
    fn from(c: Cell) -> Self {
        match c {
            Cell::Flag(b) => PrivilegeCell::Flag(b),
            Cell::Text(t) => PrivilegeCell::Text(t.to_owned()),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct PrivilegeTitle {
    pub text: String,
    pub icon: String,
    pub sup: String,
}

/// One row of the privilege comparison (normal / vip / vvip).
#[derive(Serialize, ToSchema)]
pub struct PrivilegeRowView {
    pub code: String,
    pub title: PrivilegeTitle,
    pub normal: PrivilegeCell,
    pub vip: PrivilegeCell,
    pub vvip: PrivilegeCell,
    /// Shown greyed.
    pub gray: bool,
}

#[derive(Serialize, ToSchema)]
pub struct PrivilegeTable {
    pub list: Vec<PrivilegeRowView>,
    /// The privilege keys of each tier.
    pub vip: Vec<String>,
    pub vvip: Vec<String>,
}

refusals!(PrivilegesRefusals: common::maybe_logged_in());

/// The member privilege table (commerce.md §6), open to guests.
#[utoipa::path(responses((status = 200, body = Envelope<PrivilegeTable>), PrivilegesRefusals))]
#[get("/api/v3/member/privileges")]
pub async fn member_privileges(_caller: MaybeCaller) -> ApiResult<PrivilegeTable> {
    Ok(ok(PrivilegeTable {
        list: rules::PRIVILEGES
            .iter()
            .map(|r| PrivilegeRowView {
                code: r.code.to_owned(),
                title: PrivilegeTitle {
                    text: r.title.to_owned(),
                    icon: String::new(),
                    sup: String::new(),
                },
                normal: r.normal.into(),
                vip: r.vip.into(),
                vvip: r.vvip.into(),
                gray: r.gray,
            })
            .collect(),
        vip: rules::VIP_KEYS.iter().map(|k| (*k).to_owned()).collect(),
        vvip: rules::VVIP_KEYS.iter().map(|k| (*k).to_owned()).collect(),
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReceiveQuery {
    /// The membership in use: vip, vvip (hvip).
    #[serde(rename = "type", default)]
    kind: String,
}

/// One grant received.
#[derive(Serialize, ToSchema)]
pub struct ReceivedGrant {
    /// daily, monthly
    #[serde(rename = "type")]
    pub kind: String,
    pub minutes: i64,
    /// ms
    pub expires_at: i64,
}

/// What the member play-time grant received.
#[derive(Serialize, ToSchema)]
pub struct MemberPlaytime {
    /// Free minutes received now.
    pub play_time: i64,
    /// ms: when today's grant is void (the next 0:00 UTC+8).
    pub expires_at: i64,
    pub grants: Vec<ReceivedGrant>,
}

refusals!(ReceiveRefusals: common::input(), common::logged_in(), DomainError::MemberGrantNotHeld, DomainError::MemberGrantReceived, common::internal());

/// Receives today's member play time (vip 1 h; vvip 2 h, plus this month's 20 h once a month),
/// once a UTC+8 day; the daily grant is void at the next midnight.
#[utoipa::path(params(ReceiveQuery), responses((status = 200, body = Envelope<MemberPlaytime>), ReceiveRefusals))]
#[get("/api/member/playtime/receive")]
pub async fn member_playtime_receive(state: web::Data<AppState>, caller: Caller, q: web::Query<ReceiveQuery>) -> ApiResult<MemberPlaytime> {
    let got = state.platform.commerce.receive_member_playtime(caller.0.uid, &q.kind).await?;
    Ok(ok(MemberPlaytime {
        play_time: got.minutes,
        expires_at: got.expires_at,
        grants: got
            .grants
            .into_iter()
            .map(|g| ReceivedGrant {
                kind: g.kind,
                minutes: g.minutes,
                expires_at: g.expires_at,
            })
            .collect(),
    }))
}
