import { makeAutoObservable, observable, reaction, runInAction, type IReactionDisposer } from 'mobx';
import {
  chooseLaneCard,
  isFastEntry,
  preferredPreLane,
  showSortEntry,
  wxNotice,
  type LaneCard,
  type WxNotice,
} from '../../../lib/lanes';
import { ApiError, ErrorCode, errorMessage } from '../../../transport/apiError';
import { QUEUE_POLL_MS } from './gameStore';
import { GameStatus, Lane } from '../../../api/codes';
import type { ChannelSize, ConfigGroup, FastEnterCard, Goods, QueueRules } from '../../../api/types';
import { isMemberProduct, isVvipProduct, ProductType } from '../../../lib/products';
import type { RootStore } from '../../../stores/rootStore';

const Paths = {
  channelSize: '/api/japi/yoo/game/gameChannelSize',
  cardList: '/api/v3/user/card/list',
  cardActivate: '/api/v3/user/card/activate',
  configList: '/api/japi/yoo/common/config/list',
  queueRules: '/api/japi/yoo/game/queueRules',
  sectionGoods: '/api/web/v1/section/goods',
} as const;

/** The sku section whose first item the retention dialog advertises (core-platform.md §2.8). */
export const RETENTION_SECTION = 'queue_detainment_goods';

/** The lane the retention dialog advertises before its product is known (a VVIP product's). */
export const RETENTION_LANE = Lane.VVIP;

/** The lane a retention product leads to (commerce.md §4.9): 3 VVIP, 4 VIP, 1 otherwise. */
export function retentionLane(productType: number | undefined): number {
  if (productType === undefined) return RETENTION_LANE;
  if (isVvipProduct(productType)) return Lane.VVIP;
  if (productType === ProductType.VIP || productType === ProductType.VIP_NEW) return Lane.VIP;
  return Lane.MEMBER;
}
/** A rank change re-reads the preview at most this often (ranks can move several times a second). */
export const PREVIEW_MIN_INTERVAL_MS = 1000;

/** The queue-quit retention dialog (core-platform.md §2.8) while it is open. */
export interface Retention {
  id: number;
  /** expected position on the advertised lane, null until gameChannelSize answers */
  preSort: number | null;
  /** the advertised product: the first of queue_detainment_goods; null until read (or none) */
  goods: Goods | null;
}

/**
 * What the queue dialog and the game float show around the rank: the lane card (carrier,
 * fast entry, an owned fast-entry card, or the upsell with the channel preview), the
 * messaging-app notice area, and the queue-quit retention. Everything here is read only while
 * this client's session is in QUEUE (core-platform.md §4.2).
 */
export class QueueStore {
  /** usable fast-entry cards, soonest expiry first */
  cards: FastEnterCard[] = [];
  /** gameChannelSize of `previewLane` for the caller's channel */
  preview: ChannelSize | null = null;
  previewLane: number | null = null;
  /** config group wx_sort_entry: the messaging-app notice area of the queue dialog */
  wxConfig: ConfigGroup | null = null;
  /** the queue's lanes, names and weights, as the server runs them */
  rules: QueueRules | null = null;
  private rulesLoading = false;
  /** bound to the official account (no binding API yet: never) */
  wxBound = false;
  wxReserved = false;
  retention: Retention | null = null;
  /** settles the open retention dialog: true = stay in the queue */
  private retentionResolve: ((stay: boolean) => void) | null = null;
  private retentionSeq = 0;
  activatingId: string | null = null;
  private channelTimer: ReturnType<typeof setInterval> | null = null;
  private wxLoaded = false;
  /** only the newest preview request may write the preview */
  private previewRequest = 0;
  /** browser time of the last preview request */
  private previewAt = Number.NEGATIVE_INFINITY;
  private readonly root: RootStore;
  private readonly disposers: IReactionDisposer[] = [];

  constructor(root: RootStore) {
    this.root = root;
    makeAutoObservable<
      QueueStore,
      'root' | 'disposers' | 'channelTimer' | 'wxLoaded' | 'rulesLoading' | 'previewRequest' | 'previewAt' | 'retentionResolve' | 'retentionSeq'
    >(this, {
      previewAt: false,
      retention: observable.ref,
      retentionResolve: false,
      retentionSeq: false,
      root: false,
      disposers: false,
      channelTimer: false,
      wxLoaded: false,
      rulesLoading: false,
      rules: observable.ref,
      previewRequest: false,
    });
    this.disposers.push(
      // entering QUEUE, a new lane, or the dialog/float appearing: read cards and the preview
      reaction(
        () => (this.queuedId !== null ? `${this.queuedId}|${this.currentLane}|${this.root.ui.queueDialogLarge}` : null),
        (k) => {
          if (k === null) {
            this.clear();
            return;
          }
          void this.loadWxConfig();
          void this.loadRules();
          void this.loadCards();
        },
        { fireImmediately: true },
      ),
      // the preview follows the lane it is about (the pre lane changes when cards come and go)
      reaction(
        () => (this.queuedId !== null ? `${this.queuedId}|${this.wantedPreviewLane}` : null),
        (k) => {
          if (k !== null) void this.loadPreview();
        },
        { fireImmediately: true },
      ),
      // and the queue around the player: a rank change re-reads it, at most once a second
      reaction(
        () => (this.queuedId !== null ? this.root.game.live?.sort : undefined),
        (sort) => {
          if (sort !== undefined && Date.now() - this.previewAt >= PREVIEW_MIN_INTERVAL_MS) void this.loadPreview();
        },
      ),
      // and is re-read with the 5 s status poll, only while queued
      reaction(
        () => this.queuedId !== null,
        (on) => this.setChannelPoll(on),
        { fireImmediately: true },
      ),
    );
  }

