// The start flow of core-platform.md §4.4: '开始游戏' (debounced; a guest logs in first), the
// start's checks (`StartSteps`, its own chunk), the node dialog with its cached node lists and
// probes, the start call and its errors, and 'queue again'. GameStore owns one and delegates.
import { makeAutoObservable, observable, runInAction } from 'mobx';
import type { ProbeResult } from '../../../lib/gameStatus';
import type { BodyOf, GameNode, GameState } from '../../../api/types';
import type { AppServices } from '../../../kernel/services';
import { GamePaths, MEMBER_PATH, START_DEBOUNCE_MS, type NodePicker, type RelayParams, type StartRequest } from './gameTypes';
import type { StartSteps, StartStepsDeps } from './startSteps';

/** What the start flow needs: the start steps' needs, the session to apply the start's answer to. */
export type StartFlowDeps = StartStepsDeps &
  Pick<AppServices, 'api' | 'transport' | 'effects' | 'ui' | 'user'> & {
    game: { applyServerEvent(next: GameState | null | undefined): void };
  };

export class StartFlow {
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
  private lastStartClickAt = Number.NEGATIVE_INFINITY;
  /** the delay factor was asked for (nodePicking.ts reads it once) */
  factorLoaded = false;
  private readonly deps: StartFlowDeps;

  constructor(deps: StartFlowDeps) {
    this.deps = deps;
    makeAutoObservable<StartFlow, 'deps' | 'stepsLoading' | 'lastStartClickAt'>(this, {
      deps: false,
      steps: observable.ref,
      stepsLoading: false,
      lastStartClickAt: false,
      factorLoaded: false,
    });
  }

  nodesOf(gameId: number): GameNode[] {
    return this.nodeCache.get(gameId)?.nodes ?? [];
  }

  /** The nodeDelay JSON string: successful probes only (a timeout counts as 0 and is dropped). */
  get nodeDelay(): string {
    const list: { id: number; ping: number }[] = [];
    for (const [id, p] of this.probes) if (p.state === 'ok' && p.ping > 0) list.push({ id, ping: p.ping });
    return JSON.stringify(list);
  }

  /** Loads the start steps' code and creates them, once. */
  loadSteps(): Promise<StartSteps> {
    if (!this.stepsLoading) {
      const loading = import('./startSteps').then(({ StartSteps }) => {
        const steps = new StartSteps(this.deps);
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

  // ---------------------------------------------------------------- start flow

  /** '开始游戏': debounced 1000 ms on the leading edge; a guest gets the login dialog. */
  async requestStart(game: { id: number; name: string }, relay?: RelayParams): Promise<void> {
    const now = Date.now();
    if (now - this.lastStartClickAt < START_DEBOUNCE_MS) return;
    this.lastStartClickAt = now;
    // asked from the click itself: browsers grant the prompt only to a user gesture
    this.deps.effects.requestNotificationPermission();
    if (!this.deps.user.isLoggedIn) {
      // the start goes on once logged in (core-platform.md §4.4 step 2, §4.13)
      this.deps.ui.openLogin(() => void this.openNodePicker(game, relay));
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

  /** Reads the node list (cached 10 minutes), opens the dialog and probes every node (nodePicking.ts, in the steps' chunk). */
  async openNodePicker(game: { id: number; name: string }, relay?: RelayParams): Promise<void> {
    await (await this.loadSteps()).pickNode(this, game, relay);
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
      this.deps.ui.warning('请选择区服');
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
      const body: BodyOf<typeof GamePaths.start> = { gameId: req.gameId, nodeDelay: this.nodeDelay, afterAuthCheck: 1 };
      if (req.nodeId !== undefined) body.nodeId = req.nodeId;
      if (req.relay) Object.assign(body, req.relay);
      const state = await this.deps.api.post(GamePaths.start, body);
      runInAction(() => {
        this.deps.ui.clearMissedQueue();
        this.deps.game.applyServerEvent(state);
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
    const ok = await this.deps.ui.confirm({ title: '温馨提示', message, detail, confirmText: '开通会员', cancelText: '取消' });
    if (ok) this.deps.ui.navigate(MEMBER_PATH);
  }

  /** 'queue again' of the missed-queue message: the same game on the same node. */
  async requeue(): Promise<void> {
    const m = this.deps.ui.missedQueue;
    if (!m) return;
    this.deps.effects.requestNotificationPermission();
    this.deps.ui.clearMissedQueue();
    await this.start({ gameId: m.gameId, gameName: m.gameName, nodeId: m.nodeId });
  }

  /** Logged out: the node dialog closes, the start steps' dialogs with it. */
  reset(): void {
    this.nodePicker = null;
    this.steps?.reset();
    this.lastStart = null;
  }
}
