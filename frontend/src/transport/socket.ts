import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  AuthorizationSchema,
  EnvelopeSchema,
  MessageType,
  NotificationSchema,
  RoomEventsSchema,
  RoomResetSchema,
  RoomWatchSchema,
  type Envelope,
} from '../gen/yoo_pb';
import { ApiError, ErrorCode } from './apiError';
import type { Api, PushChannel, PushHandlers, ServerPush } from './types';

export const PING_INTERVAL_MS = 30_000;
export const RECONNECT_DELAY_MS = 5_000;

/** The subset of the browser WebSocket the client uses (a fake implements it in tests). */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  onopen: ((ev: Event) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  send(data: Uint8Array): void;
  close(code?: number): void;
}

export type WebSocketFactory = (url: string) => WebSocketLike;

export interface SocketConfig {
  api: Api;
  /** the socket URL for a token, e.g. ws://host/echo?access_token=... */
  url(token: string): string;
  createWebSocket: WebSocketFactory;
  handlers: PushHandlers;
  pingMs?: number;
  reconnectMs?: number;
}

const OPEN = 1;

/** Encodes one client frame. */
export function encodeEnvelope(type: MessageType, content: Uint8Array = new Uint8Array()): Uint8Array {
  return toBinary(EnvelopeSchema, create(EnvelopeSchema, { type, content }));
}

/** Decodes one server frame into a ServerPush; null for frames the client does not act on (PONG). */
export function decodePush(env: Envelope): ServerPush | null {
  switch (env.type) {
    case MessageType.NOTIFICATION: {
      const n = fromBinary(NotificationSchema, env.content);
      return { kind: 'notification', code: n.code, content: n.content, data: n.data };
    }
    case MessageType.AUTHORIZATION: {
      const a = fromBinary(AuthorizationSchema, env.content);
      return { kind: 'authorization', status: a.status, value: a.value };
    }
    case MessageType.BALANCE_NOTIFICATION:
      return { kind: 'balance' };
    case MessageType.MEMBER_INFO_NOTIFICATION:
      return { kind: 'memberInfo' };
    case MessageType.USER_INFO:
      return { kind: 'userInfo' };
    case MessageType.GROWTH_INFO:
      return { kind: 'growthInfo' };
    case MessageType.NEW_MESSAGE:
      return { kind: 'newMessage' };
    case MessageType.ROOM_EVENTS: {
      const r = fromBinary(RoomEventsSchema, env.content);
      return {
        kind: 'roomEvents',
        ddRid: Number(r.ddRid),
        epoch: r.epoch,
        first: Number(r.firstOffset),
        last: Number(r.lastOffset),
        events: r.events.map((e) => ({
          offset: Number(e.offset),
          code: e.code,
          msg: e.msg,
          desc: e.desc,
          data: e.data,
          userIds: e.userIds.map(Number),
          excludeUserIds: e.excludeUserIds.map(Number),
          ts: Number(e.ts),
        })),
      };
    }
    case MessageType.ROOM_RESET: {
      const r = fromBinary(RoomResetSchema, env.content);
      return { kind: 'roomReset', ddRid: Number(r.ddRid), epoch: r.epoch, offset: Number(r.offset) };
    }
    default:
      return null;
  }
}

function toBytes(data: unknown): Uint8Array | null {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return null;
}

/**
 * The WebSocket client of API.md "WebSocket": fetches a single-use token, connects, pings every
 * 30 s and reconnects 5 s after any close it did not ask for (with a fresh token).
 */
export class Socket implements PushChannel {
  private readonly cfg: SocketConfig;
  /** wanted open: false after close(), so a late token or close event does nothing */
  private active = false;
  /** bumped at every connect and close: stale async steps compare and give up */
  private generation = 0;
  private ws: WebSocketLike | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** a later open is a reconnect, after which pushed state may have been missed */
  private openedBefore = false;
  private lastOffset = 0n;
  private epoch: string | null = null;

