//! Check-in and tasks (`missions.rs` of the crate root has the trait and the seed). Every write
//! is one `BEGIN IMMEDIATE` transaction; a check-in's uniqueness is the primary key (uid, day),
//! a claim is a conditional `UPDATE ... WHERE status = 1`, and each grant writes its ledger
//! entry in the same transaction.

use crate::sql::{params, Conn, OptionalExt, Row};

use super::{ledger, Db};
use crate::missions::{CheckIn, CheckinReward, MissionRepo, TaskDef, TaskProgress, TaskRewardConfig, TaskStep};
use crate::{Error, Result};

const TASK_COLUMNS: &str = "task_code, task_type, task_class, name, icon, descr, finish_progress, reward_minutes, sort";

/// Done: the reward was claimed.
const DONE: i32 = 2;
/// Claimable.
const CLAIMABLE: i32 = 1;

pub(crate) struct SqlMissions {
    db: Db,
}

impl SqlMissions {
    pub(crate) fn new(db: Db) -> SqlMissions {
        SqlMissions { db }
    }

    /// Seeds the configuration when none is stored yet.
    pub(crate) fn seed_if_empty(&self) -> Result<()> {
        let count: i64 = self.db.lock()?.query_row("SELECT COUNT(*) FROM tasks", (), |r| r.get(0))?;
        if count == 0 {
            self.seed(
                &crate::missions::seed_rewards(),
                &crate::missions::seed_tasks(),
                &crate::missions::seed_reward_config(),
            )?;
        }
        Ok(())
    }
}

fn task_from_row(row: &Row) -> Result<TaskDef> {
    Ok(TaskDef {
        task_code: row.get(0)?,
        task_type: row.get(1)?,
        task_class: row.get(2)?,
        name: row.get(3)?,
        icon: row.get(4)?,
        desc: row.get(5)?,
        finish_progress: row.get(6)?,
        reward_minutes: row.get(7)?,
        sort: row.get(8)?,
    })
}

fn checkin_from_row(row: &Row) -> Result<CheckIn> {
    Ok(CheckIn {
        uid: row.get(0)?,
        day: row.get(1)?,
        streak: row.get(2)?,
        reward: row.get(3)?,
        origin: row.get(4)?,
        at: row.get(5)?,
    })
}

fn progress_of(conn: &Conn<'_>, uid: i64, task_code: &str, period: i64) -> Result<Option<TaskProgress>> {
    conn.prepare_cached("SELECT progress, status FROM task_progress WHERE uid = ?1 AND task_code = ?2 AND period = ?3")?
        .query_row(params![uid, task_code, period], |r| {
            Ok(TaskProgress {
                progress: r.get(0)?,
                status: r.get(1)?,
            })
        })
        .optional()
}

