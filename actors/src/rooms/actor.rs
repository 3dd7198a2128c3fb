//! [`RoomActor`]: one per open room, under the `rooms` supervisor, keyed by ddRid. It owns the
//! [`RoomState`], the room's [`EventLog`] and its watchers ([`Fanout`]), and carries out what
//! each command leaves behind, in this order, before the call is answered:
//!
//! 1. the events go into the log (the next offsets under the room's epoch);
//! 2. the deadlines become timers on tokio time (apply-control, rotation turn, reconnect);
//! 3. the platform's index follows who joined and left;
//! 4. a new controller is told to the game host (`Platform::set_stream_controller`);
//! 5. the events go to the watchers: at once while the room has at most `batch_threshold`
//!    watchers, else within `batch_ms` as one frame, its entries and leaves merged into one
//!    event each (`events::merge_presence`);
//! 6. a changed form or relay is stored; an ended room stores its summary, tells every member
//!    (USER_RELAY_END) and stops.
//!
//! Platform calls reach the state as data, [`RoomMsg::Call`] with a [`RoomCall`]: the state
//! applies it ([`RoomState::apply`]), the effects above are carried out, then the reply is
//! completed with what the call declared it needs from the room after them (the view: see
//! `call`'s module doc) and sent. The host's game state reaches
//! the room through the bus (the room subscribes to the host's topic): the relay's status
//! becomes GAME_INFO_CHANGE, its end ends the room.
//!
//! Lost on a restart of the actor (a new epoch): members, seats, control, chat bans and kicks
//! (the blacklist and the summary counters are stored). Watchers of the old epoch get a reset
//! when they watch again.

use crate::play::PlayCtx;
use crate::rooms::RoomsCtx;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use engine::bus::SubscriptionId;
use engine::Timers;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use storage::RoomRecord;

use super::call::{RoomCall, RoomReply};
use super::events::EventLog;
use super::fanout::{Fanout, NewWatch};
use super::state::{Info, Membership, Profile, RoomState, Rules, TimerKey};
use super::view::{RoomGame, RoomListItem, RoomUser};
use super::wire::{RoomSink, WatchId};
use crate::ctx::Ctx;
use crate::error::{DomainError, DomainResult};
use crate::view::{GameState, Notice, Push};

pub enum RoomMsg {
    /// A platform call; answered after its effects are carried out.
    Call {
        call: RoomCall,
        reply: RpcReplyPort<DomainResult<RoomReply>>,
    },
    /// A socket of member `uid` watches, from `position` (epoch, offset) when given.
    Watch {
        id: WatchId,
        uid: i64,
        sink: Arc<dyn RoomSink>,
        position: Option<(String, u64)>,
        reply: RpcReplyPort<DomainResult<()>>,
    },
    Unwatch(WatchId),
    Timer(TimerKey),
    /// The batch's time is up.
    Flush,
    /// The host's game state changed (from the bus).
    Host(GameState),
    /// `uid` leaves without a caller waiting (their own game started; force from another room).
    Leave(i64),
}

/// Who is in which room and what the room list shows, kept by the room actors for the
/// platform's lookups (entry checks, `room/userInfo`, the room list, relay counts).
#[derive(Default)]
pub struct RoomIndex {
    pub serials: HashMap<i64, i64>,
    pub hosts: HashMap<i64, i64>,
    pub members: HashMap<i64, i64>,
    pub listing: HashMap<i64, RoomListItem>,
}

pub struct RoomActor {
    pub ctx: Arc<Ctx>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    Room(TimerKey),
    Flush,
}

pub struct RoomActorState {
    st: RoomState,
    log: EventLog,
    fan: Fanout,
    timers: Timers<Timer>,
    /// The subscription to the host's pushes (their game state).
    host_sub: Option<SubscriptionId<i64>>,
    /// The controller, relay and whether it held a machine when the game host was last told.
    told: (i64, Option<i64>, bool),
    record: RoomRecord,
    /// Each member's position when they entered (their entry answer's offset): a watch may not
    /// resume from before it.
    entered: HashMap<i64, u64>,
    /// This room's part of `yoo_room_viewers` (the watches it counts now).
    viewers_counted: f64,
}

