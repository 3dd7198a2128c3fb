//! The lease protocol on simulated time, deterministically: three processes compete for three
//! names on a simulated Redis whose calls are delayed, lost (before or after Redis acts) and
//! time out, while processes crash, pause past their TTL and come back, and Redis restarts
//! empty. One seed decides every fault and delay (tokio's paused clock on one thread and a
//! seeded generator): a failing seed prints its number and runs again alone with
//! `SIM_SEED=<n> cargo test -p cluster --test lease_sim`. `make test` runs 300 seeds; the
//! benchmark run `SIM_SEEDS=10000` (BENCHMARKS.md).
//!
//! What is checked, every 10 ms of simulated time:
//! - one holder: at most one process counts a lease on a name valid, unless Redis restarted
//!   since it was taken (the fence in the store covers that window, `storage::ownership`), and
//!   then never two for longer than a TTL;
//! - fail closed: a process that counts its lease valid finds its value in Redis (no restart);
//! - progress: once the faults stop, every name has a holder within two TTLs.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use cluster::lease::{Backend, Call};
use cluster::{ClusterConfig, Lease, Leases};
use parking_lot::Mutex;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::time::{sleep, sleep_until, Instant};

const TTL: Duration = ClusterConfig::TTL;
/// The client's timeout of one call (`cluster::redis::CALL_TIMEOUT`).
const CALL_TIMEOUT: Duration = cluster::redis::CALL_TIMEOUT;
const NAMES: [&str; 3] = ["queue:1", "queue:2", "room:7"];
const PROCESSES: usize = 3;
/// Simulated time with faults, then without.
const FAULTY: Duration = Duration::from_secs(40);
const QUIET: Duration = Duration::from_secs(8);

/// The simulated Redis: keys with values and expiry times on the paused clock.
struct SimRedis {
    keys: Mutex<HashMap<String, (String, Instant)>>,
    rng: Arc<Mutex<StdRng>>,
    /// When Redis last restarted (empty).
    wiped_at: Mutex<Option<Instant>>,
    /// From then on no call is slow or lost.
    quiet_from: Instant,
}

impl SimRedis {
    fn value(&self, key: &str) -> Option<String> {
        let mut keys = self.keys.lock();
        match keys.get(key) {
            Some((_, expires)) if *expires <= Instant::now() => {
                keys.remove(key);
                None
            }
            Some((v, _)) => Some(v.clone()),
            None => None,
        }
    }

    fn wipe(&self) {
        self.keys.lock().clear();
        *self.wiped_at.lock() = Some(Instant::now());
    }
}

/// One process's connection to it: every call travels there and back with a random delay, and
/// is sometimes lost on the way there or back; the client gives up after its timeout.
struct SimConn {
    redis: Arc<SimRedis>,
    /// A paused process sends nothing until then.
    paused_until: Mutex<Option<Instant>>,
}

enum Fate {
    Answered(Duration, Duration),
    LostThere,
    LostBack(Duration),
}

impl SimConn {
    async fn call<T: Send>(&self, op: impl FnOnce(&SimRedis) -> T + Send) -> cluster::Result<T> {
        let paused = *self.paused_until.lock();
        if let Some(until) = paused {
            sleep_until(until).await;
        }
        let started = Instant::now();
        let fate = if started >= self.redis.quiet_from {
            Fate::Answered(Duration::from_micros(200), Duration::from_micros(200))
        } else {
            let mut rng = self.redis.rng.lock();
            let slow = rng.random_bool(0.05);
            let there = Duration::from_micros(rng.random_range(50..if slow { 900_000 } else { 5_000 }));
            let slow_back = rng.random_bool(0.05);
            let back = Duration::from_micros(rng.random_range(50..if slow_back { 480_000 } else { 5_000 }));
            match rng.random_range(0..100) {
                0..=1 => Fate::LostThere,
                2..=3 => Fate::LostBack(there),
                _ => Fate::Answered(there, back),
            }
        };
        let timeout = || cluster::Error::Redis("timed out".into());
        match fate {
            Fate::LostThere => {
                sleep_until(started + CALL_TIMEOUT).await;
                Err(timeout())
            }
            Fate::LostBack(there) => {
                sleep(there.min(CALL_TIMEOUT)).await;
                if there < CALL_TIMEOUT {
                    op(&self.redis);
                }
                sleep_until(started + CALL_TIMEOUT).await;
                Err(timeout())
            }
            Fate::Answered(there, back) => {
                sleep(there.min(CALL_TIMEOUT)).await;
                if there >= CALL_TIMEOUT {
                    return Err(timeout());
                }
                let out = op(&self.redis);
                if there + back >= CALL_TIMEOUT {
                    sleep_until(started + CALL_TIMEOUT).await;
                    return Err(timeout());
                }
                sleep(back).await;
                Ok(out)
            }
        }
    }
}

