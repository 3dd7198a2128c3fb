//! The entry point of the domain. The facade holds a [`Platform`] and calls it; the platform
//! starts every actor kind under one root supervisor and routes each call to the actor that owns
//! the state.
//!
//! Actor kinds and their keys: player (uid), game session (session id), queue (node id: one
//! queue per node for all its games, owning the node's machines), room (ddRid; started when a
//! room is created or restored, never by a lookup), connection (one per socket, no key), order
//! desk (one, key 0: the open orders' expiry timers).

use std::sync::Arc;

use engine::registry::Factory;
use engine::{Registry, RestartPolicy, Supervisor, SupervisorMsg};
use ractor::ActorRef;
use storage::{Node, Store};

use crate::accounts::passport::Passport;
use crate::accounts::service::Accounts;
use crate::accounts::sms::{SandboxSms, SmsProvider};
use crate::activity::service::Activities;
use crate::bus::{LocalBus, PushBus};
use crate::catalogue::Catalogue;
use crate::clock::Clock;
use crate::commerce::payment::{DeliveryPlan, PaymentProvider, SandboxPay};
use crate::commerce::service::Commerce;
use crate::commerce::CommerceShared;
use crate::config::DomainConfig;
use crate::ctx::{Ctx, Slots};
use crate::identity::service::Identities;
use crate::messages::Messages;
use crate::play::game_session::{GameSessionActor, MachineId, SessionKey};
use crate::play::player::PlayerActor;
use crate::play::ports::Ports;
use crate::play::queue::{NodeShared, QueueActor, QueueArgs};
use crate::play::service::Play;
use crate::play::{PlayCtx, PlayShared};
use crate::rooms::actor::RoomActor;
use crate::rooms::service::Rooms;
use crate::rooms::{RoomsCtx, RoomsShared};
use storage::GameSessionRecord;

/// The sandbox payment provider the configuration describes.
fn sandbox_payment(config: &DomainConfig) -> Arc<dyn PaymentProvider> {
    let pay = &config.payment;
    let plan = DeliveryPlan {
        delivery: pay.sandbox_delivery,
        delay_ms: pay.sandbox_delay_ms,
    };
    Arc::new(SandboxPay::new(pay.sandbox_key.as_bytes(), plan))
}

#[derive(Clone)]
pub struct Platform {
    pub(crate) ctx: Arc<Ctx>,
    passport: Arc<Passport>,
    /// The root of supervision: every kind's supervisor is linked under it.
    root: ActorRef<SupervisorMsg>,
    pub accounts: Accounts,
    pub activity: Activities,
    pub catalogue: Catalogue,
    pub commerce: Commerce,
    pub identity: Identities,
    pub messages: Messages,
    pub play: Play,
    pub rooms: Rooms,
}

impl Platform {
    /// Starts the domain with the sandbox providers.
    pub async fn start(store: Store, config: DomainConfig) -> Result<Platform, String> {
        let sms: Arc<dyn SmsProvider> = Arc::new(SandboxSms::new(config.sms_fail_numbers.clone()));
        Platform::start_with(store, config, sms).await
    }

    /// Starts the domain with this SMS provider and the sandbox payment provider.
    pub async fn start_with(store: Store, config: DomainConfig, sms: Arc<dyn SmsProvider>) -> Result<Platform, String> {
        let payment = sandbox_payment(&config);
        Platform::start_with_providers(store, config, sms, payment, Arc::new(LocalBus::default())).await
    }

    /// Starts the domain with the sandbox providers and this push bus (a cluster's).
    pub async fn start_on_bus(store: Store, config: DomainConfig, bus: Arc<dyn PushBus>) -> Result<Platform, String> {
        let sms: Arc<dyn SmsProvider> = Arc::new(SandboxSms::new(config.sms_fail_numbers.clone()));
        let payment = sandbox_payment(&config);
        Platform::start_with_providers(store, config, sms, payment, bus).await
    }

