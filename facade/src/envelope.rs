//! The response envelope `{code, message, data, ts}` (core-platform.md §7.1) and the one place
//! that maps every refusal to its code, Chinese text and HTTP status.
//!
//! Each route declares the refusals it can answer with [`refusals!`]; the OpenAPI document
//! (`crate::openapi`) lists them per path and status, computed from the mapping here, so a code
//! changed here changes the document.

use std::cell::Cell;
use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, Responder, ResponseError};
use actors::clock::Clock;
use actors::error::RoomFormFault;
use actors::DomainError;
use serde::Serialize;
use serde_json::{json, Value};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::{RefOr, Response};
use utoipa::{PartialSchema, ToSchema};

thread_local! {
    /// The platform clock of the server whose worker runs on this thread, set by the app
    /// factory ([`use_clock`]). Every time the server sends (`responseTime`, `serverTime`, an
    /// order's expiry) is on that clock, which a dev or test platform may set
    /// (`[game] clock_start_ms`): `ts` must be on it too, or the browser's skew from `ts` would
    /// not be its skew from those times (a ready countdown would lapse at once).
    static CLOCK: Cell<Option<Clock>> = const { Cell::new(None) };
}

/// Makes `ts` read this clock on the calling thread (a server's worker).
pub fn use_clock(clock: Clock) {
    CLOCK.with(|c| c.set(Some(clock)));
}

/// Server time in seconds, for `ts`: the platform's clock on a worker, else the system's.
pub fn ts() -> i64 {
    match CLOCK.with(Cell::get) {
        Some(clock) => clock.now_ms().div_euclid(1000),
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0),
    }
}

/// A success envelope around `data` (`code` is always 0).
#[derive(Debug, Serialize, ToSchema)]
pub struct Envelope<T> {
    /// 0: success.
    #[schema(minimum = 0, maximum = 0)]
    pub code: i64,
    pub message: &'static str,
    pub data: T,
    /// Server time in seconds.
    pub ts: i64,
}

impl<T> Envelope<T> {
    pub fn new(data: T) -> Self {
        Envelope {
            code: 0,
            message: "ok",
            data,
            ts: ts(),
        }
    }
}

impl<T: Serialize> Responder for Envelope<T> {
    type Body = actix_web::body::BoxBody;
    fn respond_to(self, _: &HttpRequest) -> HttpResponse {
        HttpResponse::Ok().json(self)
    }
}

/// A success envelope around `data`.
pub fn ok<T>(data: T) -> Envelope<T> {
    Envelope::new(data)
}

/// `data: null` of a call that answers nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Null;

impl Serialize for Null {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_unit()
    }
}

impl PartialSchema for Null {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new().schema_type(Type::Null).into()
    }
}

impl ToSchema for Null {}

/// A refusal: what the client reads (`code`, `message`, `data`) and the HTTP status.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: i64,
    pub message: &'static str,
    pub data: Value,
    /// In a cluster: the queue or room another process owns (the call is forwarded there,
    /// `joined::forward`); the response names it in [`NOT_OWNER_HEADER`].
    pub elsewhere: Option<String>,
}

/// The header of a refusal made because another process owns what the call changes: the
/// forwarding process retries at the owner (never sent on to a browser).
pub const NOT_OWNER_HEADER: &str = "x-yoo-not-owner";

impl ApiError {
    pub fn new(status: StatusCode, code: i64, message: &'static str) -> Self {
        ApiError {
            status,
            code,
            message,
            data: Value::Null,
            elsewhere: None,
        }
    }
    pub fn with_data(mut self, data: impl Serialize) -> Self {
        self.data = serde_json::to_value(data).unwrap_or(Value::Null);
        self
    }
    pub fn bad_request() -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, 40000, "请求参数错误")
    }
    pub fn csrf() -> Self {
        ApiError::new(StatusCode::FORBIDDEN, 40003, "请求校验失败，请刷新页面后重试")
    }
    pub fn not_found() -> Self {
        ApiError::new(StatusCode::NOT_FOUND, 40004, "接口不存在")
    }
    /// A path that exists, asked with another method.
    pub fn method_not_allowed() -> Self {
        ApiError::new(StatusCode::METHOD_NOT_ALLOWED, 40005, "请求方法不支持")
    }
    /// An operator call without the configured operator token.
    pub fn operator() -> Self {
        ApiError::new(StatusCode::FORBIDDEN, 40006, "操作员凭证无效")
    }
    /// A body over the size limit.
    pub fn too_large() -> Self {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, 40013, "请求内容过大")
    }
    /// A body that did not arrive within the body deadline (`security`).
    pub fn body_timeout() -> Self {
        ApiError::new(StatusCode::REQUEST_TIMEOUT, 40008, "请求超时，请稍后重试")
    }
    pub fn not_logged_in() -> Self {
        ApiError::from(DomainError::NotLoggedIn)
    }
    /// The body of this refusal.
    pub fn body(&self) -> Value {
        json!({"code": self.code, "message": self.message, "data": self.data, "ts": ts()})
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.code, self.message)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }
    fn error_response(&self) -> HttpResponse {
        let mut r = HttpResponse::build(self.status);
        if let Some(name) = &self.elsewhere {
            r.insert_header((NOT_OWNER_HEADER, name.as_str()));
        }
        r.json(self.body())
    }
}

