import { makeAutoObservable, runInAction } from 'mobx';
import type { PlayRecord } from '../../../api/types';
import { errorMessage } from '../../../transport/apiError';
import type { Api } from '../../../transport/types';

export const HISTORY_PAGE_SIZE = 10;

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
