// The start sequence's later steps (core-platform.md §4.4, §2.14, §4.7): the first-play start
// guide, the game tip, the start mode from game/info, the unsupported game's share link; and the
// hanging state of a PLAYING session (§3.3). Its own chunk, loaded by the first start (or the
// first game played): `GameStore.loadSteps` creates it once, the game dialogs observe it.
import { makeAutoObservable } from 'mobx';
import { AuthType, GameStatus } from '../../../api/codes';
import { ApiError, ErrorCode, errorMessage } from '../../../transport/apiError';
import type { CatalogueGame, GameInfo, GameNode, GameTip } from '../../../api/types';
import type { RelayParams, StartRequest } from './gameStore';
import type { RootStore } from '../../../stores/rootStore';

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

/** The path of the live page's start-relay dialog for a game played only together (§4.4 step 10). */
export function relayStartPath(game: Game, mode: number): string {
  return `/game/live?relayGame=${game.id}&relayGameName=${encodeURIComponent(game.name)}&relayMode=${mode}`;
}

/** localStorage, or null where the browser refuses it. */
function browserStorage(): Pick<Storage, 'getItem' | 'setItem'> | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

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
  private readonly root: RootStore;

  constructor(root: RootStore) {
    this.root = root;
    makeAutoObservable<StartSteps, 'tipAnswer' | 'guideAnswer' | 'guideConfig' | 'animation' | 'root'>(this, {
      tipAnswer: false,
      guideAnswer: false,
      guideConfig: false,
      animation: false,
      root: false,
    });
  }

  /** One of these dialogs is open (the game float hides meanwhile). */
  get dialogOpen(): boolean {
    return this.gameTip !== null || this.startGuide !== null || this.unsupported !== null;
  }

  /** The hanging state of the live PLAYING session when it hangs; null otherwise. */
  get hanging(): HangState | null {
    const l = this.root.game.live;
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

  // ---------------------------------------------------------------- browser, certification, room (steps 3–7)

  /**
   * core-platform.md §4.4 step 5, §4.9: the certification pre-check. PASS goes on; CONFIRM shows
   * the certification dialog with '下次再说' and goes on however it closes; DENY goes on only
   * once certified (a closed dialog ends the start silently).
   */
  async certificationAllowsStart(): Promise<boolean> {
    let authType: number;
    try {
      authType = (await this.root.api.get('/api/v3/user/authorize/pre-check', { after_auth_check: 1 })).auth_type;
    } catch {
      return true; // the start's own answer (20150) asks again
    }
    if (authType === AuthType.PASS) return true;
    const certified = await this.root.ui.askCertification({ skippable: authType === AuthType.CONFIRM });
    return certified || authType === AuthType.CONFIRM;
  }

  /**
   * core-platform.md §4.4 step 3, §5.5: a browser the game cannot run in gets the alert and the
   * start ends; one it may run badly in asks first ('继续游戏' goes on).
   */
  async browserAllowsStart(): Promise<boolean> {
    const ua = this.root.effects.userAgent;
    if (ua === undefined) return true;
    const { browserVerdict, WARN_CONTINUE } = await import('../../../lib/browserVerdict');
    const v = browserVerdict(ua);
    if (v.kind === 'block') {
      await this.root.ui.alert({ title: '温馨提示', message: v.message, confirmText: '好的' });
      return false;
    }
    if (v.kind === 'warn') return this.root.ui.confirm({ title: '温馨提示', message: v.message, confirmText: WARN_CONTINUE });
    return true;
  }

  /**
   * social.md §2.16 / §4.3: a relay host starting another game is asked whether everyone
   * switches ('立即切换': the room's game changes and the new game is its relay) or the host plays
   * alone ('自己玩': the room is exited first). A guest holding control confirms leaving the room.
   * False when the start does not go on here.
   */
  async confirmRoomSwitch(game: { id: number; name: string }): Promise<boolean> {
    const room = this.root.room;
    const current = room?.info?.game;
    if (!room || !room.inRoom || !current || current.id === game.id) return true;
    if (room.isHost) {
      // the user owns a relay (§4.4 step 10): a game that cannot be played in the room's mode
      // is started alone, once the host agrees to leave the room
      const mode = room.info?.room?.mode;
      if (mode !== undefined && !(await this.playedInMode(game.id, mode))) return this.leaveRoomToStart();
      const together = await this.root.ui.confirm({
        title: '切换游戏',
        message: `大家正在一起玩《${current.name}》，是否一起切换到新游戏？`,
        confirmText: '立即切换',
        cancelText: '自己玩',
      });
      const info = room.info?.room;
      if (together && info) {
        // the new game's session, started with the relay params, becomes the room's relay
        await this.root.game.openNodePicker(game, { isApplyRelay: info.mode, isUpdatePass: 0, isShow: info.isShow });
        return false;
      }
      await room.exit();
      return true;
    }
    if (room.hasControl) {
      const ok = await this.root.ui.confirm({ title: '切换游戏', message: '启动新游戏将退出当前房间，是否继续？' });
      if (!ok) return false;
      await room.exit();
    }
    return true;
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
    if (guide.wasShown(browserStorage()) || guide.skippedHere(this.root.effects.userAgent)) return true;
    let games: CatalogueGame[];
    let nodes: GameNode[];
    try {
      const [list, all] = await Promise.all([
        this.root.api.get(Paths.gameList, { page: 1, page_size: guide.RECOMMENDED_GAMES }),
        this.root.api.post(Paths.nodes, {}),
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
    this.guideConfig ??= this.root.api.post(Paths.configList, { groupCode: 'common_config' }).then(
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
            return await this.root.transport.probe(n.pingUrl);
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
      tip = await this.root.api.post(Paths.startTip, { gameId: game.id, afterAuthCheck: 1 });
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
      return await this.root.api.post(Paths.gameInfo, { gameId, ...BANNER });
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
      openOutside(this.root.ui, info.startUrl, info.name);
      return false;
    }
    if (!relay && info.startMode > 0) {
      this.root.ui.navigate(relayStartPath(game, info.startMode));
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
    const ok = await this.root.ui.confirm({ title: '提示', message: '当前游戏暂不支持一起玩', detail: '启动游戏后将退出一起玩的游戏' });
    if (ok) await this.root.room?.exit();
    return ok;
  }

  /**
   * The unsupported (mobile) game (§2.14, 130128): '这是一款手游，请使用移动端体验' with a QR code
   * of the game's share link (on failure the site's own address).
   */
  async showUnsupported(game: Game): Promise<void> {
    let link: string;
    try {
      link = (await this.root.api.post(Paths.shareLinks, { gameId: game.id })).links;
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
      const d = await this.root.api.post(Paths.gameDuration, { id });
      this.setHang({ sessionId: String(id), hook: d.hook === 1, minutes: Math.max(0, d.onHookDuration) });
    } catch {
      // the session ended meanwhile, or the network: the next read tells
    }
  }

  private setHang(h: HangState): void {
    this.hang = h;
  }

  // ---------------------------------------------------------------- start errors (§8.2)

  /** core-platform.md §8.2 start errors. */
  async handleStartError(e: unknown, req: StartRequest): Promise<void> {
    const ui = this.root.ui;
    const game = this.root.game;
    if (!(e instanceof ApiError)) {
      ui.error(errorMessage(e));
      return;
    }
    if (e.code === ErrorCode.NOT_LOGGED_IN) {
      ui.openLogin(() => void game.start(req));
      return;
    }
    const data = (e.data ?? {}) as { id?: number | string; gameId?: number; gameName?: string; hasGameOnline?: boolean };
    if (data.hasGameOnline) await game.refresh();
    switch (e.code) {
      case ErrorCode.GAME_OTHER_CLIENT_ACTIVE: {
        const ok = await ui.confirm({ title: '提示', message: '您正在其他设备上运行当前游戏', detail: '请退出游戏后重新启动' });
        if (!ok || data.id === undefined) return;
        if (await game.exitSession(data.id)) ui.success('退出游戏成功');
        return;
      }
      case ErrorCode.GAME_OTHER_GAME_ACTIVE: {
        const name = data.gameName ?? game.live?.gameName ?? '';
        const ok = await ui.confirm({ title: '切换游戏', message: `当前正在运行《${name}》，是否退出并切换？` });
        if (!ok || data.id === undefined) return;
        if (await game.exitSession(data.id)) await game.start(req);
        return;
      }
      case ErrorCode.GAME_CURRENT_GAME_ACTIVE:
        ui.info(e.message || '当前游戏已在运行中');
        if (game.live?.status === GameStatus.QUEUE) ui.setQueueDialogLarge(true);
        return;
      case ErrorCode.GAME_RELAY_EXIST: {
        // social.md §8: the user is in a room; confirmed, the room is left and the start runs again
        const ok = await ui.confirm({ title: '提示', message: e.message || '当前正在房间中，是否退出房间并启动游戏？' });
        if (!ok) return;
        await this.root.room?.exit();
        await game.start(req);
        return;
      }
      case ErrorCode.GAME_SHORT_OF_TIME:
        this.root.playTime.openUseUp(req.gameId);
        return;
      case ErrorCode.GAME_NEED_SUBSCRIBE:
        await this.offerSubscription(req.gameId, e.message || '该游戏需订阅后才能游玩');
        return;
      case ErrorCode.GAME_VIP_ONLY:
      case ErrorCode.GAME_VVIP_ONLY:
        await game.offerMembership(e.message || (e.code === ErrorCode.GAME_VIP_ONLY ? '该游戏为VIP会员专享' : '该游戏为VVIP会员专享'));
        return;
      case ErrorCode.USER_NOT_AUTH:
        // §8.2: certify in queue mode, then the same start
        if (await this.root.ui.askCertification({ skippable: false, queue: true })) await game.start(req);
        return;
      case ErrorCode.USER_IS_MINOR: {
        const remark = (e.data as { remark?: string } | null)?.remark;
        await ui.alert({ title: '温馨提示', message: e.message, detail: remark, confirmText: '好的' });
        return;
      }
      case ErrorCode.GAME_UNSUPPORTED_CLIENT:
        await this.showUnsupported({ id: req.gameId, name: req.gameName });
        return;
      case ErrorCode.GAME_RELAY_ONLY:
        ui.navigate(relayStartPath({ id: req.gameId, name: req.gameName }, 2));
        return;
      case ErrorCode.GAME_NOT_SUPPORT_RELAY:
        // §8.2: starting it leaves the room; confirmed, the game starts alone
        if (await this.leaveRoomToStart()) await game.start({ gameId: req.gameId, gameName: req.gameName, nodeId: req.nodeId });
        return;
      default:
        ui.error(errorMessage(e));
    }
  }

  /**
   * The subscribe-required dialog (commerce.md §2.6): '该游戏需订阅{package}后才能游玩' with
   * '立即订阅', which opens the subscription purchase of the game's first package.
   */
  private async offerSubscription(gameId: number, fallback: string): Promise<void> {
    let title: string | null;
    try {
      const list = await this.root.api.get('/api/shop/goods/game-package', { game_id: gameId });
      title = list.data[0]?.title ?? null;
    } catch {
      title = null;
    }
    const ok = await this.root.ui.confirm({
      title: '温馨提示',
      message: title ? `该游戏需订阅${title}后才能游玩` : fallback,
      confirmText: '立即订阅',
      cancelText: '取消',
    });
    if (ok) this.root.openPurchase('subscription', { gameId });
  }
}
