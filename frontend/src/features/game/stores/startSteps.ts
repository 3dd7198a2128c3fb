// The start sequence's later steps (core-platform.md §4.4, §2.14, §4.7): the first-play start
// guide, the game tip, the start mode from game/info, the unsupported game's share link; and the
// hanging state of a PLAYING session (§3.3). Its own chunk, loaded by the first start (or the
// first game played): `GameStore.loadSteps` creates it once, the game dialogs observe it.
import { makeAutoObservable } from 'mobx';
import { GameStatus } from '../../../api/codes';
import type { CatalogueGame, GameInfo, GameNode, GameTip, LiveGameState } from '../../../api/types';
import type { AppServices } from '../../../kernel/services';
import type { GameRoomAccess, RelayParams, StartRequest } from './gameTypes';
import { relayStartPath } from './gameTypes';
export { relayStartPath };
import { openNodePicker, type PickingFlow } from './nodePicking';
import { browserAllowsStart, certificationAllowsStart, confirmRoomSwitch, type StartCheckDeps } from './startChecks';
import { handleStartError, type StartErrorDeps } from './startErrors';

const Paths = {
  configList: '/api/japi/yoo/common/config/list',
  startTip: '/api/japi/yoo/game/startTip',
  gameInfo: '/api/japi/yoo/game/info',
  shareLinks: '/api/japi/yoo/share/game/links',
  nodes: '/api/japi/yoo/game/node',
  gameList: '/api/web/v1/game/list',
  gameDuration: '/api/japi/yoo/game/gameDuration',
} as const;

/** core-platform.md §9: the game info's banner size */
const BANNER = { bannerWidth: 1920, bannerHeight: 1080 } as const;

type Game = { id: number; name: string };

/** The '温馨提示' dialog of one start (core-platform.md §2.14, §4.7), until the player answers. */
export interface ShownGameTip {
  gameId: number;
  gameName: string;
  tip: GameTip;
  /** the hash of its content, kept when the player ticks '当前游戏版本不再提醒' */
  hash: string;
  /** the checkbox: ticked, this content of this game's tip is not shown again */
  dontRemind: boolean;
}

/** The first-play game start guide while it shows (core-platform.md §2.14). */
export interface StartGuide {
  games: CatalogueGame[];
  /** the smallest positive node latency (ms), capped; null while measuring or when none answered */
  latency: number | null;
  measuring: boolean;
  /** the animation is over: '下一步' continues the start */
  ready: boolean;
}

/** Whether this client's PLAYING session hangs (gameDuration, core-platform.md §3.3). */
export interface HangState {
  sessionId: string;
  hook: boolean;
  /** minutes without input, while hanging */
  minutes: number;
}

/** The unsupported (mobile) game dialog (§2.14): the QR code of the game's share link. */
export interface UnsupportedGame {
  gameId: number;
  gameName: string;
  link: string;
}


/** localStorage, or null where the browser refuses it. */
function browserStorage(): Pick<Storage, 'getItem' | 'setItem'> | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** What the start steps need (and their checks and errors: startChecks.ts, startErrors.ts). */
export type StartStepsDeps = StartCheckDeps &
  StartErrorDeps &
  Pick<AppServices, 'api' | 'transport' | 'effects' | 'ui' | 'openPurchase'> &
  Pick<GameRoomAccess, 'room'> & {
    game: { readonly live: LiveGameState | null };
  };

export class StartSteps {
  /** the game tip of the start under way, while it is shown */
  gameTip: ShownGameTip | null = null;
  /** the first-play start guide, while it shows */
  startGuide: StartGuide | null = null;
  /** the unsupported game dialog, while it is shown */
  unsupported: UnsupportedGame | null = null;
  /** the last gameDuration answer for a PLAYING session (null before one) */
  hang: HangState | null = null;
  /** resolves the start waiting on the game tip: true goes on, false ends it */
  private tipAnswer: ((go: boolean) => void) | null = null;
  /** resolves the start waiting on the start guide: true goes on, false ends it */
  private guideAnswer: ((go: boolean) => void) | null = null;
  /** the common config's start-guide switch and latency cap, read once */
  private guideConfig: Promise<{ on: boolean; maxDelay: number }> | null = null;
  private animation: ReturnType<typeof setTimeout> | null = null;
  private readonly deps: StartStepsDeps;

  constructor(deps: StartStepsDeps) {
    this.deps = deps;
    makeAutoObservable<StartSteps, 'tipAnswer' | 'guideAnswer' | 'guideConfig' | 'animation' | 'deps'>(this, {
      tipAnswer: false,
      guideAnswer: false,
      guideConfig: false,
      animation: false,
      deps: false,
    });
  }

  /** One of these dialogs is open (the game float hides meanwhile). */
  get dialogOpen(): boolean {
    return this.gameTip !== null || this.startGuide !== null || this.unsupported !== null;
  }

  /** The hanging state of the live PLAYING session when it hangs; null otherwise. */
  get hanging(): HangState | null {
    const l = this.deps.game.live;
    const h = this.hang;
    return l && h && h.hook && h.sessionId === String(l.id) && l.status === GameStatus.PLAYING ? h : null;
  }

