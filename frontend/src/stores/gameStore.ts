import { makeAutoObservable, observable, reaction, runInAction, type IReactionDisposer } from 'mobx';
import { ApiError, ErrorCode, errorMessage } from '../transport/apiError';
import { nodeStatusText, type ProbeResult } from '../lib/gameStatus';
import type { PlayWindow } from '../lib/notify';
import { AuthType, GameStatus } from '../api/codes';
import type { BodyOf, CatalogueGame, GameInfo, GameNode, GameState, GameTip, LiveGameState } from '../api/types';
import type { QualitySummary } from '../stream/stats';
import type { StreamGrant } from '../stream/streamSession';
import type { RootStore } from './rootStore';

/** core-platform.md §9 */
export const START_DEBOUNCE_MS = 1000;
export const NODE_CACHE_MS = 10 * 60 * 1000;
export const QUEUE_POLL_MS = 5000;
export const CLOCK_MS = 500;
export const MISSED_RECHECK_MS = 1000;
export const MEMBER_PATH = '/user/member';
/**
 * A confirm answer's stream ticket is used by a play page in this window within this long;
 * later (or in another window) the page asks for a fresh one. Tickets open a stream for 60 s.
 */
export const CONFIRM_GRANT_MS = 30_000;
/** server/browser clock differences below this are rounding of the seconds `ts`, not skew */
const SKEW_THRESHOLD_MS = 2000;

const Paths = {
  floatBall: '/api/japi/yoo/game/floatBall',
  selectNode: '/api/japi/yoo/game/selectNode',
  start: '/api/japi/yoo/game/start',
  confirmConnect: '/api/japi/yoo/game/confirmConnect',
  cancelConfirm: '/api/japi/yoo/game/cancelConfirm',
  cancelQue: '/api/japi/yoo/game/cancelQue',
  over: '/api/japi/yoo/game/over',
  move: '/api/japi/yoo/game/move',
  configList: '/api/japi/yoo/common/config/list',
  startTip: '/api/japi/yoo/game/startTip',
  gameInfo: '/api/japi/yoo/game/info',
  shareLinks: '/api/japi/yoo/share/game/links',
  gameDuration: '/api/japi/yoo/game/gameDuration',
  nodes: '/api/japi/yoo/game/node',
  gameList: '/api/web/v1/game/list',
} as const;

/** core-platform.md §9: the game info's banner size */
const BANNER = { bannerWidth: 1920, bannerHeight: 1080 } as const;
/** The path of the live page's start-relay dialog for a game played only together (§4.4 step 10). */
export function relayStartPath(game: { id: number; name: string }, mode: number): string {
  return `/game/live?relayGame=${game.id}&relayGameName=${encodeURIComponent(game.name)}&relayMode=${mode}`;
}

type ExitPath = typeof Paths.cancelQue | typeof Paths.cancelConfirm | typeof Paths.over;

/** What the start call needs; nodeId is absent only when the server should pick. */
export interface StartRequest {
  gameId: number;
  gameName: string;
  nodeId?: number;
  /** the relay extra params of a room host's start (social.md §3): the session becomes the room's relay */
  relay?: RelayParams;
}

/** Start-game extra params for a relay (social.md §3): isApplyRelay is the room's mode. */
export interface RelayParams {
  isApplyRelay: number;
  roomPassword?: string;
  isUpdatePass: number;
  isShow: number;
}

/** The node dialog of one start. */
export interface NodePicker {
  gameId: number;
  gameName: string;
  selectedId: number | null;
  relay?: RelayParams;
}

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

/** A session's quality report as the player sees it after the game. */
export interface ShownQualityReport {
  sessionId: string;
  gameName: string;
  /** why the session ended (EndReason), null when not known */
  endReason: string | null;
  summary: QualitySummary;
}

/** The last live session of this client that ended, and how. */
export interface EndedSession {
  id: string;
  gameId: number;
  gameName: string;
  endReason: string | null;
  /** this client asked for the end (exit, give up, logout): no alert for it */
  deliberate: boolean;
}

const key = (id: number | string) => String(id);

/** The unsupported game's QR code when the share link cannot be read: the site itself. */
function defaultShareLink(): string {
  return `${globalThis.location?.origin ?? ''}/`;
}

/** localStorage, or null where the browser refuses it. */
function browserStorage(): Pick<Storage, 'getItem' | 'setItem'> | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function isLive(s: GameState | null): s is LiveGameState {
  return s !== null && s.hasGameOnline === true;
}

/** The call that ends a session in a given status (core-platform.md §4.5). */
export function exitPathFor(status: number | undefined): ExitPath {
  if (status === GameStatus.QUEUE) return Paths.cancelQue;
  if (status === GameStatus.READY || status === GameStatus.CONNECTING) return Paths.cancelConfirm;
  return Paths.over;
}

/**
 * Remaining ready countdown in seconds: connectCountdown - (now - responseTime)/1000, with `now`
 * on the server clock (browser time + skew).
 */
export function readyRemainingSeconds(state: LiveGameState, nowMs: number, skewMs: number, receivedAtMs: number): number {
  const countdown = state.connectCountdown ?? 0;
  const began = typeof state.responseTime === 'number' && state.responseTime > 0 ? state.responseTime : receivedAtMs - skewMs;
  return countdown - (nowMs + skewMs - began) / 1000;
}

