//! Check-in and tasks (commerce.md §2.11, §2.12, §4.10, §4.11).
//!
//! Pure rules first (unit-tested below): the Beijing day (UTC+8) of a time, the streak (one more
//! on the day after the last check-in, 1 after a missed day), the streak's day in the reward
//! cycle, the day cells of the check-in dialog, the double rule (ratio 2), and the task state
//! machine (0 todo → 1 claimable when progress reaches finishProgress, or at the first event
//! when it has no ceiling (-1) → 2 done by a claim; nothing moves a done task).
//!
//! Then the platform's calls. A check-in is stored once per (user, day) with its free minutes
//! and ledger entry in one transaction (the storage's primary key refuses a second one, however
//! concurrent); a claim moves a claimable task to done and grants its reward in one
//! transaction. [`task_event`] is the one hook the platform's real events call (a check-in, a
//! game start, a charged minute, a fulfilled order, a room entry, a chat message, a nickname or
//! avatar changed at the account centre).

use crate::activity::service::Activities;
use storage::missions::{CheckIn, CheckinReward, TaskDef, TaskProgress, TaskRewardConfig};

use crate::ctx::Ctx;
use crate::error::{DomainError, DomainResult};
use crate::view::{Changed, Push};

/// The most day cells the check-in dialog shows.
pub const MAX_CELLS: usize = 10;

/// The check-in dialog's title and subtitle.
pub const CHECKIN_TITLE: &str = "每日签到";
pub const CHECKIN_SUB_TITLE: &str = "连续签到领取免费游戏时长，第3、7、10天奖励翻倍";

/// The rules text (`activity/content?t=3`).
pub const CHECKIN_RULES: &str = "1. 每个自然日（北京时间）可签到一次，签到即可获得免费游戏时长；\n\
2. 连续签到天数越多奖励越多，第3、7、10天奖励翻倍；\n\
3. 中断签到后，连续天数从第1天重新计算；连续签到满10天后重新从第1天开始循环；\n\
4. 签到获得的免费游戏时长立即到账，可在“我的时长”中查看。";

/// The streak a check-in on `today` makes, after the last one `last` = (day, streak).
pub fn next_streak(last: Option<(i64, i64)>, today: i64) -> i64 {
    match last {
        Some((day, streak)) if day == today - 1 => streak.saturating_add(1),
        _ => 1,
    }
}

/// The consecutive days standing on `today`: the last streak when it ended today or yesterday,
/// else 0 (a missed day broke it).
pub fn standing_streak(last: Option<(i64, i64)>, today: i64) -> i64 {
    match last {
        Some((day, streak)) if day == today || day == today - 1 => streak,
        _ => 0,
    }
}

/// The 1-based day of the reward cycle of `len` days that streak day `streak` falls on.
pub fn cycle_day(streak: i64, len: usize) -> i64 {
    let len = len.max(1) as i64;
    (streak.max(1) - 1) % len + 1
}

/// (play_time, origin_play_time) of streak day `streak`; (0, 0) without a table.
pub fn reward_for(rewards: &[CheckinReward], streak: i64) -> (i64, i64) {
    let day = cycle_day(streak, rewards.len());
    rewards
        .iter()
        .find(|r| r.day == day)
        .map_or((0, 0), |r| (r.play_time, r.origin_play_time))
}

/// A reward counts as doubled when play_time / origin_play_time = 2.
pub fn is_double(play_time: i64, origin: i64) -> bool {
    origin > 0 && play_time == origin * 2
}

/// One day cell of the check-in dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayCell {
    /// Checked in.
    pub sign: bool,
    /// Today's check-in (made, or to make).
    pub is_today: bool,
    /// The day of the cycle (1-based).
    pub count: i64,
    pub play_time: i64,
    pub origin_play_time: i64,
}

/// The cells of the cycle that today's check-in (made or to make) falls in.
pub fn day_cells(rewards: &[CheckinReward], standing: i64, signed_today: bool) -> Vec<DayCell> {
    if rewards.is_empty() {
        return Vec::new();
    }
    let today = if signed_today { standing.max(1) } else { standing + 1 };
    let start = today - cycle_day(today, rewards.len()) + 1;
    (0..rewards.len().min(MAX_CELLS) as i64)
        .map(|k| {
            let s = start + k;
            let (play_time, origin_play_time) = reward_for(rewards, s);
            DayCell {
                sign: s <= standing,
                is_today: s == today,
                count: k + 1,
                play_time,
                origin_play_time,
            }
        })
        .collect()
}