  constructor(cfg: SocketConfig) {
    this.cfg = cfg;
  }

  get isOpen(): boolean {
    return this.ws !== null && this.ws.readyState === OPEN;
  }

  open(): void {
    if (this.active) return;
    this.active = true;
    void this.connect();
  }

  close(): void {
    this.active = false;
    this.generation++;
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    this.openedBefore = false;
    if (ws) {
      ws.onclose = null;
      ws.onmessage = null;
      ws.onerror = null;
      ws.onopen = null;
      try {
        ws.close(1000);
      } catch {
        // already closing
      }
    }
  }

  private clearTimers(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.pingTimer = null;
    this.reconnectTimer = null;
  }

  private scheduleReconnect(): void {
    if (!this.active || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, this.cfg.reconnectMs ?? RECONNECT_DELAY_MS);
  }

  private async connect(): Promise<void> {
    const gen = ++this.generation;
    let token: string;
    try {
      const res = await this.cfg.api.get('/api/fetchToken');
      token = res.access_token;
    } catch (e) {
      if (gen !== this.generation || !this.active) return;
      if (e instanceof ApiError && e.code === ErrorCode.NOT_LOGGED_IN) {
        this.active = false; // logged out: the user store reacts to the 20119 itself
        return;
      }
      this.scheduleReconnect();
      return;
    }
    if (gen !== this.generation || !this.active) return;
    let ws: WebSocketLike;
    try {
      ws = this.cfg.createWebSocket(this.cfg.url(token));
    } catch {
      this.scheduleReconnect();
      return;
    }
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    this.lastOffset = 0n;
    this.epoch = null;
    ws.onopen = () => {
      if (gen !== this.generation) return;
      this.pingTimer = setInterval(() => this.send(MessageType.PING), this.cfg.pingMs ?? PING_INTERVAL_MS);
      this.cfg.handlers.onOpen?.();
      if (this.openedBefore) this.cfg.handlers.onResync?.();
      this.openedBefore = true;
    };
    ws.onmessage = (ev) => {
      if (gen !== this.generation) return;
      this.receive(ev.data);
    };
    ws.onclose = () => {
      if (gen !== this.generation) return;
      if (this.pingTimer) clearInterval(this.pingTimer);
      this.pingTimer = null;
      this.ws = null;
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      // a close event follows and schedules the reconnect
    };
  }

  private send(type: MessageType, content?: Uint8Array): void {
    if (this.ws && this.ws.readyState === OPEN) this.ws.send(encodeEnvelope(type, content));
  }

  watchRoom(ddRid: number, epoch: string, afterOffset: number): void {
    const w = create(RoomWatchSchema, { ddRid: BigInt(ddRid), epoch, afterOffset: BigInt(afterOffset) });
    this.send(MessageType.ROOM_WATCH, toBinary(RoomWatchSchema, w));
  }

  unwatchRoom(ddRid: number): void {
    this.send(MessageType.ROOM_UNWATCH, toBinary(RoomWatchSchema, create(RoomWatchSchema, { ddRid: BigInt(ddRid) })));
  }

  private receive(data: unknown): void {
    const bytes = toBytes(data);
    if (!bytes) return;
    let env: Envelope;
    try {
      env = fromBinary(EnvelopeSchema, bytes);
    } catch {
      return; // not a frame of ours
    }
    this.track(env);
    let push: ServerPush | null;
    try {
      push = decodePush(env);
    } catch {
      return;
    }
    if (push) this.cfg.handlers.onPush(push);
  }

  /** Offset/epoch bookkeeping: a gap or a new epoch within one connection asks for a resync. */
  private track(env: Envelope): void {
    if (env.offset === 0n) return;
    const gap =
      (this.epoch !== null && env.epoch !== this.epoch) ||
      (this.lastOffset > 0n && env.offset > this.lastOffset + 1n);
    this.epoch = env.epoch;
    this.lastOffset = env.offset;
    if (gap) this.cfg.handlers.onResync?.();
  }
}
