//! Check-in and tasks (commerce.md §2.11, §2.12, §4.10, §4.11, §7 "Check-in and tasks"): the
//! check-in dialog's data, the check-in, its rules text; the task list, a task's detail, the
//! claim of its reward, the task reward config.

use actix_web::{get, post, web};
use actors::activity::mission::{self, CheckinResult, TaskView};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Caller;
use crate::envelope::{ok, refusals, ApiError, ApiResult, Envelope};
use crate::state::AppState;

#[derive(Serialize, ToSchema)]
pub struct SignReward {
    /// Minutes this day grants.
    pub play_time: i64,
    /// Minutes before doubling (play_time / origin_play_time = 2 on a doubled day).
    pub origin_play_time: i64,
}

#[derive(Serialize, ToSchema)]
pub struct SignItem {
    /// Checked in.
    pub sign: bool,
    /// Today's check-in (made, or to make).
    pub is_today: bool,
    /// The day of the cycle (1-based).
    pub count: i64,
    pub reward: SignReward,
}

#[derive(Serialize, ToSchema)]
pub struct SignInfo {
    pub title: String,
    pub sub_title: String,
    /// Consecutive days standing today (UTC+8).
    pub count: i64,
    /// Minutes of today's check-in (made, or to make).
    pub reward_play_time: i64,
    pub sign_in_today: bool,
    /// At most 10 day cells: the reward cycle that today falls in.
    pub sign_items: Vec<SignItem>,
}

refusals!(SignInfoRefusals: common::logged_in(), DomainError::Internal(String::new()));

/// The check-in dialog's data.
#[utoipa::path(responses((status = 200, body = Envelope<SignInfo>), SignInfoRefusals))]
#[get("/api/activity/sign/info")]
pub async fn sign_info(state: web::Data<AppState>, caller: Caller) -> ApiResult<SignInfo> {
    let i = state.platform.activity.checkin_info(caller.0.uid).await?;
    Ok(ok(SignInfo {
        title: i.title.to_owned(),
        sub_title: i.sub_title.to_owned(),
        count: i.count,
        reward_play_time: i.reward_play_time,
        sign_in_today: i.sign_in_today,
        sign_items: i
            .cells
            .into_iter()
            .map(|c| SignItem {
                sign: c.sign,
                is_today: c.is_today,
                count: c.count,
                reward: SignReward {
                    play_time: c.play_time,
                    origin_play_time: c.origin_play_time,
                },
            })
            .collect(),
    }))
}

#[derive(Serialize, ToSchema)]
pub struct SignResult {
    /// Consecutive days with this one.
    pub count: i64,
    /// Minutes granted.
    pub reward_play_time: i64,
    /// Minutes before doubling.
    pub reward_play_time_origin: i64,
    /// Tomorrow's minutes if the streak goes on.
    pub reward_play_time_next: i64,
}

impl From<CheckinResult> for SignResult {
    fn from(r: CheckinResult) -> Self {
        SignResult {
            count: r.count,
            reward_play_time: r.reward_play_time,
            reward_play_time_origin: r.reward_play_time_origin,
            reward_play_time_next: r.reward_play_time_next,
        }
    }
}

refusals!(SignInRefusals: common::logged_in(), DomainError::CheckedInToday, DomainError::Internal(String::new()));