/// The task state machine: `amount` of the task's event moves a todo task on; nothing else
/// changes by an event.
pub fn step(def: &TaskDef, p: TaskProgress, amount: i64) -> TaskProgress {
    if p.status != 0 || amount <= 0 {
        return p;
    }
    let progress = p.progress.saturating_add(amount);
    if def.finish_progress < 0 {
        return TaskProgress { progress, status: 1 };
    }
    let progress = progress.min(def.finish_progress);
    TaskProgress {
        progress,
        status: i32::from(progress >= def.finish_progress),
    }
}

/// The period of a task's progress on `day`: the day for a daily task (class 1), 0 for a
/// one-off one.
pub fn period(def: &TaskDef, day: i64) -> i64 {
    if def.task_class == 1 {
        day
    } else {
        0
    }
}

/// An event of the platform that moves tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskEvent {
    /// A check-in.
    SignIn,
    /// A game session started (queued or handed a machine).
    GameStart,
    /// Minutes played (charged).
    GamePlay(i64),
    /// An order fulfilled.
    Order,
    /// A live room entered.
    GameLive,
    /// A chat message sent in a room.
    Barrage,
    /// The nickname changed (at the account centre).
    UpNickname,
    /// The avatar changed (at the account centre).
    UpAvatar,
}

impl TaskEvent {
    /// The task types the event counts for, and by how much.
    pub fn counts(self) -> (&'static [&'static str], i64) {
        match self {
            TaskEvent::SignIn => (&["signIn"], 1),
            TaskEvent::GameStart => (&["gameStart"], 1),
            TaskEvent::GamePlay(m) => (&["gamePlay"], m),
            TaskEvent::Order => (&["order", "orderSuccess"], 1),
            TaskEvent::GameLive => (&["gameLive"], 1),
            TaskEvent::Barrage => (&["barrageInteractive"], 1),
            TaskEvent::UpNickname => (&["upNickname"], 1),
            TaskEvent::UpAvatar => (&["upAvatar"], 1),
        }
    }
}

/// Records an event for the user's tasks. Never fails its caller: a failure is logged.
pub async fn task_event(ctx: &Ctx, uid: i64, event: TaskEvent) {
    let now = ctx.clock.now_ms();
    let day = crate::beijing::day(now);
    let (types, amount) = event.counts();
    let done = ctx
        .db(move |s| {
            for t in types {
                s.missions.advance(uid, t, amount, day, now, step)?;
            }
            Ok(())
        })
        .await;
    if let Err(e) = done {
        tracing::warn!(uid, ?event, error = %e, "task progress not recorded");
    }
}

/// The check-in dialog's data (`activity/sign/info`).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckinInfo {
    pub title: &'static str,
    pub sub_title: &'static str,
    /// Consecutive days standing.
    pub count: i64,
    /// Today's reward (made, or to make).
    pub reward_play_time: i64,
    pub sign_in_today: bool,
    pub cells: Vec<DayCell>,
}

/// What a check-in made (`activity/signin`).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckinResult {
    pub count: i64,
    pub reward_play_time: i64,
    pub reward_play_time_origin: i64,
    /// Tomorrow's reward if the streak goes on.
    pub reward_play_time_next: i64,
}

/// A task with the user's progress in its current period.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskView {
    pub def: TaskDef,
    pub progress: TaskProgress,
}

impl Activities {
    /// The check-in dialog's data for today (UTC+8).
    pub async fn checkin_info(&self, uid: i64) -> DomainResult<CheckinInfo> {
        let today = crate::beijing::day(self.ctx.clock.now_ms());
        let (rewards, last) = self
            .ctx
            .db(move |s| Ok((s.missions.checkin_rewards()?, s.missions.last_checkin(uid, today)?)))
            .await?;
        let last = last.map(|c| (c.day, c.streak));
        let sign_in_today = last.is_some_and(|(d, _)| d == today);
        let count = standing_streak(last, today);
        let today_streak = if sign_in_today { count } else { next_streak(last, today) };
        Ok(CheckinInfo {
            title: CHECKIN_TITLE,
            sub_title: CHECKIN_SUB_TITLE,
            count,
            reward_play_time: reward_for(&rewards, today_streak).0,
            sign_in_today,
            cells: day_cells(&rewards, count, sign_in_today),
        })
    }

