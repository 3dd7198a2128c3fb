//! The external account centre (core-platform.md §2.6, §7.2): the signed agent login that opens
//! it at HOME, INFO or AVATAR, and the callback its signed notices of profile changes (nickname,
//! avatar) arrive on.

use actix_web::{post, web, HttpRequest};
use actors::accounts::account_centre::{SignedLogin, Target, SIGNATURE_HEADER};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::state::AppState;

/// These paths.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(login).service(notify);
}

/// The account centre's page an agent login opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum UcTarget {
    Home,
    Info,
    Avatar,
}

impl From<Target> for UcTarget {
    fn from(t: Target) -> Self {
        match t {
            Target::Home => UcTarget::Home,
            Target::Info => UcTarget::Info,
            Target::Avatar => UcTarget::Avatar,
        }
    }
}

#[derive(Deserialize, ToSchema)]
pub struct UcLoginBody {
    /// The page the account centre leads back to: a path of this site (`/user/detail`).
    redirect_url: String,
    /// HOME, INFO or AVATAR; AVATAR when absent.
    #[serde(default)]
    target: Option<String>,
}

/// A signed agent login (§7.2 "a signed payload").
#[derive(Serialize, ToSchema)]
pub struct UcLogin {
    /// The account centre's agent-login address carrying the payload and its signature: the
    /// window opened beforehand goes there.
    pub url: String,
    /// base64url (no padding) of the agent login: `uid`, `target`, `iat`, `exp` (ms), `nonce`,
    /// `redirect_url`, as `key=value&...` with percent-encoded values.
    pub payload: String,
    /// HMAC-SHA256 of the agent login under the secret shared with the account centre, hex.
    pub sign: String,
    pub target: UcTarget,
    /// ms; the account centre opens the agent login once before then.
    pub expires_at: i64,
}

impl From<SignedLogin> for UcLogin {
    fn from(s: SignedLogin) -> Self {
        UcLogin {
            url: s.url,
            payload: s.payload,
            sign: s.sign,
            target: s.target.into(),
            expires_at: s.expires_at,
        }
    }
}

refusals!(UcLoginRefusals: common::input(), common::logged_in(), DomainError::UcRedirect, DomainError::UcTarget);

/// Signs the agent login that opens the account centre for the caller (§7.2).
#[utoipa::path(operation_id = "uc_login", request_body = UcLoginBody, responses((status = 200, body = Envelope<UcLogin>), UcLoginRefusals))]
#[post("/api/user/v1/uc/login")]
pub async fn login(state: web::Data<AppState>, caller: Caller, body: web::Json<UcLoginBody>) -> ApiResult<UcLogin> {
    let signed = state
        .platform
        .accounts
        .uc_login(caller.0.uid, &body.redirect_url, body.target.as_deref())?;
    Ok(ok(signed.into()))
}

refusals!(UcNotifyRefusals:
    common::input(),
    DomainError::UcNoticeRefused(String::new()),
    DomainError::ProfileForm(actors::error::ProfileFault::NicknameEmpty),
    DomainError::ProfileForm(actors::error::ProfileFault::NicknameLength),
    DomainError::ProfileForm(actors::error::ProfileFault::NicknameChars),
    DomainError::ProfileForm(actors::error::ProfileFault::AvatarInvalid),
    common::internal(),
);

/// The account centre's notice of a profile change (`uid=..&field=nickname|avatar&value=..&id=..&at=..`,
/// signed in `Yoo-Uc-Signature`). A bad signature, a malformed or stale notice or an unknown
/// user is refused (20272) and changes nothing; a notice delivered again is acknowledged once
/// more and changes nothing.
#[utoipa::path(operation_id = "uc_notify", request_body(content = String, content_type = "text/plain"),
    params(("Yoo-Uc-Signature" = String, Header, description = "HMAC-SHA256 of the body, hex")),
    responses((status = 200, body = Envelope<Null>), UcNotifyRefusals))]
#[post("/api/user/v1/uc/notify")]
pub async fn notify(state: web::Data<AppState>, req: HttpRequest, body: web::Bytes) -> ApiResult<Null> {
    let body = std::str::from_utf8(&body).map_err(|_| ApiError::bad_request())?;
    let signature = req.headers().get(SIGNATURE_HEADER).and_then(|v| v.to_str().ok()).unwrap_or("");
    state.platform.accounts.uc_notice(body, signature).await?;
    Ok(ok(Null))
}