/// `data` of 130115 and 130117.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunningGame {
    pub id: i64,
    pub game_id: i64,
    pub has_game_online: bool,
}

/// `data` of 130116.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OtherRunningGame {
    pub id: i64,
    pub game_id: i64,
    pub game_name: String,
    pub has_game_online: bool,
}

/// `data` of 130466.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NeedMember {
    pub id: i64,
    pub need_member: bool,
}

/// `data` of 20114.
#[derive(Serialize, ToSchema)]
pub struct RetryAfter {
    /// Seconds until a code may be sent again.
    pub retry_after: u64,
}

/// `data` of 20114, 20117, 130202 (too many tries) and 130212.
#[derive(Serialize, ToSchema)]
pub struct RetryAfterRoom {
    /// Seconds until the call may be made again.
    pub retry_after: u64,
}

/// `data` of 130203, 130204 and 130442: the room concerned.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomRef {
    pub dd_rid: i64,
}

/// `data` of 20140 (QRCODE_TIMEOUT): `invalid` when the order is over (order again), `timeout`
/// when the QR is too old (generate another).
#[derive(Serialize, ToSchema)]
pub struct QrStatus {
    pub status: &'static str,
}

/// `data` of 20101 (core-platform.md §2.6): the forbidden alert's template, whose `${name}`
/// placeholders the client fills from `values` and highlights.
#[derive(Serialize, ToSchema)]
pub struct Forbidden {
    pub template: &'static str,
    pub values: std::collections::BTreeMap<&'static str, String>,
}

impl Forbidden {
    fn of(frozen: bool, reason: &str, until: i64) -> Forbidden {
        let reason = if reason.is_empty() {
            "违反平台规则".to_string()
        } else {
            reason.to_string()
        };
        let mut values = std::collections::BTreeMap::from([("reason", reason)]);
        let template = if frozen {
            "您的账号因${reason}已被冻结，如有疑问请联系客服"
        } else if until > 0 {
            values.insert("until", actors::beijing::minute_text(until));
            "您的账号因${reason}已被封禁，解封时间：${until}"
        } else {
            "您的账号因${reason}已被永久封禁，如有疑问请联系客服"
        };
        Forbidden { template, values }
    }
}

/// The value of an AUTHORIZATION BAN frame (core-platform.md §3.4), as JSON: the ban data.
/// `status` 0 bans the account (the client logs out); the alert is the forbidden alert of a
/// refused login (the template and its values).
#[derive(Serialize, ToSchema)]
pub struct BanData {
    pub status: i32,
    pub template: &'static str,
    pub values: std::collections::BTreeMap<&'static str, String>,
}

impl BanData {
    pub fn account(reason: &str, until: i64) -> BanData {
        let f = Forbidden::of(false, reason, until);
        BanData {
            status: 0,
            template: f.template,
            values: f.values,
        }
    }
}

/// `data` of 20151–20153 (the spec's alert shows `data.remark`).
#[derive(Serialize, ToSchema)]
pub struct Remark {
    pub remark: &'static str,
}

