//! The response envelope `{code, message, data, ts}` (core-platform.md §7.1) and the one place
//! that maps every refusal to its code, Chinese text and HTTP status.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use actors::DomainError;
use serde::Serialize;
use serde_json::{json, Value};

/// Server time in seconds, for `ts`.
pub fn ts() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// A success envelope around `data`.
pub fn ok<T: Serialize>(data: T) -> HttpResponse {
    HttpResponse::Ok().json(json!({"code": 0, "message": "ok", "data": data, "ts": ts()}))
}

/// A refusal: what the client reads (`code`, `message`, `data`) and the HTTP status.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: i64,
    pub message: &'static str,
    pub data: Value,
}

impl ApiError {
    pub fn new(status: StatusCode, code: i64, message: &'static str) -> Self {
        ApiError {
            status,
            code,
            message,
            data: Value::Null,
        }
    }
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = data;
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
    pub fn not_logged_in() -> Self {
        ApiError::from(DomainError::NotLoggedIn)
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
        HttpResponse::build(self.status).json(json!({"code": self.code, "message": self.message, "data": self.data, "ts": ts()}))
    }
}

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        use StatusCode as S;
        let err = ApiError::new;
        match e {
            DomainError::NotLoggedIn => err(S::UNAUTHORIZED, 20119, "登录已失效，请重新登录"),
            DomainError::PhoneEmpty => err(S::BAD_REQUEST, 20116, "手机号不能为空"),
            DomainError::PhoneMalformed => err(S::BAD_REQUEST, 20111, "手机号格式不正确"),
            DomainError::CodeEmpty => err(S::BAD_REQUEST, 20112, "验证码不能为空"),
            DomainError::CodeWrong => err(S::BAD_REQUEST, 20113, "验证码错误或已过期"),
            DomainError::CodeTooSoon { retry_after_secs } => {
                err(S::TOO_MANY_REQUESTS, 20114, "验证码发送过于频繁，请稍后再试").with_data(json!({"retry_after": retry_after_secs}))
            }
            DomainError::LoginLocked { retry_after_secs } => {
                err(S::TOO_MANY_REQUESTS, 20117, "验证码错误次数过多，请稍后再试").with_data(json!({"retry_after": retry_after_secs}))
            }
            DomainError::SmsFailed(reason) => {
                tracing::warn!(%reason, "sms provider failed");
                err(S::BAD_GATEWAY, 20115, "短信发送失败，请稍后再试")
            }
            DomainError::UnknownGame => err(S::NOT_FOUND, 130100, "游戏不存在"),
            DomainError::GameNotOpen => err(S::CONFLICT, 130101, "游戏暂未开放"),
            DomainError::GameUnsupportedClient => err(S::CONFLICT, 130128, "当前游戏暂不支持本端"),
            DomainError::GameOnOtherClient { session_id, game_id } => err(S::CONFLICT, 130115, "您正在其他设备上运行当前游戏")
                .with_data(json!({"id": session_id, "gameId": game_id, "hasGameOnline": true})),
            DomainError::OtherGameActive {
                session_id,
                game_id,
                game_name,
            } => err(S::CONFLICT, 130116, "您当前正在运行其他游戏")
                .with_data(json!({"id": session_id, "gameId": game_id, "gameName": game_name, "hasGameOnline": true})),
            DomainError::GameAlreadyActive { session_id, game_id } => err(S::CONFLICT, 130117, "当前游戏已在运行中")
                .with_data(json!({"id": session_id, "gameId": game_id, "hasGameOnline": true})),
            DomainError::UnknownSession => err(S::NOT_FOUND, 130118, "游戏会话不存在或已结束"),
            DomainError::WrongState => err(S::CONFLICT, 130119, "当前状态无法进行该操作"),
            DomainError::NodeMaintenance => err(S::CONFLICT, 130150, "区服维护中，请选择其他区服"),
            DomainError::UnknownNode => err(S::NOT_FOUND, 130151, "区服不存在"),
            DomainError::ShortOfTime => err(S::CONFLICT, 130102, "游戏时长不足，请补充时长"),
            DomainError::NeedSubscription => err(S::CONFLICT, 130126, "该游戏需订阅后才能游玩"),
            DomainError::VipOnly => err(S::CONFLICT, 130464, "该游戏为VIP会员专享"),
            DomainError::VvipOnly => err(S::CONFLICT, 130465, "该游戏为VVIP会员专享"),
            DomainError::CardNotQueued => err(S::CONFLICT, 130120, "请在排队时使用速进卡"),
            DomainError::NoCrossScreen { session_id } => err(S::CONFLICT, 130466, "您的游戏正在其他设备运行，请先退出后再启动")
                .with_data(json!({"id": session_id, "needMember": true})),
            DomainError::MonthlyClaimed => err(S::CONFLICT, 20170, "本月速进卡已领取"),
            DomainError::NotMember => err(S::FORBIDDEN, 20171, "开通会员即可每月领取速进卡"),
            DomainError::UnknownCard => err(S::NOT_FOUND, 20172, "卡券不存在"),
            DomainError::CardUnusable => err(S::CONFLICT, 20173, "卡券不可用"),
            DomainError::Internal(reason) => {
                tracing::error!(%reason, "internal error");
                err(S::SERVICE_UNAVAILABLE, 50000, "服务繁忙，请稍后再试")
            }
        }
    }
}

pub type ApiResult = Result<HttpResponse, ApiError>;