impl MissionRepo for SqlMissions {
    fn checkin_rewards(&self) -> Result<Vec<CheckinReward>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached("SELECT day, play_time, origin_play_time FROM checkin_rewards ORDER BY day")?;
        let rows = stmt.query_map((), |r| {
            Ok(CheckinReward {
                day: r.get(0)?,
                play_time: r.get(1)?,
                origin_play_time: r.get(2)?,
            })
        })?;
        rows.collect::<Result<Vec<_>>>()
    }

    fn last_checkin(&self, uid: i64, day: i64) -> Result<Option<CheckIn>> {
        self.db
            .lock()?
            .prepare_cached(
                "SELECT uid, day, streak, reward, origin, at FROM checkins WHERE uid = ?1 AND day <= ?2
                 ORDER BY day DESC LIMIT 1",
            )?
            .query_row(params![uid, day], checkin_from_row)
            .optional()
    }

    fn check_in(&self, c: &CheckIn) -> Result<()> {
        if c.reward < 0 || c.origin < 0 || c.streak < 1 {
            return Err(Error::Conflict(format!("bad check-in {c:?}")));
        }
        self.db.write(|tx| {
            tx.prepare_cached("INSERT INTO checkins (uid, day, streak, reward, origin, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")?
                .execute(params![c.uid, c.day, c.streak, c.reward, c.origin, c.at])?;
            ledger::add_play_time(tx, c.uid, c.reward, 0, "checkin", &format!("checkin:{}", c.day), c.at)
        })
    }

    fn tasks(&self) -> Result<Vec<TaskDef>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached(&format!("SELECT {TASK_COLUMNS} FROM tasks ORDER BY sort, task_code"))?;
        let rows = stmt.query_map((), task_from_row)?;
        rows.collect::<Result<Vec<_>>>()
    }

    fn task_progress(&self, uid: i64, periods: &[(String, i64)]) -> Result<Vec<(String, TaskProgress)>> {
        let conn = self.db.lock()?;
        let mut out = Vec::new();
        for (code, period) in periods {
            if let Some(p) = progress_of(&conn, uid, code, *period)? {
                out.push((code.clone(), p));
            }
        }
        Ok(out)
    }

    fn advance(&self, uid: i64, task_type: &str, amount: i64, day: i64, now: i64, step: TaskStep) -> Result<()> {
        self.db.write(|tx| {
            let defs: Vec<TaskDef> = {
                let mut stmt = tx.prepare_cached(&format!("SELECT {TASK_COLUMNS} FROM tasks WHERE task_type = ?1"))?;
                let rows = stmt.query_map([task_type], task_from_row)?;
                rows.collect::<Result<Vec<_>>>()?
            };
            for def in defs {
                let period = if def.task_class == 1 { day } else { 0 };
                let before = progress_of(tx, uid, &def.task_code, period)?.unwrap_or_default();
                let after = step(&def, before, amount);
                if after == before {
                    continue;
                }
                tx.prepare_cached(
                    "INSERT INTO task_progress (uid, task_code, period, progress, status, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                     ON CONFLICT (uid, task_code, period) DO UPDATE
                         SET progress = excluded.progress, status = excluded.status, updated_at = excluded.updated_at
                         WHERE task_progress.status < 2",
                )?
                .execute(params![uid, def.task_code, period, after.progress, after.status, now])?;
            }
            Ok(())
        })
    }

    fn claim(&self, uid: i64, task_code: &str, period: i64, now: i64) -> Result<TaskDef> {
        self.db.write(|tx| {
            let def = tx
                .prepare_cached(&format!("SELECT {TASK_COLUMNS} FROM tasks WHERE task_code = ?1"))?
                .query_row([task_code], task_from_row)
                .optional()?
                .ok_or(Error::NotFound)?;
            let moved = tx
                .prepare_cached(
                    "UPDATE task_progress SET status = ?4, updated_at = ?5
                     WHERE uid = ?1 AND task_code = ?2 AND period = ?3 AND status = ?6",
                )?
                .execute(params![uid, task_code, period, DONE, now, CLAIMABLE])?;
            if moved == 0 {
                return Err(Error::Conflict(format!("task {task_code} not claimable")));
            }
            ledger::add_play_time(tx, uid, def.reward_minutes, 0, "task", &format!("task:{task_code}:{period}"), now)?;
            Ok(def)
        })
    }

    fn reward_config(&self) -> Result<Vec<TaskRewardConfig>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached("SELECT key, icon, title, descr FROM task_reward_config ORDER BY key")?;
        let rows = stmt.query_map((), |r| {
            Ok(TaskRewardConfig {
                key: r.get(0)?,
                icon: r.get(1)?,
                title: r.get(2)?,
                desc: r.get(3)?,
            })
        })?;
        rows.collect::<Result<Vec<_>>>()
    }

    fn seed(&self, rewards: &[CheckinReward], tasks: &[TaskDef], config: &[TaskRewardConfig]) -> Result<()> {
        self.db.write(|tx| {
            for r in rewards {
                tx.execute(
                    "INSERT INTO checkin_rewards (day, play_time, origin_play_time) VALUES (?1, ?2, ?3)
                     ON CONFLICT (day) DO UPDATE SET play_time = excluded.play_time, origin_play_time = excluded.origin_play_time",
                    params![r.day, r.play_time, r.origin_play_time],
                )?;
            }
            for t in tasks {
                tx.execute(
                    &format!(
                        "INSERT INTO tasks ({TASK_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                         ON CONFLICT (task_code) DO UPDATE SET {}",
                        crate::sql::update_all(TASK_COLUMNS, "task_code")
                    ),
                    params![
                        t.task_code,
                        t.task_type,
                        t.task_class,
                        t.name,
                        t.icon,
                        t.desc,
                        t.finish_progress,
                        t.reward_minutes,
                        t.sort
                    ],
                )?;
            }
            for c in config {
                tx.execute(
                    "INSERT INTO task_reward_config (key, icon, title, descr) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (key) DO UPDATE SET icon = excluded.icon, title = excluded.title, descr = excluded.descr",
                    params![c.key, c.icon, c.title, c.desc],
                )?;
            }
            Ok(())
        })
    }
}