/**
 * The player's game session. Its state changes only from server answers and pushes, through
 * applyServerEvent; the rest of the store runs the start flow (nodes, probes, start errors) and
 * the clocks (ready countdown, online time, the QUEUE safety poll, the missed-queue recheck).
 */
export class GameStore {
  /** the last state the server gave; null until the first read */
  state: GameState | null = null;
  /** browser time at which `state` arrived (for onlineDuration, which counts from the answer) */
  receivedAt = 0;
  /** browser clock, ticked every 500 ms while a countdown or online time is shown */
  nowMs = Date.now();
  /** server time - browser time, when it differs by more than rounding */
  skewMs = 0;
  lastEnded: EndedSession | null = null;
  nodePicker: NodePicker | null = null;
  /** the game tip of the start under way, while it is shown */
  gameTip: ShownGameTip | null = null;
  /** the unsupported game dialog, while it is shown */
  unsupported: UnsupportedGame | null = null;
  /** the last gameDuration answer for the PLAYING session (null before one) */
  hang: HangState | null = null;
  /** the first-play start guide, while it shows */
  startGuide: StartGuide | null = null;
  /** nodes per game, with the time they were read (cached 10 minutes) */
  readonly nodeCache = observable.map<number, { nodes: GameNode[]; at: number }>();
  readonly probes = observable.map<number, ProbeResult>();
  nodeDelayFactor = 1;
  loadingNodes = false;
  starting = false;
  /** what the last start asked, reused by 'queue again' */
  lastStart: StartRequest | null = null;
  /** the quality report of the game that just ended, until the player closes it */
  qualityReport: ShownQualityReport | null = null;
  /** the stream ticket of the last confirm answer, for the play page of this window */
  private confirmGrant: { sessionId: string; grant: StreamGrant; at: number } | null = null;

  /** bumped at every applied state: a floatBall answer older than a push is dropped */
  private version = 0;
  /** sessions known to have ended: a late state for them must not revive them */
  private readonly endedIds = new Set<string>();
  /** sessions this client asked to end */
  private readonly deliberateIds = new Set<string>();
  /** sessions whose lapsed countdown was already rechecked */
  private readonly missedChecked = new Set<string>();
  /** sessions whose ready dialog already sent the boarding reminder */
  private readonly remindedIds = new Set<string>();
  private lastStartClickAt = Number.NEGATIVE_INFINITY;
  /** resolves the start waiting on the game tip: true goes on, false ends it */
  private tipAnswer: ((go: boolean) => void) | null = null;
  /** resolves the start waiting on the start guide: true goes on, false ends it */
  private guideAnswer: ((go: boolean) => void) | null = null;
  /** the common config's start-guide switch and latency cap, read once */
  private guideConfig: Promise<{ on: boolean; maxDelay: number }> | null = null;
  private factorLoaded = false;
  private readonly root: RootStore;
  private readonly disposers: IReactionDisposer[] = [];
  private clockTimer: ReturnType<typeof setInterval> | null = null;
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private readonly timeouts = new Set<ReturnType<typeof setTimeout>>();

  constructor(root: RootStore) {
    this.root = root;
    makeAutoObservable<
      GameStore,
      | 'root'
      | 'version'
      | 'endedIds'
      | 'deliberateIds'
      | 'missedChecked'
      | 'remindedIds'
      | 'lastStartClickAt'
      | 'tipAnswer'
      | 'guideAnswer'
      | 'guideConfig'
      | 'factorLoaded'
      | 'disposers'
      | 'clockTimer'
      | 'pollTimer'
      | 'timeouts'
      | 'confirmGrant'
    >(this, {
      confirmGrant: false,
      root: false,
      version: false,
      endedIds: false,
      deliberateIds: false,
      missedChecked: false,
      remindedIds: false,
      lastStartClickAt: false,
      tipAnswer: false,
      guideAnswer: false,
      guideConfig: false,
      factorLoaded: false,
      disposers: false,
      clockTimer: false,
      pollTimer: false,
      timeouts: false,
    });

    // the clock runs only while something on screen counts
    this.disposers.push(
      reaction(
        () => this.needsClock,
        (on) => this.setClock(on),
        { fireImmediately: true },
      ),
      // QUEUE safety poll: pushes carry rank changes, the 5 s read catches a lost push
      reaction(
        () => this.live !== null && this.isThisClient && this.live.status === GameStatus.QUEUE,
        (on) => this.setQueuePoll(on),
        { fireImmediately: true },
      ),
      // the ready dialog appears: leave fullscreen and send the boarding reminder, once per session
      reaction(
        () => (this.readyDialogVisible && this.live ? key(this.live.id) : null),
        (id) => {
          if (id && !this.remindedIds.has(id)) {
            this.remindedIds.add(id);
            this.root.effects.exitFullscreen();
            this.root.effects.readyReminder(id);
          }
        },
      ),
      // a session that starts PLAYING here: its hanging state is read (then again on 130140)
      reaction(
        () => (this.live && this.isThisClient && this.live.status === GameStatus.PLAYING ? key(this.live.id) : null),
        (id) => {
          if (id) void this.refreshDuration();
        },
      ),
      // the ready countdown reached 0: recheck after 1 s, once per session
      reaction(
        () => (this.live && this.isThisClient && this.live.status === GameStatus.READY && this.readyRemaining <= 0 ? key(this.live.id) : null),
        (id) => {
          if (id && !this.missedChecked.has(id)) {
            this.missedChecked.add(id);
            this.later(() => void this.recheckMissed(id), MISSED_RECHECK_MS);
          }
        },
      ),
    );
  }

