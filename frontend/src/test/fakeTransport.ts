// A scripted stand-in for the transport: REST handlers per "METHOD /path", push channels the test
// drives by hand, and canned probe results. Tests build a RootStore on it.
import { ApiError } from '../transport/apiError';
import type { BodyOf, DataOf, PathOf, QueryOf } from '../api/types';
import type { Api, EnvelopeListener, PostOptions, PushChannel, PushHandlers, ServerPush, Transport } from '../transport/types';
import type { GameState } from '../api/types';

export interface RecordedCall {
  method: 'GET' | 'POST';
  path: string;
  body: unknown;
  /** the Idempotency-Key a POST carried */
  idempotencyKey?: string;
}

type Handler = (body: any, call: RecordedCall) => unknown;

/** Throws the envelope error a handler wants the client to see. */
export function fail(code: number, message = '', data: unknown = null): never {
  throw new ApiError(code, message, data);
}

export class FakeApi implements Api {
  readonly calls: RecordedCall[] = [];
  private readonly handlers = new Map<string, Handler>();
  private readonly listeners = new Set<EnvelopeListener>();
  /** server time in seconds put in every envelope */
  serverTs: number | undefined = undefined;

  on(method: 'GET' | 'POST', path: string, handler: Handler): this {
    this.handlers.set(`${method} ${path}`, handler);
    return this;
  }

  subscribe(listener: EnvelopeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  callsTo(path: string): RecordedCall[] {
    return this.calls.filter((c) => c.path === path);
  }

  get<P extends PathOf<'get'>>(path: P, query?: QueryOf<P>): Promise<DataOf<P, 'get'>> {
    return this.dispatch<DataOf<P, 'get'>>('GET', path, query ?? null);
  }

  post<P extends PathOf<'post'>>(path: P, body?: BodyOf<P>, options?: PostOptions): Promise<DataOf<P, 'post'>> {
    return this.dispatch<DataOf<P, 'post'>>('POST', path, body ?? {}, options?.idempotencyKey);
  }

  private async dispatch<T>(method: 'GET' | 'POST', path: string, body: unknown, idempotencyKey?: string): Promise<T> {
    const call: RecordedCall = idempotencyKey === undefined ? { method, path, body } : { method, path, body, idempotencyKey };
    this.calls.push(call);
    await Promise.resolve();
    const handler = this.handlers.get(`${method} ${path}`);
    try {
      if (!handler) fail(40004, '接口不存在');
      const data = await handler(body, call);
      this.emit(path, 0, 'ok', data ?? null);
      return (data ?? null) as T;
    } catch (e) {
      if (e instanceof ApiError) this.emit(path, e.code, e.message, e.data);
      throw e;
    }
  }

  private emit(path: string, code: number, message: string, data: unknown): void {
    for (const l of this.listeners) l({ path, code, ts: this.serverTs, message, data });
  }
}

export class FakeChannel implements PushChannel {
  opens = 0;
  closes = 0;
  isOpen = false;
  readonly handlers: PushHandlers;

  constructor(handlers: PushHandlers) {
    this.handlers = handlers;
  }

  open(): void {
    this.opens++;
    this.isOpen = true;
    this.handlers.onOpen?.();
  }

  close(): void {
    this.closes++;
    this.isOpen = false;
  }

  /** ROOM_WATCH / ROOM_UNWATCH frames the store sent, in order */
  readonly roomFrames: ({ kind: 'watch'; ddRid: number; epoch: string; afterOffset: number } | { kind: 'unwatch'; ddRid: number })[] = [];

  watchRoom(ddRid: number, epoch: string, afterOffset: number): void {
    if (this.isOpen) this.roomFrames.push({ kind: 'watch', ddRid, epoch, afterOffset });
  }

  unwatchRoom(ddRid: number): void {
    if (this.isOpen) this.roomFrames.push({ kind: 'unwatch', ddRid });
  }

  /** the socket dropped (no frame reaches the client until reopen) */
  drop(): void {
    this.isOpen = false;
  }

  /** the socket came back: the client is told, as the real socket tells it */
  reopen(): void {
    this.isOpen = true;
    this.handlers.onOpen?.();
    this.handlers.onResync?.();
  }

  push(p: ServerPush): void {
    this.handlers.onPush(p);
  }

  pushGameState(state: GameState): void {
    this.push({ kind: 'notification', code: 130122, content: '', data: JSON.stringify(state) });
  }
}

export class FakeTransport implements Transport {
  readonly api = new FakeApi();
  readonly channels: FakeChannel[] = [];
  /** ping by node pingUrl; null = failed; absent = never answers until resolveProbe */
  readonly probeResults = new Map<string, number | null>();
  readonly probed: string[] = [];

  deviceId(): string {
    return 'device-test-1';
  }

  createPushChannel(handlers: PushHandlers): PushChannel {
    const c = new FakeChannel(handlers);
    this.channels.push(c);
    return c;
  }

  get channel(): FakeChannel | undefined {
    return this.channels[this.channels.length - 1];
  }

  async probe(url: string): Promise<number | null> {
    this.probed.push(url);
    return this.probeResults.get(url) ?? null;
  }
}
