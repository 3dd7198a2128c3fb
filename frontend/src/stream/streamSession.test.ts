import { afterEach, beforeEach, vi } from 'vitest';
import { ApiError } from '../transport/apiError';
import { codecsSupporting, FakeDecoderEnv, FakeHostSocket, type FakePicture } from '../test/fakeStream';
import { settle } from '../test/helpers';
import type { DecodedPicture } from './decoder';
import { RECONNECT_DELAYS_MS } from './reconnect';
import { NO_CODEC_MESSAGE, NO_WEBCODECS_MESSAGE } from './support';
import { LOST_MESSAGE, PING_INTERVAL_MS, RECONNECTING_MESSAGE, StreamSession, type StreamGrant } from './streamSession';

const H264 = 'avc1.42E01F';

function setup(opts: { codecs?: ReturnType<typeof codecsSupporting>; ticket?: () => Promise<StreamGrant>; maxAttempts?: number } = {}) {
  const sockets: FakeHostSocket[] = [];
  const decoder = new FakeDecoderEnv();
  let tickets = 0;
  const ticket = opts.ticket ?? (async () => ({ streamUrl: 'http://127.0.0.1:7001', ticket: `t${++tickets}` }));
  const drawn: DecodedPicture[] = [];
  const session = new StreamSession(
    {
      ticket,
      isFinalRefusal: (e) => e instanceof ApiError && e.code !== -1,
      createWebSocket: (url) => {
        const ws = new FakeHostSocket(url);
        sockets.push(ws);
        return ws;
      },
      decoder,
      codecs: opts.codecs ?? codecsSupporting(H264),
      now: () => decoder.clock,
    },
    { reconnect: opts.maxAttempts ? { maxAttempts: opts.maxAttempts } : undefined },
  );
  session.attach({
    draw: (p) => {
      drawn.push(p);
      p.close();
    },
  });
  const last = () => sockets[sockets.length - 1];
  /** the host accepts the connection, announces the picture and sends key frame + deltas */
  const serve = async (ws: FakeHostSocket, fromSeq: number, frames: number, input = true) => {
    ws.open();
    ws.config({ codec: H264, input });
    for (let i = 0; i < frames; i++) {
      decoder.clock += 33;
      ws.video(fromSeq + i, i === 0);
      await settle();
    }
  };
  return { session, sockets, decoder, drawn, last, serve };
}

