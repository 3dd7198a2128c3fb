// The ad slots a page shows (commerce.md §2.2, §2.8, §2.9, §2.15; core-platform.md §9): each
// slot's items read from the server (the slots asked for in one turn go in one request), what a
// click does, and which section ads this user is out of pay times on. A chunk of its own with
// the slot's view: the header's slots add nothing to the home page's scripts.
import { makeAutoObservable, observable, reaction, runInAction } from 'mobx';
import type { AdItem } from '../../../api/types';
import { isClickableAd, parseAdAction, type AdRequest } from '../../../lib/adAction';
import type { AppServices } from '../../../kernel/services';
import { runAdAction } from '../components/AdActionRunner';

/** What this store needs from the others (the root store provides it). */
export type AdStoreDeps = Pick<AppServices, 'api' | 'ui' | 'user' | 'openPurchase'>;

/** The read of the slots (the path is the server's, `facade/src/routes/ads.rs`). */
export const AD_SLOTS_PATH = '/api/web/v1/ad/slots';

/** Target types a click handles besides §2.15's purchases: a site address, a game. */
const TARGET_URL = 0;
const TARGET_GAME = 2;

export class AdStore {
  /** each loaded slot's items, in order */
  private readonly slots = observable.map<string, AdItem[]>({}, { deep: false });
  /** ads a purchase answered 70109 on since their slot was read */
  private readonly exhausted = observable.set<number>();
  /** slots asked for and not yet requested (sent together at the end of the turn) */
  private pending = new Set<string>();
  private flushing: Promise<void> | null = null;
  private readonly stopUser: () => void;

  constructor(private readonly deps: AdStoreDeps) {
    makeAutoObservable<AdStore, 'deps' | 'pending' | 'flushing' | 'stopUser'>(this, {
      deps: false,
      pending: false,
      flushing: false,
      stopUser: false,
    });
    // another user (or a guest): every shown slot is read again for them
    this.stopUser = reaction(
      () => (this.deps.user.ready ? (this.deps.user.profile?.uid ?? 0) : null),
      () => this.reload([...this.slots.keys()]),
    );
  }

  /** The items of a slot (none until read). */
  items(slot: string): AdItem[] {
    return this.slots.get(slot) ?? [];
  }

  /** Whether the slot was read. */
  loaded(slot: string): boolean {
    return this.slots.has(slot);
  }

  /** Whether this user is out of the ad's pay times (the server said so, or a purchase did). */
  isOut(item: AdItem): boolean {
    return item.out_of_pay_times || this.exhausted.has(item.id);
  }

  /** Whether a click does something: not a type-4 item (§2.15), not out of pay times. */
  clickable(item: AdItem): boolean {
    return isClickableAd(item.target_type) && !this.isOut(item) && this.actionOf(item) !== null;
  }

  /** A view shows the slot: it is read once (with the other slots asked for in this turn). */
  want(slot: string): void {
    if (this.slots.has(slot)) return;
    this.reload([slot]);
  }

  private reload(slots: string[]): void {
    for (const s of slots) this.pending.add(s);
    if (this.flushing || this.pending.size === 0) return;
    this.flushing = Promise.resolve().then(() => this.flush());
  }

  private async flush(): Promise<void> {
    const keys = [...this.pending];
    this.pending = new Set();
    try {
      const read = await this.deps.api.get(AD_SLOTS_PATH, { keys: keys.join(',') });
      runInAction(() => {
        for (const s of read) {
          this.slots.set(s.key, s.items);
          for (const i of s.items) this.exhausted.delete(i.id);
        }
      });
    } catch {
      // a slot that cannot be read shows nothing
      runInAction(() => {
        for (const k of keys) if (!this.slots.has(k)) this.slots.set(k, []);
      });
    } finally {
      this.flushing = null;
      if (this.pending.size > 0) this.reload([]);
    }
  }

  /** Marks an ad out of pay times (a purchase through it answered 70109, commerce.md §2.15). */
  markOut(id: number): void {
    this.exhausted.add(id);
  }

  /** The slots holding the ad, read again (an order through it changed its pay times). */
  private refreshAd(id: number): void {
    this.reload([...this.slots.entries()].filter(([, items]) => items.some((i) => i.id === id)).map(([k]) => k));
  }

  private actionOf(item: AdItem): AdRequest | 'navigate' | null {
    if (item.target_type === TARGET_URL) return /^\/(?!\/)/.test(item.target_value) ? 'navigate' : null;
    if (item.target_type === TARGET_GAME) return /^\d+$/.test(item.target_value.trim()) ? 'navigate' : null;
    return parseAdAction(item.target_type, item.target_value, item.need_login);
  }

  /** A click on an item: its action, after a login when it needs one (need_login). */
  click(item: AdItem): void {
    if (!this.clickable(item)) return;
    const action = this.actionOf(item);
    if (action === null) return;
    if (action === 'navigate') {
      const path = item.target_type === TARGET_GAME ? `/game/detail/${item.target_value.trim()}` : item.target_value;
      if (item.need_login && !this.deps.user.isLoggedIn) this.deps.ui.openLogin(() => this.deps.ui.navigate(path));
      else this.deps.ui.navigate(path);
      return;
    }
    const ad = action.action.kind === 'goodsCode' ? { id: item.id, outOfPayTimes: () => this.markOut(item.id), ordered: () => this.refreshAd(item.id) } : undefined;
    runAdAction(this.deps, ad ? { ...action, ad } : action);
  }

  dispose(): void {
    this.stopUser();
  }
}

const stores = new WeakMap<AdStoreDeps, AdStore>();

/** The ad store of a root store, created on first use. */
export function adStoreOf(root: AdStoreDeps): AdStore {
  let s = stores.get(root);
  if (!s) {
    s = new AdStore(root);
    stores.set(root, s);
  }
  return s;
}
