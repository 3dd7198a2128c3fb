import { makeAutoObservable, observable, reaction, runInAction } from 'mobx';
import type { CatalogueGame } from '../../../api/types';
import { errorMessage } from '../../../transport/apiError';
import type { AppServices } from '../../../kernel/services';

/** What this store needs from the others (the root store provides it). */
export type CollectDeps = Pick<AppServices, 'api' | 'ui' | 'user'>;

/** social.md §2.4: the popover's lists and "Guess you like". */
export const PLAYED_POPOVER_SIZE = 10;
export const COLLECTED_POPOVER_SIZE = 20;
/** /user/played reads this many (the server keeps at most 100 a player). */
export const PLAYED_PAGE_SIZE = 100;
export const COLLECTED_PAGE_SIZE = 20;
export const GUESS_COUNT = 2;
export const FAVORITE_SECTION = 'favorite_game';

/** The texts of social.md §2.4 and §4.11. */
export const CollectText = {
  COLLECTED: '收藏成功',
  UNCOLLECTED: '取消收藏成功',
  CLEAR: '清空记录',
  CLEAR_CONFIRM: '记录清空后将无法恢复，确认清空吗？',
  CLEARED: '清空成功',
  PLAYED_EMPTY: '暂无最近玩过的记录',
  COLLECTED_EMPTY: '暂无收藏',
  GUESS: '猜你喜欢',
  CHANGE_BATCH: '换一批',
  VIEW_ALL: '查看全部',
} as const;

/**
 * Picks `count` games of `pool` at random, avoiding `current` while enough others remain
 * ('换一批' shows another batch).
 */
export function pickBatch<T extends { id: number }>(pool: T[], current: T[], count: number, random: () => number): T[] {
  const shown = new Set(current.map((g) => g.id));
  const fresh = pool.filter((g) => !shown.has(g.id));
  const from = fresh.length >= count ? fresh : pool;
  const rest = [...from];
  const picked: T[] = [];
  while (picked.length < count && rest.length > 0) {
    const i = Math.min(rest.length - 1, Math.floor(random() * rest.length));
    picked.push(rest.splice(i, 1)[0]);
  }
  return picked;
}

/**
 * Recently played games and favourites (social.md §2.4, §4.11): the header popover's two tabs,
 * clearing with its confirmation, the favourites pages, "Guess you like" (2 random games of the
 * favourite section, '换一批'), and collect / uncollect from any game (a guest logs in first).
 * A game's collected flag is the server's, changed here by the answers to collect and cancel.
 */
export class CollectStore {
  played: CatalogueGame[] = [];
  playedLoaded = false;
  collected: CatalogueGame[] = [];
  collectedTotal = 0;
  collectedLoaded = false;
  collectedPage = 1;
  /** the favourite section's games and the batch on show */
  section: CatalogueGame[] = [];
  guess: CatalogueGame[] = [];
  /** game id → collected, as the last collect / cancel of this page answered */
  readonly flags = observable.map<number, boolean>();
  /** games whose collect or cancel is in flight */
  readonly busy = observable.set<number>();
  error: string | null = null;
  private readonly deps: CollectDeps;
  private readonly random: () => number;

  constructor(deps: CollectDeps, random: () => number = Math.random) {
    this.deps = deps;
    this.random = random;
    makeAutoObservable<CollectStore, 'deps' | 'random'>(this, { deps: false, random: false });
  }

  /** Another user (or none): nothing of the previous one stays. */
  reset(): void {
    this.played = [];
    this.playedLoaded = false;
    this.collected = [];
    this.collectedTotal = 0;
    this.collectedLoaded = false;
    this.collectedPage = 1;
    this.flags.clear();
    this.error = null;
  }

  /** Whether a game is collected: this page's last answer, else what the game says. */
  isCollected(game: Pick<CatalogueGame, 'id' | 'collected'>): boolean {
    return this.flags.get(game.id) ?? game.collected;
  }