/// The code, text and status of a domain refusal (no logging: the document is built from it).
pub fn refusal(e: &DomainError) -> ApiError {
    use StatusCode as S;
    let err = ApiError::new;
    match e {
        DomainError::NotLoggedIn => err(S::UNAUTHORIZED, 20119, "登录已失效，请重新登录"),
        DomainError::PhoneEmpty => err(S::BAD_REQUEST, 20116, "手机号不能为空"),
        DomainError::PhoneMalformed => err(S::BAD_REQUEST, 20111, "手机号格式不正确"),
        DomainError::CodeEmpty => err(S::BAD_REQUEST, 20112, "验证码不能为空"),
        DomainError::CodeWrong => err(S::BAD_REQUEST, 20113, "验证码错误或已过期"),
        DomainError::CodeTooSoon { retry_after_secs } => {
            err(S::TOO_MANY_REQUESTS, 20114, "验证码发送过于频繁，请稍后再试").with_data(RetryAfter {
                retry_after: *retry_after_secs,
            })
        }
        DomainError::LoginLocked { retry_after_secs } => {
            err(S::TOO_MANY_REQUESTS, 20117, "验证码错误次数过多，请稍后再试").with_data(RetryAfter {
                retry_after: *retry_after_secs,
            })
        }
        DomainError::SmsFailed(_) => err(S::BAD_GATEWAY, 20115, "短信发送失败，请稍后再试"),
        DomainError::AccountForbidden { frozen, reason, until } => {
            err(S::FORBIDDEN, 20101, if *frozen { "账号已被冻结" } else { "账号已被封禁" })
                .with_data(Forbidden::of(*frozen, reason, *until))
        }
        DomainError::SessionEnded => err(S::UNAUTHORIZED, 40001, "登录已失效，请重新登录"),
        DomainError::LoginQrTimeout => err(S::CONFLICT, 20140, "二维码已失效"),
        DomainError::LoginQrCancelled => err(S::CONFLICT, 20141, "二维码已取消"),
        DomainError::LoginQrWaiting => err(S::CONFLICT, 20142, "等待扫码"),
        DomainError::LoginQrScanned => err(S::CONFLICT, 20143, "扫描成功，请在手机端确认登录"),
        DomainError::NotCertified => err(S::FORBIDDEN, 20150, "请先完成实名认证"),
        DomainError::MinorPlayLimit => err(S::FORBIDDEN, 20151, actors::identity::minors::PLAY_LIMIT_MESSAGE).with_data(Remark {
            remark: actors::identity::minors::PLAY_LIMIT_REMARK,
        }),
        DomainError::CertForm(fault) => match fault {
            actors::error::CertFault::NameEmpty => err(S::BAD_REQUEST, 20155, "姓名不能为空"),
            actors::error::CertFault::NameShort => err(S::BAD_REQUEST, 20156, "姓名不能少于2个字符"),
            actors::error::CertFault::IdEmpty => err(S::BAD_REQUEST, 20157, "身份证号不能为空"),
            actors::error::CertFault::IdMalformed => err(S::BAD_REQUEST, 20158, "身份证号格式不正确"),
        },
        DomainError::MinorChargeRefused(why) => err(S::FORBIDDEN, 20151, why),
        DomainError::MinorChargeConfirm => err(S::CONFLICT, 20160, actors::identity::minors::CHARGE_CONFIRM),
        DomainError::CertMismatch => err(S::CONFLICT, 20159, "姓名与身份证号不匹配，请核对后重新提交"),
        DomainError::CertNoRecert => err(S::CONFLICT, 20161, "每个账号仅有一次重新认证机会"),
        DomainError::PhoneBindRequired => err(S::CONFLICT, 20108, "为保障您的账户安全，请绑定手机号"),
        DomainError::ThirdPartyTokenInvalid => err(S::UNAUTHORIZED, 20109, "授权已失效，请重新登录"),
        DomainError::PasswordEmpty => err(S::BAD_REQUEST, 20118, "密码不能为空"),
        DomainError::PasswordWrong => err(S::BAD_REQUEST, 20120, "账号或密码错误"),
        DomainError::NewPasswordEmpty => err(S::BAD_REQUEST, 20121, "登录密码不能为空"),
        DomainError::NewPasswordWeak => err(S::BAD_REQUEST, 20122, "密码8-16位，需包含数字、字母和特殊字符"),
        DomainError::PasswordTicketInvalid => err(S::CONFLICT, 20123, "验证已失效，请重新验证手机号"),
        DomainError::CaptchaRequired => err(S::FORBIDDEN, 20125, "本次访问需要进行安全验证"),
        DomainError::CaptchaFailed => err(S::FORBIDDEN, 20128, "安全验证失败，请重新验证"),
        DomainError::UnknownGame => err(S::NOT_FOUND, 130100, "游戏不存在"),
        DomainError::GameNotOpen => err(S::CONFLICT, 130101, "游戏暂未开放"),
        DomainError::GameUnsupportedClient => err(S::CONFLICT, 130128, "当前游戏暂不支持本端"),
        DomainError::GameOnOtherClient { session_id, game_id } => {
            err(S::CONFLICT, 130115, "您正在其他设备上运行当前游戏").with_data(RunningGame {
                id: *session_id,
                game_id: *game_id,
                has_game_online: true,
            })
        }
        DomainError::OtherGameActive {
            session_id,
            game_id,
            game_name,
        } => err(S::CONFLICT, 130116, "您当前正在运行其他游戏").with_data(OtherRunningGame {
            id: *session_id,
            game_id: *game_id,
            game_name: game_name.clone(),
            has_game_online: true,
        }),
        DomainError::GameAlreadyActive { session_id, game_id } => err(S::CONFLICT, 130117, "当前游戏已在运行中").with_data(RunningGame {
            id: *session_id,
            game_id: *game_id,
            has_game_online: true,
        }),
        DomainError::UnknownSession => err(S::NOT_FOUND, 130118, "游戏会话不存在或已结束"),
        DomainError::WrongState => err(S::CONFLICT, 130119, "当前状态无法进行该操作"),
        DomainError::NodeMaintenance => err(S::CONFLICT, 130150, "区服维护中，请选择其他区服"),
        DomainError::UnknownNode => err(S::NOT_FOUND, 130151, "区服不存在"),
        DomainError::ShortOfTime => err(S::CONFLICT, 130102, "游戏时长不足，请补充时长"),
        DomainError::NeedSubscription => err(S::CONFLICT, 130126, "该游戏需订阅后才能游玩"),
        DomainError::VipOnly => err(S::CONFLICT, 130464, "该游戏为VIP会员专享"),
        DomainError::VvipOnly => err(S::CONFLICT, 130465, "该游戏为VVIP会员专享"),
        DomainError::CardNotQueued => err(S::CONFLICT, 130120, "请在排队时使用速进卡"),
        DomainError::NoCrossScreen { session_id } => {
            err(S::CONFLICT, 130466, "您的游戏正在其他设备运行，请先退出后再启动").with_data(NeedMember {
                id: *session_id,
                need_member: true,
            })
        }
        DomainError::MonthlyClaimed => err(S::CONFLICT, 20170, "本月速进卡已领取"),
        DomainError::NotMember => err(S::FORBIDDEN, 20171, "开通会员即可每月领取速进卡"),
        DomainError::UnknownCard => err(S::NOT_FOUND, 20172, "卡券不存在"),
        DomainError::CardUnusable => err(S::CONFLICT, 20173, "卡券不可用"),
        DomainError::GiveToSelf => err(S::BAD_REQUEST, 20174, "不能赠送给自己"),
        DomainError::UnknownPhone => err(S::NOT_FOUND, 20175, "该手机号尚未注册"),
        DomainError::QualityReported => err(S::CONFLICT, 130130, "本局的质量报告已提交"),
        DomainError::SuperAdminRoom => err(S::FORBIDDEN, 130012, "超管暂不支持创建房间"),
        DomainError::NotRelayQualified => err(S::FORBIDDEN, 20154, "您暂未获得一起玩公测资格"),
        DomainError::Minor => err(S::FORBIDDEN, 20151, "未成年人暂不支持进入房间").with_data(Remark {
            remark: "根据相关规定，未成年人暂不支持使用一起玩功能",
        }),
        DomainError::MinorRelayLimit => err(S::FORBIDDEN, 20152, "未成年人暂不支持开启一起玩").with_data(Remark {
            remark: "根据相关规定，未成年人暂不支持开启一起玩房间",
        }),
        DomainError::MinorControlLimit => err(S::FORBIDDEN, 20153, "未成年人暂不支持获取控制权").with_data(Remark {
            remark: "根据相关规定，未成年人暂不支持获取游戏控制权",
        }),
        DomainError::RoomForm(fault) => match fault {
            RoomFormFault::NameEmpty => err(S::BAD_REQUEST, 130013, "房间名称不能为空"),
            RoomFormFault::NameTooLong => err(S::BAD_REQUEST, 130014, "房间名称最多15个字"),
            RoomFormFault::ModeEmpty => err(S::BAD_REQUEST, 130015, "房间模式不能为空"),
            RoomFormFault::GameEmpty => err(S::BAD_REQUEST, 130016, "游戏不能为空"),
            RoomFormFault::PasswordFormat => err(S::BAD_REQUEST, 130017, "密码格式不正确"),
        },
        DomainError::GameNotSupportRelay => err(S::CONFLICT, 130129, "当前游戏暂不支持一起玩"),
        DomainError::RelayOnly => err(S::CONFLICT, 130121, "当前游戏仅支持一起玩，请先完善游戏的房间信息"),
        DomainError::AlreadyHosting { dd_rid } => {
            err(S::CONFLICT, 130442, "您已开启一起玩房间，请先退出房间").with_data(RoomRef { dd_rid: *dd_rid })
        }
        DomainError::RoomNotFound => err(S::NOT_FOUND, 130300, "房间不存在或已关闭"),
        DomainError::RoomBarred => err(S::FORBIDDEN, 130205, "你已被移出该房间"),
        DomainError::RoomPasswordNeeded => err(S::FORBIDDEN, 130201, "请输入房间密码"),
        DomainError::RoomPasswordWrong { retry_after_secs: None } => err(S::FORBIDDEN, 130202, "房间密码错误"),
        DomainError::RoomPasswordWrong {
            retry_after_secs: Some(secs),
        } => err(S::TOO_MANY_REQUESTS, 130202, "房间密码错误次数过多，请稍后再试").with_data(RetryAfterRoom { retry_after: *secs }),
        DomainError::RoomGameRunning { session_id, game_id } => {
            err(S::CONFLICT, 130443, "您正在游戏中，进入房间将结束当前游戏").with_data(RunningGame {
                id: *session_id,
                game_id: *game_id,
                has_game_online: true,
            })
        }
        DomainError::InOtherRoom { dd_rid } => {
            err(S::CONFLICT, 130203, "您已在其他房间中，是否退出并进入该房间").with_data(RoomRef { dd_rid: *dd_rid })
        }
        DomainError::InRoomElsewhere { dd_rid } => {
            err(S::CONFLICT, 130204, "您已在其他设备进入该房间，是否切换到当前设备").with_data(RoomRef { dd_rid: *dd_rid })
        }
        DomainError::NotInRoom => err(S::FORBIDDEN, 130207, "你不在该房间"),
        DomainError::RoomForbidden => err(S::FORBIDDEN, 130206, "无权限操作"),
        DomainError::TargetNotInRoom => err(S::CONFLICT, 130216, "该用户不在房间内"),
        DomainError::MikeFull => err(S::CONFLICT, 130208, "麦位已满"),
        DomainError::SeatUnavailable => err(S::CONFLICT, 130209, "该麦位不可用"),
        DomainError::MikeState => err(S::CONFLICT, 130210, "麦位状态已变化"),
        DomainError::NoInvite => err(S::CONFLICT, 130211, "邀请已失效"),
        DomainError::ControlApplyOpen { retry_after_secs } => err(S::CONFLICT, 130212, "已申请控制权，请等待").with_data(RetryAfterRoom {
            retry_after: *retry_after_secs,
        }),
        DomainError::ControlState => err(S::CONFLICT, 130217, "控制权状态已变化"),
        DomainError::ChatBanned => err(S::FORBIDDEN, 130213, "你已被禁言"),
        DomainError::ChatInvalid => err(S::BAD_REQUEST, 130214, "消息内容不合法"),
        DomainError::PhoneUnbound => err(
            S::FORBIDDEN,
            20007,
            "根据相关法律法规，为保障您的账户安全，体验当前功能需绑定手机号哦~",
        ),
        DomainError::ReportInvalid => err(S::BAD_REQUEST, 130215, "举报原因不正确"),
        DomainError::InsufficientCoins => err(S::CONFLICT, 20110, "您的云游币余额不足，请先充值"),
        DomainError::QrTimeout { invalid } => err(S::CONFLICT, 20140, "二维码已失效").with_data(QrStatus {
            status: if *invalid { "invalid" } else { "timeout" },
        }),
        DomainError::QrCancelled => err(S::CONFLICT, 20141, "已取消支付"),
        DomainError::QrWaiting => err(S::CONFLICT, 20142, "等待扫码支付"),
        DomainError::QrScanned => err(S::CONFLICT, 20143, "扫描成功，请在手机上支付"),
        DomainError::UnknownGoods => err(S::NOT_FOUND, 20180, "商品不存在或已下架"),
        DomainError::UnknownOrder => err(S::NOT_FOUND, 20181, "订单不存在"),
        DomainError::PayMethodUnavailable => err(S::CONFLICT, 20182, "该商品不支持此支付方式"),
        DomainError::BadQuantity => err(S::BAD_REQUEST, 20183, "购买数量需在1到100之间"),
        DomainError::NotUpgradable => err(S::CONFLICT, 20187, "仅VIP会员可补差价升级为VVIP"),
        DomainError::UnknownAgreement => err(S::NOT_FOUND, 20188, "自动续费协议不存在"),
        DomainError::QrNotYours => err(S::FORBIDDEN, 20144, "请使用本账号登录后扫码认证"),
        DomainError::AlreadyRenewing => err(S::CONFLICT, 20189, "您已开通该商品的自动续费，无需重复开通"),
        DomainError::CouponUnusable => err(S::CONFLICT, 20184, "优惠券不可用"),
        DomainError::OrderClosed => err(S::CONFLICT, 20185, "订单已关闭，请重新下单"),
        DomainError::PaymentNoticeRefused(_) => err(S::BAD_REQUEST, 20186, "支付通知校验失败"),
        DomainError::CouponThreshold => err(S::CONFLICT, 20260, "未达到优惠券使用门槛"),
        DomainError::CouponNotApplicable => err(S::CONFLICT, 20261, "该商品不可使用此优惠券"),
        DomainError::MerchantClosed => err(S::FORBIDDEN, 20190, "商户功能暂未开放"),
        DomainError::EmptyCart => err(S::BAD_REQUEST, 20191, "商品列表为空"),
        DomainError::GroupQuantity => err(S::BAD_REQUEST, 20192, "购买数量不在价格区间内"),
        DomainError::UnknownRedeemKey => err(S::NOT_FOUND, 20193, "兑换码不存在"),
        DomainError::RedeemKeyUsed => err(S::CONFLICT, 20194, "兑换码已被使用"),
        DomainError::AdPayTimesUsed => err(S::CONFLICT, 70109, "该商品购买次数已达上限"),
        DomainError::AdUnavailable => err(S::CONFLICT, 70110, "活动已结束或商品不符"),
        DomainError::UnknownActivity => err(S::NOT_FOUND, 20262, "活动不存在"),
        DomainError::ActivityNotStarted => err(S::CONFLICT, 20263, "活动尚未开始"),
        DomainError::ActivityEnded => err(S::CONFLICT, 20264, "活动已结束"),
        DomainError::ActivityReceived => err(S::CONFLICT, 20265, "您已领取过本活动的优惠券"),
        DomainError::MemberGrantReceived => err(S::CONFLICT, 20230, "今日会员时长已领取，明天再来吧"),
        DomainError::MemberGrantNotHeld => err(S::FORBIDDEN, 20231, "开通会员即可每日领取会员时长"),
        DomainError::Internal(_) => err(S::SERVICE_UNAVAILABLE, 50000, "服务繁忙，请稍后再试"),
        // another process owns it (forwarded there), or none does for a takeover's moment
        DomainError::NotOwner(name) => ApiError {
            elsewhere: Some(name.clone()),
            ..err(S::SERVICE_UNAVAILABLE, 50000, "服务繁忙，请稍后再试")
        },
        DomainError::UcRedirect => err(S::BAD_REQUEST, 20270, "跳转地址不正确"),
        DomainError::UcTarget => err(S::BAD_REQUEST, 20271, "账号中心页面不存在"),
        DomainError::UcNoticeRefused(_) => err(S::BAD_REQUEST, 20272, "账号中心通知校验失败"),
        DomainError::ProfileForm(fault) => match fault {
            actors::error::ProfileFault::NicknameEmpty => err(S::BAD_REQUEST, 20273, "昵称不能为空"),
            actors::error::ProfileFault::NicknameLength => err(S::BAD_REQUEST, 20274, "昵称需为2-16个字符"),
            actors::error::ProfileFault::NicknameChars => err(S::BAD_REQUEST, 20275, "昵称包含不支持的字符"),
            actors::error::ProfileFault::AvatarInvalid => err(S::BAD_REQUEST, 20276, "头像地址不正确"),
        },
        DomainError::CheckedInToday => err(S::CONFLICT, 140203, "今日已签到，明天再来吧"),
        DomainError::UnknownTask => err(S::NOT_FOUND, 140201, "任务不存在"),
        DomainError::TaskNotClaimable => err(S::CONFLICT, 140202, "任务未完成或奖励已领取"),
    }
}

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        match &e {
            DomainError::SmsFailed(reason) => tracing::warn!(%reason, "sms provider failed"),
            DomainError::Internal(reason) => tracing::error!(%reason, "internal error"),
            _ => {}
        }
        refusal(&e)
    }
}