    /// Starts the domain with these providers and this push bus (`bus::LocalBus` for one
    /// process; a cluster's bus carries pushes between processes).
    pub async fn start_with_providers(
        store: Store,
        config: DomainConfig,
        sms: Arc<dyn SmsProvider>,
        payment: Arc<dyn PaymentProvider>,
        bus: Arc<dyn PushBus>,
    ) -> Result<Platform, String> {
        let clock = if config.clock_start_ms > 0 {
            Clock::at(config.clock_start_ms)
        } else {
            Clock::new()
        };
        // Nodes come from the configuration until game hosts register themselves.
        let now = clock.now_ms();
        let (s, nodes) = (store.clone(), config.nodes.clone());
        let open = crate::ctx::blocking(move || -> storage::Result<Vec<GameSessionRecord>> {
            for n in &nodes {
                s.nodes.upsert(&Node {
                    id: n.id,
                    name: n.name.clone(),
                    status: n.status,
                })?;
            }
            s.sessions.list_open()
        })
        .await
        .map_err(|e| e.to_string())?;

        let slots = Slots::default()
            .with(PlayShared::new(
                &config,
                Ports {
                    gate: Arc::new(crate::identity::service::CertificationGate),
                    observers: vec![
                        Arc::new(crate::activity::mission::MissionCounter),
                        Arc::new(crate::rooms::actor::WatchersLeave),
                    ],
                },
            ))
            .with(RoomsShared::default())
            .with(CommerceShared::default())
            .with(crate::identity::Identity::from_config(&config.identity))
            .with(crate::accounts::uc::Uc::from_config(&config.account_centre));
        let ctx = Arc::new(Ctx::new(store.clone(), config.clone(), clock, bus, slots));
        let root = Supervisor::start(
            "root",
            RestartPolicy {
                max_restarts: 3,
                within: std::time::Duration::from_secs(60),
            },
        )
        .await
        .map_err(|e| e.to_string())?;
        let policy = RestartPolicy::default();
        let parent = Some(root.get_cell());
        let c = ctx.clone();
        let players: Factory<i64, PlayerActor> = Arc::new(move |uid| (PlayerActor { ctx: c.clone() }, *uid));
        let c = ctx.clone();
        let sessions: Factory<SessionKey, GameSessionActor> = Arc::new(move |k: &SessionKey| {
            let init = k.init.as_deref().cloned().expect("sessions are started only with their init");
            (GameSessionActor { ctx: c.clone() }, init)
        });
        let c = ctx.clone();
        type NodeArgs = (Arc<str>, Vec<MachineId>, Arc<NodeShared>);
        let nodes: std::collections::HashMap<i64, NodeArgs> = config
            .nodes
            .iter()
            .map(|n| {
                let shared = ctx.play_state().nodes.get(&n.id).cloned().unwrap_or_default();
                (n.id, (Arc::from(n.name.as_str()), n.machines.clone(), shared))
            })
            .collect();
        let queues: Factory<i64, QueueActor> = Arc::new(move |node| {
            let (name, machines, shared) = nodes.get(node).cloned().unwrap_or_else(|| (Arc::from(""), vec![], Arc::default()));
            let args = QueueArgs {
                node_id: *node,
                node_name: name,
                machines,
                shared,
            };
            (QueueActor { ctx: c.clone() }, args)
        });
        let err = |e: ractor::SpawnErr| e.to_string();
        let _ = ctx
            .play_state()
            .players
            .set(Registry::new("player", policy, parent.clone(), players).await.map_err(err)?);
        let _ = ctx
            .play_state()
            .sessions
            .set(Registry::new("game_session", policy, parent.clone(), sessions).await.map_err(err)?);
        let _ = ctx
            .play_state()
            .queues
            .set(Registry::new("queue", policy, parent.clone(), queues).await.map_err(err)?);
        let c = ctx.clone();
        let rooms: Factory<i64, RoomActor> = Arc::new(move |dd_rid| (RoomActor { ctx: c.clone() }, *dd_rid));
        let _ = ctx
            .rooms_state()
            .rooms
            .set(Registry::new("rooms", policy, parent.clone(), rooms).await.map_err(err)?);
        // In a cluster each node's queue starts where its lease is won (`Play::take_node`).
        if !config.leased {
            for n in &config.nodes {
                ctx.play_state().queues.get().expect("set above").get_or_start(&n.id).await?;
            }
        }
        let shop = Arc::new(crate::commerce::Shop::new(payment));
        let _ = ctx.slot::<CommerceShared>().shop.set(shop.clone());
        let (c, sh) = (ctx.clone(), shop);
        let desk: Factory<u8, crate::commerce::OrderDesk> = Arc::new(move |k| {
            (
                crate::commerce::OrderDesk {
                    ctx: c.clone(),
                    shop: sh.clone(),
                },
                *k,
            )
        });
        let _ = ctx
            .slot::<CommerceShared>()
            .desk
            .set(Registry::new("order_desk", policy, parent.clone(), desk).await.map_err(err)?);
        ctx.slot::<CommerceShared>().desk.get().expect("set above").get_or_start(&0).await?;
        let passport = Arc::new(
            Passport::new(store, sms, clock, config.register_gift_minutes, config.sms.clone()).with_site_key(config.identity.key()),
        );
        let platform = Platform::assemble(ctx, passport, root);
        if !platform.ctx.config.leased {
            platform.play.restore(open, now).await?;
        }
        platform.rooms.restore_rooms().await?;
        if let Err(e) = platform.commerce.reconcile_orders().await {
            tracing::warn!(error = %e, "open orders not reconciled with the payment provider");
        }
        Ok(platform)
    }

    /// Builds the features' services on a started context.
    fn assemble(ctx: Arc<Ctx>, passport: Arc<Passport>, root: ActorRef<SupervisorMsg>) -> Platform {
        let play = Play { ctx: ctx.clone() };
        Platform {
            accounts: Accounts {
                ctx: ctx.clone(),
                passport: passport.clone(),
            },
            activity: Activities { ctx: ctx.clone() },
            catalogue: Catalogue { ctx: ctx.clone() },
            commerce: Commerce { ctx: ctx.clone() },
            identity: Identities { ctx: ctx.clone() },
            messages: Messages { ctx: ctx.clone() },
            rooms: Rooms { ctx: ctx.clone() },
            play,
            ctx,
            passport,
            root,
        }
    }

    pub fn passport(&self) -> &Passport {
        &self.passport
    }

    pub fn clock(&self) -> Clock {
        self.ctx.clock
    }

    pub fn config(&self) -> &DomainConfig {
        &self.ctx.config
    }

    pub fn store(&self) -> &Store {
        &self.ctx.store
    }

    /// Stops every actor at once, their timers with them, and writes nothing more: what a
    /// crash of the process leaves in storage (tests of a restart on the same store).
    pub fn halt(&self) {
        fn kill_tree(cell: &ractor::ActorCell) {
            for child in cell.get_children() {
                kill_tree(&child);
            }
            cell.kill();
        }
        kill_tree(&self.root.get_cell());
    }

    /// Whether the root supervisor is still running (it stops when a kind escalates past it).
    pub fn healthy(&self) -> bool {
        matches!(self.root.get_status(), ractor::ActorStatus::Running)
    }
}
