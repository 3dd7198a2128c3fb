//! Check-in and tasks (commerce.md §2.11, §2.12, §4.10, §4.11): the records, the repository
//! trait and the seeded configuration (the reward table by streak day, the task definitions,
//! the task reward config).
//!
//! Days are numbers (days since the epoch in UTC+8), computed by the caller from its clock;
//! storage never reads the clock. A check-in is one row per (user, day): the primary key makes a
//! second one of the same day fail whatever the concurrency. A task's progress is one row per
//! (user, task, period) (period: the day for a daily task, 0 for a one-off one); a claim is the
//! conditional move of that row from claimable (1) to done (2), in the transaction that grants
//! its reward with the ledger entry.

use crate::Result;

/// The reward of one day of the streak cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckinReward {
    /// 1-based day of the cycle.
    pub day: i64,
    /// Minutes granted.
    pub play_time: i64,
    /// Minutes before doubling (equal to `play_time` on a plain day).
    pub origin_play_time: i64,
}

/// One stored check-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckIn {
    pub uid: i64,
    pub day: i64,
    /// Consecutive days up to and including this one.
    pub streak: i64,
    pub reward: i64,
    pub origin: i64,
    pub at: i64,
}

/// A task as defined in the seeded table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskDef {
    pub task_code: String,
    /// What counts (signIn, gameStart, gamePlay, orderSuccess, gameLive, barrageInteractive, ...).
    pub task_type: String,
    /// 1 daily, 2 one-off.
    pub task_class: i32,
    pub name: String,
    /// An image address; empty: the client draws the type's badge.
    pub icon: String,
    pub desc: String,
    /// The progress that finishes it; -1: no ceiling (the first event finishes it).
    pub finish_progress: i64,
    /// Play-time minutes its claim grants.
    pub reward_minutes: i64,
    pub sort: i64,
}

/// A task's progress for one user and period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TaskProgress {
    pub progress: i64,
    /// 0 todo, 1 claimable, 2 done.
    pub status: i32,
}

/// A reward kind's presentation (task_reward_config).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskRewardConfig {
    pub key: String,
    pub icon: String,
    pub title: String,
    pub desc: String,
}

/// One progress step: (task, progress before, amount) → progress after.
pub type TaskStep = fn(&TaskDef, TaskProgress, i64) -> TaskProgress;

/// Check-in and tasks. Every balance change writes its ledger entry in the same transaction.
pub trait MissionRepo: Send + Sync {
    /// The reward table, by day.
    fn checkin_rewards(&self) -> Result<Vec<CheckinReward>>;
    /// The user's latest check-in on or before `day`.
    fn last_checkin(&self, uid: i64, day: i64) -> Result<Option<CheckIn>>;
    /// Stores the check-in of `c.day` and grants `c.reward` free minutes with its ledger entry,
    /// in one transaction; Conflict when the user checked in that day already.
    fn check_in(&self, c: &CheckIn) -> Result<()>;
    /// Every task definition, in display order.
    fn tasks(&self) -> Result<Vec<TaskDef>>;
    /// The user's progress of each task in the given period (absent: nothing yet).
    fn task_progress(&self, uid: i64, periods: &[(String, i64)]) -> Result<Vec<(String, TaskProgress)>>;
    /// Applies `step` with `amount` to the user's progress of every task of `task_type` (in its
    /// period: `day` for a daily task, 0 for a one-off one) in one transaction.
    fn advance(&self, uid: i64, task_type: &str, amount: i64, day: i64, now: i64, step: TaskStep) -> Result<()>;
    /// Claims a claimable task of the period: done, and its reward granted with the ledger entry,
    /// in one transaction. NotFound for no such task; Conflict when it is not claimable.
    fn claim(&self, uid: i64, task_code: &str, period: i64, now: i64) -> Result<TaskDef>;
    /// The reward presentation config.
    fn reward_config(&self) -> Result<Vec<TaskRewardConfig>>;
    /// Writes the seeded configuration (replacing what has the same keys).
    fn seed(&self, rewards: &[CheckinReward], tasks: &[TaskDef], config: &[TaskRewardConfig]) -> Result<()>;
}

/// The seeded reward table: a 10-day cycle, days 3, 7 and 10 doubled.
pub fn seed_rewards() -> Vec<CheckinReward> {
    let base = [5, 5, 5, 10, 10, 10, 10, 15, 15, 15];
    let doubled = [3, 7, 10];
    base.iter()
        .enumerate()
        .map(|(i, &m)| {
            let day = i as i64 + 1;
            let ratio = if doubled.contains(&day) { 2 } else { 1 };
            CheckinReward {
                day,
                play_time: m * ratio,
                origin_play_time: m,
            }
        })
        .collect()
}

