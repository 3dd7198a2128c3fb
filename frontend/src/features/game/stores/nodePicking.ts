// The node dialog's reads (core-platform.md §4.4 step 8, §9): the game's node list (cached 10
// minutes), the common config's delay factor (read once), every selectable node probed. In the
// start steps' chunk: the start flow (startFlow.ts) opens the dialog through `StartSteps.pickNode`.
import { runInAction, type ObservableMap } from 'mobx';
import type { GameNode } from '../../../api/types';
import type { AppServices } from '../../../kernel/services';
import type { ProbeResult } from '../../../lib/gameStatus';
import { GamePaths, NODE_CACHE_MS, type NodePicker, type RelayParams, type StartRequest } from './gameTypes';

export type PickingDeps = Pick<AppServices, 'api' | 'transport'>;

/** The start flow's node state (StartFlow). */
export interface PickingFlow {
  nodePicker: NodePicker | null;
  loadingNodes: boolean;
  nodeDelayFactor: number;
  factorLoaded: boolean;
  readonly nodeCache: ObservableMap<number, { nodes: GameNode[]; at: number }>;
  readonly probes: ObservableMap<number, ProbeResult>;
  nodesOf(gameId: number): GameNode[];
  handleStartError(e: unknown, req: StartRequest): Promise<void>;
}

/** Reads the node list, opens the dialog and probes every node. */
export async function openNodePicker(deps: PickingDeps, flow: PickingFlow, game: { id: number; name: string }, relay?: RelayParams): Promise<void> {
  let nodes: GameNode[];
  try {
    nodes = await loadNodes(deps, flow, game.id);
  } catch (e) {
    await flow.handleStartError(e, { gameId: game.id, gameName: game.name });
    return;
  }
  runInAction(() => {
    flow.nodePicker = { gameId: game.id, gameName: game.name, selectedId: null, ...(relay ? { relay } : {}) };
  });
  void loadDelayFactor(deps, flow);
  await probeAll(deps, flow, nodes);
}

async function loadNodes(deps: PickingDeps, flow: PickingFlow, gameId: number): Promise<GameNode[]> {
  const cached = flow.nodeCache.get(gameId);
  if (cached && Date.now() - cached.at < NODE_CACHE_MS) return cached.nodes;
  runInAction(() => (flow.loadingNodes = true));
  try {
    const nodes = await deps.api.post(GamePaths.selectNode, { gameId });
    runInAction(() => {
      flow.nodeCache.set(gameId, { nodes: Array.isArray(nodes) ? nodes : [], at: Date.now() });
    });
    return flow.nodesOf(gameId);
  } finally {
    runInAction(() => {
      flow.loadingNodes = false;
    });
  }
}

/** game_node_delay_factor, read once from the common config; 1 when absent or invalid. */
async function loadDelayFactor(deps: PickingDeps, flow: PickingFlow): Promise<void> {
  if (flow.factorLoaded) return;
  flow.factorLoaded = true;
  try {
    const cfg = await deps.api.post(GamePaths.configList, { groupCode: 'common_config' });
    const f = Number(cfg?.game_node_delay_factor);
    runInAction(() => {
      flow.nodeDelayFactor = Number.isFinite(f) && f > 0 ? f : 1;
    });
  } catch {
    // default factor 1
  }
}

async function probeAll(deps: PickingDeps, flow: PickingFlow, nodes: GameNode[]): Promise<void> {
  const selectable = nodes.filter((n) => n.status === 1);
  runInAction(() => {
    for (const n of selectable) flow.probes.set(n.id, { state: 'probing' });
  });
  await Promise.all(
    selectable.map(async (n) => {
      let ping: number | null = null;
      try {
        ping = await deps.transport.probe(n.pingUrl);
      } catch {
        ping = null;
      }
      runInAction(() => {
        flow.probes.set(n.id, ping !== null && ping > 0 ? { state: 'ok', ping } : { state: 'failed' });
      });
    }),
  );
}
