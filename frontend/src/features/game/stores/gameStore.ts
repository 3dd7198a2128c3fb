import { makeAutoObservable, observable, runInAction } from 'mobx';
import { GameStatus } from '../../../api/codes';
import type { GameNode, GameState, LiveGameState } from '../../../api/types';
import type { StreamGrant } from '../../../stream/streamSession';
import {
  GamePaths,
  isLive,
  isNewer,
  key,
  readyRemainingSeconds,
  SKEW_THRESHOLD_MS,
  type EndedSession,
  type NodePicker,
  type RelayParams,
  type ShownQualityReport,
  type StartRequest,
} from './gameTypes';
import type { SessionActions, SessionActionsDeps } from './sessionActions';
import type { PlayWindow } from '../../../lib/notify';
import { runSessionClocks } from './sessionClocks';
import { StartFlow, type StartFlowDeps } from './startFlow';
import type { StartSteps } from './startSteps';

export * from './gameTypes';

/** What the game store needs (its parts' needs, and what hides the game float). */
export type GameStoreDeps = StartFlowDeps &
  SessionActionsDeps & {
    /** the queue's retention dialog (the float hides under it) */
    queue: { readonly retention: unknown };
    /** the play-time dialogs (the float hides under them) */
    playTime: { readonly dialogOpen: boolean };
  };