/// The seeded tasks: daily ones (class 1) and one-off ones (class 2).
pub fn seed_tasks() -> Vec<TaskDef> {
    let t = |code: &str, ty: &str, class: i32, name: &str, desc: &str, finish: i64, minutes: i64, sort: i64| TaskDef {
        task_code: code.to_owned(),
        task_type: ty.to_owned(),
        task_class: class,
        name: name.to_owned(),
        icon: String::new(),
        desc: desc.to_owned(),
        finish_progress: finish,
        reward_minutes: minutes,
        sort,
    };
    vec![
        t("daily_sign_in", "signIn", 1, "每日签到", "完成当日签到", 1, 5, 1),
        t(
            "daily_game_start",
            "gameStart",
            1,
            "启动一次游戏",
            "当日启动任意一款云游戏",
            1,
            5,
            2,
        ),
        t("daily_game_play", "gamePlay", 1, "畅玩游戏30分钟", "当日累计游戏30分钟", 30, 10, 3),
        t(
            "daily_barrage",
            "barrageInteractive",
            1,
            "发送一条弹幕",
            "在一起玩房间内发送一条消息",
            1,
            5,
            4,
        ),
        t(
            "once_game_live",
            "gameLive",
            2,
            "进入一起玩房间",
            "进入任意一个一起玩房间",
            1,
            10,
            5,
        ),
        t(
            "once_order_success",
            "orderSuccess",
            2,
            "完成一笔订单",
            "购买任意商品并支付成功",
            -1,
            30,
            6,
        ),
    ]
    .into_iter()
    .chain(
        ACCOUNT_TASKS
            .iter()
            .map(|&(code, ty, name, desc, minutes, sort)| t(code, ty, 2, name, desc, 1, minutes, sort)),
    )
    .collect()
}

/// The one-off tasks the account centre finishes (code, type, name, description, minutes, sort):
/// seeded with the others, and added to an older database by [`ACCOUNT_TASKS_MIGRATION`].
pub const ACCOUNT_TASKS: [(&str, &str, &str, &str, i64, i64); 2] = [
    ("once_up_nickname", "upNickname", "修改昵称", "在账号中心修改一次昵称", 10, 7),
    ("once_up_avatar", "upAvatar", "更换头像", "在账号中心更换一次头像", 10, 8),
];

/// Adds [`ACCOUNT_TASKS`] to a database whose tasks were seeded before them (a new database is
/// seeded after the migrations, with them: the tasks table is empty then, and stays so here).
pub const ACCOUNT_TASKS_MIGRATION: &str = "
INSERT OR IGNORE INTO tasks (task_code, task_type, task_class, name, icon, descr, finish_progress, reward_minutes, sort)
SELECT 'once_up_nickname', 'upNickname', 2, '修改昵称', '', '在账号中心修改一次昵称', 1, 10, 7 WHERE EXISTS (SELECT 1 FROM tasks);
INSERT OR IGNORE INTO tasks (task_code, task_type, task_class, name, icon, descr, finish_progress, reward_minutes, sort)
SELECT 'once_up_avatar', 'upAvatar', 2, '更换头像', '', '在账号中心更换一次头像', 1, 10, 8 WHERE EXISTS (SELECT 1 FROM tasks);
";

/// The seeded reward presentation.
pub fn seed_reward_config() -> Vec<TaskRewardConfig> {
    vec![TaskRewardConfig {
        key: "playTime".to_owned(),
        icon: String::new(),
        title: "游戏时长".to_owned(),
        desc: "免费游戏时长，可畅玩云游戏".to_owned(),
    }]
}

#[cfg(test)]
mod tests {
    /// The migration adds exactly what the seed has.
    #[test]
    fn the_account_tasks_migration_matches_the_seed() {
        for (code, ty, name, desc, minutes, sort) in super::ACCOUNT_TASKS {
            let row = format!("SELECT '{code}', '{ty}', 2, '{name}', '', '{desc}', 1, {minutes}, {sort} WHERE EXISTS");
            assert!(super::ACCOUNT_TASKS_MIGRATION.contains(&row), "{row}");
            assert!(super::seed_tasks().iter().any(|t| t.task_code == code && t.task_type == ty));
        }
    }
}