  // ---------------------------------------------------------------- derived state

  /** The session id while this client's session is in QUEUE, else null. */
  get queuedId(): string | null {
    const game = this.root.game;
    const l = game.live;
    return l && game.isThisClient && l.status === GameStatus.QUEUE ? String(l.id) : null;
  }

  get currentLane(): number {
    return this.root.game.live?.isFast ?? Lane.NORMAL;
  }

  /** The lane whose channel preview the upsell needs (null: no upsell on this lane). */
  get wantedPreviewLane(): number | null {
    return preferredPreLane(this.rules, this.currentLane, this.cards.length > 0);
  }

  get laneCard(): LaneCard {
    return chooseLaneCard({
      isFast: this.currentLane,
      cards: this.cards,
      preview: this.previewLane === this.wantedPreviewLane ? this.preview : null,
      previewLane: this.wantedPreviewLane,
      rules: this.rules,
    });
  }

  get notice(): WxNotice {
    const cfg = this.wxConfig ?? {};
    const num = (v: string | undefined, d: number) => {
      const n = Number(v);
      return v !== undefined && v !== '' && Number.isFinite(n) ? n : d;
    };
    return wxNotice({
      web: cfg.web,
      delayShowCodeTime: num(cfg.delay_show_code_time, 0),
      delayShowReserveTime: num(cfg.delay_show_reserve_time, 0),
      queDuration: this.root.game.live?.queDuration ?? 0,
      bound: this.wxBound,
    });
  }

  get sortEntryVisible(): boolean {
    return showSortEntry(this.wxConfig?.web);
  }

  /** Ad slot gift_game_dialog: not for member or carrier fast entry (core-platform.md §2.7). */
  get dialogAdVisible(): boolean {
    const lane = this.currentLane;
    return this.root.game.queueDialogVisible && lane !== Lane.MEMBER && lane !== Lane.CARRIER;
  }

  // ---------------------------------------------------------------- reads

  /** The queue's rules, read once (GET queueRules). */
  async loadRules(): Promise<void> {
    if (this.rules !== null || this.rulesLoading) return;
    this.rulesLoading = true;
    try {
      const rules = await this.root.api.get(Paths.queueRules);
      runInAction(() => {
        this.rules = rules;
      });
    } catch {
      // read again at the next queue
    } finally {
      this.rulesLoading = false;
    }
  }

  async loadWxConfig(): Promise<void> {
    if (this.wxLoaded) return;
    this.wxLoaded = true;
    try {
      const cfg = await this.root.api.post(Paths.configList, { groupCode: 'wx_sort_entry' });
      runInAction(() => {
        this.wxConfig = cfg ?? {};
      });
    } catch {
      runInAction(() => {
        this.wxLoaded = false; // try again at the next queue
      });
    }
  }

  async loadCards(): Promise<void> {
    if (!this.root.user.isLoggedIn) return;
    try {
      const list = await this.root.api.get(Paths.cardList, { status: 0, card_type: 1 });
      // fast-entry cards only (play_type 0): the time cards of the backpack are used there
      const usable = (list?.data ?? []).filter((c) => (c.status ?? 0) === 0 && (c.play_type ?? 0) === 0);
      runInAction(() => {
        this.cards = usable;
      });
    } catch {
      // the card area falls back to the upsell
    }
  }

  /** gameChannelSize of the pre lane; only in QUEUE. */
  async loadPreview(): Promise<void> {
    const lane = this.wantedPreviewLane;
    if (this.queuedId === null || lane === null) return;
    const req = ++this.previewRequest;
    this.previewAt = Date.now();
    try {
      const size = await this.root.api.post(Paths.channelSize, { isFast: lane });
      if (req !== this.previewRequest) return;
      runInAction(() => {
        this.preview = size;
        this.previewLane = lane;
      });
    } catch {
      // keep the last preview
    }
  }

  // ---------------------------------------------------------------- actions

