// Queue lanes as the player sees them (core-platform.md §2.7, §4.6; commerce.md §2.10, §4.9):
// lane names, the lane offered as an upsell, the wait formula, and which lane card the queue
// dialog shows. Pure functions: the QueueStore feeds them its observables. The lanes' names and
// weights are the server's (GET /api/japi/yoo/game/queueRules), never restated here.
import { Lane } from '../api/codes';
import type { ChannelSize, FastEnterCard, QueueRules } from '../api/types';

/** Any lane above 0 counts as fast entry. */
export function isFastEntry(isFast: number | undefined): boolean {
  return (isFast ?? 0) > 0;
}

/** 'Ultimate' fast entry: member (1) or carrier partner (2); they skip the queue. */
export function isUltimate(isFast: number | undefined): boolean {
  return isFast === Lane.MEMBER || isFast === Lane.CARRIER;
}

function laneRule(rules: QueueRules | null, isFast: number | undefined) {
  return rules?.lanes.find((l) => l.isFast === (isFast ?? Lane.NORMAL));
}

/** The queue name shown in the queue dialog ('' until the rules are read). */
export function laneName(rules: QueueRules | null, isFast: number | undefined): string {
  return laneRule(rules, isFast)?.name ?? laneRule(rules, Lane.NORMAL)?.name ?? '';
}

/** The tier label of an upsell lane. */
export function tierLabel(rules: QueueRules | null, lane: number): string {
  return lane === Lane.MEMBER ? '速进通道' : (laneRule(rules, lane)?.name ?? '速进通道');
}

/** A lane's admission weight, as the server's queue uses it (0 until the rules are read). */
export function laneWeight(rules: QueueRules | null, lane: number): number {
  return laneRule(rules, lane)?.weight ?? 0;
}

/**
 * The lane the upsell card previews for a player on lane `current`: the server's offer for that
 * lane (queueRules' `upsell`: the first buyable lane that admits faster, VVIP for normal,
 * package and VIP players, the member fast-entry lane for a VVIP player). A player who owns a
 * fast-entry card previews lane 1 (the card's lane); ultimate lanes get no upsell.
 */
export function preferredPreLane(rules: QueueRules | null, current: number | undefined, hasCards = false): number | null {
  const lane = current ?? Lane.NORMAL;
  if (isUltimate(lane)) return null;
  if (hasCards) return Lane.MEMBER;
  return laneRule(rules, lane)?.upsell ?? null;
}

/** core-platform.md §4.6: wait minutes = max(1, ceil(waitDuration / 60)). */
export function waitMinutes(waitDuration: number | undefined): number {
  const s = Number(waitDuration);
  return Math.max(1, Math.ceil((Number.isFinite(s) ? s : 0) / 60));
}

/** Expected rank = preSort + 1. */
export function expectedRank(preSort: number | undefined): number {
  const n = Number(preSort);
  return (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0) + 1;
}

/**
 * '预计排名第{preSort+1}位，等待时间少于{N}分钟', N from the long end of the measured range;
 * without a measurement the wait is said to be being measured, never guessed.
 */
export function upsellText(size: Pick<ChannelSize, 'preSort' | 'waitDuration' | 'waitDurationMin'>): string {
  const rank = `预计排名第${expectedRank(size.preSort)}位`;
  if (size.waitDurationMin === null || !(Number(size.waitDuration) > 0)) return `${rank}，等待时间测算中`;
  return `${rank}，等待时间少于${waitMinutes(size.waitDuration)}分钟`;
}

/** The caller's own expected wait: '预计等待 X–Y 分钟', 'X 分钟以上', or being measured. */
export function ownWaitText(size: Pick<ChannelSize, 'ownWaitMin' | 'ownWaitMax'> | null): string {
  const min = size?.ownWaitMin;
  if (min === null || min === undefined) return '预计等待时间测算中';
  const max = size?.ownWaitMax;
  if (max === null || max === undefined) return `预计等待 ${waitMinutes(min)} 分钟以上`;
  const [lo, hi] = [waitMinutes(min), waitMinutes(max)];
  return lo === hi ? `预计等待约 ${lo} 分钟` : `预计等待 ${lo}–${hi} 分钟`;
}

/** What the lane card area of the queue dialog shows, in order of precedence. */
export type LaneCard =
  /** carrier partner lane: the free fast entry of the carrier's e-sports broadband users */
  | { kind: 'carrier' }
  /** member fast entry: '已享受速进通道' */
  | { kind: 'fast' }
  /** an owned fast-entry card (the soonest to expire) with '立即使用' */
  | { kind: 'card'; card: FastEnterCard; more: boolean }
  /** the upsell of a faster lane with its preview */
  | { kind: 'upsell'; lane: number; label: string; text: string }
  | { kind: 'none' };

export interface LaneCardInput {
  isFast: number | undefined;
  cards: readonly FastEnterCard[];
  /** the preview of the preferred pre lane, when read */
  preview: Pick<ChannelSize, 'preSort' | 'waitDuration'> | null;
  previewLane: number | null;
  /** the server's queue rules (lane names), when read */
  rules: QueueRules | null;
}

/**
 * core-platform.md §2.7 order: carrier free fast entry; the ultimate lane; an owned card;
 * otherwise the upsell when the channel preview of the pre lane is known.
 */
export function chooseLaneCard(input: LaneCardInput): LaneCard {
  if (input.isFast === Lane.CARRIER) return { kind: 'carrier' };
  if (input.isFast === Lane.MEMBER) return { kind: 'fast' };
  if (input.cards.length > 0) return { kind: 'card', card: input.cards[0], more: input.cards.length > 1 };
  if (input.preview && input.previewLane !== null) {
    return { kind: 'upsell', lane: input.previewLane, label: tierLabel(input.rules, input.previewLane), text: upsellText(input.preview) };
  }
  return { kind: 'none' };
}

/** The messaging-app notice area (core-platform.md §2.7). */
export type WxNotice =
  | { kind: 'text' }
  /** the 80 px QR code to be told when the queue completes */
  | { kind: 'qr' }
  /** the official-account reservation toggle of a bound user */
  | { kind: 'reserve' };

export interface WxNoticeInput {
  /** config wx_sort_entry.web: '1' enables the messaging-app entry */
  web: string | undefined;
  delayShowCodeTime: number;
  delayShowReserveTime: number;
  /** seconds spent in the queue */
  queDuration: number;
  /** the user is bound to the official account */
  bound: boolean;
}

export function wxNotice(input: WxNoticeInput): WxNotice {
  if (input.web !== '1') return { kind: 'text' };
  if (input.bound) return input.queDuration > input.delayShowReserveTime ? { kind: 'reserve' } : { kind: 'text' };
  return input.queDuration > input.delayShowCodeTime ? { kind: 'qr' } : { kind: 'text' };
}

/** The queue-sort entry shows when web is '1'. */
export function showSortEntry(web: string | undefined): boolean {
  return web === '1';
}
