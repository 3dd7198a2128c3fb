import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthorizationSchema, EnvelopeSchema, MessageType, NotificationSchema, RoomEventsSchema, RoomResetSchema, RoomWatchSchema } from '../gen/yoo_pb';
import { settle } from '../test/helpers';
import { FakeApi, fail } from '../test/fakeTransport';
import { Socket, type WebSocketLike } from './socket';
import type { ServerPush } from './types';

class FakeWs implements WebSocketLike {
  binaryType = 'blob';
  readyState = 0;
  onopen: WebSocketLike['onopen'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  readonly sent: Uint8Array[] = [];
  closedByClient = false;

  constructor(readonly url: string) {}

  send(data: Uint8Array): void {
    this.sent.push(data);
  }

  close(): void {
    this.closedByClient = true;
    this.readyState = 3;
  }

  serverOpen(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  serverSend(type: MessageType, content: Uint8Array, offset: bigint, epoch = 'e1'): void {
    const bytes = toBinary(EnvelopeSchema, create(EnvelopeSchema, { type, content, offset, epoch }));
    const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    this.onmessage?.({ data: buf } as MessageEvent);
  }

  serverClose(): void {
    this.readyState = 3;
    this.onclose?.({} as CloseEvent);
  }
}

function setup() {
  const api = new FakeApi();
  let n = 0;
  api.on('GET', '/api/fetchToken', () => ({ access_token: `tok${++n}`, expires_in: 60 }));
  const sockets: FakeWs[] = [];
  const pushes: ServerPush[] = [];
  let resyncs = 0;
  const socket = new Socket({
    api,
    url: (t) => `ws://host/echo?access_token=${t}`,
    createWebSocket: (url) => {
      const ws = new FakeWs(url);
      sockets.push(ws);
      return ws;
    },
    handlers: { onPush: (p) => pushes.push(p), onResync: () => resyncs++ },
  });
  return { api, socket, sockets, pushes, resyncs: () => resyncs };
}

const notification = (code: number, data: string) =>
  toBinary(NotificationSchema, create(NotificationSchema, { code, content: 'c', data }));

describe('Socket', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fetches a token, connects with it in binary mode and decodes NOTIFICATION and AUTHORIZATION frames', async () => {
    const { socket, sockets, pushes } = setup();
    socket.open();
    await settle();
    expect(sockets).toHaveLength(1);
    expect(sockets[0].url).toBe('ws://host/echo?access_token=tok1');
    expect(sockets[0].binaryType).toBe('arraybuffer');
    sockets[0].serverOpen();
    sockets[0].serverSend(MessageType.NOTIFICATION, notification(130122, '{"hasGameOnline":false}'), 1n);
    const auth = toBinary(AuthorizationSchema, create(AuthorizationSchema, { status: 'KICK_OUT', value: '' }));
    sockets[0].serverSend(MessageType.AUTHORIZATION, auth, 2n);
    sockets[0].serverSend(MessageType.PONG, new Uint8Array(), 3n);
    expect(pushes).toEqual([
      { kind: 'notification', code: 130122, content: 'c', data: '{"hasGameOnline":false}' },
      { kind: 'authorization', status: 'KICK_OUT', value: '' },
    ]);
  });

  it('sends a PING envelope every 30 s while open', async () => {
    const { socket, sockets } = setup();
    socket.open();
    await settle();
    sockets[0].serverOpen();
    vi.advanceTimersByTime(29_999);
    expect(sockets[0].sent).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(sockets[0].sent).toHaveLength(1);
    expect(fromBinary(EnvelopeSchema, sockets[0].sent[0]).type).toBe(MessageType.PING);
    vi.advanceTimersByTime(30_000);
    expect(sockets[0].sent).toHaveLength(2);
  });

  it('reconnects 5 s after a close it did not ask for, with a fresh token, and asks for a resync', async () => {
    const s = setup();
    s.socket.open();
    await settle();
    s.sockets[0].serverOpen();
    s.sockets[0].serverClose();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(s.sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(s.sockets).toHaveLength(2);
    expect(s.sockets[1].url).toBe('ws://host/echo?access_token=tok2');
    s.sockets[1].serverOpen();
    expect(s.resyncs()).toBe(1);
  });

  it('does not reconnect after a deliberate close', async () => {
    const s = setup();
    s.socket.open();
    await settle();
    s.sockets[0].serverOpen();
    s.socket.close();
    expect(s.sockets[0].closedByClient).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.sockets).toHaveLength(1);
  });

  it('asks for a resync when the offsets of one connection skip', async () => {
    const s = setup();
    s.socket.open();
    await settle();
    s.sockets[0].serverOpen();
    s.sockets[0].serverSend(MessageType.PONG, new Uint8Array(), 1n);
    s.sockets[0].serverSend(MessageType.PONG, new Uint8Array(), 2n);
    expect(s.resyncs()).toBe(0);
    s.sockets[0].serverSend(MessageType.PONG, new Uint8Array(), 5n);
    expect(s.resyncs()).toBe(1);
  });

  it('stops trying when the token call says the user is logged out', async () => {
    const s = setup();
    s.api.on('GET', '/api/fetchToken', () => fail(20119, '登录已失效，请重新登录'));
    s.socket.open();
    await settle();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(s.sockets).toHaveLength(0);
  });

  // room frames: decoded into plain events, outside the user stream's offsets (no resync)
  it('decodes ROOM_EVENTS and ROOM_RESET and sends ROOM_WATCH / ROOM_UNWATCH', async () => {
    const s = setup();
    s.socket.open();
    await settle();
    s.sockets[0].serverOpen();
    const events = toBinary(
      RoomEventsSchema,
      create(RoomEventsSchema, {
        ddRid: 501n,
        epoch: 'r1',
        firstOffset: 7n,
        lastOffset: 7n,
        events: [{ offset: 7n, code: 3000, msg: 'CHAT', desc: '', data: '{"text":"hi"}', userIds: [9n], excludeUserIds: [], ts: 1000n }],
      }),
    );
    s.sockets[0].serverSend(MessageType.NOTIFICATION, notification(130124, '{}'), 1n);
    s.sockets[0].serverSend(MessageType.ROOM_EVENTS, events, 0n, '');
    s.sockets[0].serverSend(MessageType.ROOM_RESET, toBinary(RoomResetSchema, create(RoomResetSchema, { ddRid: 501n, epoch: 'r2', offset: 3n })), 0n, '');
    s.sockets[0].serverSend(MessageType.NOTIFICATION, notification(130124, '{}'), 2n);
    expect(s.pushes.slice(1, 3)).toEqual([
      { kind: 'roomEvents', ddRid: 501, epoch: 'r1', first: 7, last: 7, events: [{ offset: 7, code: 3000, msg: 'CHAT', desc: '', data: '{"text":"hi"}', userIds: [9], excludeUserIds: [], ts: 1000 }] },
      { kind: 'roomReset', ddRid: 501, epoch: 'r2', offset: 3 },
    ]);
    expect(s.resyncs()).toBe(0);
    s.socket.watchRoom(501, 'r2', 3);
    s.socket.unwatchRoom(501);
    const [watch, unwatch] = s.sockets[0].sent.map((b) => fromBinary(EnvelopeSchema, b));
    expect(watch.type).toBe(MessageType.ROOM_WATCH);
    expect(fromBinary(RoomWatchSchema, watch.content)).toMatchObject({ ddRid: 501n, epoch: 'r2', afterOffset: 3n });
    expect(unwatch.type).toBe(MessageType.ROOM_UNWATCH);
    expect(fromBinary(RoomWatchSchema, unwatch.content).ddRid).toBe(501n);
  });
});