  /** '立即使用' on a fast-entry card: the session moves to lane 1; the push brings the new rank. */
  async activateCard(card: FastEnterCard): Promise<boolean> {
    if (this.activatingId !== null) return false;
    this.activatingId = String(card.id);
    try {
      await this.root.api.post(Paths.cardActivate, { id: card.id });
      this.root.ui.success('使用成功');
      runInAction(() => {
        this.cards = this.cards.filter((c) => String(c.id) !== String(card.id));
      });
      void this.loadCards();
      void this.root.game.refresh();
      return true;
    } catch (e) {
      this.root.ui.error(errorMessage(e));
      if (e instanceof ApiError && (e.code === ErrorCode.CARD_NOT_FOUND || e.code === ErrorCode.CARD_UNUSABLE)) {
        void this.loadCards();
      }
      return false;
    } finally {
      runInAction(() => {
        this.activatingId = null;
      });
    }
  }

  /** '使用速进卡' of the game float: the first (soonest to expire) card. */
  async activateFirstCard(): Promise<boolean> {
    const card = this.cards[0];
    if (!card) return false;
    return this.activateCard(card);
  }

  /** '立即加速': the queue acceleration purchase (commerce.md §2.10). */
  accelerate(): void {
    this.root.openPurchase('queue_accelerate');
  }

  /** The reservation toggle of a bound user. */
  toggleReserve(): void {
    this.wxReserved = !this.wxReserved;
    this.root.ui.success(this.wxReserved ? '预约成功' : '已取消预约');
  }

  /**
   * '退出排队' (core-platform.md §2.8, §2.9): on this client, in QUEUE and not on fast entry, the
   * retention dialog first ('再等等' keeps the place); then the exit confirm.
   */
  async requestExit(): Promise<void> {
    const game = this.root.game;
    const l = game.live;
    if (!l || l.status !== GameStatus.QUEUE) return;
    if (game.isThisClient && !isFastEntry(l.isFast)) {
      const stay = await this.askRetention();
      if (stay) return;
    }
    const ok = await this.root.ui.confirm({
      title: '退出排队',
      message: '退出后需要重新排队，确定要退出排队吗？',
      confirmText: '立即退出',
      cancelText: '再玩一会',
    });
    if (ok) await game.cancelQueue();
  }

  /** Opens the retention dialog; resolves true to stay in the queue. */
  askRetention(): Promise<boolean> {
    this.settleRetention(true);
    const id = ++this.retentionSeq;
    this.retention = { id, preSort: null, goods: null };
    const answer = new Promise<boolean>((resolve) => {
      this.retentionResolve = resolve;
    });
    void this.loadRetention(id);
    return answer;
  }

  /** The advertised product, then the expected rank on the lane it leads to. */
  private async loadRetention(id: number): Promise<void> {
    let goods: Goods | null = null;
    try {
      const section = await this.root.api.get(Paths.sectionGoods, { section_key: RETENTION_SECTION, page_size: 1 });
      goods = section.goods[0] ?? null;
    } catch {
      goods = null;
    }
    if (this.retention?.id !== id) return;
    runInAction(() => {
      if (this.retention?.id === id) this.retention = { ...this.retention, goods };
    });
    try {
      const size = await this.root.api.post(Paths.channelSize, { isFast: retentionLane(goods?.type) });
      runInAction(() => {
        if (this.retention?.id === id) this.retention = { ...this.retention, preSort: Number(size?.preSort) || 0 };
      });
    } catch {
      // the rank stays '正在计算'
    }
  }

  /** The retention's text (commerce.md §4.9): a membership's lane, or the fast-entry lane. */
  get retentionText(): string {
    const t = this.retention?.goods?.type;
    return t === undefined || isMemberProduct(t) ? '可享VVIP/VIP专属加速通道' : '速进通道';
  }

  /** '立即加速' of the retention: the player stays queued and buys the advertised product. */
  buyRetention(): void {
    const goods = this.retention?.goods;
    if (!goods) return;
    this.settleRetention(true);
    this.root.openPurchase('queue_accelerate', { goods });
  }

  /** '再等等' (true) or '仍要退出' (false). */
  settleRetention(stay: boolean): void {
    const resolve = this.retentionResolve;
    this.retentionResolve = null;
    this.retention = null;
    resolve?.(stay);
  }

  // ---------------------------------------------------------------- lifecycle

  private clear(): void {
    this.preview = null;
    this.previewLane = null;
    this.previewRequest++;
    this.settleRetention(true);
  }

  /** Logged out: nothing of the previous user survives. */
  reset(): void {
    this.clear();
    this.cards = [];
    this.wxReserved = false;
  }

  private setChannelPoll(on: boolean): void {
    if (on && !this.channelTimer) {
      this.channelTimer = setInterval(() => void this.loadPreview(), QUEUE_POLL_MS);
    } else if (!on && this.channelTimer) {
      clearInterval(this.channelTimer);
      this.channelTimer = null;
    }
  }

  dispose(): void {
    for (const d of this.disposers) d();
    this.setChannelPoll(false);
  }
}
