//! The play feature's calls: the catalogue and nodes a start reads, starting and changing a
//! game, what a player holds and the grants that change it, cards, the queue preview, moving a
//! session, the game state, sockets, the game hosts' links and streams, quality and history.

use crate::ctx::Ctx;
use crate::error::{DomainError, DomainResult};
use crate::play::connection::{Connection, ConnectionSink};
use crate::play::game_session::{Phase, SessionInit, SessionKey};
use crate::play::holdings::Holdings;
use crate::play::hosts::{HostEvent, HostHello, HostLink, HostRefusal, HostSink, StreamTarget};
use crate::play::lanes::Lane;
use crate::play::player::{PlayerMsg, SessionOp};
use crate::play::queue::{GameMeta, NodeOwner, QueueMsg};
use crate::play::wait::WaitRange;
use crate::play::PlayCtx;
use crate::view::{EndReason, GameState, Push, SessionView, Status};
use std::sync::Arc;
use storage::GameSessionRecord;
use storage::{Game, GoodsGrant, Node};

/// The title of the monthly member fast-entry card: one hour of fast entry ('60分钟', commerce.md
/// §9's display of one hour).
pub const MONTHLY_CARD_TITLE: &str = "会员月度速进卡（60分钟）";

/// `gameChannelSize`: the lane previewed, the players a joiner would have ahead, their
/// expected wait and the caller's own (see `wait.rs`; None: not measured yet).
#[derive(Debug, Clone, PartialEq)]
pub struct ChannelPreview {
    pub pre_sort: u64,
    pub lane: i32,
    pub wait: Option<WaitRange>,
    pub own_wait: Option<WaitRange>,
}

impl ChannelPreview {
    /// `waitDuration` as the spec reads it ("wait less than N minutes"): the long end of the
    /// range, else its short end; 0 without a measurement.
    pub fn wait_duration(&self) -> u64 {
        self.wait.map_or(0, |w| w.max_secs.unwrap_or(w.min_secs))
    }
}

/// A played session in the player's history.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayRecord {
    pub id: i64,
    pub game_id: i64,
    pub game_name: String,
    pub node_id: i64,
    pub node_name: String,
    /// When PLAYING began (ms).
    pub playing_at: i64,
    /// When the session ended (ms); None while it plays.
    pub ended_at: Option<i64>,
    pub end_reason: Option<String>,
    /// Minutes of play charged.
    pub play_minutes: i64,
    pub quality: Option<storage::QualityReport>,
}

/// Something granted to a player: by an operator in dev mode now, by a purchase later.
#[derive(Debug, Clone, PartialEq)]
pub enum Grant {
    /// vip, vvip, tyvip, tyschvip, daily, night, fast_enter or sub:{game id}, for `days`.
    Entitlement { kind: String, days: i64 },
    /// Fast-entry cards, valid 30 days.
    Cards { count: i64 },
    /// Play minutes.
    PlayTime { free: i64, paid: i64 },
    /// A time card into the backpack: `minutes` of play time of `play_type` (1 paid, 2 free,
    /// 4 exclusive), valid to 23:59:59 (UTC+8) `days` days from today.
    TimeCard {
        play_type: i32,
        minutes: i64,
        days: i64,
        give_times: i32,
        /// The game category an exclusive card (4) is usable for; ignored for other types.
        game_category_id: i64,
    },
}

/// The title of a time card: its minutes and play-time type.
pub fn time_card_title(play_type: i32, minutes: i64) -> String {
    let kind = match play_type {
        1 => "付费",
        2 => "免费",
        _ => "专属",
    };
    format!("{minutes}分钟{kind}时长卡")
}

pub use crate::view::game_logo;

/// The play feature: every call about a player's game.
#[derive(Clone)]
pub struct Play {
    pub(crate) ctx: Arc<Ctx>,
}

impl Play {
    /// Ends the user's live session whatever its status (queued, ready, connecting, playing).
    pub(crate) async fn end_running_game(&self, uid: i64) -> DomainResult<Option<i64>> {
        let GameState::Online(s) = self.game_state(uid).await? else {
            return Ok(None);
        };
        let op = match s.status {
            Status::Queue => SessionOp::CancelQueue,
            Status::Ready | Status::Connecting => SessionOp::CancelConfirm,
            Status::Playing => SessionOp::Over,
        };
        self.session_op(uid, op, s.id).await?;
        Ok(Some(s.id))
    }

    /// The catalogue page; deleted games never appear.
    pub async fn games(&self, keyword: Option<String>, page: u32, page_size: u32) -> DomainResult<(Vec<Game>, u64)> {
        self.ctx.db(move |s| s.games.list(keyword.as_deref(), page, page_size)).await
    }

    /// A game that exists and is not deleted.
    pub async fn game(&self, id: i64) -> DomainResult<Game> {
        self.ctx
            .db(move |s| s.games.get(id))
            .await?
            .filter(|g| !g.deleted)
            .ok_or(DomainError::UnknownGame)
    }

    /// The configured nodes (a node the store knows but the configuration no longer declares has
    /// no machines and is not offered).
    pub async fn nodes(&self) -> DomainResult<Vec<Node>> {
        let nodes = self.ctx.db(|s| s.nodes.list()).await?;
        Ok(nodes
            .into_iter()
            .filter(|n| self.ctx.config.nodes.iter().any(|c| c.id == n.id))
            .collect())
    }

