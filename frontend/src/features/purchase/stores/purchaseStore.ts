import { makeAutoObservable, observable, runInAction } from 'mobx';
import type { Goods, PayMethod, PayOrder, SectionGoods } from '../../../api/types';
import {
  boughtLine,
  chosenLine,
  clampCount,
  isMemberType,
  perView,
  productTitle,
  purchaseTitle,
  QR_RETRY_MS,
  QrCode,
  QrState,
  qrOverlay,
  sectionKey,
  showsCount,
  type MemberCategory,
  type PurchaseStep,
  type PurchaseType,
  type QrOverlay,
  type QrStateCode,
} from '../../../lib/purchase';
import { isMemberProduct, isVvipProduct } from '../../../lib/products';
import { AD_OUT_OF_PAY_TIMES, type AdRef } from '../../../lib/adAction';
import type { PurchasePayload } from '../../../lib/purchasePayload';
import { ApiError, ErrorCode, errorMessage } from '../../../transport/apiError';
import type { RootStore } from '../../../stores/rootStore';
import { CouponStore } from '../../coupon/stores/couponStore';

/** The purchase calls (commerce.md §7). */
export const PurchasePaths = {
  sectionGoods: '/api/web/v1/section/goods',
  goodsItem: '/api/v3/shop/goods/item',
  submit: '/api/payment/goods',
  qrcode: '/api/v3/qrcode/generate',
  polling: '/api/v3/payment/order/polling',
  query: '/api/payment/query',
} as const;

/** Codes of commerce.md §8 the dialog reacts to by number. */
export const PurchaseCode = {
  COIN_NOT_ENOUGH: 20110,
  NEED_PHONE: 20107,
} as const;

export const PurchaseText = {
  EMPTY_LIST: '商品列表为空',
  NO_PACKAGES: '获取游戏订阅包列表错误',
  EXCHANGED: '兑换成功',
  PAID: '支付成功',
  COIN_SHORT_TITLE: '余额不足',
  COIN_SHORT: '您的云游币余额不足，请先充值',
  COIN_SHORT_OK: '去充值',
  PHONE_TITLE: '绑定手机号',
  PHONE_FALLBACK: '根据相关法律法规，为保障您的账户安全，体验当前功能需绑定手机号哦~',
  PHONE_OK: '去绑定',
  RENEW_TITLE: '确认开通',
  RENEW_TEXT: '开通前请阅读并同意《会员服务协议》和《自动续费服务协议》',
  RENEW_OK: '同意并支付',
} as const;

/** The pay code of paying with the platform coin (commerce.md §9). */
export const COIN_PAY_CODE = 'yunyoubi';

/** A fresh `Idempotency-Key` (1–64 visible ASCII characters, API.md). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

export type { PurchasePayload } from '../../../lib/purchasePayload';

/** The QR step (commerce.md §2.5, §4.3) of one order. */
export interface QrView {
  state: QrStateCode;
  /** what the QR encodes: the pay page's address; empty until generated */
  url: string;
  ticket: string;
}

/** The result step: what was bought. */
export interface PurchaseResult {
  title: string;
  count: number;
}

/**
 * The purchase dialog of commerce.md §2.5 and §4.1–4.5: which products (a section's goods from
 * the server, prices in fen), the chosen product, quantity and pay method, the order, the QR with
 * its long poll, the result. One per tab; the dialog's code and this store are a chunk loaded on
 * first need (`RootStore.openPurchase`).
 */
