//! The message centre (social.md §2.9, §3 "Message", §4.10; §7 "Message centre"): what a
//! player reads (a page of their messages, the sender tabs with their unread counts, the
//! new-message flags), marks read and clears, and the producers that put messages there: the
//! welcome at registration, a welfare message when a card or coupons are granted, and the
//! operator's announcements.
//!
//! A message reaches its owner's sockets as NEW_MESSAGE (the header dot re-reads the unread
//! counts); an announcement is stored once for everyone and told to every connected socket.

use storage::messages::{Message, MessagePage, NewMessage};

use crate::error::{DomainError, DomainResult};
use crate::view::Push;

/// Sender codes (social.md §9).
pub const SYSTEM: i32 = 1;
pub const ASSISTANT: i32 = 2;
pub const ANNOUNCEMENT: i32 = 4;
pub const WELFARE: i32 = 5;
pub const USER: i32 = 6;

/// The senders in the order of the tabs, with their names.
pub const SENDERS: [(i32, &str); 5] = [
    (SYSTEM, "系统消息"),
    (ASSISTANT, "云游小助手"),
    (ANNOUNCEMENT, "官方公告"),
    (WELFARE, "福利消息"),
    (USER, "用户消息"),
];

/// The page size the client asks for (social.md §9) and the largest one answered.
pub const PAGE_SIZE: u64 = 10;
pub const MAX_PAGE_SIZE: u64 = 50;
/// The furthest page asked for (pageNo).
pub const MAX_PAGE_NO: u64 = 10_000;
/// An announcement's limits, in characters.
pub const MAX_TITLE_CHARS: usize = 50;
pub const MAX_CONTENT_CHARS: usize = 2_000;
pub const MAX_LINK_CHARS: usize = 500;

/// `msgTepParam.auto_activate` of a card message: 0 (or 2) the card waits in the backpack
/// (its "go now" opens /user/card/card); 1 it was used at once (the shop action).
pub const CARD_WAITS: i32 = 0;

/// Why a message-centre call was refused (the facade answers 40000 for `Invalid`).
#[derive(Debug, Clone, PartialEq)]
pub enum MessageRefusal {
    /// The field named breaks its rule.
    Invalid(&'static str),
    Domain(DomainError),
}

impl From<DomainError> for MessageRefusal {
    fn from(e: DomainError) -> Self {
        MessageRefusal::Domain(e)
    }
}

/// One sender tab (social.md §3 "Message sender tab").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SenderTab {
    pub sender: i32,
    pub name: &'static str,
    pub unread: u64,
    /// The newest message's title and time (ms); None when the sender has none.
    pub last: Option<(String, i64)>,
}

/// A page of messages as answered: the page and how many pages there are.
#[derive(Debug, Clone, PartialEq)]
pub struct Paged {
    pub page: MessagePage,
    pub total_pages: u64,
}

/// The field of a page request that breaks its rule: pageNo 1..=[`MAX_PAGE_NO`], pageSize
/// 1..=[`MAX_PAGE_SIZE`], a sender one of [`SENDERS`].
pub fn page_fault(page_no: i64, page_size: i64, sender: Option<i64>) -> Option<&'static str> {
    if !(1..=MAX_PAGE_NO as i64).contains(&page_no) {
        return Some("pageNo");
    }
    if !(1..=MAX_PAGE_SIZE as i64).contains(&page_size) {
        return Some("pageSize");
    }
    if sender.is_some_and(|s| !SENDERS.iter().any(|(code, _)| i64::from(*code) == s)) {
        return Some("sender");
    }
    None
}

/// The field of an announcement that breaks its rule: a title and a content (1..= their
/// limits), a link empty, a path of the site or an http(s) URL.
pub fn announcement_fault(name: &str, content: &str, link: &str, image: &str) -> Option<&'static str> {
    let n = name.chars().count();
    if n == 0 || n > MAX_TITLE_CHARS {
        return Some("name");
    }
    let c = content.chars().count();
    if c == 0 || c > MAX_CONTENT_CHARS {
        return Some("content");
    }
    let url_ok = |u: &str| {
        u.is_empty()
            || (u.chars().count() <= MAX_LINK_CHARS && (u.starts_with('/') || u.starts_with("https://") || u.starts_with("http://")))
    };
    if !url_ok(link) {
        return Some("link");
    }
    if !url_ok(image) {
        return Some("image");
    }
    None
}

