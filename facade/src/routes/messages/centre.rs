//! The message centre (social.md §2.9, §3, §4.10, §7 "Message centre"): a page of the caller's
//! messages, the sender tabs with their unread counts, mark all read, clear all, the new-message
//! flags; and the operator's announcement to everyone (`POST /api/ops/msg/announce` with the
//! operator token in every mode; `/api/dev/msg/announce` in dev mode). Only the caller's own
//! messages are ever read, marked or deleted: no call names a message id.

use actix_web::{post, web};
use actors::beijing::format as format_cst;
use actors::messages::{MessageRefusal, SenderTab};
use serde::{Deserialize, Serialize};
use storage::messages::Message;
use utoipa::ToSchema;

use crate::auth::{Caller, Operator};
use crate::dto::Empty;
use crate::dto::Id;
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope, Null};
use crate::state::AppState;

fn refused(e: MessageRefusal) -> ApiError {
    match e {
        MessageRefusal::Invalid(field) => {
            tracing::debug!(field, "message call refused");
            ApiError::bad_request()
        }
        MessageRefusal::Domain(e) => e.into(),
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessagePageBody {
    /// 1-based, at most 10000.
    #[schema(example = 1)]
    page_no: Id,
    /// 1–50; the client asks for 10.
    #[schema(example = 10)]
    page_size: Id,
    /// Only this sender's messages (1 system, 2 assistant, 4 announcement, 5 welfare, 6 user).
    #[serde(default)]
    sender: Option<Id>,
}

/// A message (social.md §3 "Message").
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageDto {
    pub id: i64,
    /// The title.
    pub name: String,
    /// An image URL or path; empty: none.
    pub image: String,
    pub content: String,
    /// Where "view details" goes; empty: no link.
    pub link: String,
    /// 'YYYY-MM-DD HH:mm:ss', Beijing time.
    pub send_time: String,
    /// A JSON string {goods_type, auto_activate} of a card message ("go now": auto_activate 0
    /// or 2 opens /user/card/card, 1 the shop); empty otherwise.
    pub msg_tep_param: String,
    /// The sender (1 system, 2 assistant, 4 announcement, 5 welfare, 6 user).
    pub sender: i32,
    /// Whether the caller has read it.
    pub read: bool,
}

fn message(m: &Message) -> MessageDto {
    MessageDto {
        id: m.id,
        name: m.message.name.clone(),
        image: m.message.image.clone(),
        content: m.message.content.clone(),
        link: m.message.link.clone(),
        send_time: format_cst(m.message.sent_at),
        msg_tep_param: m.message.tep_param.clone(),
        sender: m.message.sender,
        read: m.read,
    }
}

/// A page of messages (social.md §3 "Message page response").
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessagePageDto {
    pub total_count: u64,
    pub total_page_count: u64,
    /// Newest first.
    pub list: Vec<MessageDto>,
}

refusals!(PageRefusals: common::input(), common::logged_in(), common::internal());

/// A page of the caller's messages, newest first; `sender` filters by sender. A page beyond
/// the last is empty.
#[utoipa::path(request_body = MessagePageBody, responses((status = 200, body = Envelope<MessagePageDto>), PageRefusals))]
#[post("/api/japi/msg/center/page")]
pub async fn page(state: web::Data<AppState>, caller: Caller, body: web::Json<MessagePageBody>) -> ApiResult<MessagePageDto> {
    let b = body.into_inner();
    let paged = state
        .platform
        .messages
        .message_page(caller.0.uid, b.page_no.0, b.page_size.0, b.sender.map(|s| s.0))
        .await
        .map_err(refused)?;
    Ok(ok(MessagePageDto {
        total_count: paged.page.total,
        total_page_count: paged.total_pages,
        list: paged.page.messages.iter().map(message).collect(),
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase")]
pub struct UnreadBody {
    /// A sender left out of the tabs (the client sends 3).
    #[serde(default)]
    ignore_senders: Option<Id>,
}

/// A sender tab (social.md §3 "Message sender tab").
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SenderTabDto {
    pub sender: i32,
    pub name: String,
    pub un_read_count: u64,
    /// The newest message's title; empty when the sender has none.
    pub last_msg_title: String,
    /// The newest message's time, 'YYYY-MM-DD HH:mm:ss' Beijing time; empty when none.
    pub send_time: String,
}

/// The unread counts (social.md §3 "Unread counts"); the shown total is the sum over
/// `unreadCountVos`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnreadCountsDto {
    /// Comments, fans and praise: the platform has none (0).
    pub comment_un_read_count: u64,
    pub fans_un_read_count: u64,
    pub praise_un_read_count: u64,
    /// Unread announcements.
    pub notice_un_read_count: u64,
    /// Unread in all.
    pub un_read_count: u64,
    /// The newest message's time and title (empty: none).
    pub send_time: String,
    pub last_msg_title: String,
    /// Unread from the platform (every sender but users), with its newest message.
    pub official_un_read_count: u64,
    pub official_send_time: String,
    pub official_last_msg_title: String,
    /// One per sender, in tab order.
    pub unread_count_vos: Vec<SenderTabDto>,
}

fn tab(t: &SenderTab) -> SenderTabDto {
    SenderTabDto {
        sender: t.sender,
        name: t.name.to_owned(),
        un_read_count: t.unread,
        last_msg_title: t.last.as_ref().map(|(n, _)| n.clone()).unwrap_or_default(),
        send_time: t.last.as_ref().map(|(_, at)| format_cst(*at)).unwrap_or_default(),
    }
}

/// The newest of these tabs' messages: (time text, title).
fn newest<'a>(tabs: impl Iterator<Item = &'a SenderTab>) -> (String, String) {
    tabs.filter_map(|t| t.last.as_ref())
        .max_by_key(|(_, at)| *at)
        .map(|(name, at)| (format_cst(*at), name.clone()))
        .unwrap_or_default()
}

refusals!(UnreadRefusals: common::input(), common::logged_in(), common::internal());

/// The caller's sender tabs with their unread counts.
#[utoipa::path(request_body(content = Option<UnreadBody>), responses((status = 200, body = Envelope<UnreadCountsDto>), UnreadRefusals))]
#[post("/api/japi/msg/center/unreadCount")]
pub async fn unread_count(state: web::Data<AppState>, caller: Caller, body: Option<web::Json<UnreadBody>>) -> ApiResult<UnreadCountsDto> {
    let ignore = body.and_then(|b| b.into_inner().ignore_senders).map(|s| s.0);
    let tabs = state.platform.messages.message_tabs(caller.0.uid, ignore).await?;
    let (sys, user) = actors::messages::new_message_flags(&tabs);
    let (send_time, last_msg_title) = newest(tabs.iter());
    let official: Vec<&SenderTab> = tabs.iter().filter(|t| t.sender != actors::messages::USER).collect();
    let (official_send_time, official_last_msg_title) = newest(official.iter().copied());
    Ok(ok(UnreadCountsDto {
        comment_un_read_count: 0,
        fans_un_read_count: 0,
        praise_un_read_count: 0,
        notice_un_read_count: tabs
            .iter()
            .filter(|t| t.sender == actors::messages::ANNOUNCEMENT)
            .map(|t| t.unread)
            .sum(),
        un_read_count: sys + user,
        send_time,
        last_msg_title,
        official_un_read_count: sys,
        official_send_time,
        official_last_msg_title,
        unread_count_vos: tabs.iter().map(tab).collect(),
    }))
}

refusals!(ChangeRefusals: common::logged_in(), common::internal());

/// Marks every message of the caller read.
#[utoipa::path(request_body(content = Option<Empty>), responses((status = 200, body = Envelope<Null>), ChangeRefusals))]
#[post("/api/japi/msg/center/updateRead")]
pub async fn update_read(state: web::Data<AppState>, caller: Caller) -> ApiResult<Null> {
    state.platform.messages.mark_messages_read(caller.0.uid).await?;
    Ok(ok(Null))
}

/// Deletes every message of the caller (announcements only for them).
#[utoipa::path(request_body(content = Option<Empty>), responses((status = 200, body = Envelope<Null>), ChangeRefusals))]
#[post("/api/japi/msg/center/delete")]
pub async fn delete(state: web::Data<AppState>, caller: Caller) -> ApiResult<Null> {
    state.platform.messages.clear_messages(caller.0.uid).await?;
    Ok(ok(Null))
}

/// The new-message flags (social.md §3).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewMessageFlags {
    /// Unread from the platform (system, assistant, announcement, welfare).
    pub sys_msg_count: u64,
    /// Unread from users.
    pub user_msg_count: u64,
}

refusals!(FlagRefusals: common::logged_in(), common::internal());

/// Whether the caller has unread messages, from the platform and from users.
#[utoipa::path(request_body(content = Option<Empty>), responses((status = 200, body = Envelope<NewMessageFlags>), FlagRefusals))]
#[post("/api/message/msg/user/hasNewMessage")]
pub async fn has_new_message(state: web::Data<AppState>, caller: Caller) -> ApiResult<NewMessageFlags> {
    let tabs = state.platform.messages.message_tabs(caller.0.uid, None).await?;
    let (sys_msg_count, user_msg_count) = actors::messages::new_message_flags(&tabs);
    Ok(ok(NewMessageFlags {
        sys_msg_count,
        user_msg_count,
    }))
}

/// An announcement as the operator sends it.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnnounceBody {
    /// The title, 1–50 characters.
    name: String,
    /// 1–2000 characters.
    content: String,
    /// "view details": a path of the site or an http(s) URL; empty: none.
    #[serde(default)]
    link: String,
    /// An image: a path of the site or an http(s) URL; empty: none.
    #[serde(default)]
    image: String,
}

/// What an announcement did.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Announced {
    pub id: i64,
    /// How many sockets were told at once (NEW_MESSAGE).
    pub told: u64,
}

async fn announce(state: &AppState, body: AnnounceBody) -> ApiResult<Announced> {
    let (sent, told) = state
        .platform
        .messages
        .announce(
            body.name.trim().to_owned(),
            body.content.trim().to_owned(),
            body.link.trim().to_owned(),
            body.image.trim().to_owned(),
        )
        .await
        .map_err(refused)?;
    tracing::info!(id = sent.id, told, "announcement sent");
    Ok(ok(Announced {
        id: sent.id,
        told: told as u64,
    }))
}

refusals!(DevAnnounceRefusals: common::input(), common::internal());

/// Dev mode: sends an announcement to everyone (the operator's call without the token).
#[utoipa::path(request_body = AnnounceBody, responses((status = 200, body = Envelope<Announced>), DevAnnounceRefusals))]
#[post("/api/dev/msg/announce")]
pub async fn dev_announce(state: web::Data<AppState>, body: web::Json<AnnounceBody>) -> ApiResult<Announced> {
    announce(&state, body.into_inner()).await
}

refusals!(OpsAnnounceRefusals: common::input(), common::internal(), ApiError::operator());

/// Sends an announcement to everyone (stored once; every connected socket is told): the
/// operator's route of every mode, with the operator token (`x-operator-token`).
#[utoipa::path(request_body = AnnounceBody, responses((status = 200, body = Envelope<Announced>), OpsAnnounceRefusals))]
#[post("/api/ops/msg/announce")]
pub async fn ops_announce(_operator: Operator, state: web::Data<AppState>, body: web::Json<AnnounceBody>) -> ApiResult<Announced> {
    announce(&state, body.into_inner()).await
}

/// Routes the message centre's calls and the operator's announcement.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(page)
        .service(unread_count)
        .service(update_read)
        .service(delete)
        .service(has_new_message)
        .service(ops_announce);
}
