// The purchase's paying (commerce.md §4.3, §8): '立即支付' creates the order (coins settle at once,
// a minor confirms first), the QR of the order and its long poll, the refusals of a submit, and
// the paid order's result. The purchase store owns one; its members delegate here.
import { makeAutoObservable, observable, runInAction } from 'mobx';
import type { Goods, PayOrder, SectionGoods } from '../../../api/types';
import type { AppServices } from '../../../kernel/services';
import type { AdRef } from '../../../lib/adAction';
import { AD_OUT_OF_PAY_TIMES } from '../../../lib/adAction';
import { QR_RETRY_MS, QrCode, QrState, type PurchaseStep, type PurchaseType, type QrStateCode } from '../../../lib/purchase';
import type { PurchasePayload } from '../../../lib/purchasePayload';
import { ApiError, ErrorCode, errorMessage } from '../../../transport/apiError';
import { newIdempotencyKey, PurchaseCode, PurchasePaths, PurchaseText, type PurchaseResult, type QrView } from './purchaseTypes';

/** What paying needs from the others (the root store provides it). */
export type PaymentDeps = Pick<AppServices, 'api' | 'ui' | 'user'> & {
  /** a purchase was paid: the root's callbacks (time-up, the queue's lane card) */
  onPurchased(type: PurchaseType): void;
};

/** The dialog paying reads and moves (PurchaseStore). */
export interface PayingDialog {
  readonly isOpen: boolean;
  hidden: boolean;
  readonly type: PurchaseType;
  step: PurchaseStep;
  readonly ad: AdRef | null;
  readonly selected: Goods | null;
  agreed: boolean;
  readonly payMethod: string;
  readonly count: number;
  readonly section: SectionGoods | null;
  readonly coupon: { readonly couponId: number | undefined };
  open(type: PurchaseType, payload?: PurchasePayload): Promise<void>;
  close(): void;
}

export class PurchasePayment {
  submitting = false;
  order: PayOrder | null = null;
  qr: QrView | null = null;
  result: PurchaseResult | null = null;
  /** the step the QR was reached from (list or detail), for '返回' and '点击重新下单' */
  backStep: 'list' | 'detail' = 'list';
  /** bumps on every close and new QR: answers of an older poll are dropped */
  private pollGen = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** wakes the poll loop waiting out a retry: true = poll again, false = stop */
  private retryWake: ((again: boolean) => void) | null = null;
  private readonly deps: PaymentDeps;
  private readonly p: PayingDialog;

  constructor(deps: PaymentDeps, dialog: PayingDialog) {
    this.deps = deps;
    this.p = dialog;
    makeAutoObservable<PurchasePayment, 'deps' | 'p' | 'pollGen' | 'retryTimer' | 'retryWake'>(this, {
      deps: false,
      p: false,
      pollGen: false,
      retryTimer: false,
      retryWake: false,
      order: observable.ref,
    });
  }

  // ------------------------------------------------------------------ paying

  /**
   * '立即支付' / '立即兑换': creates the order; coins settle at once, scan pay goes to the QR. An
   * auto-renew product asks '确认开通' first unless the agreements are ticked (commerce.md §5).
   */
  async submit(confirm = 0): Promise<void> {
    const g = this.p.selected;
    if (!g || this.submitting || !this.p.payMethod) return;
    if (g.external.cycleable && !this.p.agreed) {
      this.submitting = true;
      const ok = await this.deps.ui.confirm({ title: PurchaseText.RENEW_TITLE, message: PurchaseText.RENEW_TEXT, confirmText: PurchaseText.RENEW_OK });
      runInAction(() => {
        this.submitting = false;
        if (ok) this.p.agreed = true;
      });
      if (!ok || !this.p.isOpen) return;
    }
    this.submitting = true;
    const from: 'list' | 'detail' = this.p.step === 'detail' ? 'detail' : 'list';
    let minorConfirm: string | null = null;
    try {
      // one key per press: a submit the network repeats makes no second order
      const order = await this.deps.api.post(
        PurchasePaths.submit,
        {
          goods_id: g.id,
          goods_num: this.p.count,
          pay_method: this.p.payMethod,
          confirm,
          goods_code: g.code,
          coupon_id: this.p.coupon.couponId,
          ...(this.p.ad ? { ad_id: this.p.ad.id } : {}),
        },
        { idempotencyKey: newIdempotencyKey() },
      );
      this.p.ad?.ordered();
      if (!this.p.isOpen) return;
      if (order.exchanged) {
        // paid with coins: debited and delivered in the same step
        this.deps.ui.success(PurchaseText.EXCHANGED);
        this.afterPaid();
        this.p.close();
        return;
      }
      runInAction(() => {
        this.order = order;
        this.backStep = from;
        this.p.step = 'qrcode';
      });
      await this.generateQr();
    } catch (e) {
      if (e instanceof ApiError && e.code === ErrorCode.USER_IS_MINOR_CHARGE_LIMIT) minorConfirm = e.message;
      else await this.onSubmitError(e);
    } finally {
      runInAction(() => {
        this.submitting = false;
      });
    }
    if (minorConfirm !== null) {
      // core-platform.md §8.2: the minor confirms the reminder, then the same submit again
      const go = await this.deps.ui.confirm({ title: '温馨提示', message: minorConfirm, confirmText: '确认充值' });
      if (go && this.p.isOpen) await this.submit(1);
    }
  }