/// The tabs of every sender (`ignore` left out), from what storage summed per sender.
pub fn tabs(summary: &[storage::messages::SenderSummary], ignore: Option<i64>) -> Vec<SenderTab> {
    SENDERS
        .iter()
        .filter(|(code, _)| Some(i64::from(*code)) != ignore)
        .map(|&(sender, name)| {
            let s = summary.iter().find(|s| s.sender == sender);
            SenderTab {
                sender,
                name,
                unread: s.map_or(0, |s| s.unread),
                last: s.map(|s| (s.last_name.clone(), s.last_sent_at)),
            }
        })
        .collect()
}

/// The new-message flags (social.md §3): unread of the platform's senders, and of users.
pub fn new_message_flags(tabs: &[SenderTab]) -> (u64, u64) {
    let user = tabs.iter().filter(|t| t.sender == USER).map(|t| t.unread).sum();
    let sys = tabs.iter().filter(|t| t.sender != USER).map(|t| t.unread).sum();
    (sys, user)
}

/// The `msgTepParam` of a card message.
pub fn card_param(goods_type: &'static str, auto_activate: i32) -> String {
    // the goods types are this module's constants: nothing to escape
    format!(r#"{{"goods_type":"{goods_type}","auto_activate":{auto_activate}}}"#)
}

fn message(sender: i32, name: String, content: String, link: &str, tep_param: String, now: i64) -> NewMessage {
    NewMessage {
        sender,
        name,
        image: String::new(),
        content,
        link: link.to_owned(),
        tep_param,
        sent_at: now,
    }
}

/// The system message a new account receives.
pub fn welcome(now: i64) -> NewMessage {
    message(
        SYSTEM,
        "欢迎来到云游".to_owned(),
        "欢迎加入云游！海量PC大作即点即玩，无需下载安装。新人专享优惠券已放入你的卡券，快去看看吧。".to_owned(),
        "",
        String::new(),
        now,
    )
}

/// The welfare message of coupons received (`count` of them).
pub fn coupons_received(count: usize, now: i64) -> NewMessage {
    message(
        WELFARE,
        "优惠券到账提醒".to_owned(),
        format!("你获得了{count}张优惠券，购买会员或时长时可抵扣，请在有效期内使用。"),
        "/user/card/coupon",
        String::new(),
        now,
    )
}

/// The welfare message of a time card received; it waits in the backpack.
pub fn time_card_received(title: &str, expires_text: &str, now: i64) -> NewMessage {
    message(
        WELFARE,
        format!("{title}到账提醒"),
        format!("你获得了一张{title}，有效期至{expires_text}，使用后即可增加对应的游戏时长。"),
        "",
        card_param("time_card", CARD_WAITS),
        now,
    )
}

/// The welfare message of fast-entry cards received.
pub fn fast_cards_received(count: i64, now: i64) -> NewMessage {
    message(
        WELFARE,
        "排队加速卡到账提醒".to_owned(),
        format!("你获得了{count}张排队加速卡，排队时使用可以更快进入游戏。"),
        "",
        card_param("fast_enter_card", CARD_WAITS),
        now,
    )
}

impl Messages {
    /// A page of the player's messages, newest first (`sender`: one sender's).
    pub async fn message_page(&self, uid: i64, page_no: i64, page_size: i64, sender: Option<i64>) -> Result<Paged, MessageRefusal> {
        if let Some(field) = page_fault(page_no, page_size, sender) {
            return Err(MessageRefusal::Invalid(field));
        }
        let (size, offset) = (page_size as u64, (page_no as u64 - 1) * page_size as u64);
        let sender = sender.map(|s| s as i32);
        let page = self.ctx.db(move |s| s.messages.page(uid, sender, offset, size)).await?;
        let total_pages = page.total.div_ceil(size);
        Ok(Paged { page, total_pages })
    }

    /// The sender tabs with their unread counts (`ignore`: a sender left out).
    pub async fn message_tabs(&self, uid: i64, ignore: Option<i64>) -> DomainResult<Vec<SenderTab>> {
        let summary = self.ctx.db(move |s| s.messages.summary(uid)).await?;
        Ok(tabs(&summary, ignore))
    }

    /// Marks every message of the player read; how many were unread.
    pub async fn mark_messages_read(&self, uid: i64) -> DomainResult<u64> {
        self.ctx.db(move |s| s.messages.mark_all_read(uid)).await
    }

    /// Deletes every message of the player; how many there were.
    pub async fn clear_messages(&self, uid: i64) -> DomainResult<u64> {
        self.ctx.db(move |s| s.messages.clear(uid)).await
    }

    /// Stores a message of the player's and tells their sockets (NEW_MESSAGE).
    pub async fn send_message(&self, uid: i64, message: NewMessage) -> DomainResult<Message> {
        let sent = self.ctx.db(move |s| s.messages.send(uid, &message)).await?;
        self.ctx.bus.publish(&uid, &Push::NewMessage);
        Ok(sent)
    }

    /// A producer's message: its failure is logged, never the failure of what produced it (a
    /// grant stands without its message).
    pub(crate) async fn tell(&self, uid: i64, message: NewMessage) {
        if let Err(e) = self.send_message(uid, message).await {
            tracing::warn!(uid, error = %e, "message not stored");
        }
    }

    /// The operator's announcement: stored once for everyone, told to every connected socket.
    /// Returns the message and how many sockets were told.
    pub async fn announce(&self, name: String, content: String, link: String, image: String) -> Result<(Message, usize), MessageRefusal> {
        if let Some(field) = announcement_fault(&name, &content, &link, &image) {
            return Err(MessageRefusal::Invalid(field));
        }
        let m = NewMessage {
            sender: ANNOUNCEMENT,
            name,
            image,
            content,
            link,
            tep_param: String::new(),
            sent_at: self.ctx.clock.now_ms(),
        };
        let sent = self.ctx.db(move |s| s.messages.announce(&m)).await?;
        let told = self.ctx.bus.publish_all(&Push::NewMessage);
        Ok((sent, told))
    }
}

#[cfg(test)]
mod tests {
    use storage::messages::SenderSummary;

    use super::*;

    fn check_page(page_no: i64, page_size: i64, sender: Option<i64>, expected: Option<&str>) {
        assert_eq!(page_fault(page_no, page_size, sender), expected, "{page_no} {page_size} {sender:?}");
    }

    #[test]
    fn page_bounds() {
        check_page(1, 10, None, None);
        check_page(10_000, 50, Some(6), None);
        check_page(0, 10, None, Some("pageNo"));
        check_page(-1, 10, None, Some("pageNo"));
        check_page(10_001, 10, None, Some("pageNo"));
        check_page(1, 0, None, Some("pageSize"));
        check_page(1, 51, None, Some("pageSize"));
        check_page(1, 10, Some(3), Some("sender"));
        check_page(1, 10, Some(7), Some("sender"));
    }

    #[test]
    fn announcement_rules() {
        assert_eq!(announcement_fault("公告", "内容", "", ""), None);
        assert_eq!(announcement_fault("公告", "内容", "/game", "https://x.example/a.png"), None);
        assert_eq!(announcement_fault("", "内容", "", ""), Some("name"));
        assert_eq!(announcement_fault(&"长".repeat(51), "内容", "", ""), Some("name"));
        assert_eq!(announcement_fault("公告", "", "", ""), Some("content"));
        assert_eq!(announcement_fault("公告", "内容", "javascript:alert(1)", ""), Some("link"));
        assert_eq!(announcement_fault("公告", "内容", "", "data:x"), Some("image"));
    }

    // Every sender has a tab (the ignored one left out); the flags split users from the rest.
    #[test]
    fn tabs_and_flags() {
        let summary = [
            SenderSummary {
                sender: SYSTEM,
                unread: 2,
                last_name: "欢迎".into(),
                last_sent_at: 5,
            },
            SenderSummary {
                sender: USER,
                unread: 1,
                last_name: "你好".into(),
                last_sent_at: 6,
            },
        ];
        let t = tabs(&summary, Some(3));
        assert_eq!(t.iter().map(|t| t.sender).collect::<Vec<_>>(), [1, 2, 4, 5, 6]);
        assert_eq!(t[0].last, Some(("欢迎".to_owned(), 5)));
        assert_eq!(t[1].last, None);
        assert_eq!(new_message_flags(&t), (2, 1));
        assert_eq!(tabs(&summary, Some(1)).len(), 4);
        assert_eq!(
            card_param("time_card", CARD_WAITS),
            r#"{"goods_type":"time_card","auto_activate":0}"#
        );
    }
}

/// The calls of the message centre.
#[derive(Clone)]
pub struct Messages {
    pub(crate) ctx: std::sync::Arc<crate::ctx::Ctx>,
}