export class PurchaseStore {
  isOpen = false;
  /** hidden while a prompt of its own is up (20110's recharge prompt); reopened on cancel */
  hidden = false;
  type: PurchaseType = 'time';
  category: MemberCategory = 'vip';
  /** member_special: whether both member categories are on offer */
  showTabs = false;
  step: PurchaseStep = 'list';
  /** the step the QR was reached from (list or detail), for '返回' and '点击重新下单' */
  private backStep: 'list' | 'detail' = 'list';
  gameId: number | null = null;
  /** the section listed instead of the type's own (payload.section) */
  sectionOverride: string | null = null;
  /** the section ad the purchase is made through (payload.ad) */
  ad: AdRef | null = null;
  loading = false;
  section: SectionGoods | null = null;
  goods: Goods[] = [];
  selectedIndex = 0;
  count = 1;
  payMethod = '';
  /** the first visible product of the carousel */
  carouselStart = 0;
  submitting = false;
  order: PayOrder | null = null;
  qr: QrView | null = null;
  result: PurchaseResult | null = null;
  /** the user-agreement checkbox; closing resets it (commerce.md §4.1) */
  agreed = false;
  /** bumps on every close and new QR: answers of an older poll are dropped */
  private pollGen = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** wakes the poll loop waiting out a retry: true = poll again, false = stop */
  private retryWake: ((again: boolean) => void) | null = null;
  private readonly root: RootStore;
  /** the coupon row: the caller's coupons for the chosen product and count (commerce.md §4.6) */
  readonly coupon: CouponStore;

  constructor(root: RootStore) {
    this.root = root;
    makeAutoObservable<PurchaseStore, 'root' | 'pollGen' | 'retryTimer' | 'retryWake'>(this, {
      root: false,
      coupon: false,
      retryWake: false,
      pollGen: false,
      retryTimer: false,
      section: observable.ref,
      ad: observable.ref,
      goods: observable.ref,
      order: observable.ref,
    });
    this.coupon = new CouponStore(root, () => ({
      active: this.isOpen && this.selected !== null,
      goodsCode: this.selected?.code ?? '',
      count: this.count,
    }));
  }

  // ------------------------------------------------------------------ derived

  get title(): string {
    if (this.step === 'detail' && this.selected) return productTitle(this.selected.type);
    if (this.sectionOverride && this.goods[0]) return productTitle(this.goods[0].type);
    return purchaseTitle(this.type);
  }

  get perView(): number {
    return perView(this.type);
  }

  get isMember(): boolean {
    return isMemberType(this.type);
  }

  /** member shows the tabs always, member_special when asked or when both categories are sold */
  get tabsVisible(): boolean {
    return this.type === 'member' || (this.type === 'member_special' && this.showTabs);
  }

  get selected(): Goods | null {
    return this.goods[this.selectedIndex] ?? null;
  }

  get showsCount(): boolean {
    return showsCount(this.type, this.selected?.type);
  }

  /** The pay methods the server allows for the selected product (commerce.md §4.2). */
  get payMethods(): PayMethod[] {
    return this.selected?.pay_types ?? [];
  }

  get payingWithCoins(): boolean {
    return this.payMethod === COIN_PAY_CODE;
  }

  /**
   * The payable total in fen (commerce.md §4.5): the unit price the server gives this user
   * (first price of an auto-renew goods, member price, or retail) × count.
   */
  get totalFen(): number {
    const g = this.selected;
    if (!g) return 0;
    // the coupon price comes before the unit price × count (§4.5)
    return this.coupon.payFen ?? g.price * this.units;
  }

  /** The units bought: the count, or an upgrade's days left (the server buys those, §2.5). */
  get units(): number {
    return this.selected?.up?.up_days ?? this.count;
  }

  /** Savings in fen: retail × count − total. */
  get savedFen(): number {
    const g = this.selected;
    if (!g) return 0;
    return Math.max(0, g.retail_price * this.units - this.totalFen);
  }

  get payText(): string {
    return this.payingWithCoins ? '立即兑换' : '立即支付';
  }

  get qrOverlay(): QrOverlay | null {
    return this.qr ? qrOverlay(this.qr.state) : null;
  }

  get chosenLine(): string {
    return chosenLine(this.selected?.title ?? '', this.units);
  }

  get resultLine(): string {
    return this.result ? boughtLine(this.result.title, this.result.count) : '';
  }

  // ------------------------------------------------------------------ opening