  // ---------------------------------------------------------------- derived state

  get live(): LiveGameState | null {
    return isLive(this.state) ? this.state : null;
  }

  get hasGameOnline(): boolean {
    return this.live !== null;
  }

  /** The session runs on this client (clientType 'web'). */
  get isThisClient(): boolean {
    const l = this.live;
    return l !== null && (l.clientType ?? 'web') === 'web';
  }

  get status(): number | null {
    return this.live?.status ?? null;
  }

  get readyRemaining(): number {
    const l = this.live;
    if (!l || l.status !== GameStatus.READY) return 0;
    return readyRemainingSeconds(l, this.nowMs, this.skewMs, this.receivedAt);
  }

  /** Whole seconds shown in '{N}秒后自动放弃'. */
  get readySecondsShown(): number {
    return Math.max(0, Math.ceil(this.readyRemaining));
  }

  get readyDialogVisible(): boolean {
    const l = this.live;
    return (
      l !== null &&
      this.isThisClient &&
      l.status === GameStatus.READY &&
      this.readyRemaining > 0 &&
      this.root.ui.readyDismissedId !== key(l.id)
    );
  }

  get queueDialogVisible(): boolean {
    return this.live !== null && this.isThisClient && this.live.status === GameStatus.QUEUE && this.root.ui.queueDialogLarge;
  }

  /** Seconds online: onlineDuration as answered, plus the time since while PLAYING. */
  get onlineSeconds(): number {
    const l = this.live;
    if (!l) return 0;
    const base = l.onlineDuration ?? 0;
    if (l.status !== GameStatus.PLAYING) return base;
    return base + Math.max(0, (this.nowMs - this.receivedAt) / 1000);
  }

  get floatVisible(): boolean {
    const l = this.live;
    const ui = this.root.ui;
    if (!l || l.ballStatus === 0) return false;
    if (l.status === GameStatus.READY && this.isThisClient && this.readyRemaining > 0) return false;
    if (
      this.queueDialogVisible ||
      this.nodePicker ||
      this.gameTip ||
      this.unsupported ||
      this.startGuide ||
      ui.loginOpen ||
      ui.messageBoxes.length > 0 ||
      ui.missedQueue ||
      this.root.queue.retention ||
      this.root.playTime.dialogOpen
    ) {
      return false;
    }
    return ui.floatClosedId !== key(l.id);
  }

  get needsClock(): boolean {
    const s = this.live?.status;
    return s === GameStatus.READY || s === GameStatus.CONNECTING || s === GameStatus.PLAYING;
  }

  nodesOf(gameId: number): GameNode[] {
    return this.nodeCache.get(gameId)?.nodes ?? [];
  }

  nodeText(node: GameNode): string {
    return nodeStatusText(node, this.probes.get(node.id), this.nodeDelayFactor);
  }

  /** The nodeDelay JSON string: successful probes only (a timeout counts as 0 and is dropped). */
  get nodeDelay(): string {
    const list: { id: number; ping: number }[] = [];
    for (const [id, p] of this.probes) if (p.state === 'ok' && p.ping > 0) list.push({ id, ping: p.ping });
    return JSON.stringify(list);
  }

  // ---------------------------------------------------------------- server events

  /**
   * Applies a GameState from the server (a floatBall/start/confirm answer or a 130122 push).
   * Within one session the status only moves forward (QUEUE, READY, CONNECTING, PLAYING), and an
   * ended session stays ended: answers and pushes can cross on the wire, and the older one loses.
   */
  applyServerEvent(next: GameState | null | undefined): void {
    const incoming: GameState = next && typeof next === 'object' ? next : { hasGameOnline: false };
    const prev = this.live;
    const prevThisClient = this.isThisClient;
    if (isLive(incoming)) {
      const id = key(incoming.id);
      if (this.endedIds.has(id)) return;
      if (prev && key(prev.id) === id && incoming.status < prev.status) return;
      if (prev && key(prev.id) !== id) this.endSession(prev, prevThisClient, null);
      if (!prev || key(prev.id) !== id) {
        // a new session: its dialogs start afresh
        this.root.ui.setQueueDialogLarge(true);
        this.root.ui.clearMissedQueue();
      }
      this.state = incoming;
    } else {
      if (prev && incoming.id != null && key(incoming.id) !== key(prev.id)) {
        // the end of an older session: the current one goes on
        this.endedIds.add(key(incoming.id));
        return;
      }
      if (incoming.id != null) this.endedIds.add(key(incoming.id));
      if (prev) this.endSession(prev, prevThisClient, incoming.endReason ?? null);
      this.state = incoming;
    }
    const now = Date.now();
    this.receivedAt = now;
    this.nowMs = now;
    this.version++;
  }

  private endSession(prev: LiveGameState, wasThisClient: boolean, endReason: string | null): void {
    const id = key(prev.id);
    this.endedIds.add(id);
    if (!wasThisClient) return;
    const deliberate = this.deliberateIds.has(id);
    this.lastEnded = { id, gameId: prev.gameId, gameName: prev.gameName, endReason, deliberate };
    if (endReason === 'missed' && !deliberate && prev.status === GameStatus.READY) this.showMissed(prev);
  }

