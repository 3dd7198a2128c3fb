import { makeAutoObservable, runInAction } from 'mobx';
import type { ConfigContent, Goods, NightPlay, OrderRecord } from '../../../api/types';
import { ProductType } from '../../../lib/products';
import { errorMessage } from '../../../transport/apiError';
import type { Api } from '../../../transport/types';

export type PackageKind = 'daily' | 'night';

/** What each package reads (commerce.md §2.7, §7, §9): its SKU section, rules key, goods type. */
export const PACKAGES: Record<PackageKind, { title: string; section: string; rulesKey: string; goodsType: number; privileges: string[] }> = {
  daily: {
    title: '日间畅玩',
    section: 'shop_card_day',
    rulesKey: 'daily_play',
    goodsType: ProductType.DAILY_PACKAGE,
    privileges: ['8:00-24:00 不限时长畅玩', '专属通道 排队更少', '专属头像挂件'],
  },
  night: {
    title: '夜间畅玩',
    section: 'shop_card_night',
    rulesKey: 'allnight_play',
    goodsType: ProductType.NIGHT_PACKAGE,
    privileges: ['23:00-次日07:00 不限时长畅玩', '专属通道', '头像挂件'],
  },
};

/** Minutes as 'X小时Y分钟' (hours and minutes of the cumulative played time). */
export function playedText(minutes: number): string {
  const m = Math.max(0, Math.floor(minutes));
  return `${Math.floor(m / 60)}小时${m % 60}分钟`;
}

/** The card's button (commerce.md §2.7): renew while active, else activate; none without a sku. */
export function buttonText(status: number | undefined, sku: Goods | null): string {
  if (!sku) return '续费已达上限';
  return status === 1 ? '立即续费' : '立即开通';
}

/** The member price shows on the daily card only, and only when it differs from retail. */
export function memberPriceShown(kind: PackageKind, sku: Goods | null): boolean {
  return kind === 'daily' && !!sku && sku.member_price > 0 && sku.member_price !== sku.retail_price;
}

/**
 * The daily and night package dialog (commerce.md §2.7): both packages' state, each one's SKU
 * (page size 1), the rules (HTML config) and the purchase records popover.
 */
export class PackageStore {
  kind: PackageKind = 'daily';
  infos: Partial<Record<PackageKind, NightPlay>> = {};
  skus: Partial<Record<PackageKind, Goods | null>> = {};
  rules: Partial<Record<PackageKind, string>> = {};
  /** the rules could not be read: the dialog shows 'not stock' */
  failed = false;
  records: OrderRecord[] | null = null;
  recordsOpen = false;
  private readonly api: Api;

  constructor(api: Api) {
    this.api = api;
    makeAutoObservable<PackageStore, 'api'>(this, { api: false });
  }

  async load(): Promise<void> {
    try {
      const [all, ...rest] = await Promise.all([
        this.api.get('/api/v3/user/night-play/all'),
        ...(['daily', 'night'] as const).map((k) => this.api.get('/api/web/v1/section/goods', { section_key: PACKAGES[k].section, page_size: 1 })),
        ...(['daily', 'night'] as const).map((k) => this.api.get('/api/v3/config/content', { key: PACKAGES[k].rulesKey })),
      ]);
      runInAction(() => {
        for (const p of all as NightPlay[]) this.infos[p.type as PackageKind] = p;
        const [day, night, dayRules, nightRules] = rest as [{ goods: Goods[] }, { goods: Goods[] }, ConfigContent, ConfigContent];
        this.skus = { daily: day.goods[0] ?? null, night: night.goods[0] ?? null };
        this.rules = { daily: dayRules.content, night: nightRules.content };
        this.failed = false;
      });
    } catch {
      runInAction(() => {
        this.failed = true;
      });
    }
  }

  select(kind: PackageKind): void {
    this.kind = kind;
    this.recordsOpen = false;
  }

  /** The records popover of the selected package (goods_type 27 or 22). */
  async toggleRecords(): Promise<void> {
    this.recordsOpen = !this.recordsOpen;
    if (!this.recordsOpen) return;
    this.records = null;
    const kind = this.kind;
    try {
      const r = await this.api.get('/api/v3/user/order', { goods_type: PACKAGES[kind].goodsType, page: 1, page_size: 100 });
      runInAction(() => {
        if (this.kind === kind) this.records = r.data;
      });
    } catch (e) {
      runInAction(() => {
        this.records = [];
        this.error = errorMessage(e);
      });
    }
  }

  error: string | null = null;
}