  /**
   * Opens the dialog (commerce.md §4.1): a section's goods in list mode, or one product in detail
   * mode. The first product is preselected, count 1; members default to the user's category.
   */
  async open(type: PurchaseType, payload: PurchasePayload = {}): Promise<void> {
    this.stopPolling();
    this.type = type;
    this.gameId = payload.gameId ?? null;
    this.sectionOverride = payload.section ?? null;
    this.ad = payload.ad ?? null;
    this.category = payload.category ?? (this.root.user.profile?.member_info?.using === 'vvip' ? 'vvip' : 'vip');
    this.showTabs = payload.showTab ?? false;
    this.count = 1;
    this.selectedIndex = 0;
    this.carouselStart = 0;
    this.order = null;
    this.qr = null;
    this.result = null;
    this.agreed = false;
    this.hidden = false;
    if (payload.goods) {
      this.section = null;
      this.goods = [payload.goods];
      this.step = 'detail';
      this.backStep = 'detail';
      this.pickDefaultPay();
      this.isOpen = true;
      return;
    }
    this.step = 'list';
    this.backStep = 'list';
    this.goods = [];
    this.section = null;
    this.isOpen = true;
    await this.loadSection();
  }

  /** Reads the section of the type and category; an empty list closes with '商品列表为空'. */
  private async loadSection(): Promise<void> {
    const key = this.sectionOverride ?? sectionKey(this.type, this.category);
    if (!key) {
      // a game's subscription packs come from the game-package call
      await this.loadSubscription();
      return;
    }
    this.loading = true;
    try {
      const section = await this.root.api.get(PurchasePaths.sectionGoods, { section_key: key });
      if (!this.isOpen) return;
      runInAction(() => {
        this.loading = false;
        this.section = section;
        this.goods = section.goods ?? [];
        this.selectedIndex = 0;
        this.carouselStart = 0;
        // queue acceleration that sells only memberships becomes member_special (commerce.md §4.1)
        if (this.type === 'queue_accelerate' && this.goods.length > 0 && this.goods.every((g) => isMemberProduct(g.type))) {
          this.type = 'member_special';
          this.category = isVvipProduct(this.goods[0].type) ? 'vvip' : 'vip';
          const vvip = this.goods.some((g) => isVvipProduct(g.type));
          const vip = this.goods.some((g) => !isVvipProduct(g.type));
          this.showTabs = vvip && vip;
        }
        this.pickDefaultPay();
      });
      if (this.goods.length === 0) this.fail(PurchaseText.EMPTY_LIST);
    } catch (e) {
      runInAction(() => {
        this.loading = false;
      });
      this.fail(errorMessage(e));
    }
  }

  /**
   * The subscription of the game (commerce.md §2.6): its first package, whose durations
   * (speci_list, months) are the products to choose from ('订阅时长'), the first selected.
   */
  private async loadSubscription(): Promise<void> {
    const gameId = this.gameId;
    if (gameId === null) {
      this.fail(PurchaseText.NO_PACKAGES);
      return;
    }
    this.loading = true;
    try {
      const list = await this.root.api.get('/api/shop/goods/game-package', { game_id: gameId });
      const pack = list.data[0];
      if (!pack) {
        runInAction(() => {
          this.loading = false;
        });
        this.fail(PurchaseText.NO_PACKAGES);
        return;
      }
      const item = await this.root.api.get('/api/shop/goods/game-package/item', { package_id: pack.id });
      if (!this.isOpen) return;
      runInAction(() => {
        this.loading = false;
        this.goods = item.speci_list.length
          ? item.speci_list.map((s) => ({
              ...item,
              id: s.id,
              code: s.goods_code,
              goods_code: s.goods_code,
              title: s.title,
              face_value: s.face_value,
              face_value_txt: s.face_value_txt,
              retail_price: s.retail_price,
              member_price: s.member_price,
              crossed_price: s.crossed_price,
              month_price: s.month_price,
              price: s.retail_price,
              speci_list: [],
            }))
          : [item];
        this.selectedIndex = 0;
        this.carouselStart = 0;
        this.pickDefaultPay();
      });
    } catch (e) {
      runInAction(() => {
        this.loading = false;
      });
      this.fail(errorMessage(e));
    }
  }

