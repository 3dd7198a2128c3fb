import { makeAutoObservable, reaction, type IReactionDisposer } from 'mobx';
import { NotificationCode, notificationData, type NotificationData } from '../../../api/codes';
import type { AppServices } from '../../../kernel/services';
import type { GameStore } from './gameStore';
import type { ToastType } from '../../../kernel/uiStore';

/** What this store needs from the others (the root store provides it). */
export type NoticeStoreDeps = Pick<AppServices, 'effects' | 'ui'> & {
  game: Pick<GameStore, 'lastEnded' | 'refresh' | 'playPageOpening' | 'playPageSettled'>;
  /** the play-time dialogs (the playtime feature's) */
  playTime: {
    readonly timeUp: unknown;
    openTimeUp(gameId: number | null, seconds?: unknown): void;
    openUseUp(gameId?: number | null): void;
  };
};

/** How long one barrage notice takes to cross the stream area. */
export const BARRAGE_MS = 8000;
/** Notices waiting beyond the one on screen; older ones are dropped first. */
export const BARRAGE_MAX_WAITING = 5;
export const GAME_ENDED_MESSAGE = '游戏已结束';

/** A play page the platform's end of the game is closing, and why (an EndReason). */
export interface PlayPageEnd {
  gameId: number;
  reason: string | null;
}

export interface BarrageItem {
  id: number;
  code: number;
  text: string;
}

/** The time-short notice's data (130123): its minutes left are the barrage's. */
type TimeShort = NotificationData[typeof NotificationCode.USER_GAME_TIME_NOT_ENOUGH];

/** The barrage text of a notice code (core-platform.md §4.11), or null if it is no barrage. */
export function barrageText(code: number, timeShort: Pick<TimeShort, 'left'> | null = null): string | null {
  switch (code) {
    case NotificationCode.USER_GAME_TIME_NOT_ENOUGH: {
      const left = timeShort?.left ?? 0;
      const minutes = left > 0 ? Math.ceil(left) : 10;
      return `游戏时长不足${minutes}分钟，请及时补充`;
    }
    case NotificationCode.GAME_OFFLINE_SOON:
      return '游戏即将下线，请及时保存游戏进度';
    case NotificationCode.LIVE_CONTROL_OFFLINE_SOON:
      return '一起玩的操控即将结束，请及时保存游戏进度';
    case NotificationCode.LIGHT_PACKAGE_END_SOON:
      return '畅玩包即将到期，到期后将消耗游戏时长';
    default:
      return null;
  }
}

/** A notice's game: its gameId when it names one. */
const gameOf = (data: { gameId: number } | null): number | null => (data && data.gameId > 0 ? data.gameId : null);

/**
 * Notices during play (core-platform.md §4.11, §2.14): the barrage across the top of the stream,
 * 130123 (barrage on the play page, else the use-up prompt), 130125 (the time-up dialog on the
 * play page, else the use-up prompt), 130124 (the game ended by the server: alert, then home), and
 * closing the play page. It knows which game's play page is open.
 */
export class NoticeStore {
  /** the game id of the play page on screen, null elsewhere */
  playPageGameId: number | null = null;
  /**
   * The last play page closed because its game ended: the play page's stream reads it to
   * finish (and send its quality report) before a play window closes itself.
   */
  playPageEnded: PlayPageEnd | null = null;
  /** the notice crossing the screen first, then those waiting */
  barrage: BarrageItem[] = [];
  private nextId = 1;
  /** barrage notices for the play page this window is opening, shown when it mounts */
  private held: { gameId: number; code: number; text: string }[] = [];
  private barrageTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly deps: NoticeStoreDeps;
  private readonly disposers: IReactionDisposer[] = [];

  constructor(deps: NoticeStoreDeps) {
    this.deps = deps;
    makeAutoObservable<NoticeStore, 'deps' | 'nextId' | 'held' | 'barrageTimer' | 'disposers'>(this, {
      deps: false,
      nextId: false,
      held: false,
      barrageTimer: false,
      disposers: false,
    });
    this.disposers.push(
      // a session of this client ended without this client asking: on its play page, home with
      // '游戏已结束'; ran out of play time: the time-up dialog there, the use-up prompt elsewhere
      reaction(
        () => this.deps.game.lastEnded,
        (ended) => {
          if (!ended || ended.deliberate) return;
          const here = this.playPageGameId !== null && ended.gameId === this.playPageGameId;
          if (ended.endReason === 'time_up') {
            if (here) this.deps.playTime.openTimeUp(ended.gameId);
            else this.deps.playTime.openUseUp(ended.gameId);
            return;
          }
          if (here && !this.deps.playTime.timeUp) this.closePlayPage(GAME_ENDED_MESSAGE, 'alert', ended.endReason);
        },
      ),
    );
  }

  get current(): BarrageItem | null {
    return this.barrage[0] ?? null;
  }

  get onPlayPage(): boolean {
    return this.playPageGameId !== null;
  }

