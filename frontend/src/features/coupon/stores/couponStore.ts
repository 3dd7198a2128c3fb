import { makeAutoObservable, observable, reaction, runInAction, type IReactionDisposer } from 'mobx';
import type { Coupon, CouponSummary } from '../../../api/types';
import { yuan } from '../../../lib/purchase';
import type { AppServices } from '../../../kernel/services';

/** What this store needs from the others (the root store provides it). */
export type CouponDeps = Pick<AppServices, 'api' | 'user'>;

/** The coupon calls of a purchase (commerce.md §7 "Coupons"). */
export const CouponPaths = {
  list: '/api/v3/payment/coupon/list',
  check: '/api/v3/payment/coupon/check',
} as const;

/** Why a coupon cannot be chosen (commerce.md §5), by its `usable`. */
export function disabledReason(usable: number): string {
  if (usable === -1) return '未达门槛';
  if (usable === -2) return '商品不可用';
  return '不可用';
}

/** The coupon row's text (commerce.md §2.5 item 7). */
export function couponRowText(usableNum: number, chosen: boolean, discountFen: number): string {
  if (chosen) return `已优惠${yuan(discountFen)}元`;
  if (usableNum > 0) return `${usableNum}张可用`;
  return '暂无可用优惠券';
}

/** What the purchase the coupons are for looks like now. */
export interface CouponTarget {
  /** the dialog is open on a product */
  active: boolean;
  goodsCode: string;
  count: number;
}

/**
 * The coupon row of the purchase dialog (commerce.md §2.5 item 7, §4.6) and the dialog's price:
 * the caller's coupons for the chosen product and count, the chosen coupon and the server's
 * summary with it (coupon/check: the price the submit charges, the savings). Every caller gets
 * the summary (a guest's without the coupon list); a changed product, count, login or coupon
 * checks again, and until the answer for that selection is in there is no current summary.
 */
export class CouponStore {
  coupons: Coupon[] = [];
  usableNum = 0;
  /** the chosen coupon, or null ('未使用优惠券') */
  chosenId: number | null = null;
  /** the server's summary for `summaryKey` */
  summary: CouponSummary | null = null;
  private summaryKey = '';
  pickerOpen = false;
  private gen = 0;
  private readonly deps: CouponDeps;
  private readonly target: () => CouponTarget;
  private readonly stop: IReactionDisposer;

  constructor(deps: CouponDeps, target: () => CouponTarget) {
    this.deps = deps;
    this.target = target;
    makeAutoObservable<CouponStore, 'deps' | 'target' | 'stop' | 'gen'>(this, {
      deps: false,
      target: false,
      stop: false,
      gen: false,
      coupons: observable.ref,
      summary: observable.ref,
    });
    this.stop = reaction(
      () => {
        const t = this.target();
        return t.active ? this.selection(t) : '';
      },
      (key) => {
        if (!key) this.reset();
        else if (this.deps.user.isLoggedIn) void this.load(true);
        else {
          // a guest has no coupons: the summary alone
          this.clearCoupons();
          void this.check();
        }
      },
      { fireImmediately: true },
    );
  }

  /** Who asks about which product and count (a login changes the price). */
  private selection(t: CouponTarget): string {
    return `${this.deps.user.isLoggedIn ? 1 : 0}|${t.goodsCode}|${t.count}`;
  }

  private key(): string {
    return `${this.selection(this.target())}|${this.chosenId ?? 0}`;
  }

  get chosen(): Coupon | null {
    return this.coupons.find((c) => c.id === this.chosenId) ?? null;
  }

  /** The summary when it is of the current caller, product, count and coupon; null while pending. */
  get current(): CouponSummary | null {
    return this.summary && this.target().active && this.summaryKey === this.key() ? this.summary : null;
  }

  get rowText(): string {
    const s = this.current;
    return couponRowText(this.usableNum, this.chosenId !== null && s !== null, s?.discount_money ?? 0);
  }

  /** What the submit carries. */
  get couponId(): number {
    return this.chosenId ?? 0;
  }

  togglePicker(): void {
    this.pickerOpen = !this.pickerOpen;
  }

  /** Chooses a coupon; the chosen one again clears it; usable ≤ 0 cannot be chosen (§4.6). */
  choose(id: number | null): void {
    if (id === null || id === this.chosenId) {
      this.chosenId = null;
    } else {
      const c = this.coupons.find((x) => x.id === id);
      if (!c || c.usable <= 0) return;
      this.chosenId = id;
    }
    this.pickerOpen = false;
    void this.check();
  }

  /** Reads the coupons of the product and count (keeping the chosen one while usable), then checks. */
  async load(keepChoice: boolean): Promise<void> {
    const t = this.target();
    const gen = ++this.gen;
    try {
      const list = await this.deps.api.get(CouponPaths.list, { goods_code: t.goodsCode, goods_num: t.count });
      if (gen !== this.gen) return;
      runInAction(() => {
        this.coupons = list.data;
        this.usableNum = list.usable_num;
        const still = keepChoice && list.data.some((c) => c.id === this.chosenId && c.usable > 0);
        if (!still) this.chosenId = null;
      });
      await this.check();
    } catch {
      if (gen !== this.gen) return;
      this.clearCoupons();
      // the price is still the server's: without a coupon
      await this.check();
    }
  }

  private clearCoupons(): void {
    this.coupons = [];
    this.usableNum = 0;
    this.chosenId = null;
    this.pickerOpen = false;
  }

  /** Re-checks the summary with the chosen coupon (§4.6). */
  async check(): Promise<void> {
    const t = this.target();
    if (!t.active) return;
    const key = this.key();
    const gen = ++this.gen;
    try {
      const query: { goods_code: string; goods_num: number; coupon_id?: number } = { goods_code: t.goodsCode, goods_num: t.count };
      if (this.chosenId !== null) query.coupon_id = this.chosenId;
      const s = await this.deps.api.get(CouponPaths.check, query);
      if (gen !== this.gen) return;
      runInAction(() => {
        this.summary = s;
        this.summaryKey = key;
      });
    } catch {
      if (gen !== this.gen) return;
      // the coupon went meanwhile: none chosen, the list read again
      if (this.chosenId === null) return;
      runInAction(() => {
        this.chosenId = null;
      });
      void this.load(false);
    }
  }

  reset(): void {
    this.gen++;
    this.clearCoupons();
    this.summary = null;
    this.summaryKey = '';
  }

  dispose(): void {
    this.stop();
  }
}
