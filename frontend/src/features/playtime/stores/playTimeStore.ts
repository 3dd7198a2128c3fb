import { makeAutoObservable, observable, runInAction } from 'mobx';
import type { FastEnterCard, GiftGoods, SignResult } from '../../../api/types';
import { errorMessage } from '../../../transport/apiError';
import type { AppServices } from '../../../kernel/services';
import type { ToastType } from '../../../kernel/uiStore';

/** What this store needs from the others (the root store provides it). */
export type PlayTimeDeps = Pick<AppServices, 'api' | 'ui' | 'user' | 'openPurchase'> & {
  /** the session that runs out of time (the game feature's) */
  game: { readonly live: { readonly id: number | string; readonly gameId: number } | null; exitSession(id: number | string): Promise<boolean> };
  /** the play page's closing notice (the game feature's) */
  notice: { closePlayPage(message: string, how: 'alert' | ToastType, reason?: string | null): void };
};

/** scienceDuration of the time-up dialog, in seconds */
export const TIME_UP_SECONDS = 60;
export const TIME_UP_TICK_MS = 500;
export const TIME_UP_MESSAGE = '您的游戏时长已用完，游戏页面即将关闭';

/**
 * The time-up countdown in seconds (commerce.md §2.9 "a countdown of scienceDuration"): the
 * notice's scienceDuration when it is a positive number of seconds, else TIME_UP_SECONDS.
 */
export function scienceSeconds(raw: unknown): number {
  const n = Number(raw);
  return n > 0 && n < 1e6 ? Math.ceil(n) : TIME_UP_SECONDS;
}

/** The registration gift dialog's layout: 'one', 'two' or 'three' (3 and more). */
export type GiftLayout = 'one' | 'two' | 'three';

export function giftLayout(count: number): GiftLayout {
  if (count <= 1) return 'one';
  if (count === 2) return 'two';
  return 'three';
}

/** The in-game time-up dialog (commerce.md §2.9) while open. */
export interface TimeUp {
  gameId: number | null;
  /** browser time at which the countdown ends */
  endsAt: number;
  /** '放弃' asked for its confirmation ('时长不足将退出游戏') */
  confirming: boolean;
}

/**
 * The play-time dialogs of commerce.md §2.9 and §4.8: the registration gift after login, the
 * use-up prompt ('时长提醒', off the play page or when a start lacks play time), and the in-game
 * time-up dialog with its scienceDuration countdown, whose end closes the game.
 */
export class PlayTimeStore {
  /** the registration gift being shown */
  gift: GiftGoods[] | null = null;
  /** the use-up prompt: open, for a game when known */
  useUp: { gameId: number | null } | null = null;
  /** the use-up prompt's usable time card (commerce.md §2.9), when the game has one */
  useUpCard: FastEnterCard | null = null;
  /** the use-up prompt's yoodo line: yoodoText with its %s, and the amount */
  yoodoRule: { yoodo: string; yoodoText: string } | null = null;
  timeUp: TimeUp | null = null;
  /** the check-in result being shown (commerce.md §2.9, §4.10) */
  checkin: SignResult | null = null;
  /** browser clock of the time-up countdown */
  nowMs = Date.now();
  private giftDone: (() => void) | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private closing = false;
  private readonly deps: PlayTimeDeps;

  constructor(deps: PlayTimeDeps) {
    this.deps = deps;
    makeAutoObservable<PlayTimeStore, 'deps' | 'giftDone' | 'timer' | 'closing'>(this, {
      deps: false,
      giftDone: false,
      timer: false,
      closing: false,
      gift: observable.ref,
      checkin: observable.ref,
    });
  }

  get giftLayout(): GiftLayout {
    return giftLayout(this.gift?.length ?? 0);
  }

  /** Whole seconds left on the time-up countdown. */
  get timeUpSeconds(): number {
    if (!this.timeUp) return 0;
    return Math.max(0, Math.ceil((this.timeUp.endsAt - this.nowMs) / 1000));
  }

  /** Any of these dialogs is open (the game float hides). */
  get dialogOpen(): boolean {
    return this.gift !== null || this.useUp !== null || this.timeUp !== null || this.checkin !== null;
  }

  // ---------------------------------------------------------------- registration gift

  /**
   * After login (commerce.md §4.8): a non-empty give_goods shows the gift dialog, and the promise
   * settles when it is closed; otherwise at once.
   */
  showRegisterGift(goods: GiftGoods[] | null | undefined): Promise<void> {
    const list = Array.isArray(goods) ? goods.filter((g) => g && typeof g === 'object') : [];
    if (list.length === 0) return Promise.resolve();
    this.closeRegisterGift();
    this.gift = list;
    return new Promise((resolve) => {
      this.giftDone = resolve;
    });
  }

