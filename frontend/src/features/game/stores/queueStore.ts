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
import { QUEUE_POLL_MS } from './gameTypes';
import { GameStatus, Lane } from '../../../api/codes';
import type { ChannelSize, ConfigGroup, FastEnterCard, QueueRules } from '../../../api/types';
import type { AppServices } from '../../../kernel/services';
import type { GameStore } from './gameStore';
import { RetentionStore, type Retention } from './retentionStore';
export { RETENTION_LANE, RETENTION_SECTION, retentionLane, type Retention } from './retentionStore';

/** What this store needs from the others (the root store provides it). */
export type QueueStoreDeps = Pick<AppServices, 'api' | 'ui' | 'user' | 'openPurchase'> & {
  game: Pick<GameStore, 'live' | 'isThisClient' | 'queueDialogVisible' | 'refresh' | 'cancelQueue'>;
};

const Paths = {
  channelSize: '/api/japi/yoo/game/gameChannelSize',
  cardList: '/api/v3/user/card/list',
  cardActivate: '/api/v3/user/card/activate',
  configList: '/api/japi/yoo/common/config/list',
  queueRules: '/api/japi/yoo/game/queueRules',
} as const;

/** A rank change re-reads the preview at most this often (ranks can move several times a second). */
export const PREVIEW_MIN_INTERVAL_MS = 1000;

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
  activatingId: string | null = null;
  private channelTimer: ReturnType<typeof setInterval> | null = null;
  private wxLoaded = false;
  /** only the newest preview request may write the preview */
  private previewRequest = 0;
  /** browser time of the last preview request */
  private previewAt = Number.NEGATIVE_INFINITY;
  /** the queue-quit retention dialog (retentionStore.ts) */
  readonly retentionDialog: RetentionStore;
  private readonly deps: QueueStoreDeps;
  private readonly disposers: IReactionDisposer[] = [];

  constructor(deps: QueueStoreDeps) {
    this.deps = deps;
    this.retentionDialog = new RetentionStore(deps);
    makeAutoObservable<
      QueueStore,
      'deps' | 'disposers' | 'channelTimer' | 'wxLoaded' | 'rulesLoading' | 'previewRequest' | 'previewAt'
    >(this, {
      previewAt: false,
      retentionDialog: false,
      deps: false,
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
        () => (this.queuedId !== null ? `${this.queuedId}|${this.currentLane}|${this.deps.ui.queueDialogLarge}` : null),
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
        () => (this.queuedId !== null ? this.deps.game.live?.sort : undefined),
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
    const game = this.deps.game;
    const l = game.live;
    return l && game.isThisClient && l.status === GameStatus.QUEUE ? String(l.id) : null;
  }

  get currentLane(): number {
    return this.deps.game.live?.isFast ?? Lane.NORMAL;
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
      queDuration: this.deps.game.live?.queDuration ?? 0,
      bound: this.wxBound,
    });
  }

  get sortEntryVisible(): boolean {
    return showSortEntry(this.wxConfig?.web);
  }

  /** Ad slot gift_game_dialog: not for member or carrier fast entry (core-platform.md §2.7). */
  get dialogAdVisible(): boolean {
    const lane = this.currentLane;
    return this.deps.game.queueDialogVisible && lane !== Lane.MEMBER && lane !== Lane.CARRIER;
  }

  // ---------------------------------------------------------------- reads

  /** The queue's rules, read once (GET queueRules). */
  async loadRules(): Promise<void> {
    if (this.rules !== null || this.rulesLoading) return;
    this.rulesLoading = true;
    try {
      const rules = await this.deps.api.get(Paths.queueRules);
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
      const cfg = await this.deps.api.post(Paths.configList, { groupCode: 'wx_sort_entry' });
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
    if (!this.deps.user.isLoggedIn) return;
    try {
      const list = await this.deps.api.get(Paths.cardList, { status: 0, card_type: 1 });
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
      const size = await this.deps.api.post(Paths.channelSize, { isFast: lane });
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
      await this.deps.api.post(Paths.cardActivate, { id: card.id });
      this.deps.ui.success('使用成功');
      runInAction(() => {
        this.cards = this.cards.filter((c) => String(c.id) !== String(card.id));
      });
      void this.loadCards();
      void this.deps.game.refresh();
      return true;
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
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
    this.deps.openPurchase('queue_accelerate');
  }

  /** The reservation toggle of a bound user. */
  toggleReserve(): void {
    this.wxReserved = !this.wxReserved;
    this.deps.ui.success(this.wxReserved ? '预约成功' : '已取消预约');
  }

  /**
   * '退出排队' (core-platform.md §2.8, §2.9): on this client, in QUEUE and not on fast entry, the
   * retention dialog first ('再等等' keeps the place); then the exit confirm.
   */
  async requestExit(): Promise<void> {
    const game = this.deps.game;
    const l = game.live;
    if (!l || l.status !== GameStatus.QUEUE) return;
    if (game.isThisClient && !isFastEntry(l.isFast)) {
      const stay = await this.askRetention();
      if (stay) return;
    }
    const ok = await this.deps.ui.confirm({
      title: '退出排队',
      message: '退出后需要重新排队，确定要退出排队吗？',
      confirmText: '立即退出',
      cancelText: '再玩一会',
    });
    if (ok) await game.cancelQueue();
  }

  // ---------------------------------------------------------------- the retention dialog (retentionStore.ts)

  get retention(): Retention | null {
    return this.retentionDialog.retention;
  }

  get retentionText(): string {
    return this.retentionDialog.text;
  }

  askRetention(): Promise<boolean> {
    return this.retentionDialog.ask();
  }

  buyRetention(): void {
    this.retentionDialog.buy();
  }

  settleRetention(stay: boolean): void {
    this.retentionDialog.settle(stay);
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