  private showMissed(prev: LiveGameState): void {
    const id = key(prev.id);
    if (this.root.ui.missedQueue?.sessionId === id) return;
    const nodeId = prev.nodeId ?? (this.lastStart?.gameId === prev.gameId ? this.lastStart.nodeId : undefined);
    this.root.ui.showMissedQueue({ sessionId: id, gameId: prev.gameId, gameName: prev.gameName, nodeId });
  }

  /** The server clock from an envelope's `ts` (seconds). */
  noteServerTime(tsSeconds: number): void {
    if (!Number.isFinite(tsSeconds) || tsSeconds <= 0) return;
    const skew = tsSeconds * 1000 - Date.now();
    this.skewMs = Math.abs(skew) > SKEW_THRESHOLD_MS ? skew : 0;
  }

  /** Whether the hanging state shown is the live PLAYING session's and says it hangs. */
  get hanging(): HangState | null {
    const l = this.live;
    const h = this.hang;
    return l && h && h.hook && h.sessionId === key(l.id) && l.status === GameStatus.PLAYING ? h : null;
  }

  /** Reads gameDuration of this client's PLAYING session; a failed read leaves what was known. */
  async refreshDuration(): Promise<void> {
    const l = this.live;
    if (!l || !this.isThisClient || l.status !== GameStatus.PLAYING) return;
    const id = key(l.id);
    try {
      const d = await this.root.api.post(Paths.gameDuration, { id: l.id });
      runInAction(() => {
        this.hang = { sessionId: id, hook: d.hook === 1, minutes: Math.max(0, d.onHookDuration) };
      });
    } catch {
      // the session ended meanwhile, or the network: the next read tells
    }
  }

  /** Re-reads the status (floatBall); a push that arrives meanwhile wins over the answer. */
  async refresh(): Promise<void> {
    if (!this.root.user.isLoggedIn) return;
    const before = this.version;
    try {
      const s = await this.root.api.post(Paths.floatBall, {});
      if (this.version !== before) return;
      this.applyServerEvent(s);
    } catch {
      // a failed status read changes nothing; 20119 is handled by the root store
    }
  }

  /**
   * The countdown lapsed 1 s ago (core-platform.md §4.3): re-read the status; no game online, or
   * a READY whose countdown is over, means the queue was missed.
   */
  async recheckMissed(id: string): Promise<void> {
    const lapsed = this.live && key(this.live.id) === id ? this.live : null;
    await this.refresh();
    runInAction(() => {
      if (this.deliberateIds.has(id) || !lapsed) return;
      const now = this.live;
      if (now && key(now.id) === id) {
        if (now.status === GameStatus.READY && this.readyRemaining <= 0) this.showMissed(now);
        return; // confirmed in time: CONNECTING or later
      }
      const ended = this.lastEnded?.id === id ? this.lastEnded : null;
      if (ended && ended.endReason && ended.endReason !== 'missed') return; // ended some other way
      this.showMissed(lapsed);
    });
  }

  // ---------------------------------------------------------------- start flow

  /** '开始游戏': debounced 1000 ms on the leading edge; a guest gets the login dialog. */
  async requestStart(game: { id: number; name: string }, relay?: RelayParams): Promise<void> {
    const now = Date.now();
    if (now - this.lastStartClickAt < START_DEBOUNCE_MS) return;
    this.lastStartClickAt = now;
    // asked from the click itself: browsers grant the prompt only to a user gesture
    this.root.effects.requestNotificationPermission();
    if (!this.root.user.isLoggedIn) {
      // the start goes on once logged in (core-platform.md §4.4 step 2, §4.13)
      this.root.ui.openLogin(() => void this.openNodePicker(game, relay));
      return;
    }
    if (!(await this.browserAllowsStart())) return;
    if (!(await this.startGuideAllows())) return;
    if (!(await this.certificationAllowsStart())) return;
    if (!relay && !(await this.confirmRoomSwitch(game))) return;
    await this.openNodePicker(game, relay);
  }

