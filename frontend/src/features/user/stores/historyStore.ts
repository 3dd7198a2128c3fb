import { makeAutoObservable, runInAction } from 'mobx';
import type { EndReason, PlayRecord } from '../../../api/types';
import { errorMessage } from '../../../transport/apiError';
import type { Api } from '../../../transport/types';

export const HISTORY_PAGE_SIZE = 10;

/** Why a session ended, as the history says it. */
const END_REASON_TEXT: Record<EndReason, string> = {
  over: '玩家退出',
  time_up: '时长用尽',
  game_exited: '游戏已退出',
  host_lost: '游戏主机断开',
  server_restart: '服务维护',
  missed: '错过排队',
  gave_up: '放弃进入',
  cancelled: '已取消',
};

export function endReasonText(reason: string | null | undefined): string {
  if (!reason) return '游戏中';
  return (END_REASON_TEXT as Record<string, string>)[reason] ?? '已结束';
}

/** The player's played sessions (GET game/history), a page at a time, newest first. */
export class HistoryStore {
  items: PlayRecord[] = [];
  total = 0;
  page = 1;
  loading = false;
  error: string | null = null;
  private readonly api: Api;
  /** bumped at every load: a slow answer for an older page is dropped */
  private generation = 0;

  constructor(api: Api) {
    this.api = api;
    makeAutoObservable<HistoryStore, 'api' | 'generation'>(this, { api: false, generation: false });
  }

  get pages(): number {
    return Math.max(1, Math.ceil(this.total / HISTORY_PAGE_SIZE));
  }

  async load(page = this.page): Promise<void> {
    const gen = ++this.generation;
    this.loading = true;
    this.error = null;
    try {
      const h = await this.api.get('/api/japi/yoo/game/history', { page, page_size: HISTORY_PAGE_SIZE });
      runInAction(() => {
        if (gen !== this.generation) return;
        this.items = h.data;
        this.total = h.total;
        this.page = page;
      });
    } catch (e) {
      runInAction(() => {
        if (gen === this.generation) this.error = errorMessage(e);
      });
    } finally {
      runInAction(() => {
        if (gen === this.generation) this.loading = false;
      });
    }
  }
}