    /// Checks the user in today: once a day; the free minutes with their ledger entry in the
    /// same transaction; then the signIn tasks move and the sockets re-read the balance.
    pub async fn check_in(&self, uid: i64) -> DomainResult<CheckinResult> {
        let now = self.ctx.clock.now_ms();
        let today = crate::beijing::day(now);
        let (rewards, last) = self
            .ctx
            .db(move |s| Ok((s.missions.checkin_rewards()?, s.missions.last_checkin(uid, today)?)))
            .await?;
        let last = last.map(|c| (c.day, c.streak));
        if last.is_some_and(|(d, _)| d == today) {
            return Err(DomainError::CheckedInToday);
        }
        let streak = next_streak(last, today);
        let (reward, origin) = reward_for(&rewards, streak);
        let c = CheckIn {
            uid,
            day: today,
            streak,
            reward,
            origin,
            at: now,
        };
        match self.ctx.db_raw(move |s| s.missions.check_in(&c)).await? {
            Ok(()) => {}
            Err(storage::Error::Conflict(_)) => return Err(DomainError::CheckedInToday),
            Err(storage::Error::NotFound) => return Err(DomainError::NotLoggedIn),
            Err(e) => return Err(e.into()),
        }
        task_event(&self.ctx, uid, TaskEvent::SignIn).await;
        self.ctx.bus.publish(&uid, &Push::Changed(Changed::Balance));
        self.play().play_time_added(uid).await?;
        Ok(CheckinResult {
            count: streak,
            reward_play_time: reward,
            reward_play_time_origin: origin,
            reward_play_time_next: reward_for(&rewards, streak + 1).0,
        })
    }

    /// Every task with the user's progress in its current period.
    pub async fn tasks(&self, uid: i64) -> DomainResult<Vec<TaskView>> {
        let day = crate::beijing::day(self.ctx.clock.now_ms());
        self.ctx
            .db(move |s| {
                let defs = s.missions.tasks()?;
                let periods: Vec<(String, i64)> = defs.iter().map(|d| (d.task_code.clone(), period(d, day))).collect();
                let got = s.missions.task_progress(uid, &periods)?;
                Ok(defs
                    .into_iter()
                    .map(|def| {
                        let progress = got.iter().find(|(c, _)| *c == def.task_code).map(|(_, p)| *p).unwrap_or_default();
                        TaskView { def, progress }
                    })
                    .collect())
            })
            .await
    }

    /// One task of the user's.
    pub async fn task(&self, uid: i64, task_code: &str) -> DomainResult<TaskView> {
        self.tasks(uid)
            .await?
            .into_iter()
            .find(|t| t.def.task_code == task_code)
            .ok_or(DomainError::UnknownTask)
    }

    /// Claims a claimable task's reward once (its current period's); the sockets re-read the
    /// balance.
    pub async fn claim_task(&self, uid: i64, task_code: &str) -> DomainResult<TaskDef> {
        let now = self.ctx.clock.now_ms();
        let day = crate::beijing::day(now);
        let code = task_code.to_owned();
        let defs = self.ctx.db(|s| s.missions.tasks()).await?;
        let def = defs.into_iter().find(|d| d.task_code == code).ok_or(DomainError::UnknownTask)?;
        let p = period(&def, day);
        let def = match self.ctx.db_raw(move |s| s.missions.claim(uid, &code, p, now)).await? {
            Ok(def) => def,
            Err(storage::Error::NotFound) => return Err(DomainError::UnknownTask),
            Err(storage::Error::Conflict(_)) => return Err(DomainError::TaskNotClaimable),
            Err(e) => return Err(e.into()),
        };
        self.ctx.bus.publish(&uid, &Push::Changed(Changed::Balance));
        self.play().play_time_added(uid).await?;
        Ok(def)
    }

    /// The task reward presentation (task_reward_config).
    pub async fn task_reward_config(&self) -> DomainResult<Vec<TaskRewardConfig>> {
        self.ctx.db(|s| s.missions.reward_config()).await
    }

    /// Records a platform event for the user's tasks (see [`task_event`]).
    pub async fn task_event(&self, uid: i64, event: TaskEvent) {
        task_event(&self.ctx, uid, event).await;
    }
}

/// Counts what players do in their games towards their missions (`play::ports::PlayObserver`).
pub struct MissionCounter;

