import { makeAutoObservable, reaction, type IReactionDisposer } from 'mobx';
import { GameStatus } from '../../../api/codes';
import type { GameStore } from './gameStore';
import type { NoticeStore } from './noticeStore';
import { mergeSummaries, PendingReports } from '../../../stream/pendingReport';
import type { QualitySummary } from '../../../stream/stats';
import { StreamSession, type StreamDeps, type StreamGrant } from '../../../stream/streamSession';
import { ApiError, ErrorCode } from '../../../transport/apiError';

/** What this store needs from the others (the root store provides it). */
export type PlayStoreDeps = {
  game: Pick<GameStore, 'live' | 'isThisClient' | 'lastEnded' | 'takeStreamGrant' | 'presentQualityReport'>;
  notice: Pick<NoticeStore, 'playPageEnded'>;
  /** the game's name when the session is gone (the catalogue feature's details) */
  catalogue: { detail(id: number): { info?: { name: string } | null } | undefined };
};

/** The platform calls of the play page. */
export interface PlayApi {
  /** a fresh stream ticket for the caller's own CONNECTING or PLAYING session */
  streamTicket(sessionId: string): Promise<StreamGrant>;
  /** the session's quality report, once it is over */
  qualityReport(sessionId: string, summary: QualitySummary): Promise<void>;
  /** the loading tips shown while the stream connects (core-platform.md §7.4 loadTip) */
  loadingTips(): Promise<string[]>;
}

/** How long each loading tip shows before the next. */
export const LOADING_TIP_MS = 4000;

/** The browser facilities of the stream (the real ones in the page, fakes in tests). */
export type PlayEnv = Omit<StreamDeps, 'ticket' | 'isFinalRefusal'>;

/** localStorage: the stats overlay stays as the player left it */
export const STATS_VISIBLE_KEY = 'yoo_stream_stats';

const key = (id: number | string) => String(id);

/**
 * The play page's stream: while this client's session of the page's game is CONNECTING or
 * PLAYING it has a StreamSession; when the session ends (whichever way) the stream stops, and if
 * a picture was ever shown the quality report is sent to the platform and presented to the
 * player. Leaving the page while the game runs on (the page closes, or goes elsewhere) stops the
 * stream and keeps its figures (`PendingReports`): the game is not over yet, so whichever page
 * sees it end (a reopened play page, or the site's main window, `PlayStoreDeps`) merges them into
 * the one report it sends.
 */
export class PlayStore {
  session: StreamSession | null = null;
  statsVisible: boolean;
  /** the loading tips, in the operator's order (none until read, or when reading failed) */
  loadingTips: string[] = [];
  /** the one shown: rotates every LOADING_TIP_MS while there is no picture */
  tipIndex = 0;
  private tipTimer: ReturnType<typeof setInterval> | null = null;
  private sessionId: string | null = null;
  private readonly deps: PlayStoreDeps;
  private readonly gameId: number;
  private readonly api: PlayApi;
  private readonly env: PlayEnv;
  private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  private readonly pending: PendingReports;
  private disposers: IReactionDisposer[] = [];

  constructor(deps: PlayStoreDeps, gameId: number, api: PlayApi, env: PlayEnv, storage: Pick<Storage, 'getItem' | 'setItem'> | null = null) {
    this.deps = deps;
    this.gameId = gameId;
    this.api = api;
    this.env = env;
    this.storage = storage;
    this.statsVisible = readFlag(storage, STATS_VISIBLE_KEY);
    this.pending = new PendingReports(storage);
    makeAutoObservable<PlayStore, 'sessionId' | 'deps' | 'gameId' | 'api' | 'env' | 'storage' | 'pending' | 'disposers' | 'tipTimer'>(this, {
      tipTimer: false,
      sessionId: false,
      deps: false,
      gameId: false,
      api: false,
      env: false,
      storage: false,
      pending: false,
      disposers: false,
    });
  }

  /**
   * The session whose stream this page shows: this client's live session of the page's game,
   * once confirmed (CONNECTING: the host is launching the game; PLAYING).
   */
  get target(): string | null {
    const live = this.deps.game.live;
    if (!live || live.gameId !== this.gameId || !this.deps.game.isThisClient) return null;
    return live.status === GameStatus.CONNECTING || live.status === GameStatus.PLAYING ? key(live.id) : null;
  }

  /** The loading tip shown now, while there is no picture; null otherwise. */
  get loadingTip(): string | null {
    if (this.loadingTips.length === 0 || this.session?.hasStream) return null;
    return this.loadingTips[this.tipIndex % this.loadingTips.length];
  }