  private fail(message: string): void {
    this.root.ui.error(message);
    this.close();
  }

  /** The member tabs: 标准会员 / 高级会员. */
  async setCategory(category: MemberCategory): Promise<void> {
    if (category === this.category || !this.isMember) return;
    this.category = category;
    if (this.type === 'member_special' && this.section && this.goods.some((g) => isVvipProduct(g.type) === (category === 'vvip'))) {
      // the accelerate list holds both: pick the first of the category
      const i = this.goods.findIndex((g) => isVvipProduct(g.type) === (category === 'vvip'));
      this.select(i);
      return;
    }
    await this.loadSection();
  }

  select(index: number): void {
    if (index < 0 || index >= this.goods.length) return;
    this.selectedIndex = index;
    this.pickDefaultPay();
  }

  /** Carousel paging by one view. */
  slide(direction: 1 | -1): void {
    const max = Math.max(0, this.goods.length - this.perView);
    this.carouselStart = Math.min(max, Math.max(0, this.carouselStart + direction * this.perView));
  }

  /** The quantity field: 1–100, cleared resets to 1 (commerce.md §5). */
  setCount(value: string | number): void {
    this.count = clampCount(value);
  }

  setPayMethod(code: string): void {
    if (this.payMethods.some((p) => p.payCode === code)) this.payMethod = code;
  }

  setAgreed(v: boolean): void {
    this.agreed = v;
  }

  /** Keeps the chosen method when the new product allows it, else the first allowed. */
  private pickDefaultPay(): void {
    const methods = this.payMethods;
    if (!methods.some((p) => p.payCode === this.payMethod)) this.payMethod = methods[0]?.payCode ?? '';
  }

  /** '充值' beside the coin balance: the coin purchase in this dialog. */
  rechargeCoins(): Promise<void> {
    return this.open('coin');
  }

  /** From the list to one product's detail. */
  showDetail(index: number): void {
    this.select(index);
    this.step = 'detail';
  }

  backToList(): void {
    if (this.section) this.step = 'list';
  }

  // ------------------------------------------------------------------ paying