/// A handler's answer: the success envelope around `T`, or a refusal.
pub type ApiResult<T> = Result<Envelope<T>, ApiError>;

/// One refusal a route can answer, as the document lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Refusal {
    pub code: i64,
    pub message: &'static str,
    #[serde(skip)]
    pub status: StatusCode,
    /// The `DomainError` variant behind it, or `facade` for the facade's own refusals.
    pub cause: String,
}

impl From<DomainError> for Refusal {
    fn from(e: DomainError) -> Self {
        let a = refusal(&e);
        let debug = format!("{e:?}");
        let cause = debug.split([' ', '(', '{']).next().unwrap_or_default().to_string();
        Refusal {
            code: a.code,
            message: a.message,
            status: a.status,
            cause,
        }
    }
}

impl From<ApiError> for Refusal {
    fn from(a: ApiError) -> Self {
        Refusal {
            code: a.code,
            message: a.message,
            status: a.status,
            cause: "facade".into(),
        }
    }
}

/// Groups of refusals many routes share.
pub mod common {
    use super::*;

    /// A route with a JSON body, query or path parameters: malformed input, a body too large.
    pub fn input() -> Vec<Refusal> {
        vec![
            ApiError::bad_request().into(),
            ApiError::too_large().into(),
            ApiError::body_timeout().into(),
        ]
    }
    /// A route that needs login (a `Caller`): no session; CSRF when it changes state.
    pub fn logged_in() -> Vec<Refusal> {
        vec![
            DomainError::NotLoggedIn.into(),
            DomainError::SessionEnded.into(),
            ApiError::csrf().into(),
        ]
    }
    /// A route open to guests (a `MaybeCaller`): a logged-in caller's CSRF token is checked.
    pub fn maybe_logged_in() -> Vec<Refusal> {
        vec![ApiError::csrf().into()]
    }
    /// A state-changing route open to guests (a `GuestWrite`): a guest's `x-skip-csrf` or a
    /// logged-in caller's token is checked.
    pub fn guest_write() -> Vec<Refusal> {
        vec![ApiError::csrf().into()]
    }
    /// A call its room's actor decides: no such room (or ended), not a member, a role that may
    /// not, a target who is not a member, a seat or control state that changed meanwhile;
    /// storage or an actor failed.
    pub fn room() -> Vec<Refusal> {
        vec![
            DomainError::RoomNotFound.into(),
            DomainError::NotInRoom.into(),
            DomainError::RoomForbidden.into(),
            DomainError::TargetNotInRoom.into(),
            DomainError::MikeState.into(),
            DomainError::ControlState.into(),
            DomainError::Internal(String::new()).into(),
        ]
    }
    /// A seat or control call: the seats' and the control's own refusals.
    pub fn seats_and_control() -> Vec<Refusal> {
        vec![
            DomainError::MikeFull.into(),
            DomainError::SeatUnavailable.into(),
            DomainError::NoInvite.into(),
            DomainError::ControlApplyOpen { retry_after_secs: 0 }.into(),
            DomainError::MinorControlLimit.into(),
        ]
    }
    /// Storage or an actor failed.
    pub fn internal() -> Vec<Refusal> {
        vec![DomainError::Internal(String::new()).into()]
    }
}

