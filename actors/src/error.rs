//! Every way the domain refuses a call. The facade maps each variant to the spec's code and
//! text in one place; matching there is exhaustive so a new variant forces a decision.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Error)]
pub enum DomainError {
    /// No or an expired login session.
    #[error("not logged in")]
    NotLoggedIn,
    /// The phone field is empty.
    #[error("phone empty")]
    PhoneEmpty,
    /// The phone is not 11 digits starting with 1.
    #[error("phone malformed")]
    PhoneMalformed,
    /// The SMS code field is empty.
    #[error("code empty")]
    CodeEmpty,
    /// The code is wrong, used, expired or tried too often.
    #[error("code wrong")]
    CodeWrong,
    /// A send limit (the resend interval, the phone's hour or day, the address, the global
    /// ceiling) allows no code now.
    #[error("code sent too often")]
    CodeTooSoon { retry_after_secs: u64 },
    /// Too many wrong codes in a row: the phone's login is locked for a while.
    #[error("login locked")]
    LoginLocked { retry_after_secs: u64 },
    /// The SMS provider failed to send.
    #[error("sms provider failed: {0}")]
    SmsFailed(String),
    /// The account is frozen or banned: no login (core-platform.md §2.6, 20101).
    #[error("account forbidden")]
    AccountForbidden { frozen: bool, reason: String, until: i64 },
    /// The login session was ended by force (kicked out by a login elsewhere, the account frozen
    /// or banned): 40001, the client logs out.
    #[error("login session ended")]
    SessionEnded,
    /// App-QR login (core-platform.md §4.12): the code expired, was spent or never existed (20140).
    #[error("login QR expired")]
    LoginQrTimeout,
    /// The app's user cancelled (20141).
    #[error("login QR cancelled")]
    LoginQrCancelled,
    /// Not scanned yet (20142): poll again.
    #[error("login QR waiting")]
    LoginQrWaiting,
    /// Scanned, not confirmed yet (20143): poll again.
    #[error("login QR scanned")]
    LoginQrScanned,
    /// Certification is needed first (USER_NOT_AUTH 20150).
    #[error("not certified")]
    NotCertified,
    /// A minor outside the hours minors may play (USER_IS_MINOR 20151 at a game start).
    #[error("minor: not now")]
    MinorPlayLimit,
    /// A minor's payment over the charge limits, or any by a child under 8 (20151 on payment).
    #[error("minor: charge refused")]
    MinorChargeRefused(&'static str),
    /// A minor's payment within the limits: confirm first (USER_IS_MINOR_CHARGE_LIMIT 20160).
    #[error("minor: confirm the charge")]
    MinorChargeConfirm,
    /// The certification form breaks a rule of core-platform.md §5.3.
    #[error("certification form: {0:?}")]
    CertForm(CertFault),
    /// The identity check says the name and the ID number do not belong together.
    #[error("identity mismatch")]
    CertMismatch,
    /// Certified, and no recertification is left (or none is allowed).
    #[error("no recertification left")]
    CertNoRecert,
    /// A third-party identity bound to no account: bind a phone (20108).
    #[error("phone bind required")]
    PhoneBindRequired,
    /// A third-party token that is unknown, expired or spent.
    #[error("third-party token invalid")]
    ThirdPartyTokenInvalid,
    /// The login password field is empty ('密码不能为空', core-platform.md §5.2).
    #[error("password empty")]
    PasswordEmpty,
    /// An unknown account, one without a password, or a wrong password: one answer for all
    /// (no account enumeration).
    #[error("account or password wrong")]
    PasswordWrong,
    /// The new password field is empty ('登录密码不能为空').
    #[error("new password empty")]
    NewPasswordEmpty,
    /// The new password breaks the strong pattern of §5.2 (8–16 of letters, digits and
    /// ~!@#$%^&*_?. with one of each).
    #[error("new password weak")]
    NewPasswordWeak,
    /// A forgot-password ticket that is unknown, expired, spent or another phone's.
    #[error("password ticket invalid")]
    PasswordTicketInvalid,
    /// Too many failed password logins, or code requests: solve the security check first (20125).
    #[error("captcha required")]
    CaptchaRequired,
    /// The security check's result is wrong, expired or spent (20128).
    #[error("captcha failed")]
    CaptchaFailed,
    /// No game with this id (or it is deleted).
    #[error("unknown game")]
    UnknownGame,
    /// The game is coming soon or off the shelf.
    #[error("game not open")]
    GameNotOpen,
    /// The game does not run on this client.
    #[error("game unsupported on this client")]
    GameUnsupportedClient,
    /// This game already runs for the user on another device.
    #[error("game running on another client")]
    GameOnOtherClient { session_id: i64, game_id: i64 },
    /// Another game runs for the user.
    #[error("another game running")]
    OtherGameActive { session_id: i64, game_id: i64, game_name: String },
    /// This game already runs on this client.
    #[error("game already running")]
    GameAlreadyActive { session_id: i64, game_id: i64 },
    /// The session id is not the user's live session.
    #[error("unknown session")]
    UnknownSession,
    /// The call does not apply in the session's current state.
    #[error("wrong state for this call")]
    WrongState,
    /// The node is under maintenance.
    #[error("node under maintenance")]
    NodeMaintenance,
    /// No node with this id.
    #[error("unknown node")]
    UnknownNode,
    /// A vip game and the player is no member.
    #[error("vip only")]
    VipOnly,
    /// A vvip game and the player is not vvip.
    #[error("vvip only")]
    VvipOnly,
    /// A subscription game without its package.
    #[error("subscription needed")]
    NeedSubscription,
    /// No play time and no package window open.
    #[error("short of play time")]
    ShortOfTime,
    /// A fast-entry card used while not queued.
    #[error("card used outside the queue")]
    CardNotQueued,
    /// Moving a game between devices without the cross-screen privilege.
    #[error("no cross-screen privilege")]
    NoCrossScreen { session_id: i64 },
    /// This month's member fast-entry cards were claimed already.
    #[error("monthly cards claimed")]
    MonthlyClaimed,
    /// A member-only benefit asked for by a non-member.
    #[error("not a member")]
    NotMember,
    /// No such card of this player.
    #[error("unknown card")]
    UnknownCard,
    /// The card is used, expired or invalidated.
    #[error("card not usable")]
    CardUnusable,
    /// A card given to its own holder.
    #[error("card given to oneself")]
    GiveToSelf,
    /// A card given to a phone no user has.
    #[error("no user has this phone")]
    UnknownPhone,
    /// The session's quality report was given already (the first one stands).
    #[error("quality report given")]
    QualityReported,
    // Rooms (social.md §4.3–§4.9, §8). The facade's codes are in brackets.
    /// Super admins cannot create rooms ("超管暂不支持创建房间", 130012).
    #[error("super admins create no room")]
    SuperAdminRoom,
    /// The user's relay qualification was withdrawn (USER_NOT_RELAY 20154).
    #[error("not relay qualified")]
    NotRelayQualified,
    /// A minor enters no room (USER_IS_MINOR 20151).
    #[error("minor")]
    Minor,
    /// A minor hosts no relay (USER_IS_MINOR_RELAY_LIMIT 20152).
    #[error("minor: no relay")]
    MinorRelayLimit,
    /// A minor takes no control (USER_IS_MINOR_CONTROL_LIMIT 20153).
    #[error("minor: no control")]
    MinorControlLimit,
    /// The room form breaks a rule of social.md §5.
    #[error("room form: {0:?}")]
    RoomForm(RoomFormFault),
    /// The game cannot be played in a room (GAME_NOT_SUPPORT_RELAY 130129), or not in a room
    /// of that mode (its `support_modes`).
    #[error("game does not support relay")]
    GameNotSupportRelay,
    /// The game is played only together (`start_mode` > 0): a start without the relay params
    /// is refused (130121, ours).
    #[error("game is played only together")]
    RelayOnly,
    /// The user hosts an open room already (GAME_RELAY_EXIST 130442): exit it first.
    #[error("hosting a room already")]
    AlreadyHosting { dd_rid: i64 },
    /// No such room, or it ended (NOT_EXIST 130300).
    #[error("room not found")]
    RoomNotFound,
    /// The host blacklisted the user, or kicked them within the last 10 minutes
    /// ("你已被移出该房间", 130205).
    #[error("barred from the room")]
    RoomBarred,
    /// The room has a password and none was given (PASSWORD 130201, "请输入房间密码").
    #[error("room password needed")]
    RoomPasswordNeeded,
    /// The password is wrong (PASSWORD_ERROR 130202, "房间密码错误"); `retry_after_secs` is
    /// set when too many wrong tries (5 a minute per user and room) allow none now.
    #[error("room password wrong")]
    RoomPasswordWrong { retry_after_secs: Option<u64> },
    /// The user's own game is CONNECTING or PLAYING (CONFIRM_GAME_EXIT 130443): entering with
    /// force ends it.
    #[error("a game is running")]
    RoomGameRunning { session_id: i64, game_id: i64 },
    /// The user is in another room (CONFIRM_CONNECT 130203): entering with force leaves it.
    #[error("in another room")]
    InOtherRoom { dd_rid: i64 },
    /// The user is in this room on another device without the cross-screen right
    /// (CONFIRM_EXIT 130204): entering with force moves the membership here.
    #[error("in this room on another device")]
    InRoomElsewhere { dd_rid: i64 },
    /// The caller is not a member of the room (130207, "你不在该房间").
    #[error("not in the room")]
    NotInRoom,
    /// The caller's role may not do this (130206, "无权限操作").
    #[error("not permitted in this room")]
    RoomForbidden,
    /// The target user is not a member of the room (130216, "该用户不在房间内").
    #[error("target not in the room")]
    TargetNotInRoom,
    /// Every open seat is taken (130208, "麦位已满"): queue instead.
    #[error("mike full")]
    MikeFull,
    /// The seat is locked, closed or taken (130209, "该麦位不可用").
    #[error("seat unavailable")]
    SeatUnavailable,
    /// Already on a seat or in the seat queue, or not (130210, "麦位状态已变化").
    #[error("mike state differs")]
    MikeState,
    /// No open invite to accept or refuse (130211, "邀请已失效").
    #[error("no invite")]
    NoInvite,
    /// An application is pending or was just denied (130212, "已申请控制权，请等待"):
    /// `retry_after_secs` until the state lapses.
    #[error("control application open")]
    ControlApplyOpen { retry_after_secs: u64 },
    /// The call needs a guest controller, or the host's control, that is not there (130217,
    /// "控制权状态已变化").
    #[error("control state differs")]
    ControlState,
    /// The host banned the caller's chat in this room (130213, "你已被禁言").
    #[error("chat banned")]
    ChatBanned,
    /// An empty or over-long chat message (130214, "消息内容不合法").
    #[error("chat message invalid")]
    ChatInvalid,
    /// Chat needs a bound phone (20007, social.md §8).
    #[error("phone unbound")]
    PhoneUnbound,
    /// A report reason outside 0–6 or an over-long text (130215, "举报原因不正确").
    #[error("report invalid")]
    ReportInvalid,
    // Commerce (commerce.md §4.3, §8). The facade's codes are in brackets.
    /// Too few coins for a coin payment (20110).
    #[error("insufficient coins")]
    InsufficientCoins,
    /// QRCODE_TIMEOUT (20140): `invalid` when the order is over (order again), else the QR is
    /// too old (generate another).
    #[error("qr code over")]
    QrTimeout { invalid: bool },
    /// QRCODE_CANCEL (20141): the payer cancelled.
    #[error("qr code cancelled")]
    QrCancelled,
    /// QRCODE_WAITING (20142): nothing happened within the poll.
    #[error("qr code waiting")]
    QrWaiting,
    /// QRCODE_SCAN_SUCCESS (20143): the payer opened the pay page.
    #[error("qr code scanned")]
    QrScanned,
    /// No such goods on sale (20180).
    #[error("unknown goods")]
    UnknownGoods,
    /// No such order of the caller (20181).
    #[error("unknown order")]
    UnknownOrder,
    /// The pay method is not offered for this goods (§4.2) (20182).
    #[error("pay method unavailable")]
    PayMethodUnavailable,
    /// A QR certification ticket that is unknown or another account's (20144).
    #[error("qr not yours")]
    QrNotYours,
    /// A renewing goods bought again while its auto-renewal runs (20189).
    #[error("already renewing")]
    AlreadyRenewing,
    /// No such auto-renewal agreement of the caller (20188).
    #[error("unknown agreement")]
    UnknownAgreement,
    /// An upgrade for a player who holds nothing it upgrades (20187).
    #[error("nothing to upgrade")]
    NotUpgradable,
    /// A purchase quantity outside 1–100 (20183).
    #[error("bad quantity")]
    BadQuantity,
    /// The coupon cannot be used (20184).
    #[error("coupon unusable")]
    CouponUnusable,
    /// The order is no longer payable (expired, cancelled, paid) (20185).
    #[error("order closed")]
    OrderClosed,
    /// A payment notice that does not verify (bad signature, malformed, unknown provider) (20186).
    #[error("payment notice refused: {0}")]
    PaymentNoticeRefused(String),
    /// In a cluster: another process owns this queue or room (`queue:1`), or no process does
    /// for the moment of a takeover. The facade forwards the call to the owner, or refuses it
    /// with a retry; nothing was changed here.
    #[error("not the owner of {0}")]
    NotOwner(String),
    /// Storage or an actor failed; the call changed nothing the user can see.
    #[error("internal: {0}")]
    Internal(String),
    /// The account centre's redirect is not a path of this site (20270).
    #[error("account centre redirect refused")]
    UcRedirect,
    /// The account centre has no such page (HOME, INFO, AVATAR) (20271).
    #[error("unknown account centre page")]
    UcTarget,
    /// A notice of the account centre that does not verify (bad signature, malformed, stale,
    /// an unknown user) (20272).
    #[error("account centre notice refused: {0}")]
    UcNoticeRefused(String),
    /// A profile change breaks a rule (20273–20276).
    #[error("profile: {0:?}")]
    ProfileForm(ProfileFault),
    /// The order does not reach the coupon's threshold (usable -1) (20260).
    #[error("coupon threshold not reached")]
    CouponThreshold,
    /// The coupon does not apply to this goods (usable -2) (20261).
    #[error("coupon not applicable")]
    CouponNotApplicable,
    /// The merchant features are closed to this user (app info status 0) (20190).
    #[error("merchant closed")]
    MerchantClosed,
    /// A coupon group with no item of a count above 0 (20191, '商品列表为空').
    #[error("empty cart")]
    EmptyCart,
    /// A coupon group's count matches no price tier, or the group is too large (20192).
    #[error("group quantity out of range")]
    GroupQuantity,
    /// No such redeem key, or not redeemable yet (its order unpaid) (20193).
    #[error("unknown redeem key")]
    UnknownRedeemKey,
    /// The redeem key was redeemed before (20194).
    #[error("redeem key used")]
    RedeemKeyUsed,
    /// A purchase through a section ad beyond the ad's pay-times limit for this user (70109).
    #[error("ad pay times used")]
    AdPayTimesUsed,
    /// A purchase names an ad that is not running, or whose goods is not the one bought (70110).
    #[error("ad unavailable")]
    AdUnavailable,
    /// No such coupon activity (20262).
    #[error("unknown activity")]
    UnknownActivity,
    /// The activity has not started (20263).
    #[error("activity not started")]
    ActivityNotStarted,
    /// The activity is over (20264).
    #[error("activity ended")]
    ActivityEnded,
    /// The activity's coupons were received already (20265).
    #[error("activity coupons received")]
    ActivityReceived,
    /// Today's member play-time grant was received already.
    #[error("member grant received")]
    MemberGrantReceived,
    /// The member play-time grant asked for a membership the player does not hold.
    #[error("member grant of another membership")]
    MemberGrantNotHeld,
    // Check-in and tasks (commerce.md §4.10, §4.11, §8).
    /// The user checked in today (UTC+8) already (140203).
    #[error("checked in today")]
    CheckedInToday,
    /// No task with this code (140201).
    #[error("unknown task")]
    UnknownTask,
    /// The task is not finished, or its reward was claimed (errcode 140202).
    #[error("task not claimable")]
    TaskNotClaimable,
}

/// Which rule of the room form (social.md §5) a form breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoomFormFault {
    /// "room name cannot be empty".
    NameEmpty,
    /// Over 15 characters.
    NameTooLong,
    /// "room mode cannot be empty" (or not a mode of the params).
    ModeEmpty,
    /// "game cannot be empty".
    GameEmpty,
    /// "password format incorrect": not the base64 of exactly 4 digits.
    PasswordFormat,
}