/// Checks in for today (UTC+8): once a day; the streak goes on the day after and starts again
/// after a missed day; the free minutes are granted with their ledger entry.
#[utoipa::path(responses((status = 200, body = Envelope<SignResult>), SignInRefusals))]
#[post("/api/activity/signin")]
pub async fn sign_in(state: web::Data<AppState>, caller: Caller) -> ApiResult<SignResult> {
    Ok(ok(state.platform.activity.check_in(caller.0.uid).await?.into()))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ContentQuery {
    /// 3: the check-in rules.
    #[param(example = "3")]
    t: String,
}

#[derive(Serialize, ToSchema)]
pub struct ActivityContent {
    pub title: String,
    pub content: String,
}

refusals!(ContentRefusals: common::input());

/// An activity's text: t=3 the check-in rules.
#[utoipa::path(params(ContentQuery), responses((status = 200, body = Envelope<ActivityContent>), ContentRefusals))]
#[get("/api/activity/content")]
pub async fn content(q: web::Query<ContentQuery>) -> ApiResult<ActivityContent> {
    match q.t.trim() {
        "3" => Ok(ok(ActivityContent {
            title: "签到规则".to_owned(),
            content: mission::CHECKIN_RULES.to_owned(),
        })),
        _ => Err(ApiError::bad_request()),
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskReward {
    /// Play-time minutes.
    pub face_value: i64,
    /// The reward kind (a key of the task reward config).
    pub key: String,
    pub value: i64,
    pub value_txt: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    pub task_code: String,
    pub task_type: String,
    /// 1 daily, 2 one-off.
    pub task_class: i32,
    pub name: String,
    /// An image address; empty: the client draws the type's badge.
    pub icon: String,
    pub desc: String,
    /// 0 todo, 1 claimable, 2 done.
    pub status: i32,
    pub progress: i64,
    /// The progress that finishes it; -1: no ceiling.
    pub finish_progress: i64,
    pub rewards: Vec<TaskReward>,
}

fn task(t: TaskView) -> Task {
    let minutes = t.def.reward_minutes;
    Task {
        task_code: t.def.task_code,
        task_type: t.def.task_type,
        task_class: t.def.task_class,
        name: t.def.name,
        icon: t.def.icon,
        desc: t.def.desc,
        status: t.progress.status,
        progress: t.progress.progress,
        finish_progress: t.def.finish_progress,
        rewards: vec![TaskReward {
            face_value: minutes,
            key: "playTime".to_owned(),
            value: minutes,
            value_txt: format!("+{minutes}分钟"),
        }],
    }
}

refusals!(TaskListRefusals: common::logged_in(), DomainError::Internal(String::new()));

/// The caller's tasks, daily and one-off, with their progress today.
#[utoipa::path(responses((status = 200, body = Envelope<Vec<Task>>), TaskListRefusals))]
#[post("/api/japi/social/tsk/unfinished")]
pub async fn unfinished(state: web::Data<AppState>, caller: Caller) -> ApiResult<Vec<Task>> {
    Ok(ok(state
        .platform
        .activity
        .tasks(caller.0.uid)
        .await?
        .into_iter()
        .map(task)
        .collect()))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Receive {
    #[schema(min_length = 1, max_length = 64)]
    task_code: String,
    /// The client's class of the task; the stored one decides.
    #[serde(default)]
    #[allow(dead_code)]
    task_class: Option<i32>,
}

#[derive(Serialize, ToSchema)]
pub struct Received {
    /// What to tell the user.
    pub notice: String,
    /// The task after the claim.
    pub task: Task,
}

refusals!(ReceiveRefusals: common::input(), common::logged_in(), DomainError::UnknownTask, DomainError::TaskNotClaimable,
    DomainError::Internal(String::new()));

/// Claims a claimable task's reward, once: the minutes granted with their ledger entry.
#[utoipa::path(request_body = Receive, responses((status = 200, body = Envelope<Received>), ReceiveRefusals))]
#[post("/api/japi/social/tsk/receive")]
pub async fn receive(state: web::Data<AppState>, caller: Caller, body: web::Json<Receive>) -> ApiResult<Received> {
    let uid = caller.0.uid;
    let def = state.platform.activity.claim_task(uid, &body.task_code).await?;
    let after = state.platform.activity.task(uid, &def.task_code).await?;
    Ok(ok(Received {
        notice: format!("领取成功，获得{}分钟游戏时长", def.reward_minutes),
        task: task(after),
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct DetailQuery {
    task_code: String,
}

refusals!(TaskDetailRefusals: common::input(), common::logged_in(), DomainError::UnknownTask, DomainError::Internal(String::new()));

/// One of the caller's tasks: its status and rewards.
#[utoipa::path(params(DetailQuery), responses((status = 200, body = Envelope<Task>), TaskDetailRefusals))]
#[get("/api/japi/social/point/taskDetail")]
pub async fn task_detail(state: web::Data<AppState>, caller: Caller, q: web::Query<DetailQuery>) -> ApiResult<Task> {
    Ok(ok(task(state.platform.activity.task(caller.0.uid, &q.task_code).await?)))
}

#[derive(Serialize, ToSchema)]
pub struct RewardConfig {
    /// The reward kind (a reward item's key).
    pub key: String,
    pub icon: String,
    pub title: String,
    pub desc: String,
}

refusals!(RewardConfigRefusals: DomainError::Internal(String::new()));

/// The task reward config (task_reward_config): each reward kind's icon, title and text.
#[utoipa::path(responses((status = 200, body = Envelope<Vec<RewardConfig>>), RewardConfigRefusals))]
#[get("/api/japi/social/tsk/rewardConfig")]
pub async fn reward_config(state: web::Data<AppState>) -> ApiResult<Vec<RewardConfig>> {
    let list = state.platform.activity.task_reward_config().await?;
    Ok(ok(list
        .into_iter()
        .map(|c| RewardConfig {
            key: c.key,
            icon: c.icon,
            title: c.title,
            desc: c.desc,
        })
        .collect()))
}