  /** Logged out: every open dialog closes and its start ends. */
  reset(): void {
    this.answerTip(false);
    this.answerStartGuide(false);
    this.unsupported = null;
    this.hang = null;
  }

  // ---------------------------------------------------------------- browser, certification, room (steps 3–7: startChecks.ts)

  certificationAllowsStart(): Promise<boolean> {
    return certificationAllowsStart(this.deps);
  }

  browserAllowsStart(): Promise<boolean> {
    return browserAllowsStart(this.deps);
  }

  confirmRoomSwitch(game: { id: number; name: string }): Promise<boolean> {
    return confirmRoomSwitch(this.deps, this, game);
  }

  // ---------------------------------------------------------------- start guide (§2.14, §4.4)

  /**
   * The first-play start guide, before certification, when the common config's
   * show_game_start_guide is '1', this browser has not shown it and the client is not in in-car
   * mode. It shows 7 recommended games and the latency, animates about 4.5 s, then '下一步' goes
   * on; closing ends the start; either marks it shown. A failure to read what it shows skips it.
   */
  async startGuideAllows(): Promise<boolean> {
    const cfg = await this.readGuideConfig();
    if (!cfg.on) return true;
    const guide = await import('../../../lib/startGuide');
    if (guide.wasShown(browserStorage()) || guide.skippedHere(this.deps.effects.userAgent)) return true;
    let games: CatalogueGame[];
    let nodes: GameNode[];
    try {
      const [list, all] = await Promise.all([
        this.deps.api.get(Paths.gameList, { page: 1, page_size: guide.RECOMMENDED_GAMES }),
        this.deps.api.post(Paths.nodes, {}),
      ]);
      games = list.data.slice(0, guide.RECOMMENDED_GAMES);
      nodes = Array.isArray(all) ? all : [];
    } catch {
      return true; // straight to the start
    }
    this.answerStartGuide(false); // a guide still open belongs to an abandoned start
    const answered = new Promise<boolean>((resolve) => {
      this.setGuide({ games, latency: null, measuring: true, ready: false }, resolve);
    });
    this.animation = setTimeout(() => this.guideAnimated(), guide.START_GUIDE_ANIMATION_MS);
    void this.measure(nodes).then((pings) => this.setGuideLatency(guide.guideLatency(pings, cfg.maxDelay)));
    return answered;
  }

  private setGuide(g: StartGuide, resolve: (go: boolean) => void): void {
    this.startGuide = g;
    this.guideAnswer = resolve;
  }

  private readGuideConfig(): Promise<{ on: boolean; maxDelay: number }> {
    this.guideConfig ??= this.deps.api.post(Paths.configList, { groupCode: 'common_config' }).then(
      (cfg) => ({ on: cfg?.show_game_start_guide === '1', maxDelay: Number(cfg?.game_start_guide_max_delay) }),
      () => {
        this.guideConfig = null; // read again by the next start
        return { on: false, maxDelay: 0 };
      },
    );
    return this.guideConfig;
  }

  /** The selectable nodes' pings (null: failed or timed out). */
  private measure(nodes: GameNode[]): Promise<(number | null)[]> {
    return Promise.all(
      nodes
        .filter((n) => n.status === 1)
        .map(async (n) => {
          try {
            return await this.deps.transport.probe(n.pingUrl);
          } catch {
            return null;
          }
        }),
    );
  }

  private setGuideLatency(latency: number | null): void {
    if (!this.startGuide) return;
    this.startGuide.latency = latency;
    this.startGuide.measuring = false;
  }

  private guideAnimated(): void {
    this.animation = null;
    if (this.startGuide) this.startGuide.ready = true;
  }

  /** '下一步' (true, once the animation is over) continues the start; closing (false) ends it. */
  answerStartGuide(go: boolean): void {
    const answer = this.guideAnswer;
    if (!answer) return;
    if (go && !this.startGuide?.ready) return;
    this.startGuide = null;
    this.guideAnswer = null;
    if (this.animation) clearTimeout(this.animation);
    this.animation = null;
    void import('../../../lib/startGuide').then((g) => g.markShown(browserStorage()));
    answer(go);
  }

  // ---------------------------------------------------------------- game tip (§4.7, step 9)

  /**
   * The game's tip, unless the game has none (or it could not be read) or the player ticked
   * '当前游戏版本不再提醒' for this very content. '开始游戏' goes on; closing the dialog ends the
   * start.
   */
  async tipAllowsStart(game: Game): Promise<boolean> {
    let tip: GameTip | null;
    try {
      tip = await this.deps.api.post(Paths.startTip, { gameId: game.id, afterAuthCheck: 1 });
    } catch {
      return true; // no tip to show: straight on
    }
    if (!tip || !tip.tip) return true;
    const { DismissedTips, tipHash } = await import('../../../lib/gameTip');
    const hash = tipHash(tip);
    if (new DismissedTips(browserStorage()).has(game.id, hash)) return true;
    this.answerTip(false); // a tip still open belongs to an abandoned start
    const shown: ShownGameTip = { gameId: game.id, gameName: game.name, tip, hash, dontRemind: false };
    return new Promise<boolean>((resolve) => this.setTip(shown, resolve));
  }

