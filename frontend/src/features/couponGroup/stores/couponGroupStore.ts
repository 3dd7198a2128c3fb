import { makeAutoObservable, observable, runInAction } from 'mobx';
import type { BankPayConfig, GroupOrder, MerchantGoods, Redeemed } from '../../../api/types';
import {
  activeLines,
  cartTotal,
  CouponGroupText,
  GROUP_POLL_MS,
  GROUP_POLL_STOP_MS,
  parseCount,
  unitPrice,
} from '../../../lib/couponGroup';
import { errorMessage } from '../../../transport/apiError';
import type { AppServices } from '../../../kernel/services';
import { newIdempotencyKey } from '../../purchase/stores/purchaseStore';

/** What this store needs from the others (the root store provides it). */
export type CouponGroupDeps = Pick<AppServices, 'api' | 'ui'>;

export const CouponGroupPaths = {
  appInfo: '/api/mch/v1/app/info',
  goods: '/api/mch/v1/payment/goods/list',
  submit: '/api/mch/v1/payment/submit',
  query: '/api/mch/v1/payment/query',
  records: '/api/mch/v1/payment/record',
  record: '/api/mch/v1/payment/record/detail',
  redeem: '/api/mch/v1/redeem',
  bankConfig: '/api/mch/v1/config/bank_pay_config',
  qrcode: '/api/v3/qrcode/generate',
  config: '/api/japi/yoo/common/config/list',
} as const;

/** The coupon group's pay methods (§4.2: wechat, alipay and bank only). */
export const GROUP_PAY_METHODS = [
  { code: 'wechat', name: '微信支付' },
  { code: 'alipay', name: '支付宝' },
  { code: 'bank', name: '对公转账' },
] as const;
export type GroupPayCode = (typeof GROUP_PAY_METHODS)[number]['code'];

/** A cart line: the goods and its quantity (payCount). */
export interface MerchantLine extends MerchantGoods {
  payCount: number;
}

/** The purchase dialog's steps in couponGroup mode (commerce.md §2.5). */
export type GroupStep = 'list' | 'qrcode' | 'bankResult' | 'result';

/** What the store needs of the browser: timers, the clock and the clipboard. */
export interface GroupEffects {
  setTimeout(f: () => void, ms: number): unknown;
  clearTimeout(t: unknown): void;
  now(): number;
  copy(text: string): Promise<void>;
}

const browserEffects: GroupEffects = {
  setTimeout: (f, ms) => setTimeout(f, ms),
  clearTimeout: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
  copy: (text) => navigator.clipboard.writeText(text),
};

/**
 * The merchant area (commerce.md §2.14): whether it is open (app info status), the cart of
 * merchant goods with tier prices, and the purchase dialog in couponGroup mode: the order, the QR
 * (wechat, alipay) or the bank transfer's instructions (bankResult), the payment query every 5 s
 * for 120 s then '已付款完成' (§4.4), the result; and the redeem of a key.
 */
export class CouponGroupStore {
  /** app info status: 1 open, 0 closed, null unknown */
  status: number | null = null;
  loading = false;
  lines: MerchantLine[] = [];
  /** the rules (config group coupon_group, `rules`), one a line */
  rules: string[] = [];
  dialogOpen = false;
  step: GroupStep = 'list';
  payMethod: GroupPayCode = 'wechat';
  submitting = false;
  order: GroupOrder | null = null;
  qrUrl = '';
  bank: BankPayConfig | null = null;
  /** the bank transfer's deadline, ms */
  deadline = 0;
  /** the poll gave up after 120 s: '已付款完成' shows */
  pollStopped = false;
  private pollGen = 0;
  private pollTimer: unknown = null;
  private readonly deps: CouponGroupDeps;
  private readonly fx: GroupEffects;

  constructor(deps: CouponGroupDeps, fx: GroupEffects = browserEffects) {
    this.deps = deps;
    this.fx = fx;
    makeAutoObservable<CouponGroupStore, 'deps' | 'fx' | 'pollGen' | 'pollTimer'>(this, {
      deps: false,
      fx: false,
      pollGen: false,
      pollTimer: false,
      order: observable.ref,
      bank: observable.ref,
    });
  }

  get open(): boolean {
    return this.status === 1;
  }

  get active(): MerchantLine[] {
    return activeLines(this.lines);
  }

  /** fen */
  get totalFen(): number {
    return cartTotal(this.lines);
  }

  unitOf(line: MerchantLine): number {
    return unitPrice(line.prices, line.payCount);
  }

  get title(): string {
    return this.step === 'bankResult' ? CouponGroupText.BANK_TITLE : CouponGroupText.TITLE;
  }

  /** Reads the app info, then the goods when open (closed: nothing is sold, §6). */
  async load(): Promise<void> {
    this.loading = true;
    try {
      const info = await this.deps.api.get(CouponGroupPaths.appInfo);
      runInAction(() => (this.status = info.status));
      if (info.status !== 1) return;
      void this.deps.api.post(CouponGroupPaths.config, { groupCode: 'coupon_group' }).then(
        (c) => runInAction(() => (this.rules = (c.rules ?? '').split('\n').filter((l) => l.trim() !== ''))),
        () => undefined,
      );
      const list = await this.deps.api.get(CouponGroupPaths.goods, { page: 1, page_size: 100 });
      runInAction(() => {
        this.lines = list.data.map((g) => ({ ...g, payCount: this.lines.find((l) => l.id === g.id)?.payCount ?? 0 }));
      });
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
    } finally {
      runInAction(() => (this.loading = false));
    }
  }