  /**
   * core-platform.md §4.4, §2.14: the first-play start guide, before certification, when the
   * common config's show_game_start_guide is '1', this browser has not shown it and the client
   * is not in in-car mode. It shows 7 recommended games and the latency, animates about 4.5 s,
   * then '下一步' goes on; closing ends the start; either marks it shown. A failure to read what
   * it shows skips it.
   */
  private async startGuideAllows(): Promise<boolean> {
    const cfg = await this.readGuideConfig();
    if (!cfg.on) return true;
    const guide = await import('../lib/startGuide');
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
    runInAction(() => {
      this.startGuide = { games, latency: null, measuring: true, ready: false };
    });
    void this.measureGuideLatency(nodes, cfg.maxDelay);
    this.later(() => this.guideAnimated(), guide.START_GUIDE_ANIMATION_MS);
    return new Promise<boolean>((resolve) => {
      runInAction(() => {
        this.guideAnswer = resolve;
      });
    });
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

  private async measureGuideLatency(nodes: GameNode[], maxDelay: number): Promise<void> {
    const { guideLatency } = await import('../lib/startGuide');
    const pings = await Promise.all(
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
    runInAction(() => {
      if (!this.startGuide) return;
      this.startGuide.latency = guideLatency(pings, maxDelay);
      this.startGuide.measuring = false;
    });
  }

  private guideAnimated(): void {
    if (this.startGuide) this.startGuide.ready = true;
  }

  /** '下一步' (true, once the animation is over) continues the start; closing (false) ends it. */
  answerStartGuide(go: boolean): void {
    const answer = this.guideAnswer;
    if (!answer) return;
    if (go && !this.startGuide?.ready) return;
    this.startGuide = null;
    this.guideAnswer = null;
    void import('../lib/startGuide').then((g) => g.markShown(browserStorage()));
    answer(go);
  }

  /**
   * core-platform.md §4.4 step 5, §4.9: the certification pre-check. PASS goes on; CONFIRM shows
   * the certification dialog with '下次再说' and goes on however it closes; DENY goes on only
   * once certified (a closed dialog ends the start silently).
   */
  private async certificationAllowsStart(): Promise<boolean> {
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
  private async browserAllowsStart(): Promise<boolean> {
    const ua = this.root.effects.userAgent;
    if (ua === undefined) return true;
    const { browserVerdict, WARN_CONTINUE } = await import('../lib/browserVerdict');
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
  private async confirmRoomSwitch(game: { id: number; name: string }): Promise<boolean> {
    const room = this.root.room;
    const current = room?.info?.game;
    if (!room || !room.inRoom || !current || current.id === game.id) return true;
    if (room.isHost) {
      // the user owns a relay (§4.4 step 10): a game that cannot be played in the room's mode
      // is started alone, once the host agrees to leave the room
      const mode = room.info?.room?.mode;
      const supported = (await this.gameInfo(game.id))?.supportModes;
      if (mode !== undefined && supported && !supported.includes(mode)) {
        const ok = await this.root.ui.confirm({ title: '提示', message: '当前游戏暂不支持一起玩', detail: '启动游戏后将退出一起玩的游戏' });
        if (!ok) return false;
        await room.exit();
        return true;
      }
      const together = await this.root.ui.confirm({
        title: '切换游戏',
        message: `大家正在一起玩《${current.name}》，是否一起切换到新游戏？`,
        confirmText: '立即切换',
        cancelText: '自己玩',
      });
      const info = room.info?.room;
      if (together && info) {
        // the new game's session, started with the relay params, becomes the room's relay
        await this.openNodePicker(game, { isApplyRelay: info.mode, isUpdatePass: 0, isShow: info.isShow });
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

  /** Reads the node list (cached 10 minutes), opens the dialog and probes every node. */
  async openNodePicker(game: { id: number; name: string }, relay?: RelayParams): Promise<void> {
    let nodes: GameNode[];
    try {
      nodes = await this.loadNodes(game.id);
    } catch (e) {
      await this.handleStartError(e, { gameId: game.id, gameName: game.name });
      return;
    }
    runInAction(() => {
      this.nodePicker = { gameId: game.id, gameName: game.name, selectedId: null, ...(relay ? { relay } : {}) };
    });
    void this.loadDelayFactor();
    await this.probeAll(nodes);
  }

  async loadNodes(gameId: number): Promise<GameNode[]> {
    const cached = this.nodeCache.get(gameId);
    if (cached && Date.now() - cached.at < NODE_CACHE_MS) return cached.nodes;
    this.loadingNodes = true;
    try {
      const nodes = await this.root.api.post(Paths.selectNode, { gameId });
      runInAction(() => {
        this.nodeCache.set(gameId, { nodes: Array.isArray(nodes) ? nodes : [], at: Date.now() });
      });
      return this.nodesOf(gameId);
    } finally {
      runInAction(() => {
        this.loadingNodes = false;
      });
    }
  }

  /** game_node_delay_factor, read once from the common config; 1 when absent or invalid. */
  private async loadDelayFactor(): Promise<void> {
    if (this.factorLoaded) return;
    this.factorLoaded = true;
    try {
      const cfg = await this.root.api.post(Paths.configList, { groupCode: 'common_config' });
      const f = Number(cfg?.game_node_delay_factor);
      runInAction(() => {
        this.nodeDelayFactor = Number.isFinite(f) && f > 0 ? f : 1;
      });
    } catch {
      // default factor 1
    }
  }

  async probeAll(nodes: GameNode[]): Promise<void> {
    const selectable = nodes.filter((n) => n.status === 1);
    runInAction(() => {
      for (const n of selectable) this.probes.set(n.id, { state: 'probing' });
    });
    await Promise.all(
      selectable.map(async (n) => {
        let ping: number | null = null;
        try {
          ping = await this.root.transport.probe(n.pingUrl);
        } catch {
          ping = null;
        }
        runInAction(() => {
          this.probes.set(n.id, ping !== null && ping > 0 ? { state: 'ok', ping } : { state: 'failed' });
        });
      }),
    );
  }

  selectNode(node: GameNode): void {
    if (!this.nodePicker || node.status !== 1) return;
    this.nodePicker.selectedId = node.id;
  }

  closeNodePicker(): void {
    this.nodePicker = null;
  }

  /** The node dialog's confirm: '请选择区服' without a choice, else start on that node. */
  async confirmNode(): Promise<void> {
    const p = this.nodePicker;
    if (!p) return;
    if (p.selectedId === null) {
      this.root.ui.warning('请选择区服');
      return;
    }
    this.nodePicker = null;
    const game = { id: p.gameId, name: p.gameName };
    if (!(await this.tipAllowsStart(game))) return;
    if (!(await this.startModeAllows(game, p.relay))) return;
    await this.start({ gameId: p.gameId, gameName: p.gameName, nodeId: p.selectedId, ...(p.relay ? { relay: p.relay } : {}) });
  }

  /**
   * core-platform.md §4.4 step 9, §4.7: the game's tip, unless the game has none (or it could
   * not be read) or the player ticked '当前游戏版本不再提醒' for this very content. '开始游戏' goes
   * on; closing the dialog ends the start.
   */
  private async tipAllowsStart(game: { id: number; name: string }): Promise<boolean> {
    let tip: GameTip | null;
    try {
      tip = await this.root.api.post(Paths.startTip, { gameId: game.id, afterAuthCheck: 1 });
    } catch {
      return true; // no tip to show: straight on
    }
    if (!tip || !tip.tip) return true;
    const { DismissedTips, tipHash } = await import('../lib/gameTip');
    const hash = tipHash(tip);
    if (new DismissedTips(browserStorage()).has(game.id, hash)) return true;
    this.answerTip(false); // a tip still open belongs to an abandoned start
    const shown: ShownGameTip = { gameId: game.id, gameName: game.name, tip, hash, dontRemind: false };
    return new Promise<boolean>((resolve) => {
      runInAction(() => {
        this.gameTip = shown;
        this.tipAnswer = resolve;
      });
    });
  }

  /**
   * core-platform.md §4.4 step 10, from game/info: an external game (associatedType 2) opens at
   * its startUrl instead of starting; a game played only together (startMode > 0) opens the
   * start-relay dialog (a play-together start goes on). A failed read goes on: the start's own
   * answer refuses what it must (130128, 130121). A relay host's start was asked at step 7
   * (confirmRoomSwitch).
   */
  private async startModeAllows(game: { id: number; name: string }, relay?: RelayParams): Promise<boolean> {
    const info = await this.gameInfo(game.id);
    if (!info) return true;
    if (info.associatedType === 2 && info.startUrl) {
      const { openOutside } = await import('../lib/carMode');
      openOutside(this.root.ui, info.startUrl, info.name);
      return false;
    }
    if (!relay && info.startMode > 0) {
      this.openRelayStart(game, info.startMode);
      return false;
    }
    return true;
  }

  private async gameInfo(gameId: number): Promise<GameInfo | null> {
    try {
      return await this.root.api.post(Paths.gameInfo, { gameId, ...BANNER });
    } catch {
      return null;
    }
  }

  /**
   * A game played only together: the live page's start-relay dialog with the game (and its
   * room mode), saying '当前游戏仅支持一起玩，请先完善游戏的房间信息'.
   */
  private openRelayStart(game: { id: number; name: string }, mode: number): void {
    this.root.ui.navigate(relayStartPath(game, mode));
  }

  /**
   * The unsupported (mobile) game (§2.14, 130128): '这是一款手游，请使用移动端体验' with a QR code
   * of the game's share link (on failure the site's own address).
   */
  async showUnsupported(game: { id: number; name: string }): Promise<void> {
    let link: string;
    try {
      link = (await this.root.api.post(Paths.shareLinks, { gameId: game.id })).links;
    } catch {
      link = '';
    }
    runInAction(() => {
      this.unsupported = { gameId: game.id, gameName: game.name, link: link || defaultShareLink() };
    });
  }

  closeUnsupported(): void {
    this.unsupported = null;
    this.hang = null;
    if (this.guideAnswer) {
      const answer = this.guideAnswer;
      this.guideAnswer = null;
      this.startGuide = null;
      answer(false);
    }
  }

  /** '当前游戏版本不再提醒': ticked, this content of the game's tip is not shown again. */
  async setTipDontRemind(on: boolean): Promise<void> {
    const t = this.gameTip;
    if (!t) return;
    t.dontRemind = on;
    // loaded already: the tip was shown by tipAllowsStart
    const { DismissedTips } = await import('../lib/gameTip');
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

  /** POST start; the answer is the new session's state. */
  async start(req: StartRequest): Promise<void> {
    if (this.starting) return;
    this.starting = true;
    this.lastStart = req;
    let failure: unknown = null;
    try {
      const body: BodyOf<typeof Paths.start> = { gameId: req.gameId, nodeDelay: this.nodeDelay, afterAuthCheck: 1 };
      if (req.nodeId !== undefined) body.nodeId = req.nodeId;
      if (req.relay) Object.assign(body, req.relay);
      const state = await this.root.api.post(Paths.start, body);
      runInAction(() => {
        this.root.ui.clearMissedQueue();
        this.applyServerEvent(state);
      });
    } catch (e) {
      failure = e;
    } finally {
      runInAction(() => {
        this.starting = false;
      });
    }
    if (failure) await this.handleStartError(failure, req);
  }

  /** core-platform.md §8.2 start errors. */
  async handleStartError(e: unknown, req: StartRequest): Promise<void> {
    const ui = this.root.ui;
    if (!(e instanceof ApiError)) {
      ui.error(errorMessage(e));
      return;
    }
    if (e.code === ErrorCode.NOT_LOGGED_IN) {
      ui.openLogin(() => void this.start(req));
      return;
    }
    const data = (e.data ?? {}) as { id?: number | string; gameId?: number; gameName?: string; hasGameOnline?: boolean };
    if (data.hasGameOnline) await this.refresh();
    switch (e.code) {
      case ErrorCode.GAME_OTHER_CLIENT_ACTIVE: {
        const ok = await ui.confirm({ title: '提示', message: '您正在其他设备上运行当前游戏', detail: '请退出游戏后重新启动' });
        if (!ok || data.id === undefined) return;
        if (await this.exitSession(data.id)) ui.success('退出游戏成功');
        return;
      }
      case ErrorCode.GAME_OTHER_GAME_ACTIVE: {
        const name = data.gameName ?? this.live?.gameName ?? '';
        const ok = await ui.confirm({ title: '切换游戏', message: `当前正在运行《${name}》，是否退出并切换？` });
        if (!ok || data.id === undefined) return;
        if (await this.exitSession(data.id)) await this.start(req);
        return;
      }
      case ErrorCode.GAME_CURRENT_GAME_ACTIVE:
        ui.info(e.message || '当前游戏已在运行中');
        if (this.live?.status === GameStatus.QUEUE) ui.setQueueDialogLarge(true);
        return;
      case ErrorCode.GAME_RELAY_EXIST: {
        // social.md §8: the user is in a room; confirmed, the room is left and the start runs again
        const ok = await ui.confirm({ title: '提示', message: e.message || '当前正在房间中，是否退出房间并启动游戏？' });
        if (!ok) return;
        await this.root.room?.exit();
        await this.start(req);
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
        await this.offerMembership(e.message || (e.code === ErrorCode.GAME_VIP_ONLY ? '该游戏为VIP会员专享' : '该游戏为VVIP会员专享'));
        return;
      case ErrorCode.USER_NOT_AUTH:
        // §8.2: certify in queue mode, then the same start
        if (await this.root.ui.askCertification({ skippable: false, queue: true })) await this.start(req);
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
        this.openRelayStart({ id: req.gameId, name: req.gameName }, 2);
        return;
      case ErrorCode.GAME_NOT_SUPPORT_RELAY: {
        // §8.2: starting it leaves the room; confirmed, the game starts alone
        const ok = await ui.confirm({ title: '提示', message: '当前游戏暂不支持一起玩', detail: '启动游戏后将退出一起玩的游戏' });
        if (!ok) return;
        await this.root.room?.exit();
        await this.start({ gameId: req.gameId, gameName: req.gameName, nodeId: req.nodeId });
        return;
      }
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

  /** The membership confirm: '开通会员' opens the member page. */
  async offerMembership(message: string, detail?: string): Promise<void> {
    const ok = await this.root.ui.confirm({ title: '温馨提示', message, detail, confirmText: '开通会员', cancelText: '取消' });
    if (ok) this.root.ui.navigate(MEMBER_PATH);
  }

  /** 'queue again' of the missed-queue message: the same game on the same node. */
  async requeue(): Promise<void> {
    const m = this.root.ui.missedQueue;
    if (!m) return;
    this.root.effects.requestNotificationPermission();
    this.root.ui.clearMissedQueue();
    await this.start({ gameId: m.gameId, gameName: m.gameName, nodeId: m.nodeId });
  }

  // ---------------------------------------------------------------- session actions

  /**
   * Ends a session by id with the call its status needs (cancelQue in QUEUE, cancelConfirm in
   * READY/CONNECTING, over otherwise), then re-reads the status. True when it ended.
   */
  async exitSession(id: number | string): Promise<boolean> {
    const live = this.live;
    const known = live && key(live.id) === key(id) ? live : null;
    const status = known?.status;
    // a game of another device is ended with over whatever its status (core-platform.md §4.5);
    // for an unknown session: over first, then the others
    const order: ExitPath[] =
      status === undefined ? [Paths.over, Paths.cancelQue, Paths.cancelConfirm] : !this.isThisClient ? [Paths.over] : [exitPathFor(status)];
    this.deliberateIds.add(key(id));
    let ended = false;
    let lastError: unknown = null;
    for (const path of order) {
      try {
        const answer: unknown = await this.root.api.post(path, { id });
        ended = true;
        // the over of a relay session from PLAYING names the room's live (social.md §2.15)
        const serial = answer && typeof answer === 'object' ? (answer as { roomSerial?: unknown }).roomSerial : undefined;
        if (typeof serial === 'number' && serial > 0) void this.root.loadRoom().then((room) => room.liveEnded(serial));
        break;
      } catch (e) {
        lastError = e;
        if (e instanceof ApiError && e.code === ErrorCode.GAME_SESSION_GONE) {
          ended = true; // already over
          break;
        }
        if (!(e instanceof ApiError && e.code === ErrorCode.GAME_BAD_STATE)) break;
      }
    }
    if (!ended) this.root.ui.error(errorMessage(lastError));
    await this.refresh();
    return ended;
  }

  /** Ends this client's current session, whatever its status. */
  async exitCurrent(): Promise<boolean> {
    const l = this.live;
    if (!l) return true;
    return this.exitSession(l.id);
  }

  /**
   * '进入游戏': confirm the connection, then the play page, in a new window by default
   * (core-platform.md §2.1, §4.3). The window opens from the click, before the call; a failed
   * confirm closes it again.
   */
  async confirmConnect(): Promise<void> {
    const l = this.live;
    if (!l) return;
    const win = this.root.effects.openPlayWindow();
    try {
      const s = await this.root.api.post(Paths.confirmConnect, { id: l.id });
      runInAction(() => {
        if (s) this.applyServerEvent(s);
      });
      // watch while you wait: entering one's own game leaves the room being watched
      const room = this.root.room;
      if (room && room.inRoom && !room.isHost) room.forget();
      if (s?.streamUrl && s.ticket) {
        this.confirmGrant = { sessionId: key(l.id), grant: { streamUrl: s.streamUrl, ticket: s.ticket }, at: Date.now() };
      }
      this.showPlayPage(l.gameId, win);
    } catch (e) {
      win?.close();
      this.root.ui.error(errorMessage(e));
      await this.refresh();
    }
  }

  /** '返回游戏' (core-platform.md §4.5): the play page of a CONNECTING or PLAYING session of this client. */
  returnToGame(): void {
    const l = this.live;
    if (!l || !(l.status === GameStatus.CONNECTING || l.status === GameStatus.PLAYING)) {
      this.root.ui.info('游戏已结束');
      return;
    }
    this.showPlayPage(l.gameId, this.root.effects.openPlayWindow());
  }

  private showPlayPage(gameId: number, win: PlayWindow | null): void {
    const path = `/game/play?gameId=${encodeURIComponent(String(gameId))}`;
    if (win) win.go(path);
    else this.root.ui.navigate(path);
  }

  /**
   * '退出游戏' of a game running on another device (core-platform.md §4.5, §2.9): confirmed, it
   * ends that game with over, so it stops using play time; '退出游戏成功'.
   */
  async endOnOtherDevice(): Promise<void> {
    const l = this.live;
    if (!l || this.isThisClient) return;
    const ok = await this.root.ui.confirm({
      title: '退出游戏',
      message: '您正在其他设备上运行当前游戏',
      detail: '确定要退出游戏吗？',
      confirmText: '立即退出',
      cancelText: '再玩一会',
    });
    if (!ok) return;
    if (await this.exitSession(l.id)) this.root.ui.success('退出游戏成功');
  }

  /** '放弃': cancel the confirmation and hide the dialog. */
  async giveUp(): Promise<void> {
    const l = this.live;
    if (!l) return;
    this.root.ui.dismissReady(key(l.id));
    this.deliberateIds.add(key(l.id));
    try {
      await this.root.api.post(Paths.cancelConfirm, { id: l.id });
    } catch (e) {
      this.root.ui.error(errorMessage(e));
    }
    await this.refresh();
  }

  /** '退出排队' confirmed in the queue dialog. */
  async cancelQueue(): Promise<void> {
    const l = this.live;
    if (!l) return;
    await this.exitSession(l.id);
  }

  /**
   * Moves the session of another device to this one (core-platform.md §4.5): members with the
   * cross_screen privilege; others get 130466 and are told to exit it first, with membership.
   */
  async moveHere(): Promise<void> {
    try {
      const s = await this.root.api.post(Paths.move, {});
      runInAction(() => {
        if (s) this.applyServerEvent(s);
      });
    } catch (e) {
      if (e instanceof ApiError && e.code === ErrorCode.GAME_MOVE_NEEDS_MEMBER) {
        await this.offerMembership('请先退出其他设备上的游戏', '开通会员即可将游戏转移到本设备继续');
        return;
      }
      this.root.ui.error(errorMessage(e));
      await this.refresh();
    }
  }

  /** The confirm answer's stream ticket for a session, once, while it is fresh. */
  takeStreamGrant(sessionId: string): StreamGrant | null {
    const g = this.confirmGrant;
    if (!g || g.sessionId !== sessionId) return null;
    this.confirmGrant = null;
    return Date.now() - g.at <= CONFIRM_GRANT_MS ? g.grant : null;
  }

  /**
   * Shows a finished session's quality report (the play page measured it). A play page in its
   * own window also hands it to the window that opened it, which the player returns to when the
   * play window closes itself.
   */
  presentQualityReport(report: ShownQualityReport, share = true): void {
    this.qualityReport = report;
    if (share) this.root.effects.shareQualityReport(report);
  }

  dismissQualityReport(): void {
    this.qualityReport = null;
  }

  reopenQueueDialog(): void {
    this.root.ui.setQueueDialogLarge(true);
  }

  /** Logged out: forget the session and stop the clocks. */
  reset(): void {
    this.state = null;
    this.nodePicker = null;
    this.answerTip(false);
    this.unsupported = null;
    this.lastEnded = null;
    this.lastStart = null;
    this.qualityReport = null;
    this.confirmGrant = null;
    this.version++;
  }

  // ---------------------------------------------------------------- clocks

  tick(): void {
    this.nowMs = Date.now();
  }

  private setClock(on: boolean): void {
    if (on && !this.clockTimer) {
      this.tick();
      this.clockTimer = setInterval(() => this.tick(), CLOCK_MS);
    } else if (!on && this.clockTimer) {
      clearInterval(this.clockTimer);
      this.clockTimer = null;
    }
  }

  private setQueuePoll(on: boolean): void {
    if (on && !this.pollTimer) {
      this.pollTimer = setInterval(() => void this.refresh(), QUEUE_POLL_MS);
    } else if (!on && this.pollTimer) {
      clearInterval(this.pollTimer);
      this.pollTimer = null;
    }
  }

  private later(fn: () => void, ms: number): void {
    const t = setTimeout(() => {
      this.timeouts.delete(t);
      fn();
    }, ms);
    this.timeouts.add(t);
  }

  dispose(): void {
    for (const d of this.disposers) d();
    this.setClock(false);
    this.setQueuePoll(false);
    for (const t of this.timeouts) clearTimeout(t);
    this.timeouts.clear();
  }
}