  private setTip(shown: ShownGameTip, resolve: (go: boolean) => void): void {
    this.gameTip = shown;
    this.tipAnswer = resolve;
  }

  /** '当前游戏版本不再提醒': ticked, this content of the game's tip is not shown again. */
  async setTipDontRemind(on: boolean): Promise<void> {
    const t = this.gameTip;
    if (!t) return;
    t.dontRemind = on;
    // loaded already: the tip was shown by tipAllowsStart
    const { DismissedTips } = await import('../../../lib/gameTip');
    const dismissed = new DismissedTips(browserStorage());
    if (on) dismissed.remember(t.gameId, t.hash);
    else dismissed.forget(t.gameId, t.hash);
  }

  /** '开始游戏' (true) continues the start; closing the dialog (false) ends it. */
  answerTip(go: boolean): void {
    const answer = this.tipAnswer;
    this.gameTip = null;
    this.tipAnswer = null;
    answer?.(go);
  }

  // ---------------------------------------------------------------- start mode (step 10)

  private async gameInfo(gameId: number): Promise<GameInfo | null> {
    try {
      return await this.deps.api.post(Paths.gameInfo, { gameId, ...BANNER });
    } catch {
      return null;
    }
  }

  /**
   * From game/info: an external game (associatedType 2) opens at its startUrl instead of
   * starting; a game played only together (startMode > 0) opens the live page's start-relay
   * dialog (a play-together start goes on). A failed read goes on: the start's own answer refuses
   * what it must (130128, 130121). A relay host's start was asked at step 7 (`playedInMode`).
   */
  async startModeAllows(game: Game, relay?: RelayParams): Promise<boolean> {
    const info = await this.gameInfo(game.id);
    if (!info) return true;
    if (info.associatedType === 2 && info.startUrl) {
      const { openOutside } = await import('../../../lib/carMode');
      openOutside(this.deps.ui, info.startUrl, info.name);
      return false;
    }
    if (!relay && info.startMode > 0) {
      this.deps.ui.navigate(relayStartPath(game, info.startMode));
      return false;
    }
    return true;
  }

  /**
   * Whether the game may be played in a room of `mode` (game/info's supportModes): the relay
   * host's step ("the user owns a relay"). No answer counts as yes: the start's own answer
   * (130129) says otherwise.
   */
  async playedInMode(gameId: number, mode: number): Promise<boolean> {
    const info = await this.gameInfo(gameId);
    return !info || info.supportModes.includes(mode);
  }

  /**
   * §8.2 GAME_NOT_SUPPORT_RELAY, and a relay host's start of a game its room's mode does not
   * support: '当前游戏暂不支持一起玩' / '启动游戏后将退出一起玩的游戏'; confirmed, the room is left
   * and the game starts alone (true).
   */
  async leaveRoomToStart(): Promise<boolean> {
    const ok = await this.deps.ui.confirm({ title: '提示', message: '当前游戏暂不支持一起玩', detail: '启动游戏后将退出一起玩的游戏' });
    if (ok) await this.deps.room?.exit();
    return ok;
  }

  /**
   * The unsupported (mobile) game (§2.14, 130128): '这是一款手游，请使用移动端体验' with a QR code
   * of the game's share link (on failure the site's own address).
   */
  async showUnsupported(game: Game): Promise<void> {
    let link: string;
    try {
      link = (await this.deps.api.post(Paths.shareLinks, { gameId: game.id })).links;
    } catch {
      link = '';
    }
    this.setUnsupported({ gameId: game.id, gameName: game.name, link: link || `${globalThis.location?.origin ?? ''}/` });
  }

  private setUnsupported(u: UnsupportedGame): void {
    this.unsupported = u;
  }

  closeUnsupported(): void {
    this.unsupported = null;
  }

  // ---------------------------------------------------------------- hanging (§3.3, §4.11)

  /** Reads gameDuration of the client's PLAYING session `id`; a failed read leaves what was known. */
  async readDuration(id: number | string): Promise<void> {
    try {
      const d = await this.deps.api.post(Paths.gameDuration, { id });
      this.setHang({ sessionId: String(id), hook: d.hook === 1, minutes: Math.max(0, d.onHookDuration) });
    } catch {
      // the session ended meanwhile, or the network: the next read tells
    }
  }

  private setHang(h: HangState): void {
    this.hang = h;
  }

  /** The node dialog of a start (nodePicking.ts): its list read, the dialog open, the probes. */
  pickNode(flow: PickingFlow, game: Game, relay?: RelayParams): Promise<void> {
    return openNodePicker(this.deps, flow, game, relay);
  }

  // ---------------------------------------------------------------- start errors (§8.2: startErrors.ts)

  handleStartError(e: unknown, req: StartRequest): Promise<void> {
    return handleStartError(this.deps, this, e, req);
  }
}
