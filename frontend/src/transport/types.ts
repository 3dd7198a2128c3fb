// The transport seam: everything that leaves the browser goes through these interfaces, so the
// stores can be driven by a fake in tests. Only this folder knows about fetch, cookies, WebSocket
// and the protobuf wire format.

import type { BodyOf, DataOf, PathOf, QueryOf } from '../api/types';
import type { RoomEventItem } from '../lib/room';

/** Query parameters of a GET; undefined and empty values are left out. */
export type Query = Record<string, string | number | boolean | undefined | null>;

/** Per-call extras of a POST. */
export interface PostOptions {
  /** sent as `Idempotency-Key`: the same key makes no second order (API.md "One order per submit") */
  idempotencyKey?: string;
}

/** What the REST client reports about every envelope it parses, success or not. */
export interface EnvelopeInfo {
  path: string;
  code: number;
  /** server time in seconds, when the envelope carried one */
  ts?: number;
  /** the envelope's message and data (read by the reactions to a code on any call) */
  message?: string;
  data?: unknown;
}

export type EnvelopeListener = (info: EnvelopeInfo) => void;

/**
 * The JSON envelope API of the server (API.md "Calls"). Resolves with `data`, rejects with
 * ApiError. Paths, bodies, queries and answers are typed from the server's OpenAPI document.
 */
export interface Api {
  get<P extends PathOf<'get'>>(path: P, query?: QueryOf<P>): Promise<DataOf<P, 'get'>>;
  post<P extends PathOf<'post'>>(path: P, body?: BodyOf<P>, options?: PostOptions): Promise<DataOf<P, 'post'>>;
  /** Observe every parsed envelope (used for 20119 and the server clock); returns an unsubscribe. */
  subscribe(listener: EnvelopeListener): () => void;
}

/** A decoded server frame, already free of protobuf types. */
export type ServerPush =
  | { kind: 'notification'; code: number; content: string; data: string }
  | { kind: 'authorization'; status: string; value: string }
  | { kind: 'balance' }
  | { kind: 'memberInfo' }
  | { kind: 'userInfo' }
  | { kind: 'growthInfo' }
  /** NEW_MESSAGE: a message reached the message centre; re-read the unread counts */
  | { kind: 'newMessage' }
  /** a batch of one room's events (ROOM_EVENTS), in offset order, covering offsets first..last */
  | { kind: 'roomEvents'; ddRid: number; epoch: string; first: number; last: number; events: RoomEventItem[] }
  /** the server cannot resume this socket's watch (ROOM_RESET): refetch, watch from here */
  | { kind: 'roomReset'; ddRid: number; epoch: string; offset: number };

export interface PushHandlers {
  onPush(push: ServerPush): void;
  /** The socket reopened after a drop, or the push stream skipped: state may have been missed. */
  onResync?(): void;
  /** The socket opened (first time or again): watches are sent anew from here. */
  onOpen?(): void;
}

/** The real-time channel: opened after login, closed at logout. */
export interface PushChannel {
  open(): void;
  close(): void;
  readonly isOpen: boolean;
  /** ROOM_WATCH: the room's events after `afterOffset` of `epoch`, then live (sent only while open). */
  watchRoom(ddRid: number, epoch: string, afterOffset: number): void;
  /** ROOM_UNWATCH. */
  unwatchRoom(ddRid: number): void;
}

export interface Transport {
  api: Api;
  /** The per-browser random id sent as Yoo-Uuid and as device_no at login. */
  deviceId(): string;
  createPushChannel(handlers: PushHandlers): PushChannel;
  /** Latency probe of one node: GET {url}?t=..., in ms, or null on failure or after 5 s. */
  probe(url: string): Promise<number | null>;
}