/// Which rule of the certification form (core-platform.md §5.3) an input breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CertFault {
    NameEmpty,
    NameShort,
    IdEmpty,
    IdMalformed,
}

/// Which rule of a profile change (the account centre's nickname or avatar) an input breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileFault {
    /// Empty, or nothing visible.
    NicknameEmpty,
    /// Shorter than 2 or longer than 16 characters.
    NicknameLength,
    /// A control character or a direction mark.
    NicknameChars,
    /// Not a path of the site or an https address, or too long.
    AvatarInvalid,
}

impl From<storage::Error> for DomainError {
    fn from(e: storage::Error) -> Self {
        match e {
            // a write under an old epoch: another process has claimed the thing since
            storage::Error::Fenced(name) => DomainError::NotOwner(name),
            e => DomainError::Internal(format!("storage: {e}")),
        }
    }
}

/// A failed actor call (the actor stopped, or dropped the reply) is an internal refusal: the
/// caller is answered, nothing it can see changed.
impl<T> From<ractor::RactorErr<T>> for DomainError {
    fn from(e: ractor::RactorErr<T>) -> Self {
        DomainError::Internal(format!("actor call: {e}"))
    }
}

impl<T> From<ractor::MessagingErr<T>> for DomainError {
    fn from(e: ractor::MessagingErr<T>) -> Self {
        DomainError::Internal(format!("actor message: {e}"))
    }
}

pub type DomainResult<T> = Result<T, DomainError>;