impl Backend for SimConn {
    fn set_nx(&self, key: String, value: String, ttl_ms: u64) -> Call<'_, bool> {
        Box::pin(self.call(move |r| {
            if r.value(&key).is_some() {
                return false;
            }
            r.keys.lock().insert(key, (value, Instant::now() + Duration::from_millis(ttl_ms)));
            true
        }))
    }

    fn renew(&self, held: Vec<(String, String)>, ttl_ms: u64) -> Call<'_, Vec<bool>> {
        Box::pin(self.call(move |r| {
            held.iter()
                .map(|(key, value)| {
                    let mine = r.value(key).as_ref() == Some(value);
                    if mine {
                        r.keys
                            .lock()
                            .insert(key.clone(), (value.clone(), Instant::now() + Duration::from_millis(ttl_ms)));
                    }
                    mine
                })
                .collect()
        }))
    }

    fn release(&self, key: String, value: String) -> Call<'_, ()> {
        Box::pin(self.call(move |r| {
            if r.value(&key).as_ref() == Some(&value) {
                r.keys.lock().remove(&key);
            }
        }))
    }

    fn get(&self, key: String) -> Call<'_, Option<String>> {
        Box::pin(self.call(move |r| r.value(&key)))
    }
}

/// A process of the simulation: its leases and whether it runs.
#[derive(Default)]
struct Proc {
    leases: HashMap<&'static str, Lease>,
    /// The value of each held lease (what Redis should hold), by name.
    values: HashMap<&'static str, String>,
    taken_at: HashMap<&'static str, Instant>,
}

/// Runs one seed; answers what it saw, or the first broken rule.
fn run(seed: u64) -> Result<Stats, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    rt.block_on(simulate(seed))
}

#[derive(Debug, Default, Clone, Copy)]
struct Stats {
    takeovers: u64,
    crashes: u64,
    pauses: u64,
    wipes: u64,
    longest_overlap_ms: u128,
}