  setCount(id: number, value: string | number): void {
    const line = this.lines.find((l) => l.id === id);
    if (line) line.payCount = parseCount(value);
  }

  /** Empties the cart. */
  clear(): void {
    for (const l of this.lines) l.payCount = 0;
  }

  setPayMethod(code: GroupPayCode): void {
    this.payMethod = code;
  }

  /** Opens the dialog on the cart's active lines; none: '商品列表为空' (§5). */
  openDialog(): void {
    if (this.active.length === 0) {
      this.deps.ui.error(CouponGroupText.EMPTY);
      return;
    }
    this.stopPolling();
    this.order = null;
    this.step = 'list';
    this.pollStopped = false;
    this.dialogOpen = true;
  }

  /** '立即支付': one order per press (its own Idempotency-Key), then the QR or the bank step. */
  async submit(): Promise<void> {
    if (this.submitting || this.active.length === 0) return;
    this.submitting = true;
    try {
      const goods = JSON.stringify(this.active.map((l) => ({ id: l.id, num: l.payCount })));
      const order = await this.deps.api.post(
        CouponGroupPaths.submit,
        { pay_method: this.payMethod, goods },
        { idempotencyKey: newIdempotencyKey() },
      );
      if (!this.dialogOpen) return;
      runInAction(() => {
        this.order = order;
        this.pollStopped = false;
      });
      if (order.order.pay_method === 'bank') {
        runInAction(() => {
          this.deadline = order.order.expires_at;
          this.step = 'bankResult';
        });
        await this.loadBank();
      } else {
        const qr = await this.deps.api.get(CouponGroupPaths.qrcode, {
          action: 'scan_payment',
          params: JSON.stringify({ order_no: order.order.order_no }),
        });
        runInAction(() => {
          this.qrUrl = qr.qrcode;
          this.step = 'qrcode';
        });
      }
      this.startPolling();
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
    } finally {
      runInAction(() => (this.submitting = false));
    }
  }

  /** The bank pay config; a config that does not parse is logged only (§8). */
  async loadBank(): Promise<void> {
    try {
      const c = await this.deps.api.get(CouponGroupPaths.bankConfig);
      let parsed: BankPayConfig | null = null;
      try {
        parsed = JSON.parse(c.config) as BankPayConfig;
      } catch (e) {
        console.warn('bank pay config does not parse', e);
      }
      runInAction(() => (this.bank = parsed));
    } catch (e) {
      console.warn('bank pay config', e);
    }
  }

  /** Seconds left for the transfer (the countdown of the bankResult step). */
  secondsLeft(now = this.fx.now()): number {
    return Math.max(0, Math.floor((this.deadline - now) / 1000));
  }

  /** §4.4: the query every 5 s; 'success' pays, 'pending' goes on; after 120 s it stops. */
  private startPolling(): void {
    this.stopPolling();
    const gen = this.pollGen;
    const started = this.fx.now();
    const tick = async () => {
      if (gen !== this.pollGen || !this.order) return;
      if (this.fx.now() - started >= GROUP_POLL_STOP_MS) {
        runInAction(() => (this.pollStopped = true));
        return;
      }
      try {
        const r = await this.deps.api.get(CouponGroupPaths.query, { deposit_order_id: this.order.order.order_no });
        if (gen !== this.pollGen) return;
        if (r.status === 'success') {
          this.paid();
          return;
        }
      } catch {
        // the next tick asks again
      }
      if (gen === this.pollGen) this.pollTimer = this.fx.setTimeout(() => void tick(), GROUP_POLL_MS);
    };
    this.pollTimer = this.fx.setTimeout(() => void tick(), GROUP_POLL_MS);
  }

  private stopPolling(): void {
    this.pollGen++;
    if (this.pollTimer !== null) this.fx.clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }

  /** '已付款完成': one query; still pending: the §8 text. */
  async manualCheck(): Promise<void> {
    if (!this.order) return;
    try {
      const r = await this.deps.api.get(CouponGroupPaths.query, { deposit_order_id: this.order.order.order_no });
      if (r.status === 'success') {
        this.paid();
        return;
      }
    } catch {
      // as pending
    }
    this.deps.ui.error(CouponGroupText.NOT_RECEIVED);
  }

  private paid(): void {
    this.stopPolling();
    this.step = 'result';
    this.clear();
  }

  /** Closing stops the poll. */
  close(): void {
    this.stopPolling();
    this.dialogOpen = false;
  }

  /** A copyable item: '复制成功' or '复制失败'. */
  async copy(text: string): Promise<void> {
    try {
      await this.fx.copy(text);
      this.deps.ui.success(CouponGroupText.COPIED);
    } catch {
      this.deps.ui.error(CouponGroupText.COPY_FAILED);
    }
  }

  /** Redeems a key; the coupon goes to the backpack. Null when refused (the message shown). */
  async redeem(key: string): Promise<Redeemed | null> {
    try {
      const r = await this.deps.api.post(CouponGroupPaths.redeem, { key });
      this.deps.ui.success(`${CouponGroupText.REDEEMED}：${r.coupon_title}`);
      return r;
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
      return null;
    }
  }

  dispose(): void {
    this.stopPolling();
  }
}