  /**
   * '立即支付' / '立即兑换': creates the order; coins settle at once, scan pay goes to the QR. An
   * auto-renew product asks '确认开通' first unless the agreements are ticked (commerce.md §5).
   */
  async submit(confirm = 0): Promise<void> {
    const g = this.selected;
    if (!g || this.submitting || !this.payMethod) return;
    if (g.external.cycleable && !this.agreed) {
      this.submitting = true;
      const ok = await this.root.ui.confirm({ title: PurchaseText.RENEW_TITLE, message: PurchaseText.RENEW_TEXT, confirmText: PurchaseText.RENEW_OK });
      runInAction(() => {
        this.submitting = false;
        if (ok) this.agreed = true;
      });
      if (!ok || !this.isOpen) return;
    }
    this.submitting = true;
    const from: 'list' | 'detail' = this.step === 'detail' ? 'detail' : 'list';
    let minorConfirm: string | null = null;
    try {
      // one key per press: a submit the network repeats makes no second order
      const order = await this.root.api.post(
        PurchasePaths.submit,
        {
          goods_id: g.id,
          goods_num: this.count,
          pay_method: this.payMethod,
          confirm,
          goods_code: g.code,
          coupon_id: this.coupon.couponId,
          ...(this.ad ? { ad_id: this.ad.id } : {}),
        },
        { idempotencyKey: newIdempotencyKey() },
      );
      this.ad?.ordered();
      if (!this.isOpen) return;
      if (order.exchanged) {
        // paid with coins: debited and delivered in the same step
        this.root.ui.success(PurchaseText.EXCHANGED);
        this.afterPaid();
        this.close();
        return;
      }
      runInAction(() => {
        this.order = order;
        this.backStep = from;
        this.step = 'qrcode';
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
      const go = await this.root.ui.confirm({ title: '温馨提示', message: minorConfirm, confirmText: '确认充值' });
      if (go && this.isOpen) await this.submit(1);
    }
  }

  private async onSubmitError(e: unknown): Promise<void> {
    if (e instanceof ApiError && e.code === AD_OUT_OF_PAY_TIMES) {
      // commerce.md §2.15: the section ad is marked out of pay times; nothing was ordered
      this.ad?.outOfPayTimes();
      this.root.ui.error(errorMessage(e));
      this.close();
      return;
    }
    if (e instanceof ApiError && e.code === ErrorCode.USER_IS_MINOR) {
      // commerce.md §8: the minor pay alert
      await this.root.ui.alert({ title: '温馨提示', message: e.message, confirmText: '好的' });
      return;
    }
    if (e instanceof ApiError && e.code === PurchaseCode.COIN_NOT_ENOUGH) {
      // commerce.md §8: recharge first; cancel reopens the pay dialog
      this.hidden = true;
      const recharge = await this.root.ui.confirm({
        title: PurchaseText.COIN_SHORT_TITLE,
        message: PurchaseText.COIN_SHORT,
        confirmText: PurchaseText.COIN_SHORT_OK,
      });
      if (!this.isOpen) return;
      if (recharge) await this.open('coin');
      else runInAction(() => (this.hidden = false));
      return;
    }
    if (e instanceof ApiError && e.code === PurchaseCode.NEED_PHONE) {
      await this.root.ui.alert({ title: PurchaseText.PHONE_TITLE, message: e.message || PurchaseText.PHONE_FALLBACK, confirmText: PurchaseText.PHONE_OK });
      return;
    }
    this.root.ui.error(errorMessage(e));
  }

  /** Generates the QR of the order, then long-polls it (commerce.md §4.3). */
  async generateQr(): Promise<void> {
    const order = this.order;
    if (!order) return;
    this.stopPolling();
    const gen = this.pollGen;
    this.qr = { state: QrState.LOADING, url: '', ticket: '' };
    try {
      const code = await this.root.api.get(PurchasePaths.qrcode, {
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
        await this.root.api.post(PurchasePaths.polling, { order_no: this.order.order_no, ticket: this.qr.ticket });
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

  /** The overlay's action: '点击刷新' regenerates the QR, '点击重新下单' goes back. */
  overlayAction(): void {
    const o = this.qrOverlay;
    if (!o || !o.action) return;
    if (o.action === 'refresh') void this.generateQr();
    else this.back();
  }

  /** '返回' of the QR step, and '点击重新下单'. */
  back(): void {
    this.stopPolling();
    this.order = null;
    this.qr = null;
    this.step = this.backStep === 'detail' || !this.section ? 'detail' : 'list';
  }

  /** The order is paid: the result step, the user re-read, the type's callback. */
  private paid(): void {
    this.stopPolling();
    const g = this.selected;
    this.result = { title: g?.title ?? '', count: this.count };
    this.step = 'result';
    this.afterPaid();
    // the queue-card callback closes the dialog (commerce.md §4.1)
    if (this.type === 'queue') {
      this.root.ui.success(PurchaseText.PAID);
      this.close();
    }
  }

  private afterPaid(): void {
    void this.root.user.loadProfile();
    this.root.onPurchased(this.type);
  }

  private stopPolling(): void {
    this.pollGen++;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const wake = this.retryWake;
    this.retryWake = null;
    wake?.(false);
  }

  /** Closes the dialog: every poll stops, the agreement checkbox resets (commerce.md §4.1). */
  close(): void {
    this.stopPolling();
    this.isOpen = false;
    this.hidden = false;
    this.agreed = false;
    this.order = null;
    this.qr = null;
  }

  dispose(): void {
    this.close();
    this.coupon.dispose();
  }
}