/// Something that adds refusals to a route's list: a `DomainError`, an `ApiError`, or a group.
pub trait IntoRefusals {
    fn add_to(self, list: &mut Vec<Refusal>);
}
impl IntoRefusals for DomainError {
    fn add_to(self, list: &mut Vec<Refusal>) {
        list.push(self.into());
    }
}
impl IntoRefusals for ApiError {
    fn add_to(self, list: &mut Vec<Refusal>) {
        list.push(self.into());
    }
}
impl IntoRefusals for Vec<Refusal> {
    fn add_to(self, list: &mut Vec<Refusal>) {
        list.extend(self);
    }
}

/// The error responses of a route: one per HTTP status, its body the refusal envelope with the
/// `code`s of that status, and the list (`x-codes`: code, message, cause) in an extension.
pub fn refusal_responses(list: Vec<Refusal>) -> BTreeMap<String, RefOr<Response>> {
    let mut by_status: BTreeMap<u16, Vec<Refusal>> = BTreeMap::new();
    for r in list {
        let same = by_status.entry(r.status.as_u16()).or_default();
        if !same.iter().any(|s| s.code == r.code) {
            same.push(r);
        }
    }
    by_status
        .into_iter()
        .map(|(status, refusals)| {
            let description = refusals
                .iter()
                .map(|r| format!("{} {}", r.code, r.message))
                .collect::<Vec<_>>()
                .join("; ");
            let codes: Vec<i64> = refusals.iter().map(|r| r.code).collect();
            let schema = ObjectBuilder::new()
                .property(
                    "code",
                    ObjectBuilder::new()
                        .schema_type(Type::Integer)
                        .enum_values(Some(codes.iter().map(|c| json!(c)))),
                )
                .required("code")
                .property("message", ObjectBuilder::new().schema_type(Type::String))
                .required("message")
                .property(
                    "data",
                    ObjectBuilder::new().schema_type(utoipa::openapi::schema::SchemaType::AnyValue),
                )
                .property("ts", ObjectBuilder::new().schema_type(Type::Integer))
                .required("ts");
            let extensions = utoipa::openapi::extensions::ExtensionsBuilder::new()
                .add("x-codes", serde_json::to_value(&refusals).unwrap_or_default())
                .build();
            let response = utoipa::openapi::ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    utoipa::openapi::ContentBuilder::new().schema(Some(schema)).build(),
                )
                .extensions(Some(extensions))
                .build();
            (status.to_string(), RefOr::T(response))
        })
        .collect()
}