/// A member's profile as rooms show it: the user, their flags and whether they hold a
/// membership (vip, vvip: cross-screen; carrier members show their kind but do not move).
pub async fn profile_of(ctx: &Ctx, uid: i64) -> DomainResult<(Profile, String)> {
    let now = ctx.clock.now_ms();
    let (user, ents) = ctx
        .db_raw(move |s| -> storage::Result<_> {
            let user = s.users.get(uid)?.ok_or(storage::Error::NotFound)?;
            Ok((user, s.assets.entitlements(uid, now)?))
        })
        .await?
        .map_err(|e| match e {
            storage::Error::NotFound => DomainError::TargetNotInRoom,
            e => e.into(),
        })?;
    let kind = |k: &str| ents.iter().any(|e| e.kind == k);
    let member = ["vvip", "vip", "tyvip", "tyschvip"].into_iter().find(|k| kind(k));
    let profile = Profile {
        user: RoomUser {
            uid,
            nickname: user.nickname.as_str().into(),
            avatar: user.avatar.as_str().into(),
            status: user.status,
            member: member.map(Into::into),
        },
        minor: user.minor,
        cross_screen: kind("vip") || kind("vvip"),
        phone_bound: !user.cellphone.trim().is_empty(),
        relay_banned: user.relay_banned,
    };
    Ok((profile, user.cellphone))
}

fn delay(at: i64, now: i64) -> Duration {
    Duration::from_millis((at - now).max(0) as u64)
}

impl Actor for RoomActor {
    type Msg = RoomMsg;
    type State = RoomActorState;
    type Arguments = i64;

    async fn pre_start(&self, me: ActorRef<RoomMsg>, dd_rid: i64) -> Result<RoomActorState, ActorProcessingErr> {
        let ctx = &self.ctx;
        let record = ctx
            .db(move |s| s.rooms.get(dd_rid))
            .await?
            .filter(|r| r.ended_at.is_none())
            .ok_or_else(|| format!("room {dd_rid} is not open"))?;
        let (host, _) = profile_of(ctx, record.host_uid).await?;
        let game_id = record.game_id;
        let game = ctx.db(move |s| s.games.get(game_id)).await?.ok_or("room game gone")?;
        let now = ctx.clock.now_ms();
        let info = Info {
            dd_rid,
            room_serial: record.room_serial,
            host: record.host_uid,
            name: record.name.clone(),
            mode: record.mode,
            is_show: record.is_show,
            password: record.password.clone(),
            game: RoomGame {
                id: game.id,
                logo: crate::view::game_logo(&game).into(),
                name: game.name.as_str().into(),
                people: 1,
            },
            created_at_ms: record.created_at,
        };
        let mut st = RoomState::new(info, host, Rules::of(&ctx.config.rooms), now);
        st.restore_counters(record.audience_count, record.mike_count, record.control_count);
        st.restore_relay(record.relay_session);
        let epoch: Arc<str> = format!("{dd_rid}-{now}-{:08x}", rand::random::<u32>()).into();
        let me2 = me.clone();
        let host_sub = ctx.bus.subscribe(&record.host_uid, move |p: &Push| match p {
            Push::GameStatus(gs) => me2.send_message(RoomMsg::Host(gs.clone())).is_ok(),
            _ => true,
        });
        {
            let mut index = ctx.rooms_state().room_index.lock();
            index.serials.insert(record.room_serial, dd_rid);
            index.hosts.insert(record.host_uid, dd_rid);
            index.members.insert(record.host_uid, dd_rid);
        }
        metrics::gauge!("yoo_rooms_open").increment(1.0);
        st.take_membership();
        st.take_timers();
        let mut state = RoomActorState {
            told: (st.controller(), st.relay(), st.game_status() >= 3),
            st,
            log: EventLog::new(epoch),
            fan: Fanout::default(),
            timers: Timers::default(),
            host_sub: Some(host_sub),
            record,
            entered: HashMap::new(),
            viewers_counted: 0.0,
        };
        self.list(&mut state);
        Ok(state)
    }

    async fn post_stop(&self, _me: ActorRef<RoomMsg>, state: &mut RoomActorState) -> Result<(), ActorProcessingErr> {
        if let Some(sub) = state.host_sub.take() {
            self.ctx.bus.unsubscribe(&sub);
        }
        if let Some(relay) = state.st.relay() {
            self.ctx.play_state().relay_controllers.lock().remove(&relay);
        }
        metrics::gauge!("yoo_rooms_open").decrement(1.0);
        metrics::gauge!("yoo_room_viewers").decrement(state.viewers_counted);
        let dd_rid = state.record.dd_rid;
        let mut index = self.ctx.rooms_state().room_index.lock();
        index.listing.remove(&dd_rid);
        if index.hosts.get(&state.record.host_uid) == Some(&dd_rid) {
            index.hosts.remove(&state.record.host_uid);
        }
        for uid in state.st.members() {
            if index.members.get(&uid) == Some(&dd_rid) {
                index.members.remove(&uid);
            }
        }
        Ok(())
    }

