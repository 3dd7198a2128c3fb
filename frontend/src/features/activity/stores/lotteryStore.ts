import { makeAutoObservable, observable, runInAction } from 'mobx';
import type { DrawRecords, DrawResult, LotteryInfo } from '../../../api/types';
import type { Api } from '../../../transport/types';
import { errorMessage } from '../../../transport/apiError';
import { activityDisabled, activityStatus, ActivityStatus } from '../../../lib/activity';

/** The lottery the landing page shows. */
export const LOTTERY_ID = 1;
/** How long the rotary turns before it lands on the prize. */
export const SPIN_MS = 1200;
/** Lottery records per page (commerce.md §9). */
export const LOTTERY_PAGE_SIZE = 20;

/** 1 the caller's draws, 2 everyone's. */
export type RecordTab = 1 | 2;

export interface LotteryDeps {
  toast: (type: 'error' | 'success', message: string) => void;
  login: () => void;
  isLoggedIn: () => boolean;
  refreshUser: () => Promise<unknown>;
}

/** The rotary (commerce.md §2.16): prizes, the caller's chances, a draw, the winning dialog, records. */
export class LotteryStore {
  lottery: LotteryInfo | null = null;
  /** the highlighted cell while turning and after landing */
  active = -1;
  spinning = false;
  /** the winning dialog's draw */
  result: DrawResult | null = null;
  tab: RecordTab = 2;
  records: DrawRecords | null = null;
  page = 1;

  constructor(
    private readonly api: Api,
    private readonly deps: LotteryDeps,
  ) {
    makeAutoObservable<LotteryStore, 'api' | 'deps'>(this, { api: false, deps: false, lottery: observable.ref, records: observable.ref });
  }

  get items() {
    return this.lottery?.lotteryItemList ?? [];
  }

  /** Draws left today, null for a guest. */
  get chances(): number | null {
    return this.lottery?.chances ?? null;
  }

  /** 0 not started, 1 ongoing, 2 ended: from the times, read as Beijing time (lib/time), at the server's time (§4.13). */
  get status(): number {
    const l = this.lottery;
    return l ? activityStatus(l.startTime, l.endTime, l.sys_time) : ActivityStatus.ENDED;
  }

  get canDraw(): boolean {
    return !this.spinning && this.lottery !== null && !activityDisabled(this.status);
  }

  async load(): Promise<void> {
    try {
      const lottery = await this.api.post('/api/japi/social/lottery/list', { id: LOTTERY_ID });
      runInAction(() => {
        this.lottery = lottery;
      });
    } catch (e) {
      this.deps.toast('error', errorMessage(e));
    }
  }

  async loadRecords(tab: RecordTab = this.tab, page = 1): Promise<void> {
    if (tab === 1 && !this.deps.isLoggedIn()) {
      this.deps.login();
      return;
    }
    this.tab = tab;
    this.page = page;
    try {
      const records = await this.api.post('/api/japi/social/lottery/record', { id: LOTTERY_ID, type: tab, page });
      runInAction(() => {
        if (this.tab === tab && this.page === page) this.records = records;
      });
    } catch (e) {
      this.deps.toast('error', errorMessage(e));
    }
  }

  /** One draw: the rotary turns while the server draws, lands on the prize, and the dialog opens. */
  async draw(wait: (ms: number) => Promise<void>): Promise<void> {
    if (!this.deps.isLoggedIn()) {
      this.deps.login();
      return;
    }
    if (!this.canDraw) return;
    this.spinning = true;
    this.result = null;
    const n = Math.max(1, this.items.length);
    const timer = setInterval(() => runInAction(() => (this.active = (this.active + 1) % n)), 100);
    try {
      const [result] = await Promise.all([this.api.post('/api/japi/social/lottery/chance', { id: LOTTERY_ID }), wait(SPIN_MS)]);
      runInAction(() => {
        this.active = Math.max(0, this.items.findIndex((i) => i.id === result.lotteryItemId));
        this.result = result;
        if (this.lottery) this.lottery = { ...this.lottery, chances: result.chances };
      });
      if (result.won) void this.deps.refreshUser();
      void this.loadRecords(this.tab, 1);
    } catch (e) {
      this.deps.toast('error', errorMessage(e));
      void this.load();
    } finally {
      clearInterval(timer);
      runInAction(() => {
        this.spinning = false;
      });
    }
  }

  closeResult(): void {
    this.result = null;
  }
}
