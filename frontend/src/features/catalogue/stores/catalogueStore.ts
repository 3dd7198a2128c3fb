import { makeAutoObservable, observable, runInAction } from 'mobx';
import { ApiError, errorMessage } from '../../../transport/apiError';
import type { CatalogueGame, GameInfo } from '../../../api/types';
import type { AppServices } from '../../../kernel/services';

/** What this store needs from the others (the root store provides it). */
export type CatalogueDeps = Pick<AppServices, 'api'>;

export const PAGE_SIZE = 24;
export const HOME_PAGE_SIZE = 12;
/** core-platform.md §9: game info banner size */
const BANNER = { bannerWidth: 1920, bannerHeight: 1080 };

export interface DetailEntry {
  loading: boolean;
  info: GameInfo | null;
  /** error message; notFound when the server says the game does not exist */
  error: string | null;
  notFound: boolean;
}

/** The game library: the paged list with its keyword, the home row and game details. */
export class CatalogueStore {
  games: CatalogueGame[] = [];
  total = 0;
  page = 1;
  keyword = '';
  loading = false;
  loaded = false;
  error: string | null = null;
  homeGames: CatalogueGame[] = [];
  homeLoaded = false;
  readonly details = observable.map<number, DetailEntry>();
  /** only the newest list request may write the list */
  private listRequest = 0;
  private readonly deps: CatalogueDeps;

  constructor(deps: CatalogueDeps) {
    this.deps = deps;
    makeAutoObservable<CatalogueStore, 'deps' | 'listRequest'>(this, { deps: false, listRequest: false });
  }

  get pageCount(): number {
    return Math.max(1, Math.ceil(this.total / PAGE_SIZE));
  }

  async loadPage(page: number, keyword: string): Promise<void> {
    const p = Number.isFinite(page) && page >= 1 ? Math.floor(page) : 1;
    const kw = keyword.trim();
    const req = ++this.listRequest;
    this.page = p;
    this.keyword = kw;
    this.loading = true;
    this.error = null;
    try {
      const res = await this.deps.api.get('/api/web/v1/game/list', {
        page: p,
        page_size: PAGE_SIZE,
        keyword: kw,
      });
      if (req !== this.listRequest) return;
      runInAction(() => {
        this.games = res?.data ?? [];
        this.total = res?.total ?? 0;
        this.loaded = true;
      });
    } catch (e) {
      if (req !== this.listRequest) return;
      runInAction(() => {
        this.games = [];
        this.total = 0;
        this.error = errorMessage(e);
        this.loaded = true;
      });
    } finally {
      if (req === this.listRequest) {
        runInAction(() => {
          this.loading = false;
        });
      }
    }
  }

  async loadHome(): Promise<void> {
    try {
      const res = await this.deps.api.get('/api/web/v1/game/list', { page: 1, page_size: HOME_PAGE_SIZE });
      runInAction(() => {
        this.homeGames = res?.data ?? [];
      });
    } catch {
      // the home row stays empty; the library page shows errors
    } finally {
      runInAction(() => {
        this.homeLoaded = true;
      });
    }
  }

  detail(id: number): DetailEntry | undefined {
    return this.details.get(id);
  }

  async loadDetail(id: number): Promise<void> {
    const existing = this.details.get(id);
    this.details.set(id, { loading: true, info: existing?.info ?? null, error: null, notFound: false });
    try {
      const info = await this.deps.api.post('/api/japi/yoo/game/info', { gameId: id, ...BANNER });
      runInAction(() => {
        this.details.set(id, { loading: false, info, error: null, notFound: false });
      });
    } catch (e) {
      const notFound = e instanceof ApiError && e.code === 130100;
      runInAction(() => {
        this.details.set(id, { loading: false, info: null, error: errorMessage(e), notFound });
      });
    }
  }
}