    async fn handle(&self, me: ActorRef<RoomMsg>, msg: RoomMsg, state: &mut RoomActorState) -> Result<(), ActorProcessingErr> {
        let now = self.ctx.clock.now_ms();
        match msg {
            RoomMsg::Call { call, reply } => {
                let need = call.after();
                let answer = state.st.apply(call, now);
                self.after(&me, state, now).await;
                let _ = reply.send(need.complete(answer, &state.st, &state.log));
            }
            RoomMsg::Watch {
                id,
                uid,
                sink,
                position,
                reply,
            } => {
                if state.st.member(uid).is_none() {
                    let _ = reply.send(Err(DomainError::NotInRoom));
                    return Ok(());
                }
                let wire = self.ctx.rooms_state().room_wire.read().clone();
                // A position from before the member entered is not theirs (it would replay what
                // was said and aimed at others before they came in): a reset, as for another epoch.
                let floor = state.entered.get(&uid).copied().unwrap_or(0);
                let pos = position.as_ref().map(|(e, o)| (if *o < floor { "" } else { e.as_str() }, *o));
                let watch = NewWatch {
                    id,
                    uid,
                    sink,
                    position: pos,
                };
                self.merge_if_busy(state);
                state.fan.join(&state.log, &*wire, state.record.dd_rid, watch);
                state.st.watch_opened(uid);
                // The reconnect window is closed: its timer goes (with its task's memory).
                state.timers.cancel(&Timer::Room(TimerKey::Away(uid)));
                let _ = reply.send(Ok(()));
                self.after(&me, state, now).await;
            }
            RoomMsg::Unwatch(id) => {
                if let Some(uid) = state.fan.leave(id) {
                    state.st.watch_closed(uid, now);
                    self.after(&me, state, now).await;
                }
            }
            RoomMsg::Timer(key) => {
                state.st.timer(key, now);
                self.after(&me, state, now).await;
            }
            RoomMsg::Flush => {
                self.flush(state, now);
                self.after(&me, state, now).await;
            }
            RoomMsg::Host(gs) => {
                let game = state.st.info.game.id;
                match gs {
                    GameState::Online(v) if v.game_id == game => {
                        state.st.relay_state(v.id, v.status as i32, v.stream.clone());
                    }
                    GameState::Online(_) => {}
                    GameState::Ended { id, .. } => {
                        state.st.relay_state(id, 0, None);
                    }
                    GameState::None => {
                        if let Some(r) = state.st.relay() {
                            state.st.relay_state(r, 0, None);
                        }
                    }
                }
                self.after(&me, state, now).await;
            }
            RoomMsg::Leave(uid) => {
                let _ = state.st.leave(uid, now);
                self.after(&me, state, now).await;
            }
        }
        let viewers = state.fan.len() as f64;
        if viewers != state.viewers_counted {
            metrics::gauge!("yoo_room_viewers").increment(viewers - state.viewers_counted);
            state.viewers_counted = viewers;
        }
        Ok(())
    }
}

impl RoomActor {
    /// Carries out what the last command left behind (see the module doc's steps).
    async fn after(&self, me: &ActorRef<RoomMsg>, state: &mut RoomActorState, now: i64) {
        let ctx = &self.ctx;
        let dd_rid = state.record.dd_rid;
        let events = state.st.take_events();
        for out in events {
            state.log.push(out.kind, out.user_ids, out.exclude_user_ids, now);
        }
        self.set_timers(me, state, now);
        let membership = state.st.take_membership();
        if !membership.is_empty() {
            let mut index = ctx.rooms_state().room_index.lock();
            for m in membership {
                match m {
                    Membership::Joined(uid) => {
                        index.members.insert(uid, dd_rid);
                        state.entered.insert(uid, state.log.offset());
                    }
                    Membership::Left(uid) => {
                        if index.members.get(&uid) == Some(&dd_rid) {
                            index.members.remove(&uid);
                        }
                        state.entered.remove(&uid);
                        state.fan.retire(uid, state.log.offset());
                        state.timers.cancel(&Timer::Room(TimerKey::Away(uid)));
                        state.timers.cancel(&Timer::Room(TimerKey::Apply(uid)));
                    }
                }
            }
        }
        // The game host learns of a new controller, a new relay, or a relay that just got its
        // machine (READY and later), before the call is answered.
        let now_told = (state.st.controller(), state.st.relay(), state.st.game_status() >= 3);
        if now_told != state.told {
            state.told = now_told;
            if let (controller, Some(session_id), _) = now_told {
                ctx.stream_controller(session_id, controller).await;
            }
        }
        let threshold = ctx.config.rooms.batch_threshold;
        if state.st.is_ended() || state.fan.len() <= threshold {
            self.flush(state, now);
            self.set_timers(me, state, now);
        } else if state.fan.pending(&state.log) && !state.timers.is_set(&Timer::Flush) {
            let batch = Duration::from_millis(ctx.config.rooms.batch_ms.max(1));
            state.timers.set(Timer::Flush, batch, me, RoomMsg::Flush);
        }
        self.store(state).await;
        if state.st.is_ended() {
            self.finish(me, state, now).await;
        } else {
            self.list(state);
        }
    }