    pub async fn node(&self, id: i64) -> DomainResult<Node> {
        self.nodes().await?.into_iter().find(|n| n.id == id).ok_or(DomainError::UnknownNode)
    }

    /// Starts `game_id` for `uid` on `device_no`: checks the game and the node, then the player
    /// actor checks what already runs and queues a new session.
    pub async fn start_game(
        &self,
        uid: i64,
        device_no: &str,
        game_id: i64,
        node_id: Option<i64>,
        node_delay: &[(i64, i64)],
    ) -> DomainResult<SessionView> {
        self.start_or_switch(uid, device_no, game_id, node_id, node_delay, false, None)
            .await
    }

    /// `changeGame`: ends the live session (any state) and starts `game_id` in its place.
    pub async fn change_game(
        &self,
        uid: i64,
        device_no: &str,
        game_id: i64,
        node_id: Option<i64>,
        node_delay: &[(i64, i64)],
    ) -> DomainResult<SessionView> {
        self.start_or_switch(uid, device_no, game_id, node_id, node_delay, true, None).await
    }

    /// `relay_mode`: the room mode of a play-together start (the relay params').
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn start_or_switch(
        &self,
        uid: i64,
        device_no: &str,
        game_id: i64,
        node_id: Option<i64>,
        node_delay: &[(i64, i64)],
        replace: bool,
        relay_mode: Option<i32>,
    ) -> DomainResult<SessionView> {
        let game = self.game(game_id).await?;
        check_startable(&game)?;
        check_start_mode(&game, relay_mode)?;
        // certification and the hours minors may play (play's start gate, `identity::service::CertificationGate`)
        let gate = self.ctx.play_state().ports.gate.clone();
        let minor_window_end = gate.play_allowed(self.ctx.clone(), uid).await?;
        let now = self.ctx.clock.now_ms();
        let holdings = self.holdings(uid).await?;
        match holdings.check_start(&game, &self.ctx.config.subscription_games, now) {
            // Out of play time, but an exclusive card of this game's category pays for it.
            Err(DomainError::ShortOfTime) if self.catalogue().exclusive_minutes_for(uid, game.id).await? > 0 => {}
            checked => checked?,
        }
        let nodes = self.nodes().await?;
        let node = match node_id {
            Some(id) => {
                let n = nodes.into_iter().find(|n| n.id == id).ok_or(DomainError::UnknownNode)?;
                if n.status != 1 {
                    return Err(DomainError::NodeMaintenance);
                }
                n
            }
            None => pick_node(&nodes, node_delay).ok_or(DomainError::NodeMaintenance)?,
        };
        let lane = holdings.lane(now);
        let player = self.ctx.player(uid).await?;
        let device_no = device_no.to_string();
        let view: SessionView = ractor::call!(player, |reply| PlayerMsg::Start {
            game: Box::new(game),
            node,
            device_no,
            lane,
            replace,
            cutoff: minor_window_end,
            reply
        })??;
        Ok(view)
    }

    /// What a player holds now.
    pub async fn holdings(&self, uid: i64) -> DomainResult<Holdings> {
        let now = self.ctx.clock.now_ms();
        self.ctx
            .db_raw(move |s| -> storage::Result<Holdings> {
                // member grants past their expiry are taken back first (commerce/members.rs)
                s.member.expire_grants(uid, now)?;
                let user = s.users.get(uid)?.ok_or(storage::Error::NotFound)?;
                Ok(Holdings {
                    entitlements: s.assets.entitlements(uid, now)?,
                    play_time_free: user.play_time_free,
                    play_time_paid: user.play_time_paid,
                    cards: s.assets.cards(uid, now)?.len(),
                })
            })
            .await?
            .map_err(|e| match e {
                storage::Error::NotFound => DomainError::NotLoggedIn,
                e => e.into(),
            })
    }

    /// Grants a player something by the path a paid order takes: written with its ledger
    /// entries in one transaction, then the effects of [`Platform::granted`].
    pub async fn grant(&self, uid: i64, grant: Grant) -> DomainResult<()> {
        let now = self.ctx.clock.now_ms();
        let grants: Vec<GoodsGrant> = match grant {
            Grant::Entitlement { kind, days } => vec![GoodsGrant::Entitlement { kind, days }],
            Grant::Cards { count } => vec![GoodsGrant::Cards { count }],
            Grant::TimeCard {
                play_type,
                minutes,
                days,
                give_times,
                game_category_id,
            } => {
                let (title, expires_at) = (time_card_title(play_type, minutes), crate::beijing::day_end(now, days));
                let told = crate::messages::time_card_received(&title, &crate::beijing::minute_text(expires_at), now);
                self.ctx
                    .db(move |s| {
                        let card = storage::NewTimeCard {
                            goods_title: &title,
                            play_type,
                            minutes,
                            expires_at,
                            give_times,
                        };
                        let added = s.assets.add_time_card(uid, card, now)?;
                        if play_type == 4 {
                            s.assets.set_card_category(uid, added.id, game_category_id)?;
                        }
                        Ok(added)
                    })
                    .await?;
                self.ctx.bus.publish(&uid, &Push::Changed(crate::view::Changed::Balance));
                self.messages().tell(uid, told).await;
                return Ok(());
            }
            Grant::PlayTime { free, paid } => {
                // Free minutes are no goods' grant: they go in beside, in the same way.
                if free > 0 {
                    self.ctx.db(move |s| s.assets.add_play_time(uid, free, 0, now)).await?;
                }
                vec![GoodsGrant::PlayTime { minutes: paid }]
            }
        };
        let g = grants.clone();
        self.ctx.db(move |s| s.commerce.grant(uid, &g, "grant", "", now)).await?;
        self.granted(uid, &grants).await?;
        for g in &grants {
            if let GoodsGrant::Cards { count } = g {
                self.messages().tell(uid, crate::messages::fast_cards_received(*count, now)).await;
            }
        }
        Ok(())
    }