  /** The play page mounts (a game id) and unmounts (null). */
  setPlayPage(gameId: number | null): void {
    this.playPageGameId = gameId;
    if (gameId === null) {
      this.clearBarrage();
      return;
    }
    this.deps.game.playPageSettled();
    const held = this.held.filter((h) => h.gameId === gameId);
    this.held = [];
    for (const h of held) this.pushBarrage(h.code, h.text);
  }

  /**
   * A barrage notice of `gameId` that came while this window was opening that game's play page
   * (the first minute is charged when the game starts, before the page is up): it waits for the
   * page instead of taking the off-page path.
   */
  private holdForOpeningPage(gameId: number | null, code: number, text: string): boolean {
    const opening = this.deps.game.playPageOpening;
    if (opening === null || (gameId !== null && gameId !== opening)) return false;
    if (!this.held.some((h) => h.text === text)) this.held.push({ gameId: opening, code, text });
    return true;
  }

  // ---------------------------------------------------------------- dispatch

  /** A NOTIFICATION frame other than 130122; its data typed by its code. */
  handle(code: number, rawData: string): void {
    const N = NotificationCode;
    switch (code) {
      case N.USER_GAME_TIME_NOT_ENOUGH: {
        const data = notificationData(N.USER_GAME_TIME_NOT_ENOUGH, rawData);
        const text = barrageText(code, data)!;
        if (this.onPlayPage) this.pushBarrage(code, text);
        else if (!this.holdForOpeningPage(gameOf(data), code, text)) this.deps.playTime.openUseUp(gameOf(data));
        return;
      }
      case N.USER_TIME_END: {
        const data = notificationData(N.USER_TIME_END, rawData);
        void this.deps.game.refresh();
        if (this.onPlayPage) this.deps.playTime.openTimeUp(gameOf(data) ?? this.playPageGameId, data?.scienceDuration);
        else this.deps.playTime.openUseUp(gameOf(data));
        return;
      }
      case N.USER_GAME_END: {
        const data = notificationData(N.USER_GAME_END, rawData);
        const game = gameOf(data);
        void this.deps.game.refresh();
        if (this.onPlayPage && (game === null || game === this.playPageGameId)) {
          this.deps.effects.exitFullscreen();
          this.closePlayPage(GAME_ENDED_MESSAGE, 'alert', data?.reason ?? null);
        }
        return;
      }
      case N.GAME_OFFLINE_SOON:
      case N.LIVE_CONTROL_OFFLINE_SOON:
      case N.LIGHT_PACKAGE_END_SOON:
        if (this.onPlayPage) this.pushBarrage(code, barrageText(code)!);
        else this.holdForOpeningPage(null, code, barrageText(code)!);
        return;
      case N.CHILDREN_LIMIT: {
        // §4.11: the limit alert with its msg and remark (the game ends a minute later)
        const data = notificationData(N.CHILDREN_LIMIT, rawData);
        void this.deps.ui.alert({
          title: '温馨提示',
          message: data?.msg || '未成年人游戏时间即将结束',
          detail: data?.remark || undefined,
          confirmText: '好的',
        });
        return;
      }
      default:
    }
  }

  /** Leaves the play page (if it is open) for home, with a message; `reason`: why the game ended. */
  closePlayPage(message: string, how: 'alert' | ToastType, reason: string | null = null): void {
    const wasOpen = this.playPageGameId !== null;
    if (wasOpen) this.playPageEnded = { gameId: this.playPageGameId!, reason };
    this.setPlayPage(null);
    // a play page in its own window closes itself; in this window it goes home (core-platform.md §2.2)
    if (wasOpen && !this.deps.effects.closePlayWindow()) this.deps.ui.navigate('/');
    if (how === 'alert') void this.deps.ui.alert({ title: '提示', message, confirmText: '好的' });
    else this.deps.ui.toast(how, message);
  }

  // ---------------------------------------------------------------- barrage

  pushBarrage(code: number, text: string): void {
    if (this.barrage.some((b) => b.text === text)) return;
    const waiting = this.barrage.slice(1);
    while (waiting.length >= BARRAGE_MAX_WAITING) waiting.shift();
    const head = this.barrage[0];
    this.barrage = [...(head ? [head] : []), ...waiting, { id: this.nextId++, code, text }];
    if (!this.barrageTimer) this.scheduleNext();
  }

  /** The notice on screen has crossed: the next one starts. */
  advanceBarrage(): void {
    this.barrageTimer = null;
    this.barrage = this.barrage.slice(1);
    if (this.barrage.length > 0) this.scheduleNext();
  }

  private scheduleNext(): void {
    this.barrageTimer = setTimeout(() => this.advanceBarrage(), BARRAGE_MS);
  }

  private clearBarrage(): void {
    if (this.barrageTimer) clearTimeout(this.barrageTimer);
    this.barrageTimer = null;
    this.barrage = [];
  }

  reset(): void {
    this.held = [];
    this.clearBarrage();
  }

  dispose(): void {
    for (const d of this.disposers) d();
    this.clearBarrage();
  }
}
