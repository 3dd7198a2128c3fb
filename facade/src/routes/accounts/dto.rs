//! The accounts feature's JSON shapes: the player's profile, with the memberships held and the
//! privileges, and the masked phone.

use actors::play::holdings::Holdings;
use serde::Serialize;
use storage::User;
use utoipa::ToSchema;

use crate::envelope::Null;

/// The cellphone with its middle four digits hidden.
pub fn mask_phone(p: &str) -> String {
    if p.len() == 11 && p.is_ascii() {
        format!("{}****{}", &p[..3], &p[7..])
    } else {
        String::new()
    }
}

/// One membership or package the player holds.
#[derive(Serialize, ToSchema)]
pub struct MemberItem {
    #[serde(rename = "type")]
    pub kind: String,
    /// ms
    pub expired_at: i64,
}

#[derive(Serialize, ToSchema)]
pub struct MemberInfo {
    /// The membership in use: vvip, vip, tyvip, tyschvip, or null.
    pub using: Option<&'static str>,
    pub items: Vec<MemberItem>,
    /// The membership in use ends within three days.
    pub near_expiration: bool,
    /// ms
    pub join_at: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct MonthlyFastEnter {
    pub monthly_receive_times: i32,
}

#[derive(Serialize, ToSchema)]
pub struct PlaytimePrivilege {
    pub daily_playtime: i64,
    pub monthly_playtime: i64,
}

#[derive(Serialize, ToSchema)]
pub struct Privilege {
    pub discount_goods: bool,
    pub cross_screen: bool,
    pub fast_enter: MonthlyFastEnter,
    pub playtime: PlaytimePrivilege,
}

/// The player's profile (core-platform.md §3.1). Play time in minutes.
#[derive(Serialize, ToSchema)]
pub struct Profile {
    pub uid: i64,
    pub nickname: String,
    pub display_name: String,
    pub nameplate: String,
    pub avatar: String,
    pub avatar_frame: String,
    pub gender: i32,
    pub status: i32,
    /// Masked: 138****0000.
    pub cellphone: String,
    pub id_authed: bool,
    pub growth_level: i32,
    pub growth_value: i64,
    /// How many games the user has collected (the card panel's 收藏, social.md §2.17).
    pub collects: i64,
    pub member_info: MemberInfo,
    #[schema(inline)]
    pub previous_info: Null,
    pub privilege: Privilege,
    pub play_time_total: i64,
    pub play_time_free: i64,
    pub play_time_paid: i64,
    pub fast_enter_free: i64,
    pub fast_enter_member: i64,
    pub fast_enter_paid: i64,
    pub fast_enter_remain_times: u64,
    /// Seconds of fast-entry time left.
    pub fast_enter_expires_in: i64,
    pub yoodo: String,
    pub balance: i64,
    /// Free play minutes the user's first login from the product's app grants; 0 once they
    /// logged in from it, or when no such gift is configured (commerce.md §2.9's app guide).
    pub first_login_app_playtime: i64,
    #[serde(rename = "systemTime")]
    pub system_time: i64,
}

/// The memberships held (commerce.md §3 `member_info`).
pub fn member_info(h: &Holdings, now_ms: i64) -> MemberInfo {
    let items = h
        .member_entitlements()
        .map(|e| MemberItem {
            kind: e.kind.clone(),
            expired_at: e.expires_at,
        })
        .collect();
    MemberInfo {
        using: h.member_type(),
        items,
        near_expiration: h.membership_near_expiry(now_ms),
        join_at: h.member_since(),
    }
}

/// The user's avatar: the one set at the account centre, else the drawn default.
pub fn avatar_of(u: &User) -> String {
    if u.avatar.is_empty() {
        format!("/covers/avatar/{}.svg", u.uid)
    } else {
        u.avatar.clone()
    }
}

/// `app_playtime`: `first_login_app_playtime` (`Platform::app_playtime`); `collects`: how many
/// games the user has collected (the card panel's 收藏).
pub fn profile(view: &actors::accounts::profile::ProfileView) -> Profile {
    let (u, h, wallet, now_ms) = (&view.user, &view.holdings, &view.wallet, view.now_ms);
    let (app_playtime, collects) = (view.app_playtime, view.collects);
    let fast_enter_secs = h.fast_enter_secs(now_ms);
    Profile {
        uid: u.uid,
        nickname: u.nickname.clone(),
        display_name: u.nickname.clone(),
        nameplate: String::new(),
        avatar: avatar_of(u),
        avatar_frame: String::new(),
        gender: 0,
        status: 0,
        cellphone: mask_phone(&u.cellphone),
        id_authed: false,
        growth_level: 1,
        growth_value: 0,
        collects: i64::try_from(collects).unwrap_or(i64::MAX),
        member_info: member_info(h, now_ms),
        previous_info: Null,
        privilege: Privilege {
            discount_goods: h.is_member(),
            cross_screen: h.cross_screen(),
            fast_enter: MonthlyFastEnter {
                monthly_receive_times: h.monthly_cards(),
            },
            playtime: {
                let (daily_playtime, monthly_playtime) = actors::commerce::member::playtime_privilege(h);
                PlaytimePrivilege {
                    daily_playtime,
                    monthly_playtime,
                }
            },
        },
        play_time_total: u.play_time_free + u.play_time_paid,
        play_time_free: u.play_time_free,
        play_time_paid: u.play_time_paid,
        fast_enter_free: 0,
        fast_enter_member: 0,
        fast_enter_paid: fast_enter_secs / 60,
        fast_enter_remain_times: h.cards as u64,
        fast_enter_expires_in: fast_enter_secs,
        yoodo: format!("{}.00", wallet.yoodo),
        balance: wallet.coins,
        first_login_app_playtime: app_playtime,
        system_time: now_ms,
    }
}
