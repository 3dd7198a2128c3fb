import { makeAutoObservable, runInAction } from 'mobx';
import type { BackpackCard, CardTotal, ExclusiveCard } from '../../../api/types';
import { errorMessage } from '../../../transport/apiError';
import type { Api } from '../../../transport/types';
import { PagedList } from '../../../lib/pagedList';
import { formatDateTimeSeconds, formatHMS } from '../../../lib/time';

export type { BackpackCard, CardTotal };

/** The backpack's page size (commerce.md §7 "Backpack"). */
export const BACKPACK_PAGE_SIZE = 12;

/** The tabs by card_type (commerce.md §2.13). */
export const BACKPACK_TABS = [
  { cardType: 1, label: '卡', key: 'card' },
  { cardType: 2, label: '礼包', key: 'gift' },
  { cardType: 3, label: '优惠券', key: 'coupon' },
] as const;
export type CardType = (typeof BACKPACK_TABS)[number]['cardType'];
export type BackpackTabKey = (typeof BACKPACK_TABS)[number]['key'];

/** The backpack's address of a tab: /user/card/card, /user/card/gift, /user/card/coupon (commerce.md §2.1). */
export function backpackPath(key: BackpackTabKey): string {
  return `/user/card/${key}`;
}

/** The tab a /user/card/{key} address names; /user/card alone (or an unknown key) is the cards tab. */
export function tabOfPath(key: string | undefined): CardType {
  return BACKPACK_TABS.find((t) => t.key === key)?.cardType ?? 1;
}

/** The status filters: unused 0, used 1 (and invalidated 3), expired 2. */
export const BACKPACK_FILTERS = [
  { status: 0, label: '未使用' },
  { status: 1, label: '已使用' },
  { status: 2, label: '已过期' },
] as const;
export type CardFilter = (typeof BACKPACK_FILTERS)[number]['status'];

/** The relation gifts' goods type: not usable on this client (commerce.md §4.12). */
export const RELATION_GIFT_TYPE = 30;

const PLAY_TYPE_TEXT: Record<number, string> = { 1: '付费时长', 2: '免费时长', 4: '专属时长' };
const STATUS_TEXT: Record<number, string> = { 0: '未使用', 1: '已使用', 2: '已过期', 3: '已失效' };
const SOURCE_TEXT: Record<string, string> = { shop: '商城购买', grant: '平台发放', monthly: '会员月度领取', order: '商城购买', gift: '好友赠送' };

/** Whether a card shows '赠送': unused with gives left (commerce.md §4.12). */
export function canGive(c: BackpackCard): boolean {
  return c.status === 0 && c.remain_give_times > 0;
}

const DAY_MS = 86_400_000;

/** The near-expiry countdown: 'D天H小时' with at least a day left, else HH:mm:ss. */
export function countdownText(leftMs: number): string {
  const left = Math.max(0, leftMs);
  if (left >= DAY_MS) return `${Math.floor(left / DAY_MS)}天${Math.floor((left % DAY_MS) / 3_600_000)}小时`;
  return formatHMS(left / 1000);
}

/** The texts of a card item (commerce.md §2.13). */
export function cardTexts(
  c: BackpackCard,
  nowMs: number,
): { title: string; description: string; expiry: string; source: string; status: string; gift: string | null } {
  const description = c.play_type === 0 ? '排队时使用，立即进入快速通道' : `${c.minutes}分钟${PLAY_TYPE_TEXT[c.play_type] ?? ''}，使用后加入账户`;
  let expiry: string;
  if (c.status === 0 && c.near_expiration) expiry = `${countdownText(c.expires_at - nowMs)}后过期`;
  else if (c.status === 1 && c.used_at != null) expiry = `使用于 ${formatDateTimeSeconds(c.used_at)}`;
  else expiry = `有效期至 ${formatDateTimeSeconds(c.expires_at)}`;
  return {
    title: c.goods_title,
    description,
    expiry,
    source: `来源：${SOURCE_TEXT[c.source] ?? '平台发放'}`,
    status: STATUS_TEXT[c.status] ?? '',
    gift: c.target_user ? `赠送给${c.target_user.phone}` : c.from_user ? `${c.from_user.phone}赠送给我` : null,
  };
}

/** What the backpack needs besides the API: the confirm box, toasts, and a re-read of the user. */
export interface BackpackDeps {
  confirm(message: string): Promise<boolean>;
  toast(type: 'success' | 'error', message: string): void;
  refreshUser(): Promise<unknown>;
}

/**
 * The backpack (/user/card, commerce.md §2.13, §4.12): a tab by card_type, a status filter, a
 * page of cards, the unused counts, and using a card.
 */
