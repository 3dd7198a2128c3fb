import { makeAutoObservable, reaction, runInAction } from 'mobx';
import type { MissionTask, SignInfo, TaskRewardConfig } from '../../../api/types';
import { taskAction, TaskStatus, visibleTasks } from '../../../lib/mission';
import { ApiError, errorMessage } from '../../../transport/apiError';
import type { AppServices } from '../../../kernel/services';
import type { SignResult } from '../../../api/types';

/** What this store needs from the others (the root store provides it). */
export type MissionDeps = Pick<AppServices, 'api' | 'ui' | 'user'> & {
  /** the check-in's reward dialog (the playtime feature's) */
  playTime: { showCheckin(result: SignResult): void };
};

/** Codes of commerce.md §8 the task claim switches on. */
export const MissionCode = {
  /** the task is not finished or was claimed: reload the list and show the message */
  TASK_NOT_CLAIMABLE: 140202,
  /** a phone is needed: silently ignored on a task claim */
  PHONE_NEEDED: 20107,
} as const;

/**
 * Check-in and tasks (commerce.md §2.11, §2.12, §4.10, §4.11): the check-in dialog (its data,
 * the check-in, then the balance re-read and the play-time result dialog), the task list with
 * the reward config, a claim at a time, and what '去完成' does by task type.
 */
export class MissionStore {
  checkinOpen = false;
  info: SignInfo | null = null;
  rules: string | null = null;
  signing = false;
  tasks: MissionTask[] = [];
  rewardConfig: TaskRewardConfig[] = [];
  loaded = false;
  /** the task whose claim is in progress (others wait) */
  claiming: string | null = null;
  private readonly deps: MissionDeps;

  constructor(deps: MissionDeps) {
    this.deps = deps;
    makeAutoObservable<MissionStore, 'deps'>(this, { deps: false });
  }

  /** Another user (or none): nothing of the previous one stays. */
  reset(): void {
    this.checkinOpen = false;
    this.info = null;
    this.rules = null;
    this.tasks = [];
    this.loaded = false;
  }

  /** The tasks shown (the userIdAuthed rule). */
  get shown(): MissionTask[] {
    return visibleTasks(this.tasks, false);
  }

  // ---------------------------------------------------------------- check-in

  /** Opens the check-in dialog; a guest gets the login dialog first. */
  openCheckin(): void {
    if (!this.deps.user.isLoggedIn) {
      this.deps.ui.openLogin(() => this.openCheckin());
      return;
    }
    this.checkinOpen = true;
    void this.loadInfo();
  }

  closeCheckin(): void {
    this.checkinOpen = false;
  }

  async loadInfo(): Promise<void> {
    try {
      const info = await this.deps.api.get('/api/activity/sign/info');
      runInAction(() => {
        this.info = info;
      });
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
    }
  }

  async loadRules(): Promise<void> {
    try {
      const c = await this.deps.api.get('/api/activity/content', { t: 3 });
      runInAction(() => {
        this.rules = c.content;
      });
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
    }
  }

  closeRules(): void {
    this.rules = null;
  }

  /** '立即签到': on success the balance is re-read, the dialog closes and the result shows. */
  async checkIn(): Promise<void> {
    if (this.signing || this.info?.sign_in_today) return;
    this.signing = true;
    try {
      const result = await this.deps.api.post('/api/activity/signin', undefined);
      runInAction(() => {
        this.checkinOpen = false;
      });
      await this.deps.user.loadProfile();
      this.deps.playTime.showCheckin(result);
      void this.loadInfo();
      if (this.loaded) void this.loadTasks();
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
      void this.loadInfo();
    } finally {
      runInAction(() => {
        this.signing = false;
      });
    }
  }

  // ---------------------------------------------------------------- tasks

  async loadTasks(): Promise<void> {
    if (!this.deps.user.isLoggedIn) return;
    try {
      const [tasks, config] = await Promise.all([
        this.deps.api.post('/api/japi/social/tsk/unfinished', undefined),
        this.rewardConfig.length ? Promise.resolve(this.rewardConfig) : this.deps.api.get('/api/japi/social/tsk/rewardConfig'),
      ]);
      runInAction(() => {
        this.tasks = tasks;
        this.rewardConfig = config;
        this.loaded = true;
      });
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
    }
  }

  configOf(key: string): TaskRewardConfig | undefined {
    return this.rewardConfig.find((c) => c.key === key);
  }

  /** Status 1: claims the reward (one claim at a time); 140202 reloads and shows the message. */
  async claim(t: MissionTask): Promise<void> {
    if (this.claiming !== null || t.status !== TaskStatus.CLAIMABLE) return;
    this.claiming = t.taskCode;
    try {
      const r = await this.deps.api.post('/api/japi/social/tsk/receive', { taskCode: t.taskCode, taskClass: t.taskClass });
      this.deps.ui.success(r.notice);
      runInAction(() => {
        this.tasks = this.tasks.map((x) => (x.taskCode === r.task.taskCode ? r.task : x));
      });
      await this.deps.user.loadProfile();
    } catch (e) {
      if (e instanceof ApiError && e.code === MissionCode.PHONE_NEEDED) return;
      if (e instanceof ApiError && e.code === MissionCode.TASK_NOT_CLAIMABLE) void this.loadTasks();
      this.deps.ui.error(errorMessage(e));
    } finally {
      runInAction(() => {
        this.claiming = null;
      });
    }
  }

  /** The task button: status 0 runs the type's action, 1 claims, 2 does nothing. */
  act(t: MissionTask, navigate: (to: string) => void): void {
    if (t.status === TaskStatus.CLAIMABLE) {
      void this.claim(t);
      return;
    }
    if (t.status !== TaskStatus.TODO) return;
    const a = taskAction(t.taskType);
    if (a.kind === 'checkin') this.openCheckin();
    else if (a.kind === 'route') navigate(a.to);
    else navigate('/game/live');
  }
}

const stores = new WeakMap<MissionDeps, MissionStore>();

/** The one mission store of a root store. */
export function missionStoreOf(root: MissionDeps): MissionStore {
  let s = stores.get(root);
  if (!s) {
    const store = new MissionStore(root);
    reaction(
      () => root.user.profile?.uid ?? null,
      () => store.reset(),
    );
    // a nickname or avatar changed at the account centre finishes upNickname / upAvatar: a list
    // on show is read again (commerce.md §4.11)
    reaction(
      () => `${root.user.profile?.uid ?? ''}|${root.user.profile?.nickname ?? ''}|${root.user.profile?.avatar ?? ''}`,
      (now, before) => {
        if (store.loaded && now.split('|')[0] === before.split('|')[0]) void store.loadTasks();
      },
    );
    stores.set(root, store);
    s = store;
  }
  return s;
}
