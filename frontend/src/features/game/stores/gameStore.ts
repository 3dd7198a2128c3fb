import { makeAutoObservable, observable, reaction, runInAction, type IReactionDisposer } from 'mobx';
import { ApiError, ErrorCode, errorMessage } from '../../../transport/apiError';
import { nodeStatusText, type ProbeResult } from '../../../lib/gameStatus';
import type { PlayWindow } from '../../../lib/notify';
import { GameStatus } from '../../../api/codes';
import type { BodyOf, GameNode, GameState, LiveGameState } from '../../../api/types';
import type { QualitySummary } from '../../../stream/stats';
import type { StreamGrant } from '../../../stream/streamSession';
import type { RootStore } from '../../../stores/rootStore';
import type { StartSteps } from './startSteps';

/** core-platform.md §9 */
export const START_DEBOUNCE_MS = 1000;
export const NODE_CACHE_MS = 10 * 60 * 1000;
export const QUEUE_POLL_MS = 5000;
export const CLOCK_MS = 500;
export const MISSED_RECHECK_MS = 1000;
export const MEMBER_PATH = '/user/member';
/**
 * How often a PLAYING session's hanging state (gameDuration) is read: a session hangs only after
 * minutes without input, so the first read waits as long (none races the start of play).
 */
export const HANG_READ_MS = 5 * 60 * 1000;
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
} as const;

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
 * on the server clock (browser time + skew); without responseTime, from the state's arrival (on
 * the server clock: arrival + skew).
 */
export function readyRemainingSeconds(state: LiveGameState, nowMs: number, skewMs: number, receivedAtMs: number): number {
  const countdown = state.connectCountdown ?? 0;
  const began = typeof state.responseTime === 'number' && state.responseTime > 0 ? state.responseTime : receivedAtMs + skewMs;
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
  /**
   * The start sequence's later steps and their dialogs (game tip, start guide, unsupported game,
   * hanging state; `startSteps.ts`), loaded with their code on first need; null before.
   */
  steps: StartSteps | null = null;
  private stepsLoading: Promise<StartSteps> | null = null;
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
  private factorLoaded = false;
  private readonly root: RootStore;
  private readonly disposers: IReactionDisposer[] = [];
  private clockTimer: ReturnType<typeof setInterval> | null = null;
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private hangTimer: ReturnType<typeof setInterval> | null = null;
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
      | 'stepsLoading'
      | 'factorLoaded'
      | 'disposers'
      | 'clockTimer'
      | 'pollTimer'
      | 'hangTimer'
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
      steps: observable.ref,
      stepsLoading: false,
      factorLoaded: false,
      disposers: false,
      clockTimer: false,
      pollTimer: false,
      hangTimer: false,
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
      // a session PLAYING here: its hanging state is read every HANG_READ_MS (and on 130140)
      reaction(
        () => (this.live && this.isThisClient && this.live.status === GameStatus.PLAYING ? key(this.live.id) : null),
        (id) => this.setHangPoll(id !== null),
        { fireImmediately: true },
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
      this.steps?.dialogOpen ||
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

  /** Loads the start steps' code and creates them, once. */
  loadSteps(): Promise<StartSteps> {
    if (!this.stepsLoading) {
      const loading = import('./startSteps').then(({ StartSteps }) => {
        const steps = new StartSteps(this.root);
        runInAction(() => (this.steps = steps));
        return steps;
      });
      loading.catch(() => {
        this.stepsLoading = null;
      });
      this.stepsLoading = loading;
    }
    return this.stepsLoading;
  }

  /** Reads gameDuration of this client's PLAYING session (core-platform.md §3.3). */
  async refreshDuration(): Promise<void> {
    const l = this.live;
    if (l && this.isThisClient && l.status === GameStatus.PLAYING) await (await this.loadSteps()).readDuration(l.id);
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
    // core-platform.md §4.4 steps 3–7 (`StartSteps`, loaded by the first start)
    const steps = await this.loadSteps();
    if (!(await steps.browserAllowsStart())) return;
    if (!(await steps.startGuideAllows())) return;
    if (!(await steps.certificationAllowsStart())) return;
    if (!relay && !(await steps.confirmRoomSwitch(game))) return;
    await this.openNodePicker(game, relay);
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
    const steps = await this.loadSteps();
    if (!(await steps.tipAllowsStart(game))) return;
    if (!(await steps.startModeAllows(game, p.relay))) return;
    await this.start({ gameId: p.gameId, gameName: p.gameName, nodeId: p.selectedId, ...(p.relay ? { relay: p.relay } : {}) });
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

  /** core-platform.md §8.2 start errors (`StartSteps.handleStartError`, loaded on the first). */
  async handleStartError(e: unknown, req: StartRequest): Promise<void> {
    await (await this.loadSteps()).handleStartError(e, req);
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
    this.steps?.reset();
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

  private setHangPoll(on: boolean): void {
    if (on && !this.hangTimer) {
      this.hangTimer = setInterval(() => void this.refreshDuration(), HANG_READ_MS);
    } else if (!on && this.hangTimer) {
      clearInterval(this.hangTimer);
      this.hangTimer = null;
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
    this.setHangPoll(false);
    for (const t of this.timeouts) clearTimeout(t);
    this.timeouts.clear();
  }
}