    /// What follows a grant (an operator's, or a paid order's): a session in its time-up
    /// countdown plays on when play time came, and a queued session moves to the better lane
    /// what the player now holds entitles them to (told at once).
    /// The player's sockets are told to re-read the balance (and the member info after an
    /// entitlement: commerce.md §4.14).
    pub async fn granted(&self, uid: i64, grants: &[GoodsGrant]) -> DomainResult<()> {
        use crate::view::Changed;
        self.ctx.bus.publish(&uid, &Push::Changed(Changed::Balance));
        if grants
            .iter()
            .any(|g| matches!(g, GoodsGrant::Entitlement { .. } | GoodsGrant::Upgrade { .. }))
        {
            self.ctx.bus.publish(&uid, &Push::Changed(Changed::MemberInfo));
        }
        if grants.iter().any(|g| matches!(g, GoodsGrant::PlayTime { .. })) {
            self.play_time_added(uid).await?;
        }
        self.upgrade_queued(uid).await
    }

    /// The engine call behind a play-time top-up: a session in its time-up countdown charges
    /// the minute due at once and plays on (core-platform.md §2.14).
    pub async fn play_time_added(&self, uid: i64) -> DomainResult<()> {
        if let GameState::Online(v) = self.game_state(uid).await? {
            if let Some(s) = self.ctx.sessions().get(&SessionKey::lookup(v.id)) {
                let _ = s.send_message(crate::play::game_session::SessionMsg::TimeAdded);
            }
        }
        Ok(())
    }

    /// The engine call behind a purchase: a queued player moves to the lane what they now hold
    /// entitles them to, when that is further forward.
    pub async fn upgrade_queued(&self, uid: i64) -> DomainResult<()> {
        let lane = self.holdings(uid).await?.lane(self.ctx.clock.now_ms());
        let GameState::Online(v) = self.game_state(uid).await? else {
            return Ok(());
        };
        if v.status != Status::Queue || lane == Lane::Normal {
            return Ok(());
        }
        let player = self.ctx.player(uid).await?;
        match ractor::call!(player, |reply| PlayerMsg::ChangeLane {
            session_id: v.id,
            lane,
            reply
        }) {
            Ok(Ok(_)) | Ok(Err(DomainError::WrongState | DomainError::UnknownSession)) => Ok(()),
            Ok(Err(e)) => Err(e),
            Err(e) => Err(e.into()),
        }
    }

    /// Usable fast-entry cards.
    pub async fn cards(&self, uid: i64) -> DomainResult<Vec<storage::FastEnterCard>> {
        let now = self.ctx.clock.now_ms();
        self.ctx.db(move |s| s.assets.cards(uid, now)).await
    }

    /// Every card in the player's backpack (newest first) and the time it was read at.
    pub async fn backpack(&self, uid: i64) -> DomainResult<(Vec<storage::FastEnterCard>, i64)> {
        let now = self.ctx.clock.now_ms();
        Ok((self.ctx.db(move |s| s.assets.backpack(uid)).await?, now))
    }

    /// Uses a time card: its minutes join the play time of its type (a session in its time-up
    /// countdown plays on), and the player's sockets re-read the balance.
    pub async fn use_time_card(&self, uid: i64, card_id: i64) -> DomainResult<storage::FastEnterCard> {
        let now = self.ctx.clock.now_ms();
        let card = match self.ctx.db_raw(move |s| s.assets.use_time_card(uid, card_id, now)).await? {
            Ok((card, _)) => card,
            Err(storage::Error::NotFound) => return Err(DomainError::UnknownCard),
            Err(storage::Error::Conflict(_)) => return Err(DomainError::CardUnusable),
            Err(e) => return Err(e.into()),
        };
        self.ctx.bus.publish(&uid, &Push::Changed(crate::view::Changed::Balance));
        self.play_time_added(uid).await?;
        Ok(card)
    }

    /// Gives a card to the user of `phone` (commerce.md §4.12: unused, unexpired, with gives
    /// left); both players' sockets re-read the balance. Returns the giver's card after.
    pub async fn give_card(&self, uid: i64, card_id: i64, phone: &str) -> DomainResult<storage::FastEnterCard> {
        crate::phone::validate_phone(phone)?;
        let me = self.ctx.db(move |s| s.users.get(uid)).await?.ok_or(DomainError::NotLoggedIn)?;
        if me.cellphone == phone {
            return Err(DomainError::GiveToSelf);
        }
        let to_phone = phone.to_owned();
        let to = self
            .ctx
            .db(move |s| s.users.find_by_phone(&to_phone))
            .await?
            .ok_or(DomainError::UnknownPhone)?;
        if to.uid == uid {
            return Err(DomainError::GiveToSelf);
        }
        let now = self.ctx.clock.now_ms();
        let (to_uid, to_phone, from_phone) = (to.uid, phone.to_owned(), me.cellphone);
        let given = match self
            .ctx
            .db_raw(move |s| s.assets.give_card(uid, card_id, (to_uid, &to_phone), &from_phone, now))
            .await?
        {
            Ok((given, _)) => given,
            Err(storage::Error::NotFound) => return Err(DomainError::UnknownCard),
            Err(storage::Error::Conflict(_)) => return Err(DomainError::CardUnusable),
            Err(e) => return Err(e.into()),
        };
        for u in [uid, to_uid] {
            self.ctx.bus.publish(&u, &Push::Changed(crate::view::Changed::Balance));
        }
        Ok(given)
    }