/**
 * The player's game session. Its state changes only from server answers and pushes, through
 * applyServerEvent; the store runs the clocks (ready countdown, online time, the QUEUE safety
 * poll, the missed-queue recheck, the hanging read) and keeps the quality report. The start flow
 * (`startFlow.ts`) and the session's actions (`sessionActions.ts`) are its parts; it delegates
 * their public members, so pages and other stores see one game store.
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
  /** the quality report of the game that just ended, until the player closes it */
  qualityReport: ShownQualityReport | null = null;
  /**
   * The game whose play page this window is opening ('进入游戏' or '返回游戏' in this window),
   * from the click until the page mounts: a notice for it that comes first waits for the page.
   */
  playPageOpening: number | null = null;
  /** bumped at every applied state: a floatBall answer older than a push is dropped */
  private version = 0;
  /** sessions known to have ended: a late state for them must not revive them */
  private readonly endedIds = new Set<string>();
  /** sessions this client asked to end */
  private readonly deliberateIds = new Set<string>();


  private readonly deps: GameStoreDeps;
  private readonly stopClocks: () => void;
  /** the start flow: '开始游戏', its checks, the node dialog, the start call */
  readonly startFlow: StartFlow;
  /** what the player does with the session: enter, give up, exit, move (sessionActions.ts, loaded
   * with its code when a session appears or an action is asked for); null before */
  actions: SessionActions | null = null;
  private actionsLoading: Promise<SessionActions> | null = null;

  constructor(deps: GameStoreDeps) {
    this.deps = deps;
    this.startFlow = new StartFlow(deps);
    makeAutoObservable<
      GameStore,
      | 'deps'
      | 'actionsLoading'
      | 'version'
      | 'endedIds'
      | 'deliberateIds'
      | 'stopClocks'
    >(this, {
      deps: false,
      startFlow: false,
      actions: observable.ref,
      actionsLoading: false,
      version: false,
      endedIds: false,
      deliberateIds: false,
      stopClocks: false,
    });

    this.stopClocks = runSessionClocks(this, deps.effects);
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
      this.deps.ui.readyDismissedId !== key(l.id)
    );
  }

  get queueDialogVisible(): boolean {
    return this.live !== null && this.isThisClient && this.live.status === GameStatus.QUEUE && this.deps.ui.queueDialogLarge;
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
    const ui = this.deps.ui;
    if (!l || l.ballStatus === 0) return false;
    if (l.status === GameStatus.READY && this.isThisClient && this.readyRemaining > 0) return false;
    if (
      this.queueDialogVisible ||
      this.startFlow.nodePicker ||
      this.startFlow.steps?.dialogOpen ||
      ui.loginOpen ||
      ui.messageBoxes.length > 0 ||
      ui.missedQueue ||
      this.deps.queue.retention ||
      this.deps.playTime.dialogOpen
    ) {
      return false;
    }
    return ui.floatClosedId !== key(l.id);
  }

  get needsClock(): boolean {
    const s = this.live?.status;
    return s === GameStatus.READY || s === GameStatus.CONNECTING || s === GameStatus.PLAYING;
  }

  // ---------------------------------------------------------------- server events

  /**
   * Applies a GameState from the server (a floatBall/start/confirm answer or a 130122 push).
   * Within one session the status only moves forward (QUEUE, READY, CONNECTING, PLAYING), and an
   * ended session stays ended: answers and pushes can cross on the wire, and the older one loses.
   * The one move back is the server's: a READY session whose machine was lost waits again, first
   * in its lane, with one more `requeues` (`isNewer`); its queue dialog opens again.
   */
  applyServerEvent(next: GameState | null | undefined): void {
    const incoming: GameState = next && typeof next === 'object' ? next : { hasGameOnline: false };
    const prev = this.live;
    const prevThisClient = this.isThisClient;
    if (isLive(incoming)) {
      const id = key(incoming.id);
      if (this.endedIds.has(id)) return;
      if (prev && key(prev.id) === id) {
        if (!isNewer(incoming, prev)) return;
        if (incoming.requeues > prev.requeues) this.deps.ui.setQueueDialogLarge(true);
      }
      if (prev && key(prev.id) !== id) this.endSession(prev, prevThisClient, null);
      if (!prev || key(prev.id) !== id) {
        // a new session: its dialogs start afresh
        this.deps.ui.setQueueDialogLarge(true);
        this.deps.ui.clearMissedQueue();
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
    // a play page that never mounted (the player went elsewhere first) holds nothing back any more
    if (this.playPageOpening === prev.gameId) this.playPageOpening = null;
    if (!wasThisClient) return;
    const deliberate = this.deliberateIds.has(id);
    this.lastEnded = { id, gameId: prev.gameId, gameName: prev.gameName, endReason, deliberate };
    if (endReason === 'missed' && !deliberate && prev.status === GameStatus.READY) this.showMissed(prev);
  }

  private showMissed(prev: LiveGameState): void {
    const id = key(prev.id);
    if (this.deps.ui.missedQueue?.sessionId === id) return;
    const nodeId = prev.nodeId ?? (this.startFlow.lastStart?.gameId === prev.gameId ? this.startFlow.lastStart.nodeId : undefined);
    this.deps.ui.showMissedQueue({ sessionId: id, gameId: prev.gameId, gameName: prev.gameName, nodeId });
  }

  /** The server clock from an envelope's `ts` (seconds). */
  noteServerTime(tsSeconds: number): void {
    if (!Number.isFinite(tsSeconds) || tsSeconds <= 0) return;
    const skew = tsSeconds * 1000 - Date.now();
    this.skewMs = Math.abs(skew) > SKEW_THRESHOLD_MS ? skew : 0;
  }

  /** Reads gameDuration of this client's PLAYING session (core-platform.md §3.3). */
  async refreshDuration(): Promise<void> {
    const l = this.live;
    if (l && this.isThisClient && l.status === GameStatus.PLAYING) await (await this.startFlow.loadSteps()).readDuration(l.id);
  }

  /** Re-reads the status (floatBall); a push that arrives meanwhile wins over the answer. */
  async refresh(): Promise<void> {
    if (!this.deps.user.isLoggedIn) return;
    const before = this.version;
    try {
      const s = await this.deps.api.post(GamePaths.floatBall, {});
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

  // ---------------------------------------------------------------- the start flow (startFlow.ts)

  get nodePicker(): NodePicker | null { return this.startFlow.nodePicker; }
  get steps(): StartSteps | null { return this.startFlow.steps; }
  get loadingNodes(): boolean { return this.startFlow.loadingNodes; }
  get starting(): boolean { return this.startFlow.starting; }
  get lastStart(): StartRequest | null { return this.startFlow.lastStart; }
  get nodeDelay(): string { return this.startFlow.nodeDelay; }
  get probes(): StartFlow['probes'] { return this.startFlow.probes; }
  nodesOf(gameId: number): GameNode[] { return this.startFlow.nodesOf(gameId); }
  get nodeDelayFactor(): number { return this.startFlow.nodeDelayFactor; }
  loadSteps(): Promise<StartSteps> { return this.startFlow.loadSteps(); }
  requestStart(game: { id: number; name: string }, relay?: RelayParams): Promise<void> { return this.startFlow.requestStart(game, relay); }
  openNodePicker(game: { id: number; name: string }, relay?: RelayParams): Promise<void> { return this.startFlow.openNodePicker(game, relay); }
  selectNode(node: GameNode): void { this.startFlow.selectNode(node); }
  closeNodePicker(): void { this.startFlow.closeNodePicker(); }
  confirmNode(): Promise<void> { return this.startFlow.confirmNode(); }
  start(req: StartRequest): Promise<void> { return this.startFlow.start(req); }
  offerMembership(message: string, detail?: string): Promise<void> { return this.startFlow.offerMembership(message, detail); }
  requeue(): Promise<void> { return this.startFlow.requeue(); }

  // ---------------------------------------------------------------- the session's actions (sessionActions.ts)

  /** Loads the actions' code and creates them, once. */
  loadActions(): Promise<SessionActions> {
    if (!this.actionsLoading) {
      const loading = import('./sessionActions').then(({ SessionActions }) => {
        const actions = new SessionActions(this.deps);
        runInAction(() => (this.actions = actions));
        return actions;
      });
      loading.catch(() => (this.actionsLoading = null));
      this.actionsLoading = loading;
    }
    return this.actionsLoading;
  }

  async exitSession(id: number | string): Promise<boolean> { return (await this.loadActions()).exitSession(id); }
  async exitCurrent(): Promise<boolean> { return (await this.loadActions()).exitCurrent(); }
  async endOnOtherDevice(): Promise<void> { return (await this.loadActions()).endOnOtherDevice(); }
  async giveUp(): Promise<void> { return (await this.loadActions()).giveUp(); }
  async cancelQueue(): Promise<void> { return (await this.loadActions()).cancelQueue(); }
  async moveHere(): Promise<void> { return (await this.loadActions()).moveHere(); }
  takeStreamGrant(sessionId: string): StreamGrant | null { return this.actions?.takeStreamGrant(sessionId) ?? null; }

  /**
   * '进入游戏': confirm the connection, then the play page, in a new window by default
   * (core-platform.md §2.1, §4.3). The window opens from the click, before the call (and before
   * the actions' code loads); a failed confirm closes it again.
   */
  async confirmConnect(): Promise<void> {
    const l = this.live;
    if (!l) return;
    const win = this.deps.effects.openPlayWindow();
    if (!win) this.playPageOpening = l.gameId;
    await (await this.loadActions()).confirmConnect(l, win);
  }

  /** '返回游戏' (core-platform.md §4.5): the play page of a CONNECTING or PLAYING session of this client. */
  returnToGame(): void {
    const l = this.live;
    if (!l || !(l.status === GameStatus.CONNECTING || l.status === GameStatus.PLAYING)) {
      this.deps.ui.info('游戏已结束');
      return;
    }
    const win = this.deps.effects.openPlayWindow();
    if (!win) this.playPageOpening = l.gameId;
    this.showPlayPage(l.gameId, win);
  }

  /** The play page of `gameId` mounted, or opening it failed (null): nothing is opening any more. */
  playPageSettled(): void {
    this.playPageOpening = null;
  }

  showPlayPage(gameId: number, win: PlayWindow | null): void {
    const path = `/game/play?gameId=${encodeURIComponent(String(gameId))}`;
    if (win) win.go(path);
    else this.deps.ui.navigate(path);
  }



  /** This client asked for the session's end (exit, give up, logout): no alert for it. */
  markDeliberate(id: number | string): void {
    this.deliberateIds.add(key(id));
  }

  // ---------------------------------------------------------------- the quality report

  /**
   * Shows a finished session's quality report (the play page measured it). A play page in its
   * own window also hands it to the window that opened it, which the player returns to when the
   * play window closes itself.
   */
  presentQualityReport(report: ShownQualityReport, share = true): void {
    this.qualityReport = report;
    if (share) this.deps.effects.shareQualityReport(report);
  }

  dismissQualityReport(): void {
    this.qualityReport = null;
  }

  reopenQueueDialog(): void {
    this.deps.ui.setQueueDialogLarge(true);
  }

  /** Logged out: forget the session and stop the clocks. */
  reset(): void {
    this.state = null;
    this.startFlow.reset();
    this.actions?.reset();
    this.lastEnded = null;
    this.qualityReport = null;
    this.playPageOpening = null;
    this.version++;
  }

  // ---------------------------------------------------------------- clocks

  tick(): void {
    this.nowMs = Date.now();
  }

  dispose(): void {
    this.stopClocks();
  }
}
