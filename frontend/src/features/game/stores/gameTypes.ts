// The game session's shared vocabulary: the calls, the timings of core-platform.md §9, the start
// request and the node dialog, the ended session, and the room as the game sees it. The game's
// stores (gameStore, startFlow, sessionActions, startSteps, queueStore) import it; it imports none.
import { GameStatus } from '../../../api/codes';
import type { DataOf, GameState, LiveGameState } from '../../../api/types';

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
export const SKEW_THRESHOLD_MS = 2000;

export const GamePaths = {
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

export type ExitPath = typeof GamePaths.cancelQue | typeof GamePaths.cancelConfirm | typeof GamePaths.over;

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

/** A session's quality report as the player sees it after the game (shared with lib/notify). */
export type { ShownQualityReport } from '../../../stream/stats';

/** The last live session of this client that ended, and how. */
export interface EndedSession {
  id: string;
  gameId: number;
  gameName: string;
  endReason: string | null;
  /** this client asked for the end (exit, give up, logout): no alert for it */
  deliberate: boolean;
}

export const key = (id: number | string) => String(id);

export function isLive(s: GameState | null): s is LiveGameState {
  return s !== null && s.hasGameOnline === true;
}

/**
 * Whether `next` is a later state of `prev`'s session than `prev`: more returns to the queue
 * (the server put a READY session back after losing its machine), or as many and a status as far
 * or further. Anything else is a stale answer that crossed a newer push on the wire.
 */
export function isNewer(next: LiveGameState, prev: LiveGameState): boolean {
  return next.requeues > prev.requeues || (next.requeues === prev.requeues && next.status >= prev.status);
}

/** The call that ends a session in a given status (core-platform.md §4.5). */
export function exitPathFor(status: number | undefined): ExitPath {
  if (status === GameStatus.QUEUE) return GamePaths.cancelQue;
  if (status === GameStatus.READY || status === GameStatus.CONNECTING) return GamePaths.cancelConfirm;
  return GamePaths.over;
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

/** The room as the game's start and end see it (the live feature's RoomStore provides it). */
export interface GameRoomView {
  readonly inRoom: boolean;
  readonly isHost: boolean;
  readonly hasControl: boolean;
  readonly info: DataOf<'/api/japi/yoo/v2/room/info', 'post'> | null;
  exit(): Promise<void>;
  forget(): void;
}

/** Where the game's stores find the room: loaded on first need (the live feature's RoomStore). */
export interface GameRoomAccess {
  readonly room: GameRoomView | null;
  loadRoom(): Promise<{ liveEnded(roomSerial: number): void }>;
}

/** The path of the live page's start-relay dialog for a game played only together (§4.4 step 10). */
export function relayStartPath(game: { id: number; name: string }, mode: number): string {
  return `/game/live?relayGame=${game.id}&relayGameName=${encodeURIComponent(game.name)}&relayMode=${mode}`;
}