    /// Uses a fast-entry card on the queued session.
    pub async fn use_card(&self, uid: i64, card_id: i64) -> DomainResult<(storage::FastEnterCard, SessionView)> {
        let player = self.ctx.player(uid).await?;
        ractor::call!(player, |reply| PlayerMsg::UseCard { card_id, reply })?
    }

    /// The member's monthly claims, what a claim gives, and whether this month's is open.
    pub async fn monthly_records(&self, uid: i64) -> DomainResult<(Vec<storage::MonthlyClaim>, i32, bool)> {
        let holdings = self.holdings(uid).await?;
        let claims = self.ctx.db(move |s| s.assets.monthly_claims(uid)).await?;
        let (month, _) = crate::beijing::month(self.ctx.clock.now_ms());
        let open = holdings.monthly_cards() > 0 && !claims.iter().any(|c| c.month == month);
        Ok((claims, holdings.monthly_cards(), open))
    }

    /// Claims this month's member fast-entry cards: 3 (vip) or 5 (vvip) one-hour cards, valid
    /// to the end of the month (commerce.md §6).
    pub async fn claim_monthly(&self, uid: i64) -> DomainResult<Vec<storage::FastEnterCard>> {
        let cards = self.holdings(uid).await?.monthly_cards();
        if cards == 0 {
            return Err(DomainError::NotMember);
        }
        let now = self.ctx.clock.now_ms();
        let (month, next) = crate::beijing::month(now);
        match self
            .ctx
            .db_raw(move |s| s.assets.claim_monthly(uid, &month, cards, MONTHLY_CARD_TITLE, next - 1, now))
            .await?
        {
            Ok((_, cards)) => Ok(cards),
            Err(storage::Error::Conflict(_)) => Err(DomainError::MonthlyClaimed),
            Err(e) => Err(e.into()),
        }
    }

    /// What someone joining lane `lane` of the caller's node queue would see, and the caller's
    /// own rank and expected wait. Lane 0 previews the caller's own lane.
    pub async fn channel_preview(&self, uid: i64, lane: i32) -> DomainResult<ChannelPreview> {
        let GameState::Online(v) = self.game_state(uid).await? else {
            return Err(DomainError::UnknownSession);
        };
        let lane = Lane::from_code(lane)
            .filter(|l| *l != Lane::Normal)
            .or(Lane::from_code(v.is_fast))
            .unwrap_or(Lane::Normal);
        let q = self.ctx.queue(v.node_id)?;
        let p = ractor::call!(q, QueueMsg::Preview, lane, Some(v.id))?;
        Ok(ChannelPreview {
            pre_sort: p.ahead,
            lane: lane.code(),
            wait: p.wait,
            own_wait: p.own.and_then(|(_, w)| w),
        })
    }

    /// Moves the caller's session to `device_no` (members with cross_screen only).
    pub async fn move_session(&self, uid: i64, device_no: &str) -> DomainResult<SessionView> {
        let GameState::Online(v) = self.game_state(uid).await? else {
            return Err(DomainError::UnknownSession);
        };
        if !self.holdings(uid).await?.cross_screen() {
            return Err(DomainError::NoCrossScreen { session_id: v.id });
        }
        let player = self.ctx.player(uid).await?;
        let device_no = device_no.to_string();
        ractor::call!(player, |reply| PlayerMsg::Move { device_no, reply })?
    }

    pub async fn game_state(&self, uid: i64) -> DomainResult<GameState> {
        let player = self.ctx.player(uid).await?;
        ractor::call!(player, PlayerMsg::Get)?
    }

    pub async fn session_op(&self, uid: i64, op: SessionOp, session_id: i64) -> DomainResult<GameState> {
        let player = self.ctx.player(uid).await?;
        ractor::call!(player, |reply| PlayerMsg::Op { op, session_id, reply })?
    }

    /// Starts the connection actor of a new socket.
    /// Opens a user connection: from now on every push for `uid` reaches `sink`.
    pub async fn connect(&self, uid: i64, sink: Arc<dyn ConnectionSink>) -> DomainResult<Connection> {
        Ok(Connection::open(&self.ctx, uid, sink))
    }

    /// The player's current state for a socket just opened: pushed to it at once when the
    /// session is owned here (or there is none), else asked of the owner, whose push crosses
    /// the cluster's bus (`PushBus::ask_state`).
    pub async fn state_to_new_socket(&self, uid: i64, sink: &dyn ConnectionSink) {
        match self.game_state(uid).await {
            Ok(current) => {
                sink.push(&Push::GameStatus(current));
            }
            Err(DomainError::NotOwner(_)) => self.ctx.bus.ask_state(&uid),
            Err(e) => tracing::debug!(uid, error = %e, "no state for a new socket"),
        }
    }