    fn set_timers(&self, me: &ActorRef<RoomMsg>, state: &mut RoomActorState, now: i64) {
        for (key, at) in state.st.take_timers() {
            state.timers.set(Timer::Room(key), delay(at, now), me, RoomMsg::Timer(key));
        }
    }

    /// Sends the pending events; a gone sink closes its watch.
    fn flush(&self, state: &mut RoomActorState, now: i64) {
        state.timers.cancel(&Timer::Flush);
        self.merge_if_busy(state);
        let wire = self.ctx.rooms_state().room_wire.read().clone();
        for uid in state.fan.flush(&state.log, &*wire, state.record.dd_rid) {
            state.st.watch_closed(uid, now);
        }
    }

    /// A busy room (more watchers than `batch_threshold`, so its events go out in batches)
    /// merges each batch's entries and leaves (`events::merge_presence`).
    fn merge_if_busy(&self, state: &mut RoomActorState) {
        let busy = state.fan.len() > self.ctx.config.rooms.batch_threshold;
        state.fan.set_merge(busy);
    }

    /// Stores a changed form or relay.
    async fn store(&self, state: &mut RoomActorState) {
        let info = &state.st.info;
        let r = &state.record;
        if r.name == info.name
            && r.mode == info.mode
            && r.is_show == info.is_show
            && r.password == info.password
            && r.relay_session == state.st.relay()
            && r.game_id == info.game.id
            && r.ended_at.is_some() == state.st.is_ended()
        {
            return;
        }
        let mut rec = r.clone();
        rec.name = info.name.clone();
        rec.mode = info.mode;
        rec.is_show = info.is_show;
        rec.password = info.password.clone();
        rec.relay_session = state.st.relay();
        rec.game_id = info.game.id;
        rec.gift_count = state.st.gift_counters().1.max(rec.gift_count);
        let (audience, mike, control) = state.st.counters();
        (rec.audience_count, rec.mike_count, rec.control_count) = (audience, mike, control);
        if state.st.is_ended() && rec.ended_at.is_none() {
            rec.ended_at = Some(self.ctx.clock.now_ms());
        }
        let write = rec.clone();
        match self.ctx.db(move |s| s.rooms.update(&write)).await {
            Ok(()) => state.record = rec,
            Err(e) => tracing::error!(dd_rid = rec.dd_rid, error = %e, "room write failed"),
        }
    }

    /// The room ended: every member is told, the actor stops.
    async fn finish(&self, me: &ActorRef<RoomMsg>, state: &mut RoomActorState, _now: i64) {
        let notice = Push::Notice(Notice::RelayEnd {
            dd_rid: state.record.dd_rid,
            room_serial: state.record.room_serial,
        });
        for uid in state.st.members() {
            self.ctx.bus.publish(&uid, &notice);
        }
        metrics::counter!("yoo_rooms_ended_total").increment(1);
        me.stop(None);
    }

    /// The room list's entry.
    fn list(&self, state: &mut RoomActorState) {
        let now = self.ctx.clock.now_ms();
        let heat = state.st.heat(state.fan.len(), now);
        let item = RoomListItem {
            room: state.st.view(state.log.epoch(), state.log.offset()),
            heat,
        };
        self.ctx.rooms_state().room_index.lock().listing.insert(state.record.dd_rid, item);
    }
}

/// A player confirmed their own game (READY → CONNECTING): they leave the room they watch,
/// unless they host it (their game is its relay).
pub fn own_game_started(ctx: &Ctx, uid: i64) {
    let room = ctx.rooms_state().room_index.lock().members.get(&uid).copied();
    let Some(dd_rid) = room else { return };
    if ctx.rooms_state().room_index.lock().hosts.get(&uid) == Some(&dd_rid) {
        return;
    }
    if let Ok(r) = ctx.room(dd_rid) {
        let _ = r.send_message(RoomMsg::Leave(uid));
    }
}

/// Watch while you wait: a player who confirms their own game leaves the room they watched
/// (`play::ports::PlayObserver`).
pub struct WatchersLeave;

impl crate::play::ports::PlayObserver for WatchersLeave {
    fn observe(&self, ctx: std::sync::Arc<Ctx>, event: crate::play::ports::PlayEvent) -> futures_util::future::BoxFuture<'static, ()> {
        if let crate::play::ports::PlayEvent::OwnGameConfirmed { uid } = event {
            own_game_started(&ctx, uid);
        }
        Box::pin(async {})
    }
}