  /** Follows the target from now on. */
  start(): void {
    if (this.disposers.length > 0) return;
    const started = this.deps.notice.playPageEnded;
    void this.readLoadingTips();
    this.disposers.push(
      // the tips rotate only while one is on screen and there is another to show
      reaction(
        () => this.loadingTip !== null && this.loadingTips.length > 1,
        (on) => this.rotateTips(on),
        { fireImmediately: true },
      ),
      reaction(
        () => this.target,
        (id) => this.follow(id),
        { fireImmediately: true },
      ),
      // the platform ended the game and the page is closing (a play window closes itself at
      // once, before the session's end may have arrived): finish now, with the reason it gave
      reaction(
        () => this.deps.notice.playPageEnded,
        (ended) => {
          if (ended && ended !== started && ended.gameId === this.gameId && this.sessionId !== null) {
            this.finish(this.sessionId, { reason: ended.reason });
          }
        },
      ),
    );
  }

  private async readLoadingTips(): Promise<void> {
    let tips: string[];
    try {
      tips = await this.api.loadingTips();
    } catch {
      return; // the page shows its status line alone
    }
    this.setLoadingTips(tips);
  }

  setLoadingTips(tips: string[]): void {
    this.loadingTips = tips.filter((t) => t.trim() !== '');
    this.tipIndex = 0;
  }

  nextTip(): void {
    this.tipIndex = (this.tipIndex + 1) % Math.max(1, this.loadingTips.length);
  }

  private rotateTips(on: boolean): void {
    if (on && !this.tipTimer) {
      this.tipTimer = setInterval(() => this.nextTip(), LOADING_TIP_MS);
    } else if (!on && this.tipTimer) {
      clearInterval(this.tipTimer);
      this.tipTimer = null;
    }
  }

  toggleStats(): void {
    this.statsVisible = !this.statsVisible;
    try {
      this.storage?.setItem(STATS_VISIBLE_KEY, this.statsVisible ? '1' : '0');
    } catch {
      // private mode: the choice lasts this page only
    }
  }

  /**
   * The page goes (closed, or navigated away) while its game may run on: the stream stops and
   * what it measured is kept for the report that follows the game's end.
   */
  dispose(): void {
    for (const d of this.disposers) d();
    this.disposers = [];
    this.rotateTips(false);
    const summary = this.session?.stop() ?? null;
    if (summary && this.sessionId !== null) this.pending.save(this.sessionId, summary);
    this.session = null;
    this.sessionId = null;
  }

  private follow(id: string | null): void {
    if (id === this.sessionId) return;
    if (this.sessionId !== null) this.finish(this.sessionId);
    if (id === null) return;
    this.sessionId = id;
    const session = new StreamSession(
      {
        ...this.env,
        ticket: () => this.api.streamTicket(id),
        isFinalRefusal: isFinalRefusal,
      },
      // in the window that confirmed, the confirm answer's ticket saves a round trip
      { grant: this.deps.game.takeStreamGrant(id) },
    );
    this.session = session;
    session.start();
  }

  /**
   * The session is over (or this page now shows another): stop, report, present. `over` when
   * the platform said the game ended (its state may still be live here).
   */
  private finish(id: string, over?: { reason: string | null }): void {
    const session = this.session;
    this.session = null;
    this.sessionId = null;
    const own = session?.stop() ?? null;
    // a session that goes on elsewhere (moved to another device) is not over: keep the figures
    const live = this.deps.game.live;
    if (own && !over && live !== null && key(live.id) === id) {
      this.pending.save(id, own);
      return;
    }
    const earlier = this.pending.take(id);
    const summary = own && earlier ? mergeSummaries(earlier, own) : (own ?? earlier);
    if (!summary) return;
    const lastEnded = this.deps.game.lastEnded;
    const ended = lastEnded && lastEnded.id === id ? lastEnded : null;
    const gameName = ended?.gameName || (live && key(live.id) === id ? live.gameName : '') || (this.deps.catalogue.detail(this.gameId)?.info?.name ?? '');
    // sent after the end: the platform takes one report per session, once it is over
    void this.api.qualityReport(id, summary).catch(() => undefined);
    this.deps.game.presentQualityReport({ sessionId: id, gameName, endReason: over ? over.reason : (ended?.endReason ?? null), summary });
  }
}

/**
 * A refused ticket that no retry will change: the session has no stream (its machine is not a
 * game host's) or is not this player's or not live any more. A network failure is retried.
 */
export function isFinalRefusal(e: unknown): boolean {
  return e instanceof ApiError && e.code !== ErrorCode.NETWORK;
}

function readFlag(storage: Pick<Storage, 'getItem'> | null, name: string): boolean {
  try {
    return storage?.getItem(name) === '1';
  } catch {
    return false;
  }
}