async fn simulate(seed: u64) -> Result<Stats, String> {
    let rng = Arc::new(Mutex::new(StdRng::seed_from_u64(seed)));
    let redis = Arc::new(SimRedis {
        keys: Mutex::new(HashMap::new()),
        rng: rng.clone(),
        wiped_at: Mutex::new(None),
        quiet_from: Instant::now() + FAULTY,
    });
    let start = Instant::now();
    let procs: Vec<Arc<Mutex<Proc>>> = (0..PROCESSES).map(|_| Arc::default()).collect();
    let stats = Arc::new(Mutex::new(Stats::default()));
    let keys = cluster::redis::Keys::new("yoo");

    for (i, proc) in procs.iter().enumerate() {
        let (proc, rng, redis, stats) = (proc.clone(), rng.clone(), redis.clone(), stats.clone());
        tokio::spawn(async move {
            let config = ClusterConfig::new("redis://sim/", &format!("p{i}"), "sim");
            loop {
                let conn = Arc::new(SimConn {
                    redis: redis.clone(),
                    paused_until: Mutex::new(None),
                });
                let leases = Leases::with_backend(&config, conn.clone());
                // one life of the process, until it crashes
                loop {
                    for name in NAMES {
                        let held = proc.lock().leases.get(name).is_some_and(Lease::is_valid);
                        if !held {
                            proc.lock().leases.remove(name);
                            let asked = Instant::now();
                            if let Ok(Some(lease)) = leases.try_acquire(name).await {
                                let mut p = proc.lock();
                                p.values.insert(name, lease.value().to_owned());
                                p.taken_at.insert(name, asked);
                                p.leases.insert(name, lease);
                                stats.lock().takeovers += 1;
                            }
                        }
                    }
                    let faulty = start.elapsed() < FAULTY;
                    let (roll, jitter) = {
                        let mut r = rng.lock();
                        (r.random_range(0..1000), r.random_range(0..200u64))
                    };
                    if faulty && roll < 4 {
                        // a crash: its leases are neither released nor renewed
                        stats.lock().crashes += 1;
                        proc.lock().leases.clear();
                        sleep(Duration::from_millis(jitter * 10)).await;
                        break;
                    }
                    if faulty && roll < 8 {
                        // a pause (SIGSTOP) past the TTL: nothing goes out meanwhile
                        stats.lock().pauses += 1;
                        let until = Instant::now() + TTL + Duration::from_millis(jitter * 10);
                        *conn.paused_until.lock() = Some(until);
                        sleep_until(until).await;
                        *conn.paused_until.lock() = None;
                    }
                    // the claim poll
                    sleep(Duration::from_millis(400 + jitter / 2)).await;
                }
            }
        });
    }
    {
        let (rng, redis, stats) = (rng.clone(), redis.clone(), stats.clone());
        tokio::spawn(async move {
            loop {
                sleep(Duration::from_secs(1)).await;
                if start.elapsed() < FAULTY && rng.lock().random_range(0..100) < 3 {
                    stats.lock().wipes += 1;
                    redis.wipe();
                }
            }
        });
    }

    // the checker
    let mut overlap_since: HashMap<&str, Instant> = HashMap::new();
    let end = start + FAULTY + QUIET;
    while Instant::now() < end {
        sleep(Duration::from_millis(10)).await;
        let now = Instant::now();
        let at = now.duration_since(start).as_millis();
        let wiped_at = *redis.wiped_at.lock();
        for name in NAMES {
            let key = keys.lease(name);
            let mut holders = Vec::new();
            for (i, p) in procs.iter().enumerate() {
                let p = p.lock();
                if let Some(l) = p.leases.get(name).filter(|l| l.is_valid()) {
                    let taken = p.taken_at[name];
                    let restarted_since = wiped_at.is_some_and(|w| w >= taken);
                    if !restarted_since && redis.value(&key).as_ref() != Some(&p.values[name]) {
                        return Err(format!(
                            "seed {seed}: at {at} ms p{i} counts its lease on {name} ({}) valid, Redis holds {:?}",
                            l.name(),
                            redis.value(&key)
                        ));
                    }
                    holders.push((i, restarted_since));
                }
            }
            if holders.len() > 1 {
                if holders.iter().all(|(_, restarted)| !restarted) {
                    return Err(format!("seed {seed}: at {at} ms {name} has {} valid holders", holders.len()));
                }
                let since = *overlap_since.entry(name).or_insert(now);
                let overlap = now.duration_since(since);
                let mut s = stats.lock();
                s.longest_overlap_ms = s.longest_overlap_ms.max(overlap.as_millis());
                if overlap > TTL {
                    return Err(format!(
                        "seed {seed}: at {at} ms two holders of {name} for {overlap:?} after a Redis restart"
                    ));
                }
            } else {
                overlap_since.remove(name);
            }
            if now >= start + FAULTY + TTL * 2 && holders.is_empty() {
                return Err(format!(
                    "seed {seed}: at {at} ms, {:?} after the faults stopped, {name} has no holder",
                    TTL * 2
                ));
            }
        }
    }
    let s = *stats.lock();
    Ok(s)
}

fn seeds() -> Vec<u64> {
    if let Some(one) = std::env::var("SIM_SEED").ok().and_then(|s| s.parse().ok()) {
        return vec![one];
    }
    let n = std::env::var("SIM_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    (0..n).collect()
}

#[test]
fn the_lease_protocol_holds_over_many_seeds() {
    let started = std::time::Instant::now();
    let mut total = Stats::default();
    let seeds = seeds();
    for &seed in &seeds {
        match run(seed) {
            Ok(s) => {
                total.takeovers += s.takeovers;
                total.crashes += s.crashes;
                total.pauses += s.pauses;
                total.wipes += s.wipes;
                total.longest_overlap_ms = total.longest_overlap_ms.max(s.longest_overlap_ms);
            }
            Err(e) => panic!("{e}\nrun it alone: SIM_SEED={seed} cargo test -p cluster --test lease_sim"),
        }
    }
    println!(
        "{} seeds in {:.1} s: {} takeovers, {} crashes, {} pauses past the TTL, {} Redis restarts; longest two-holder window after a restart {} ms",
        seeds.len(),
        started.elapsed().as_secs_f64(),
        total.takeovers,
        total.crashes,
        total.pauses,
        total.wipes,
        total.longest_overlap_ms
    );
    assert!(total.takeovers > seeds.len() as u64 * 3, "the leases changed hands");
    assert!(total.crashes > 0 && total.pauses > 0, "the faults happened");
}