  /** '开心收下': closing runs the pending continuation. */
  closeRegisterGift(): void {
    const done = this.giftDone;
    this.giftDone = null;
    this.gift = null;
    done?.();
  }

  // ---------------------------------------------------------------- check-in result

  /** A check-in succeeded: '签到成功，恭喜您获得 +N分钟'. */
  showCheckin(result: SignResult): void {
    this.checkin = result;
  }

  /** Closing the check-in result resets the operation (commerce.md §4.8). */
  closeCheckin(): void {
    this.checkin = null;
  }

  // ---------------------------------------------------------------- use-up prompt

  openUseUp(gameId: number | null = null): void {
    if (this.useUp) return;
    this.useUp = { gameId };
    this.useUpCard = null;
    this.yoodoRule = null;
    if (gameId !== null) void this.loadUseUp(gameId);
  }

  /** The game's usable time card (page size 1) and its yoodo rule; either may be missing. */
  private async loadUseUp(gameId: number): Promise<void> {
    const api = this.deps.api;
    const [cards, rule] = await Promise.allSettled([
      api.get('/api/v3/user/card/available', { game_id: gameId, page_size: 1 }),
      api.post('/api/japi/yoo/game/yoodoRule', { gameId }),
    ]);
    runInAction(() => {
      if (this.useUp?.gameId !== gameId) return;
      if (cards.status === 'fulfilled') this.useUpCard = cards.value.data[0] ?? null;
      if (rule.status === 'fulfilled') this.yoodoRule = rule.value;
    });
  }

  /** '立即使用': the card's time joins the balance; '使用成功' closes the prompt. */
  async useCard(): Promise<void> {
    const card = this.useUpCard;
    if (!card) return;
    try {
      await this.deps.api.post('/api/v3/user/card/activate', { id: card.id });
      runInAction(() => {
        this.useUp = null;
        this.useUpCard = null;
      });
      this.deps.ui.success('使用成功');
      void this.deps.user.loadProfile();
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
    }
  }

  closeUseUp(): void {
    this.useUp = null;
    this.useUpCard = null;
  }

  /** '好的' of the use-up prompt: the yoodo purchase for time run out (commerce.md §2.9). */
  topUp(): void {
    const gameId = this.useUp?.gameId ?? null;
    this.useUp = null;
    this.useUpCard = null;
    this.deps.openPurchase('yoodo_time_useup', gameId === null ? {} : { gameId });
  }

  // ---------------------------------------------------------------- time-up dialog

  /** 130125 on the play page: the countdown of its scienceDuration (seconds, `scienceSeconds`) starts. */
  openTimeUp(gameId: number | null, seconds?: unknown): void {
    if (this.timeUp) return;
    this.nowMs = Date.now();
    this.timeUp = { gameId, endsAt: this.nowMs + scienceSeconds(seconds) * 1000, confirming: false };
    this.closing = false;
    this.startTimer();
  }

  /** '去充值': buys yoodo_time_useup for the game (commerce.md §2.9); the countdown runs on. */
  recharge(): void {
    const gameId = this.timeUp?.gameId ?? null;
    this.deps.openPurchase('yoodo_time_useup', gameId === null ? {} : { gameId });
  }

  /** A successful payment closes the time-up dialog (commerce.md §2.9). */
  onPaid(): void {
    if (!this.timeUp) return;
    this.stopTimer();
    this.timeUp = null;
  }

  /** '放弃': asks '时长不足将退出游戏'. */
  askAbandon(): void {
    if (this.timeUp) this.timeUp = { ...this.timeUp, confirming: true };
  }

  /** '继续充值': back to the countdown. */
  keepRecharging(): void {
    if (this.timeUp) this.timeUp = { ...this.timeUp, confirming: false };
  }

  /** '放弃' confirmed, or the countdown ended: close the game and the play page. */
  async abandon(): Promise<void> {
    const t = this.timeUp;
    if (!t || this.closing) return;
    this.closing = true;
    this.stopTimer();
    runInAction(() => {
      this.timeUp = null;
    });
    const game = this.deps.game;
    const live = game.live;
    if (live && (t.gameId === null || live.gameId === t.gameId)) await game.exitSession(live.id);
    this.deps.notice.closePlayPage(TIME_UP_MESSAGE, 'warning', 'time_up');
  }

  tick(): void {
    this.nowMs = Date.now();
    if (this.timeUp && this.timeUpSeconds <= 0) void this.abandon();
  }

  private startTimer(): void {
    this.stopTimer();
    this.timer = setInterval(() => this.tick(), TIME_UP_TICK_MS);
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Logged out: every dialog goes (a pending gift continuation still runs). */
  reset(): void {
    this.closeRegisterGift();
    this.useUp = null;
    this.timeUp = null;
    this.checkin = null;
    this.stopTimer();
  }

  dispose(): void {
    this.stopTimer();
  }
}