    /// In a cluster: another process asks for `uid`'s state (a socket opened there): pushed
    /// if the session is owned here.
    pub async fn push_state_if_owned(&self, uid: i64) {
        if let Ok(current @ (GameState::Online(_) | GameState::Ended { .. })) = self.game_state(uid).await {
            self.ctx.bus.publish(&uid, &Push::GameStatus(current));
        }
    }

    /// In a cluster: `uid`'s sockets on other processes came or went; the queues here keep
    /// its rank fresh while it has one anywhere.
    pub fn sockets_changed(&self, uid: i64) {
        crate::play::connection::watch(&self.ctx, uid);
    }

    /// Open connections (sockets) of a user.
    pub fn connections(&self, uid: i64) -> usize {
        self.ctx.bus.subscribers(&uid)
    }

    /// Closes a user connection (its socket went).
    pub fn disconnect(&self, conn: Connection) {
        conn.close(&self.ctx);
    }

    /// Publishes a push to every socket of a user.
    pub fn push(&self, uid: i64, push: Push) -> usize {
        self.ctx.bus.publish(&uid, &push)
    }

    /// A game host of a node says hello (the facade checked its MAC against the node's secret):
    /// its free slots join the node's pool. The first command on `sink` is the welcome.
    pub async fn link_host(&self, hello: HostHello, sink: Arc<dyn HostSink>) -> Result<HostLink, HostRefusal> {
        let q = self.ctx.queue(hello.node_id).map_err(|e| match e {
            DomainError::NotOwner(_) => HostRefusal::Elsewhere,
            _ => HostRefusal::UnknownNode,
        })?;
        match ractor::call!(q, QueueMsg::HostHello, hello, sink) {
            Ok(r) => r,
            Err(e) => {
                tracing::error!(error = %e, "node queue did not answer a host's hello");
                Err(HostRefusal::UnknownNode)
            }
        }
    }

    /// Something a linked host said (heartbeats, slot states, first frames, exits).
    pub fn host_event(&self, link: &HostLink, event: HostEvent) {
        if let Ok(q) = self.ctx.queue(link.node_id) {
            let _ = q.send_message(QueueMsg::HostEvent(link.clone(), event));
        }
    }

    /// A host's link closed: its machines leave the pool and the sessions on them end.
    pub fn host_gone(&self, link: HostLink) {
        if let Ok(q) = self.ctx.queue(link.node_id) {
            let _ = q.send_message(QueueMsg::HostGone(link));
        }
    }

    /// The node's latency probe when a game host of the node is linked (its `/ping`), so that
    /// the node dialog measures the path to the machines.
    pub fn node_ping_url(&self, node_id: i64) -> Option<Arc<str>> {
        self.ctx.play_state().nodes.get(&node_id)?.hosts.lock().ping_url()
    }

    /// The caller's live session `session_id` with where its stream is served, for a stream
    /// ticket: only the session's own player, only while CONNECTING or PLAYING on a game host's
    /// slot.
    pub async fn stream_of(&self, uid: i64, session_id: i64) -> DomainResult<(SessionView, Arc<StreamTarget>)> {
        let GameState::Online(v) = self.game_state(uid).await? else {
            return Err(DomainError::UnknownSession);
        };
        if v.id != session_id {
            return Err(DomainError::UnknownSession);
        }
        match (&v.stream, v.status) {
            (Some(target), Status::Connecting | Status::Playing) => {
                let target = target.clone();
                Ok((v, target))
            }
            _ => Err(DomainError::WrongState),
        }
    }

    /// `controller_uid` plays the game of session `session_id` from now on (a live room's
    /// control changed hands): the game host serving it is told before this returns, and from
    /// the moment it reads that, only that user's stream connections' input reaches the game
    /// (a revoked controller's is dropped, on sockets already open too). The session's slot
    /// remembers it, so a session not launched yet launches with it; a new session starts with
    /// its player. Who may control is the caller's (the room's) rule, not decided here.
    /// UnknownSession: the session has ended or holds no machine; WrongState: it runs on a
    /// machine that is not a game host's (nothing streams there).
    pub async fn set_stream_controller(&self, session_id: i64, controller_uid: i64) -> DomainResult<()> {
        let view = self.live_session(session_id).await?;
        if view.stream.is_none() {
            return Err(DomainError::WrongState);
        }
        let q = self.ctx.queue(view.node_id)?;
        if ractor::call!(q, QueueMsg::Control, session_id, controller_uid)? {
            Ok(())
        } else {
            Err(DomainError::UnknownSession)
        }
    }

    /// Where session `session_id`'s stream is served, for a viewer's ticket (`uid` watches a
    /// live room whose relay it is; the room decides who may watch, this only says where): while
    /// the session is CONNECTING or PLAYING on a game host's slot, else WrongState;
    /// UnknownSession when it has ended or holds no machine.
    pub async fn viewer_stream(&self, uid: i64, session_id: i64) -> DomainResult<Arc<StreamTarget>> {
        let view = self.live_session(session_id).await?;
        match (&view.stream, view.status) {
            (Some(target), Status::Connecting | Status::Playing) => {
                tracing::debug!(uid, session_id, "a viewer's stream");
                Ok(target.clone())
            }
            _ => Err(DomainError::WrongState),
        }
    }

    /// The view of a session that holds a machine (it has an actor), whoever plays it.
    async fn live_session(&self, session_id: i64) -> DomainResult<SessionView> {
        let s = self
            .ctx
            .sessions()
            .get(&SessionKey::lookup(session_id))
            .ok_or(DomainError::UnknownSession)?;
        Ok(ractor::call!(s, crate::play::game_session::SessionMsg::Get)?)
    }