/// Declares the refusals a route can answer, as a type for `#[utoipa::path(responses(...))]`:
/// `refusals!(StartRefusals: common::logged_in(), DomainError::UnknownGame, ...)`.
macro_rules! refusals {
    ($(#[$meta:meta])* $name:ident: $($e:expr),* $(,)?) => {
        $(#[$meta])*
        pub struct $name;
        impl $name {
            /// Every refusal of the route, in declaration order.
            #[allow(unused_imports)]
            pub fn list() -> Vec<$crate::envelope::Refusal> {
                use $crate::envelope::{common, ApiError, IntoRefusals};
                use actors::DomainError;
                let mut refusals = Vec::new();
                $( IntoRefusals::add_to($e, &mut refusals); )*
                refusals
            }
        }
        impl utoipa::IntoResponses for $name {
            fn responses() -> std::collections::BTreeMap<String, utoipa::openapi::RefOr<utoipa::openapi::Response>> {
                $crate::envelope::refusal_responses(Self::list())
            }
        }
    };
}
pub(crate) use refusals;

/// Every domain refusal, one of each variant (the mapping's test and API.md's table).
pub fn every_domain_refusal() -> Vec<DomainError> {
    use DomainError::*;
    vec![
        NotLoggedIn,
        PhoneEmpty,
        PhoneMalformed,
        CodeEmpty,
        CodeWrong,
        CodeTooSoon { retry_after_secs: 0 },
        LoginLocked { retry_after_secs: 0 },
        SmsFailed(String::new()),
        AccountForbidden {
            frozen: false,
            reason: String::new(),
            until: 0,
        },
        SessionEnded,
        LoginQrTimeout,
        LoginQrCancelled,
        LoginQrWaiting,
        LoginQrScanned,
        PhoneBindRequired,
        ThirdPartyTokenInvalid,
        PasswordEmpty,
        PasswordWrong,
        NewPasswordEmpty,
        NewPasswordWeak,
        PasswordTicketInvalid,
        CaptchaRequired,
        CaptchaFailed,
        NotCertified,
        MinorPlayLimit,
        CertForm(actors::error::CertFault::NameEmpty),
        CertForm(actors::error::CertFault::NameShort),
        CertForm(actors::error::CertFault::IdEmpty),
        CertForm(actors::error::CertFault::IdMalformed),
        CertMismatch,
        CertNoRecert,
        MinorChargeRefused(actors::identity::minors::CHARGE_UNDER_8),
        MinorChargeConfirm,
        UnknownGame,
        GameNotOpen,
        GameUnsupportedClient,
        GameOnOtherClient { session_id: 0, game_id: 0 },
        OtherGameActive {
            session_id: 0,
            game_id: 0,
            game_name: String::new(),
        },
        GameAlreadyActive { session_id: 0, game_id: 0 },
        UnknownSession,
        WrongState,
        NodeMaintenance,
        UnknownNode,
        ShortOfTime,
        NeedSubscription,
        VipOnly,
        VvipOnly,
        CardNotQueued,
        NoCrossScreen { session_id: 0 },
        MonthlyClaimed,
        NotMember,
        UnknownCard,
        CardUnusable,
        GiveToSelf,
        UnknownPhone,
        QualityReported,
        SuperAdminRoom,
        NotRelayQualified,
        Minor,
        MinorRelayLimit,
        MinorControlLimit,
        RoomForm(RoomFormFault::NameEmpty),
        RoomForm(RoomFormFault::NameTooLong),
        RoomForm(RoomFormFault::ModeEmpty),
        RoomForm(RoomFormFault::GameEmpty),
        RoomForm(RoomFormFault::PasswordFormat),
        GameNotSupportRelay,
        RelayOnly,
        AlreadyHosting { dd_rid: 0 },
        RoomNotFound,
        RoomBarred,
        RoomPasswordNeeded,
        RoomPasswordWrong { retry_after_secs: None },
        RoomGameRunning { session_id: 0, game_id: 0 },
        InOtherRoom { dd_rid: 0 },
        InRoomElsewhere { dd_rid: 0 },
        NotInRoom,
        RoomForbidden,
        TargetNotInRoom,
        MikeFull,
        SeatUnavailable,
        MikeState,
        NoInvite,
        ControlApplyOpen { retry_after_secs: 0 },
        ControlState,
        ChatBanned,
        ChatInvalid,
        PhoneUnbound,
        ReportInvalid,
        InsufficientCoins,
        QrTimeout { invalid: false },
        QrCancelled,
        QrWaiting,
        QrScanned,
        UnknownGoods,
        UnknownOrder,
        PayMethodUnavailable,
        BadQuantity,
        NotUpgradable,
        UnknownAgreement,
        AlreadyRenewing,
        QrNotYours,
        CouponUnusable,
        OrderClosed,
        PaymentNoticeRefused(String::new()),
        Internal(String::new()),
        CouponThreshold,
        CouponNotApplicable,
        MerchantClosed,
        EmptyCart,
        GroupQuantity,
        UnknownRedeemKey,
        RedeemKeyUsed,
        AdPayTimesUsed,
        AdUnavailable,
        UnknownActivity,
        ActivityNotStarted,
        ActivityEnded,
        ActivityReceived,
        UcRedirect,
        UcTarget,
        UcNoticeRefused(String::new()),
        ProfileForm(actors::error::ProfileFault::NicknameEmpty),
        ProfileForm(actors::error::ProfileFault::NicknameLength),
        ProfileForm(actors::error::ProfileFault::NicknameChars),
        ProfileForm(actors::error::ProfileFault::AvatarInvalid),
    ]
}

/// A JSON body the extractor refused: too large is 40013 (HTTP 413), anything else 40000.
pub fn json_refusal(e: &actix_web::error::JsonPayloadError) -> ApiError {
    use actix_web::error::{JsonPayloadError as J, PayloadError};
    match e {
        J::Overflow { .. } | J::OverflowKnownLength { .. } | J::Payload(PayloadError::Overflow) => ApiError::too_large(),
        _ => ApiError::bad_request(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every domain refusal has its own code, a Chinese message, and a 4xx status unless the
    // failure is the server's or a provider's (5xx); the cause named in the document is its variant.
    #[test]
    fn every_domain_refusal_maps_to_a_distinct_code() {
        let all = every_domain_refusal();
        let mut codes: Vec<i64> = all.iter().map(|e| refusal(e).code).collect();
        codes.sort_unstable();
        // the QR codes 20140–20143 mean the same for the payment QR and the login QR
        // (core-platform.md §4.12): each is shared by exactly those two; every other but 20151
        // is one's own
        // and 20151 (USER_IS_MINOR) is the refusal of a minor in a room, at a game start and at a
        // payment
        let mut shared: Vec<i64> = codes.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0]).collect();
        shared.dedup();
        assert_eq!(shared, [20140, 20141, 20142, 20143, 20151]);
        assert_eq!(codes.iter().filter(|c| **c == 20151).count(), 3);
        for e in all {
            let a = refusal(&e);
            assert!(!a.message.is_ascii(), "{e:?}");
            let server_side = matches!(e, DomainError::Internal(_) | DomainError::SmsFailed(_));
            assert_eq!(a.status.is_server_error(), server_side, "{e:?}");
            let r = Refusal::from(e.clone());
            assert!(format!("{e:?}").starts_with(&r.cause));
        }
    }

    // A route's refusals become one response per status whose code enum lists that status's codes.
    #[test]
    fn refusals_group_by_status() {
        let responses = refusal_responses(vec![
            DomainError::UnknownGame.into(),
            DomainError::UnknownNode.into(),
            DomainError::GameNotOpen.into(),
            DomainError::UnknownGame.into(),
        ]);
        assert_eq!(responses.keys().collect::<Vec<_>>(), ["404", "409"]);
        let json = serde_json::to_value(&responses["404"]).unwrap();
        assert_eq!(
            json["content"]["application/json"]["schema"]["properties"]["code"]["enum"],
            json!([130100, 130151])
        );
        assert_eq!(json["x-codes"][1]["cause"], "UnknownNode");
    }
}