impl crate::play::ports::PlayObserver for MissionCounter {
    fn observe(&self, ctx: std::sync::Arc<Ctx>, event: crate::play::ports::PlayEvent) -> futures_util::future::BoxFuture<'static, ()> {
        use crate::play::ports::PlayEvent;
        Box::pin(async move {
            match event {
                PlayEvent::GameStart { uid } => task_event(&ctx, uid, TaskEvent::GameStart).await,
                PlayEvent::MinutePlayed { uid } => task_event(&ctx, uid, TaskEvent::GamePlay(1)).await,
                PlayEvent::OwnGameConfirmed { .. } => {}
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewards() -> Vec<CheckinReward> {
        storage::missions::seed_rewards()
    }

    fn def(finish: i64) -> TaskDef {
        TaskDef {
            task_code: "t".into(),
            task_type: "gamePlay".into(),
            task_class: 1,
            name: "n".into(),
            icon: String::new(),
            desc: String::new(),
            finish_progress: finish,
            reward_minutes: 5,
            sort: 0,
        }
    }

    #[test]
    fn beijing_days_turn_at_utc_sixteen() {
        // 2026-01-01T15:59:59.999Z is 23:59:59.999 in Beijing; a millisecond later is the next day.
        let t = 1_767_283_199_999;
        assert_eq!(crate::beijing::day(t) + 1, crate::beijing::day(t + 1));
        assert_eq!(crate::beijing::day(t - 23 * 3600 * 1000), crate::beijing::day(t));
        assert_eq!(
            crate::beijing::day(-crate::beijing::OFFSET_MS - 1),
            -1,
            "before the epoch rounds down"
        );
    }

    #[test]
    fn streak_goes_on_the_next_day_and_resets_after_a_missed_one() {
        assert_eq!(next_streak(None, 100), 1);
        assert_eq!(next_streak(Some((99, 4)), 100), 5);
        assert_eq!(next_streak(Some((98, 4)), 100), 1, "a missed day");
        assert_eq!(standing_streak(Some((100, 4)), 100), 4);
        assert_eq!(standing_streak(Some((99, 4)), 100), 4);
        assert_eq!(standing_streak(Some((98, 4)), 100), 0);
        assert_eq!(standing_streak(None, 100), 0);
    }

    #[test]
    fn rewards_cycle_and_double() {
        let r = rewards();
        assert_eq!(r.len(), 10);
        assert_eq!(cycle_day(1, 10), 1);
        assert_eq!(cycle_day(10, 10), 10);
        assert_eq!(cycle_day(11, 10), 1);
        assert_eq!(reward_for(&r, 1), (5, 5));
        assert_eq!(reward_for(&r, 3), (10, 5));
        assert!(is_double(10, 5));
        assert!(!is_double(5, 5));
        assert!(!is_double(0, 0));
        assert_eq!(reward_for(&r, 13), reward_for(&r, 3));
        assert_eq!(reward_for(&[], 3), (0, 0));
    }

    #[test]
    fn cells_mark_signed_days_and_today() {
        let r = rewards();
        let fresh = day_cells(&r, 0, false);
        assert_eq!(fresh.len(), 10);
        assert!(fresh[0].is_today && !fresh[0].sign);
        assert!(fresh.iter().all(|c| !c.sign));
        let signed = day_cells(&r, 2, true);
        assert_eq!(
            signed.iter().map(|c| (c.sign, c.is_today)).take(3).collect::<Vec<_>>(),
            vec![(true, false), (true, true), (false, false)]
        );
        let next = day_cells(&r, 2, false);
        assert_eq!(
            next.iter().map(|c| (c.sign, c.is_today)).take(3).collect::<Vec<_>>(),
            vec![(true, false), (true, false), (false, true)]
        );
        // Day 11 starts the cycle again.
        let wrap = day_cells(&r, 10, false);
        assert!(wrap[0].is_today && wrap.iter().all(|c| !c.sign));
        assert_eq!(wrap[2].count, 3);
        assert!(is_double(wrap[2].play_time, wrap[2].origin_play_time));
    }

    #[test]
    fn task_state_machine() {
        let d = def(30);
        let p = step(&d, TaskProgress::default(), 10);
        assert_eq!(p, TaskProgress { progress: 10, status: 0 });
        let p = step(&d, p, 25);
        assert_eq!(p, TaskProgress { progress: 30, status: 1 }, "capped and claimable");
        assert_eq!(step(&d, p, 5), p, "a claimable task stays");
        let done = TaskProgress { progress: 30, status: 2 };
        assert_eq!(step(&d, done, 5), done, "a done task stays");
        assert_eq!(step(&d, TaskProgress::default(), 0), TaskProgress::default());
        assert_eq!(step(&d, TaskProgress::default(), -5), TaskProgress::default(), "no negative steps");
        let open = def(-1);
        assert_eq!(step(&open, TaskProgress::default(), 1), TaskProgress { progress: 1, status: 1 });
        assert_eq!(
            step(
                &d,
                TaskProgress {
                    progress: i64::MAX,
                    status: 0
                },
                1
            )
            .status,
            1
        );
        assert_eq!(period(&d, 7), 7);
        assert_eq!(period(&TaskDef { task_class: 2, ..d }, 7), 0);
    }
}