    /// Stores what the play page measured of a session's stream, once per session: the
    /// caller's own session that held a machine. The first report stands; another is refused.
    pub async fn report_quality(&self, report: storage::QualityReport) -> DomainResult<storage::QualityReport> {
        let (id, uid) = (report.session_id, report.uid);
        let record = self.ctx.db(move |s| s.sessions.get(id)).await?;
        match record {
            Some(r) if r.uid == uid && r.ready_at.is_some() => {}
            Some(r) if r.uid == uid => return Err(DomainError::WrongState),
            _ => return Err(DomainError::UnknownSession),
        }
        let stored = report.clone();
        match self.ctx.db_raw(move |s| s.sessions.add_quality(&stored)).await? {
            Ok(()) => Ok(report),
            Err(storage::Error::Conflict(_)) => Err(DomainError::QualityReported),
            Err(storage::Error::NotFound) => Err(DomainError::UnknownSession),
            Err(e) => Err(e.into()),
        }
    }

    /// The caller's played sessions, newest first, with their quality reports: page `page`
    /// (from 1) of `page_size`, and how many there are.
    pub async fn play_history(&self, uid: i64, page: u32, page_size: u32) -> DomainResult<(Vec<PlayRecord>, u64)> {
        let offset = u64::from(page.max(1) - 1) * u64::from(page_size);
        let (rows, total) = self.ctx.db(move |s| s.sessions.played(uid, offset, page_size)).await?;
        let mut names: std::collections::HashMap<i64, String> = Default::default();
        let mut records = Vec::with_capacity(rows.len());
        for (r, quality) in rows {
            if !names.contains_key(&r.game_id) {
                let game_id = r.game_id;
                let name = self
                    .ctx
                    .db(move |s| s.games.get(game_id))
                    .await?
                    .map(|g| g.name)
                    .unwrap_or_default();
                names.insert(game_id, name);
            }
            records.push(PlayRecord {
                id: r.id,
                game_id: r.game_id,
                game_name: names.get(&r.game_id).cloned().unwrap_or_default(),
                node_id: r.node_id,
                node_name: self.ctx.node_name(r.node_id).unwrap_or_default().to_string(),
                playing_at: r.playing_at.unwrap_or(r.created_at),
                ended_at: r.ended_at,
                end_reason: r.end_reason,
                play_minutes: r.play_minutes,
                quality,
            });
        }
        Ok((records, total))
    }

    /// What a linked host last reported of one of its slots, and the session it named (None:
    /// no such host or slot): what the platform has taken in of the host's reports (tests wait
    /// on it instead of waiting a while).
    pub fn host_slot(&self, node_id: i64, host: &str, slot: u32) -> Option<(crate::play::hosts::SlotState, Option<i64>)> {
        let shared = self.ctx.play_state().nodes.get(&node_id)?.clone();
        let table = shared.hosts.lock();
        let entry = table.slot(&crate::play::hosts::machine_id(host, slot))?;
        Some((entry.reported, entry.reported_session))
    }

    /// (free, out) machines of a node, for tests and metrics.
    pub async fn machine_stats(&self, node_id: i64) -> DomainResult<(usize, usize)> {
        let q = self.ctx.queue(node_id)?;
        Ok(ractor::call!(q, QueueMsg::Stats)?)
    }

    /// In a cluster: this process won node `node_id`'s lease and claimed `fence` in the store.
    /// The node's queue starts here and takes its sessions from the store (what the previous
    /// owner last wrote: waiting players in their places, READY with its countdown less the gap,
    /// games on their machines, whose game hosts link here next), every write fenced by the
    /// claim. An error leaves the node not owned here (the caller gives the lease back).
    pub async fn take_node(&self, node_id: i64, fence: storage::ownership::Fence) -> Result<(), String> {
        let started = tokio::time::Instant::now();
        let shared = self.ctx.play_state().nodes.get(&node_id).cloned().ok_or("not a configured node")?;
        self.drop_node(node_id);
        shared.started.store(false, std::sync::atomic::Ordering::SeqCst);
        shared.set_owner(NodeOwner::Mine(fence.clone()));
        let taken = crate::ctx::as_owner(Some(fence), async {
            self.ctx
                .play_state()
                .queues
                .get()
                .expect("platform started")
                .get_or_start(&node_id)
                .await?;
            let now = self.ctx.clock.now_ms();
            let open = self.ctx.db(|s| s.sessions.list_open()).await.map_err(|e| e.to_string())?;
            let mine: Vec<GameSessionRecord> = open.into_iter().filter(|r| r.node_id == node_id).collect();
            let count = mine.len();
            self.restore(mine, now).await?;
            Ok::<usize, String>(count)
        })
        .await;
        match taken {
            Ok(sessions) => {
                metrics::counter!("yoo_cluster_takeovers_total", "kind" => "queue").increment(1);
                metrics::histogram!("yoo_cluster_restore_seconds", "kind" => "queue").record(started.elapsed().as_secs_f64());
                tracing::info!(node_id, sessions, ms = started.elapsed().as_millis() as u64, "node queue taken");
                Ok(())
            }
            Err(e) => {
                self.drop_node(node_id);
                Err(e)
            }
        }
    }