  private async onSubmitError(e: unknown): Promise<void> {
    if (e instanceof ApiError && e.code === AD_OUT_OF_PAY_TIMES) {
      // commerce.md §2.15: the section ad is marked out of pay times; nothing was ordered
      this.p.ad?.outOfPayTimes();
      this.deps.ui.error(errorMessage(e));
      this.p.close();
      return;
    }
    if (e instanceof ApiError && e.code === ErrorCode.USER_IS_MINOR) {
      // commerce.md §8: the minor pay alert
      await this.deps.ui.alert({ title: '温馨提示', message: e.message, confirmText: '好的' });
      return;
    }
    if (e instanceof ApiError && e.code === PurchaseCode.COIN_NOT_ENOUGH) {
      // commerce.md §8: recharge first; cancel reopens the pay dialog
      this.p.hidden = true;
      const recharge = await this.deps.ui.confirm({
        title: PurchaseText.COIN_SHORT_TITLE,
        message: PurchaseText.COIN_SHORT,
        confirmText: PurchaseText.COIN_SHORT_OK,
      });
      if (!this.p.isOpen) return;
      if (recharge) await this.p.open('coin');
      else runInAction(() => (this.p.hidden = false));
      return;
    }
    if (e instanceof ApiError && e.code === PurchaseCode.NEED_PHONE) {
      await this.deps.ui.alert({ title: PurchaseText.PHONE_TITLE, message: e.message || PurchaseText.PHONE_FALLBACK, confirmText: PurchaseText.PHONE_OK });
      return;
    }
    this.deps.ui.error(errorMessage(e));
  }

  /** Generates the QR of the order, then long-polls it (commerce.md §4.3). */
  async generateQr(): Promise<void> {
    const order = this.order;
    if (!order) return;
    this.stopPolling();
    const gen = this.pollGen;
    this.qr = { state: QrState.LOADING, url: '', ticket: '' };
    try {
      const code = await this.deps.api.get(PurchasePaths.qrcode, {
        action: 'scan_payment',
        params: JSON.stringify({ order_no: order.order_no }),
      });
      if (gen !== this.pollGen) return;
      runInAction(() => {
        this.qr = { state: QrState.LOAD_SUCCESS, url: code.qrcode, ticket: code.ticket };
      });
      void this.poll(gen);
    } catch {
      if (gen !== this.pollGen) return;
      runInAction(() => {
        this.qr = { state: QrState.LOAD_FAIL, url: '', ticket: '' };
      });
    }
  }

  private setQrState(state: QrStateCode): void {
    if (this.qr) this.qr = { ...this.qr, state };
  }

  /** One long poll after another until paid, timed out, cancelled or closed. */
  private async poll(gen: number): Promise<void> {
    while (gen === this.pollGen && this.order && this.qr) {
      try {
        await this.deps.api.post(PurchasePaths.polling, { order_no: this.order.order_no, ticket: this.qr.ticket });
        if (gen !== this.pollGen) return;
        this.paid();
        return;
      } catch (e) {
        if (gen !== this.pollGen) return;
        const code = e instanceof ApiError ? e.code : null;
        if (code === QrCode.SCAN_SUCCESS) {
          this.setQrState(QrState.SCAN_SUCCESS);
          continue;
        }
        if (code === QrCode.WAITING) continue;
        if (code === QrCode.TIMEOUT) {
          const data = (e as ApiError<{ status?: string } | null>).data;
          this.setQrState(data?.status === 'invalid' ? QrState.INVALID : QrState.TIMEOUT);
          return;
        }
        if (code === QrCode.CANCEL) {
          this.setQrState(QrState.SCAN_CANCEL);
          return;
        }
        // anything else: again after 10 s
        const again = await new Promise<boolean>((resolve) => {
          this.retryWake = resolve;
          this.retryTimer = setTimeout(() => {
            this.retryTimer = null;
            this.retryWake = null;
            resolve(true);
          }, QR_RETRY_MS);
        });
        if (!again) return;
      }
    }
  }

  /** '返回' of the QR step, and '点击重新下单'. */
  back(): void {
    this.stopPolling();
    this.order = null;
    this.qr = null;
    this.p.step = this.backStep === 'detail' || !this.p.section ? 'detail' : 'list';
  }

  /** The order is paid: the result step, the user re-read, the type's callback. */
  private paid(): void {
    this.stopPolling();
    const g = this.p.selected;
    this.result = { title: g?.title ?? '', count: this.p.count };
    this.p.step = 'result';
    this.afterPaid();
    // the queue-card callback closes the dialog (commerce.md §4.1)
    if (this.p.type === 'queue') {
      this.deps.ui.success(PurchaseText.PAID);
      this.p.close();
    }
  }

  afterPaid(): void {
    void this.deps.user.loadProfile();
    this.deps.onPurchased(this.p.type);
  }

  stopPolling(): void {
    this.pollGen++;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const wake = this.retryWake;
    this.retryWake = null;
    wake?.(false);
  }

  /** A new purchase, or the dialog closed: no order, no QR, no poll. */
  reset(): void {
    this.stopPolling();
    this.order = null;
    this.qr = null;
  }
}
