import { makeAutoObservable, observable, runInAction } from 'mobx';
import type { CouponSummary, Goods, PayMethod, PayOrder, SectionGoods } from '../../../api/types';
import {
  boughtLine,
  chosenLine,
  clampCount,
  isMemberType,
  perView,
  productTitle,
  purchaseTitle,
  qrOverlay,
  sectionKey,
  showsCount,
  type MemberCategory,
  type PurchaseStep,
  type PurchaseType,
  type QrOverlay,
} from '../../../lib/purchase';
import { isMemberProduct, isVvipProduct } from '../../../lib/products';
import type { AdRef } from '../../../lib/adAction';
import type { PurchasePayload } from '../../../lib/purchasePayload';
import { errorMessage } from '../../../transport/apiError';
import type { AppServices } from '../../../kernel/services';
import { PurchasePayment, type PaymentDeps } from './purchasePayment';
import { COIN_PAY_CODE, PurchasePaths, subscriptionGoods, PurchaseText, type PurchaseResult, type QrView } from './purchaseTypes';
import { CouponStore } from '../../coupon/stores/couponStore';

export * from './purchaseTypes';

/** What the purchase dialog needs from the others (the root store provides it). */
export type PurchaseDeps = PaymentDeps & Pick<AppServices, 'api' | 'ui' | 'user'>;
export type { PurchasePayload } from '../../../lib/purchasePayload';

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
  /** the user-agreement checkbox; closing resets it (commerce.md §4.1) */
  agreed = false;
  private readonly deps: PurchaseDeps;
  /** the order, its QR and poll, the result (purchasePayment.ts) */
  readonly payment: PurchasePayment;
  /** the coupon row: the caller's coupons for the chosen product and count (commerce.md §4.6) */
  readonly coupon: CouponStore;

  constructor(deps: PurchaseDeps) {
    this.deps = deps;
    this.payment = new PurchasePayment(deps, this);
    makeAutoObservable<PurchaseStore, 'deps'>(this, {
      deps: false,
      coupon: false,
      payment: false,
      section: observable.ref,
      ad: observable.ref,
      goods: observable.ref,
    });
    this.coupon = new CouponStore(deps, () => ({
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
   * The server's price of the current product, count and coupon (coupon/check, commerce.md §4.5:
   * the unit price it gives this caller × the units, the coupon off); null until the answer for
   * this selection is in.
   */
  get quote(): CouponSummary | null {
    return this.selected ? this.coupon.current : null;
  }

  /** The payable total in fen as the server answered it; null while pending. */
  get totalFen(): number | null {
    return this.quote?.pay_money ?? null;
  }

  /** The units bought: the count, or an upgrade's days left (the server buys those, §2.5). */
  get units(): number {
    return this.selected?.up?.up_days ?? this.count;
  }

  /** Savings in fen as the server answered them ('已为你节省'); 0 while pending. */
  get savedFen(): number {
    return this.quote?.savings ?? 0;
  }

  get payText(): string {
    return this.payingWithCoins ? '立即兑换' : '立即支付';
  }

  get qrOverlay(): QrOverlay | null {
    return this.payment.qr ? qrOverlay(this.payment.qr.state) : null;
  }

  get chosenLine(): string {
    return chosenLine(this.selected?.title ?? '', this.units);
  }

  get resultLine(): string {
    const r = this.payment.result;
    return r ? boughtLine(r.title, r.count) : '';
  }

  // ------------------------------------------------------------------ opening

  /**
   * Opens the dialog (commerce.md §4.1): a section's goods in list mode, or one product in detail
   * mode. The first product is preselected, count 1; members default to the user's category.
   */
  async open(type: PurchaseType, payload: PurchasePayload = {}): Promise<void> {
    this.payment.reset();
    this.payment.result = null;
    this.type = type;
    this.gameId = payload.gameId ?? null;
    this.sectionOverride = payload.section ?? null;
    this.ad = payload.ad ?? null;
    this.category = payload.category ?? (this.deps.user.profile?.member_info?.using === 'vvip' ? 'vvip' : 'vip');
    this.showTabs = payload.showTab ?? false;
    this.count = 1;
    this.selectedIndex = 0;
    this.carouselStart = 0;
    this.agreed = false;
    this.hidden = false;
    if (payload.goods) {
      this.section = null;
      this.goods = [payload.goods];
      this.step = 'detail';
      this.payment.backStep = 'detail';
      this.pickDefaultPay();
      this.isOpen = true;
      return;
    }
    this.step = 'list';
    this.payment.backStep = 'list';
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
      const section = await this.deps.api.get(PurchasePaths.sectionGoods, { section_key: key });
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
      const list = await this.deps.api.get('/api/shop/goods/game-package', { game_id: gameId });
      const pack = list.data[0];
      if (!pack) {
        runInAction(() => {
          this.loading = false;
        });
        this.fail(PurchaseText.NO_PACKAGES);
        return;
      }
      const item = await this.deps.api.get('/api/shop/goods/game-package/item', { package_id: pack.id });
      if (!this.isOpen) return;
      runInAction(() => {
        this.loading = false;
        this.goods = subscriptionGoods(item);
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
    this.deps.ui.error(message);
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

  // ------------------------------------------------------------------ paying (purchasePayment.ts)

  get submitting(): boolean {
    return this.payment.submitting;
  }

  get order(): PayOrder | null {
    return this.payment.order;
  }

  get qr(): QrView | null {
    return this.payment.qr;
  }

  get result(): PurchaseResult | null {
    return this.payment.result;
  }

  submit(confirm = 0): Promise<void> {
    return this.payment.submit(confirm);
  }

  generateQr(): Promise<void> {
    return this.payment.generateQr();
  }

  back(): void {
    this.payment.back();
  }

  /** The overlay's action: '点击刷新' regenerates the QR, '点击重新下单' goes back. */
  overlayAction(): void {
    const o = this.qrOverlay;
    if (!o || !o.action) return;
    if (o.action === 'refresh') void this.payment.generateQr();
    else this.payment.back();
  }

  /** Closes the dialog: every poll stops, the agreement checkbox resets (commerce.md §4.1). */
  close(): void {
    this.payment.reset();
    this.isOpen = false;
    this.hidden = false;
    this.agreed = false;
  }

  dispose(): void {
    this.close();
    this.coupon.dispose();
  }
}