    /// In a cluster: this process no longer owns node `node_id` (its lease was lost or given
    /// back). Its queue and its sessions' actors stop at once, without another write (a write
    /// in flight is refused by the fence once the next owner has claimed), its hosts' links
    /// close (they link to the next owner), and every player actor is dropped (they reload
    /// from the store where their calls go next).
    pub fn drop_node(&self, node_id: i64) {
        let Some(shared) = self.ctx.play_state().nodes.get(&node_id).cloned() else {
            return;
        };
        // the last fence stays: an actor not yet stopped writes under it, refused once claimed
        if let NodeOwner::Mine(last) = shared.owner() {
            shared.set_owner(NodeOwner::Elsewhere(last));
        }
        if let Some(q) = self.ctx.play_state().queues.get().and_then(|r| r.get(&node_id)) {
            q.kill();
        }
        for (key, session) in self.ctx.sessions().all() {
            if key.init.as_ref().is_some_and(|i| i.view.node_id == node_id) {
                session.kill();
            }
        }
        for (_, player) in self.ctx.players().all() {
            player.kill();
        }
        shared.hosts.lock().close_all();
    }

    /// Brings back what was live at the last stop (a crash included): queued sessions in their
    /// stored places, READY sessions with what is left of their countdown (the downtime counts),
    /// CONNECTING and PLAYING sessions on their machines.
    pub(crate) async fn restore(&self, open: Vec<GameSessionRecord>, now: i64) -> Result<(), String> {
        let ctx = &self.ctx;
        let mut queued: std::collections::BTreeMap<i64, Vec<crate::play::queue::Restored>> = Default::default();
        let (mut waiting, mut active, mut ended) = (0usize, 0usize, 0usize);
        for r in open {
            let known_node = ctx.config.nodes.iter().any(|n| n.id == r.node_id);
            match r.status {
                1 if known_node => {
                    queued.entry(r.node_id).or_default().push(crate::play::queue::restored(&r));
                    waiting += 1;
                }
                // A session whose machine cannot be restored ends below, like any other.
                3..=5 if known_node && r.machine_id.is_some() && self.restore_active(&r, now).await.is_ok() => {
                    active += 1;
                }
                _ => {
                    ctx.end_session(r.uid, r.id, r.game_id, EndReason::ServerRestart, now).await;
                    ended += 1;
                }
            }
        }
        for (node_id, all) in queued {
            let virtual_time = ctx
                .db(move |s| s.sessions.max_admitted_tag(node_id))
                .await
                .map_err(|e| e.to_string())?
                .unwrap_or(0)
                .max(0) as u64;
            let mut games: Vec<(i64, GameMeta)> = vec![];
            let mut entries = Vec::with_capacity(all.len());
            for (w, place) in all {
                if !games.iter().any(|(id, _)| *id == w.game_id) {
                    match ctx.game_meta(w.game_id).await {
                        Ok(meta) => games.push((w.game_id, meta)),
                        Err(e) => tracing::warn!(game_id = w.game_id, error = %e, "game of a queued session gone"),
                    }
                }
                if games.iter().any(|(id, _)| *id == w.game_id) {
                    entries.push((w, place));
                } else {
                    // The game is gone: its players cannot come back to the queue.
                    ctx.end_session(w.uid, w.session_id, w.game_id, EndReason::ServerRestart, now).await;
                }
            }
            let q = ctx.queue(node_id).map_err(|e| e.to_string())?;
            q.send_message(QueueMsg::Restore {
                virtual_time,
                entries,
                games,
            })
            .map_err(|e| e.to_string())?;
        }
        if waiting + active + ended > 0 {
            tracing::info!(waiting, active, ended, "restored the sessions live at the last stop");
        }
        Ok(())
    }

    /// Restarts the actor of a session that held a machine at the last stop.
    async fn restore_active(&self, r: &GameSessionRecord, now: i64) -> DomainResult<()> {
        let ctx = &self.ctx;
        let machine = r.machine_id.clone().ok_or(DomainError::WrongState)?;
        let queue = ctx.queue(r.node_id)?;
        let claimed = ractor::call!(queue, QueueMsg::Claim, machine.clone(), r.id)?;
        if !claimed {
            return Err(DomainError::WrongState);
        }
        let meta = ctx.game_meta(r.game_id).await?;
        // a game host's slot (not a static machine of the configuration): its game is the
        // catalogue entry's host game, launched there at the confirm
        let on_host = !ctx.config.nodes.iter().any(|n| n.id == r.node_id && n.machines.contains(&machine));
        let host_game = on_host.then(|| meta.host_game.clone());
        let node_name: Arc<str> = ctx.node_name(r.node_id).unwrap_or_default().into();
        let full = ctx.config.connect_countdown();
        let elapsed = std::time::Duration::from_millis((now - r.ready_at.unwrap_or(now)).max(0) as u64);
        let (phase, status) = match r.status {
            3 => (Phase::Ready { machine }, Status::Ready),
            4 => (Phase::Connecting { machine }, Status::Connecting),
            _ => (Phase::Playing { machine }, Status::Playing),
        };
        let view = SessionView {
            id: r.id,
            game_id: r.game_id,
            game_name: meta.name,
            game_logo: meta.logo,
            status,
            device_no: r.device_no.as_str().into(),
            node_id: r.node_id,
            node_name,
            connect_countdown_secs: ctx.config.connect_countdown_secs,
            queued_at_ms: r.created_at,
            ready_at_ms: r.ready_at,
            playing_at_ms: r.playing_at,
            last_input_ms: None,
            is_fast: r.lane,
            sort: 0,
            requeues: r.requeues.clamp(0, i64::from(u32::MAX)) as u32,
            stream: None,
        };
        let init = SessionInit {
            view,
            uid: r.uid,
            phase,
            countdown: full.saturating_sub(elapsed),
            fresh: false,
            play_minutes: r.play_minutes,
            host_game,
            cutoff: r.cutoff_at,
            place: (r.status == 3).then(|| crate::play::queue::restored(r).1),
        };
        ctx.sessions()
            .get_or_start(&SessionKey::new(r.id, init))
            .await
            .map_err(DomainError::Internal)?;
        Ok(())
    }
}