  /** The recently played games (logged-in only); a failure is silent (social.md §8). */
  async loadPlayed(size = PLAYED_POPOVER_SIZE): Promise<void> {
    if (!this.deps.user.isLoggedIn) return;
    try {
      const res = await this.deps.api.get('/api/v3/user/games/played', { page_size: size, field: 'logo' });
      runInAction(() => {
        this.played = res.data;
        this.playedLoaded = true;
      });
    } catch {
      runInAction(() => {
        this.playedLoaded = true;
      });
    }
  }

  /** '清空记录': asks first, then empties the list ('清空成功'). */
  async clearPlayed(): Promise<boolean> {
    const sure = await this.deps.ui.confirm({ message: CollectText.CLEAR_CONFIRM });
    if (!sure) return false;
    try {
      await this.deps.api.post('/api/user/games/played/delete', {});
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
      return false;
    }
    runInAction(() => {
      this.played = [];
    });
    this.deps.ui.success(CollectText.CLEARED);
    return true;
  }

  /** A page of the favourites with the total. */
  async loadCollected(page = 1, size = COLLECTED_POPOVER_SIZE): Promise<void> {
    if (!this.deps.user.isLoggedIn) return;
    try {
      const res = await this.deps.api.get('/api/v3/user/games/collected', { page, page_size: size, field: 'logo' });
      runInAction(() => {
        this.collected = res.data;
        this.collectedTotal = res.total;
        this.collectedPage = page;
        this.collectedLoaded = true;
        this.error = null;
      });
    } catch (e) {
      runInAction(() => {
        this.error = errorMessage(e);
        this.collectedLoaded = true;
      });
    }
  }

  /** "Guess you like": reads the favourite section once, then shows a batch of it. */
  async loadGuess(): Promise<void> {
    if (this.section.length === 0) {
      try {
        const res = await this.deps.api.get('/api/web/v1/section/game', {
          section_key: FAVORITE_SECTION,
          field: 'logo',
          page_size: 20,
        });
        runInAction(() => {
          this.section = res.games;
        });
      } catch {
        return;
      }
    }
    if (this.guess.length === 0) this.changeBatch();
  }

  /** '换一批': another 2 games of the section. */
  changeBatch(): void {
    this.guess = pickBatch(this.section, this.guess, GUESS_COUNT, this.random);
  }

  /** Collects or uncollects a game ('收藏成功' / '取消收藏成功'); a guest logs in first. */
  async toggle(game: Pick<CatalogueGame, 'id' | 'collected'>): Promise<void> {
    if (!this.deps.user.isLoggedIn) {
      this.deps.ui.openLogin();
      return;
    }
    if (this.busy.has(game.id)) return;
    const collect = !this.isCollected(game);
    this.busy.add(game.id);
    try {
      if (collect) await this.deps.api.post('/api/user/game/collect', { id: game.id });
      else await this.deps.api.post('/api/user/game/collect/cancel', { id: game.id });
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
      return;
    } finally {
      runInAction(() => this.busy.delete(game.id));
    }
    runInAction(() => {
      this.flags.set(game.id, collect);
      if (!collect && this.collected.some((g) => g.id === game.id)) {
        this.collected = this.collected.filter((g) => g.id !== game.id);
        this.collectedTotal = Math.max(0, this.collectedTotal - 1);
      }
      if (collect) this.collectedLoaded = false;
    });
    this.deps.ui.success(collect ? CollectText.COLLECTED : CollectText.UNCOLLECTED);
    // the card panel's 收藏 count is the profile's
    void this.deps.user.loadProfile();
  }
}

const stores = new WeakMap<CollectDeps, CollectStore>();

/** The one collect store of a root store, emptied when the user changes. */
export function collectStoreOf(root: CollectDeps): CollectStore {
  let s = stores.get(root);
  if (!s) {
    const store = new CollectStore(root);
    reaction(
      () => root.user.profile?.uid ?? null,
      () => store.reset(),
    );
    stores.set(root, store);
    s = store;
  }
  return s;
}
