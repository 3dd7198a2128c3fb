import { GameStatus } from '../api/codes';
import type { CatalogueGame, GameNode } from '../api/types';

export interface Availability {
  /** the card cannot be opened and the game cannot be started */
  disabled: boolean;
  /** the label shown on the card and on the start button, when disabled */
  label: string | null;
}

/** core-platform.md §9 catalogue status: 0 coming soon, 2/unavailable off the shelf, 10 unsupported. */
export function gameAvailability(game: Pick<CatalogueGame, 'status'> & Partial<Pick<CatalogueGame, 'available' | 'deleted'>>): Availability {
  if (game.status === 0) return { disabled: true, label: '即将上架' };
  if (game.status === 10) return { disabled: true, label: '本端不支持' };
  if (game.status === 2 || game.available === false || game.deleted === true) {
    return { disabled: true, label: '已下架' };
  }
  return { disabled: false, label: null };
}

export function memberBadge(memberType: CatalogueGame['member_type']): 'VIP' | 'VVIP' | null {
  if (memberType === 'vip') return 'VIP';
  if (memberType === 'vvip' || memberType === 'hvip') return 'VVIP';
  return null;
}

/** One node's latency probe: running, measured (ms) or failed/timed out. */
export type ProbeResult = { state: 'probing' } | { state: 'ok'; ping: number } | { state: 'failed' };

/** The status text of a node in the node dialog (core-platform.md §4.8). */
export function nodeStatusText(node: Pick<GameNode, 'status'>, probe: ProbeResult | undefined, factor = 1): string {
  if (node.status !== 1) return '维护中';
  if (!probe || probe.state === 'probing') return '连接中';
  if (probe.state === 'ok') {
    const f = Number.isFinite(factor) && factor > 0 ? factor : 1;
    return `延迟${Math.round(probe.ping / f)}ms`;
  }
  return '超时';
}

const PLATFORM_NAMES: Record<string, string> = {
  steam: 'Steam',
  epic: 'Epic',
  uplay: 'Uplay',
  origin: 'Origin',
  battlenet: 'Battle.net',
  wegame: 'WeGame',
  mobile: '手游',
};

export function platformName(platform: string | undefined): string | null {
  if (!platform) return null;
  return PLATFORM_NAMES[platform.toLowerCase()] ?? platform;
}

const STATUS_ICONS: Record<number, string> = {
  [GameStatus.QUEUE]: 'queue',
  [GameStatus.READY]: 'ready',
  [GameStatus.CONNECTING]: 'connecting',
  [GameStatus.PLAYING]: 'playing',
};

/** The game float's status icon name: the status plus the fast-lane flag, e.g. 'queue_fast'. */
export function floatIconName(status: number, isFast: number | undefined): string {
  return `${STATUS_ICONS[status] ?? 'connecting'}${(isFast ?? 0) > 0 ? '_fast' : ''}`;
}