/// How a game may be started (core-platform.md §4.4 step 10, its `GameStart`): an external game
/// (associated type 2) is opened at its address, never started here (130128); a play-together
/// start (`relay_mode`, the room's mode) needs a mode of its `support_modes` (130129); a game
/// played only together needs one (130121).
pub fn check_start_mode(game: &Game, relay_mode: Option<i32>) -> DomainResult<()> {
    let start = &game.start;
    if start.associated_type == 2 {
        return Err(DomainError::GameUnsupportedClient);
    }
    match relay_mode {
        Some(mode) if !start.support_modes.contains(&mode) => Err(DomainError::GameNotSupportRelay),
        None if start.start_mode > 0 => Err(DomainError::RelayOnly),
        _ => Ok(()),
    }
}

/// The rules of core-platform.md §9 for which catalogue states can start.
pub fn check_startable(game: &Game) -> DomainResult<()> {
    match game.status {
        10 => Err(DomainError::GameUnsupportedClient),
        0 | 2 => Err(DomainError::GameNotOpen),
        _ if !game.available => Err(DomainError::GameNotOpen),
        _ => Ok(()),
    }
}

/// Without a chosen node: the selectable node with the smallest positive ping, else the first
/// selectable one.
pub fn pick_node(nodes: &[Node], node_delay: &[(i64, i64)]) -> Option<Node> {
    let selectable = || nodes.iter().filter(|n| n.status == 1);
    selectable()
        .filter_map(|n| node_delay.iter().find(|(id, ping)| *id == n.id && *ping > 0).map(|(_, p)| (*p, n)))
        .min_by_key(|(p, n)| (*p, n.id))
        .map(|(_, n)| n.clone())
        .or_else(|| selectable().next().cloned())
}

/// The features play calls (ARCHITECTURE.md lists the arrows).
impl Play {
    pub(crate) fn catalogue(&self) -> crate::catalogue::Catalogue {
        crate::catalogue::Catalogue { ctx: self.ctx.clone() }
    }

    pub(crate) fn messages(&self) -> crate::messages::Messages {
        crate::messages::Messages { ctx: self.ctx.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: i64, status: i32) -> Node {
        Node {
            id,
            name: format!("n{id}"),
            status,
        }
    }

    #[test]
    fn node_choice_without_a_pick() {
        let nodes = [node(1, 1), node(2, 1), node(3, 0)];
        let check = |delay: &[(i64, i64)], want: Option<i64>| assert_eq!(pick_node(&nodes, delay).map(|n| n.id), want, "{delay:?}");
        check(&[], Some(1));
        check(&[(1, 40), (2, 12)], Some(2));
        check(&[(1, 0), (2, 0)], Some(1));
        check(&[(3, 1), (1, 50)], Some(1));
        assert_eq!(pick_node(&[node(3, 0)], &[]), None);
    }

    // core-platform.md §4.4 step 10: external games never start here, a play-together start
    // needs a supported room mode, a game played only together needs one.
    #[test]
    fn start_modes() {
        let game = |start_mode: i32, support_modes: Vec<i32>, associated_type: i32| Game {
            start: storage::GameStart {
                start_mode,
                support_modes,
                associated_type,
                start_url: String::new(),
            },
            ..storage::seed::catalogue()[0].clone()
        };
        let check =
            |g: Game, relay: Option<i32>, want: DomainResult<()>| assert_eq!(check_start_mode(&g, relay), want, "{:?} {relay:?}", g.start);
        check(game(0, vec![2, 4], 1), None, Ok(()));
        check(game(0, vec![2, 4], 1), Some(4), Ok(()));
        check(game(0, vec![2], 1), Some(4), Err(DomainError::GameNotSupportRelay));
        check(game(0, vec![], 1), Some(2), Err(DomainError::GameNotSupportRelay));
        check(game(2, vec![2], 1), None, Err(DomainError::RelayOnly));
        check(game(2, vec![2], 1), Some(2), Ok(()));
        check(game(0, vec![2, 4], 2), None, Err(DomainError::GameUnsupportedClient));
        check(game(0, vec![2, 4], 2), Some(2), Err(DomainError::GameUnsupportedClient));
        // the seeded games that start differently
        let seeded = |id: i64| storage::seed::catalogue().into_iter().find(|g| g.id == id).unwrap();
        check(seeded(14), None, Err(DomainError::GameUnsupportedClient));
        check(seeded(16), None, Err(DomainError::RelayOnly));
        check(seeded(16), Some(2), Ok(()));
        check(seeded(18), Some(2), Err(DomainError::GameNotSupportRelay));
        check(seeded(1), None, Ok(()));
    }
}