describe('StreamSession', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('connects with a ticket, checks the codec, decodes and draws: connecting, then playing', async () => {
    const codecs = codecsSupporting(H264);
    const { session, sockets, decoder, drawn, serve } = setup({ codecs });
    session.start();
    await settle();
    expect(sockets).toHaveLength(1);
    expect(sockets[0].url).toBe('ws://127.0.0.1:7001/stream?ticket=t1');
    expect(sockets[0].binaryType).toBe('arraybuffer');
    expect(session.phase).toBe('connecting');
    expect(session.message).toBe('正在连接游戏画面...');
    await serve(sockets[0], 1, 5);
    expect(codecs.asked.map((c) => [c.codec, c.optimizeForLatency])).toEqual([[H264, true]]);
    expect(decoder.last.chunks.map((c) => c.type)).toEqual(['key', 'delta', 'delta', 'delta', 'delta']);
    expect(drawn).toHaveLength(5);
    expect((drawn[0] as FakePicture).closed).toBe(true);
    expect(session.phase).toBe('playing');
    expect(session.message).toBeNull();
    expect(session.format).toEqual({ codec: H264, width: 1280, height: 720 });
  });

  it('pings every second and shows the round trip, frame rate, bitrate and drops', async () => {
    const { session, last, decoder, serve } = setup();
    session.start();
    await settle();
    await serve(last(), 1, 30);
    decoder.clock = 1000;
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    const pings = last().sentOf('ping');
    expect(pings).toHaveLength(1);
    decoder.clock = 1023;
    last().pong(pings[0].clientMs);
    // 5 frames never arrive (seq 31..35), then the host resumes at a key frame
    last().video(36, true);
    await settle();
    decoder.clock = 2000;
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(session.figures.rttMs).toBe(23);
    expect(session.figures.dropped).toBe(5);
    expect(session.figures.width).toBe(1280);
    // the picture rate over the last second: only the frame after the gap is in it
    expect(session.figures.fps).toBe(1);
    expect(session.figures.kbps).toBeGreaterThan(0);
  });

  it('a dropped stream reconnects with a fresh ticket and starts again at a key frame', async () => {
    const { session, sockets, decoder, drawn, last, serve } = setup();
    session.start();
    await settle();
    await serve(last(), 1, 10);
    last().drop();
    expect(session.phase).toBe('reconnecting');
    expect(session.message).toBe(RECONNECTING_MESSAGE);
    vi.advanceTimersByTime(RECONNECT_DELAYS_MS[0] - 1);
    await settle();
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await settle();
    expect(sockets).toHaveLength(2);
    expect(last().url).toBe('ws://127.0.0.1:7001/stream?ticket=t2');
    // the new connection starts wherever the slot is: not a loss
    await serve(last(), 400, 3);
    expect(session.phase).toBe('playing');
    expect(session.reconnects).toBe(1);
    expect(drawn).toHaveLength(13);
    // the decoder was kept: the format did not change
    expect(decoder.decoders).toHaveLength(1);
    expect(session.stop()?.drops).toBe(0);
  });

  it('gives up after the attempts run out; 重新连接 starts over', async () => {
    const { session, sockets, last, serve } = setup({ maxAttempts: 3 });
    session.start();
    await settle();
    await serve(last(), 1, 2);
    for (let i = 0; i < 3; i++) {
      last().drop();
      await vi.advanceTimersByTimeAsync(5000);
    }
    last().drop(); // the third retry failed too
    expect(sockets).toHaveLength(4);
    expect(session.phase).toBe('lost');
    expect(session.message).toBe(LOST_MESSAGE);
    expect(session.canRetry).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(4);
    session.retry();
    await settle();
    expect(sockets).toHaveLength(5);
    await serve(last(), 90, 1);
    expect(session.phase).toBe('playing');
  });

  it('a session without a stream (the platform refuses the ticket) is unavailable, without retries', async () => {
    const { session, sockets } = setup({
      ticket: async () => {
        throw new ApiError(40004, '未找到', null);
      },
    });
    session.start();
    await settle();
    expect(session.phase).toBe('unavailable');
    expect(session.hasStream).toBe(false);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sockets).toHaveLength(0);
  });

  it('a failed ticket request (the network) is retried', async () => {
    let calls = 0;
    const { session, sockets } = setup({
      ticket: async () => {
        calls++;
        if (calls === 1) throw new ApiError(-1, '网络错误', null);
        return { streamUrl: 'https://host.example', ticket: 'ok' };
      },
    });
    session.start();
    await settle();
    expect(sockets).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAYS_MS[0]);
    expect(sockets.map((s) => s.url)).toEqual(['wss://host.example/stream?ticket=ok']);
  });

  it('a browser without the codec gets the message and no retry', async () => {
    const { session, sockets, last } = setup({ codecs: codecsSupporting('vp8') });
    session.start();
    await settle();
    last().open();
    last().config({ codec: H264 });
    last().video(1, true);
    await settle();
    expect(session.phase).toBe('unsupported');
    expect(session.message).toBe(NO_CODEC_MESSAGE);
    expect(last().closedByClient).toBe(true);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sockets).toHaveLength(1);
  });

  it('a browser without WebCodecs is told so', async () => {
    const { session, last } = setup({ codecs: { secureContext: true, asked: [] } as never });
    session.start();
    await settle();
    last().open();
    last().config();
    await settle();
    expect(session.phase).toBe('unsupported');
    expect(session.message).toBe(NO_WEBCODECS_MESSAGE);
  });

  it('video that arrives during the codec check is decoded after it, from its key frame', async () => {
    let answer: (v: { supported: boolean }) => void = () => undefined;
    const codecs = { secureContext: true, isConfigSupported: () => new Promise<{ supported: boolean }>((r) => (answer = r)) };
    const { session, last, decoder, drawn } = setup({ codecs: codecs as never });
    session.start();
    await settle();
    last().open();
    last().config();
    last().video(1, true);
    last().video(2);
    await settle();
    expect(decoder.decoders).toHaveLength(0);
    answer({ supported: true });
    await settle();
    expect(decoder.last.chunks.map((c) => c.type)).toEqual(['key', 'delta']);
    expect(drawn).toHaveLength(2);
  });

  it('the host\'s notice ends the stream: the text is shown, nothing reconnects', async () => {
    const { session, sockets, last, serve } = setup();
    session.start();
    await settle();
    await serve(last(), 1, 2);
    last().notice(130124, '游戏已结束');
    last().drop(1000);
    expect(session.phase).toBe('ended');
    expect(session.message).toBe('游戏已结束');
    expect(session.notice).toEqual({ code: 130124, text: '游戏已结束' });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sockets).toHaveLength(1);
  });

  it('input goes to the host only when the host takes this page\'s input', async () => {
    const { session, last, serve } = setup();
    session.start();
    await settle();
    await serve(last(), 1, 1, false);
    session.send({ kind: 'key', code: 'KeyA', down: true });
    expect(last().sentOf('key')).toHaveLength(0);
    last().config({ input: true });
    await settle();
    session.send({ kind: 'key', code: 'KeyA', down: true });
    session.send({ kind: 'move', x: 10, y: 20 });
    session.send(null);
    expect(last().sentOf('key').map((k) => [k.code, k.down])).toEqual([['KeyA', true]]);
    expect(last().sentOf('move').map((m) => [m.x, m.y])).toEqual([[10, 20]]);
  });

  it('a key frame is asked for when frames were lost', async () => {
    const { session, last, serve } = setup();
    session.start();
    await settle();
    await serve(last(), 1, 3);
    last().video(7); // 4-6 lost, and 7 is a delta
    await settle();
    expect(last().sentOf('keyFrame')).toHaveLength(1);
  });

  it('stop closes everything and sums up the session', async () => {
    const { session, sockets, last, decoder, serve } = setup();
    session.start();
    await settle();
    await serve(last(), 1, 31);
    decoder.clock += 1000;
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    last().pong(decoder.clock - 40);
    const r = session.stop();
    expect(r).toEqual({ playedSecs: 2, latencyP50Ms: 40, latencyP95Ms: 40, fps: 30.3, drops: 0, reconnects: 0 });
    expect(last().closedByClient).toBe(true);
    expect(decoder.last.state).toBe('closed');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sockets).toHaveLength(1);
    expect(last().sentOf('ping')).toHaveLength(1);
  });

  it('no picture ever: no summary', async () => {
    const { session } = setup();
    session.start();
    await settle();
    expect(session.stop()).toBeNull();
  });
});