export class BackpackStore {
  tab: CardType = 1;
  filter: CardFilter = 0;
  /** the page of cards shown (a page emptied by using its last card steps back one) */
  readonly list: PagedList<BackpackCard>;
  totals: CardTotal | null = null;
  /** the exclusive cards' categories and minutes left */
  exclusive: ExclusiveCard[] = [];
  /** the card being used */
  using: number | null = null;
  /** browser clock of the near-expiry countdowns */
  nowMs = Date.now();
  private readonly api: Api;
  private readonly deps: BackpackDeps;

  constructor(api: Api, deps: BackpackDeps) {
    this.api = api;
    this.deps = deps;
    this.list = new PagedList(
      async (page, pageSize) => {
        const r = await this.api.get('/api/v3/user/card/list', {
          status: String(this.filter),
          page: String(page),
          page_size: String(pageSize),
          card_type: String(this.tab),
        });
        runInAction(() => {
          this.nowMs = Date.now();
        });
        return r;
      },
      BACKPACK_PAGE_SIZE,
      { stepBackWhenEmpty: true },
    );
    makeAutoObservable<BackpackStore, 'api' | 'deps'>(this, { api: false, deps: false, list: false });
  }

  get items(): BackpackCard[] {
    return this.list.items;
  }

  get total(): number {
    return this.list.total;
  }

  get page(): number {
    return this.list.page;
  }

  get pages(): number {
    return this.list.pages;
  }

  get loading(): boolean {
    return this.list.loading;
  }

  get error(): string | null {
    return this.list.error;
  }

  /** The count a tab shows: only on the unused filter. */
  tabCount(key: 'card' | 'gift' | 'coupon'): number | null {
    if (this.filter !== 0 || !this.totals) return null;
    return this.totals[key];
  }

  tick(now = Date.now()): void {
    this.nowMs = now;
  }

  selectTab(tab: CardType): Promise<void> {
    this.tab = tab;
    return this.load(1);
  }

  selectFilter(filter: CardFilter): Promise<void> {
    this.filter = filter;
    return this.load(1);
  }

  /** The exclusive cards' categories (they are not used here: they link to their games). */
  async loadExclusive(): Promise<void> {
    try {
      const list = await this.api.get('/api/v3/user/card/exclusive');
      runInAction(() => {
        this.exclusive = list;
      });
    } catch {
      // the exclusive cards show no link
    }
  }

  async loadTotals(): Promise<void> {
    try {
      const t = await this.api.get('/api/v3/user/card/total');
      runInAction(() => {
        this.totals = t;
      });
    } catch {
      // the tabs show no counts
    }
  }

  /** One page; a page after the first that comes back empty is re-read one page earlier. */
  load(page = this.page): Promise<void> {
    return this.list.load(page);
  }

  /** '赠送': gives the card to the user of `phone`, then re-reads the list and the counts. */
  async give(card: BackpackCard, phone: string): Promise<boolean> {
    const to = phone.trim();
    if (!/^1\d{10}$/.test(to)) {
      this.deps.toast('error', '请输入正确的手机号');
      return false;
    }
    if (this.using !== null) return false;
    runInAction(() => {
      this.using = card.id;
    });
    try {
      await this.api.post('/api/v3/user/card/give', { id: card.id, phone: to });
      this.deps.toast('success', `已赠送给${to}`);
      await Promise.all([this.load(), this.loadTotals()]);
      return true;
    } catch (e) {
      this.deps.toast('error', errorMessage(e));
      return false;
    } finally {
      runInAction(() => {
        this.using = null;
      });
    }
  }

  /** '使用': confirm, use, toast, then re-read the user, the list and the counts. */
  async use(card: BackpackCard, goodsType = 0): Promise<boolean> {
    if (this.using !== null) return false;
    if (goodsType === RELATION_GIFT_TYPE) {
      this.deps.toast('error', '该礼包暂不支持在此使用');
      return false;
    }
    if (!(await this.deps.confirm(`确定要使用 ${card.goods_title} 吗？`))) return false;
    runInAction(() => {
      this.using = card.id;
    });
    try {
      await this.api.post('/api/v3/user/card/activate', { id: card.id });
      this.deps.toast('success', this.tab === 2 ? '兑换成功' : '使用成功');
      await Promise.all([this.deps.refreshUser(), this.load(), this.loadTotals()]);
      return true;
    } catch (e) {
      this.deps.toast('error', errorMessage(e));
      await this.load();
      return false;
    } finally {
      runInAction(() => {
        this.using = null;
      });
    }
  }
}
