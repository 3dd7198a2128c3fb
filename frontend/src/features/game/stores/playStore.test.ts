import { afterEach, beforeEach, vi } from 'vitest';
import { GameStatus } from '../../../api/codes';
import type { QualitySummary } from '../../../stream/stats';
import { ApiError } from '../../../transport/apiError';
import { codecsSupporting, FakeDecoderEnv, FakeHostSocket } from '../../../test/fakeStream';
import { live, loggedInRoot, settle } from '../../../test/helpers';
import { isFinalRefusal, LOADING_TIP_MS, PlayStore, STATS_VISIBLE_KEY, type PlayApi } from './playStore';

async function setup(opts: { refuse?: boolean; tips?: string[] | null; env?: Awaited<ReturnType<typeof loggedInRoot>>; storage?: Pick<Storage, 'getItem' | 'setItem'> } = {}) {
  const env = opts.env ?? (await loggedInRoot());
  const sockets: FakeHostSocket[] = [];
  const decoder = new FakeDecoderEnv();
  const tickets: string[] = [];
  const reports: { id: string; summary: QualitySummary }[] = [];
  const api: PlayApi = {
    streamTicket: async (id) => {
      tickets.push(id);
      if (opts.refuse) throw new ApiError(40004, '未找到', null);
      return { streamUrl: 'ws://127.0.0.1:7001', ticket: `t-${id}-${tickets.length}` };
    },
    qualityReport: async (id, summary) => {
      reports.push({ id, summary });
    },
    loadingTips: async () => {
      if (opts.tips === null) throw new ApiError(50000, '', null);
      return opts.tips ?? [];
    },
  };
  const store = new Map<string, string>();
  const storage = opts.storage ?? { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
  const play = new PlayStore(
    env.root,
    1,
    api,
    {
      createWebSocket: (url) => {
        const ws = new FakeHostSocket(url);
        sockets.push(ws);
        return ws;
      },
      decoder,
      codecs: codecsSupporting('avc1.42E01F'),
      now: () => decoder.clock,
    },
    storage,
  );
  /** the host serves `frames` frames on the last connection */
  const serve = async (frames: number) => {
    const ws = sockets[sockets.length - 1];
    ws.open();
    ws.config();
    for (let i = 0; i < frames; i++) {
      decoder.clock += 33;
      ws.video(i + 1, i === 0);
      await settle();
    }
  };
  return { ...env, play, sockets, decoder, tickets, reports, serve, storage: store };
}

describe('PlayStore', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('streams only once the session is confirmed, and only the page\'s game', async () => {
    const { play, channel, sockets, tickets, root } = await setup();
    play.start();
    channel.pushGameState(live({ status: GameStatus.READY, gameId: 1 }));
    await settle();
    expect(play.session).toBeNull();
    channel.pushGameState(live({ status: GameStatus.CONNECTING, gameId: 1 }));
    await settle();
    expect(play.session).not.toBeNull();
    expect(tickets).toEqual(['101']);
    expect(sockets[0].url).toBe('ws://127.0.0.1:7001/stream?ticket=t-101-1');
    // CONNECTING becomes PLAYING: the same stream goes on
    const session = play.session;
    channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1 }));
    await settle();
    expect(play.session).toBe(session);
    play.dispose();
    root.dispose();
  });

  // core-platform.md §7.4 loadTip: the tips show while the stream connects, one at a time, the
  // next every LOADING_TIP_MS; none once the picture is there
  it('rotates the loading tips while there is no picture', async () => {
    const { play, channel, root, serve } = await setup({ tips: ['第一条', '第二条', ' '] });
    play.start();
    await settle();
    expect(play.loadingTips).toEqual(['第一条', '第二条']);
    expect(play.loadingTip).toBe('第一条');
    await vi.advanceTimersByTimeAsync(LOADING_TIP_MS);
    expect(play.loadingTip).toBe('第二条');
    await vi.advanceTimersByTimeAsync(LOADING_TIP_MS);
    expect(play.loadingTip).toBe('第一条');
    channel.pushGameState(live({ status: GameStatus.CONNECTING, gameId: 1 }));
    await settle();
    await serve(1);
    expect(play.session?.hasStream).toBe(true);
    expect(play.loadingTip).toBeNull();
    // no rotation while the picture shows
    const index = play.tipIndex;
    await vi.advanceTimersByTimeAsync(LOADING_TIP_MS * 3);
    expect(play.tipIndex).toBe(index);
    play.dispose();
    root.dispose();
  });

  // unreadable or empty: no tip, and nothing rotates
  it('shows no loading tip when there is none', async () => {
    for (const tips of [null, []]) {
      const { play, root } = await setup({ tips });
      play.start();
      await settle();
      expect(play.loadingTip).toBeNull();
      await vi.advanceTimersByTimeAsync(LOADING_TIP_MS * 2);
      expect(play.tipIndex).toBe(0);
      play.dispose();
      root.dispose();
    }
  });

  it('the end of the game stops the stream, sends the quality report once and presents it', async () => {
    const { play, channel, sockets, reports, root, serve, decoder } = await setup();
    play.start();
    channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1, gameName: '弹球大师' }));
    await settle();
    await serve(31);
    decoder.clock += 1000;
    vi.advanceTimersByTime(1000);
    sockets[0].pong(decoder.clock - 30);
    channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'over' });
    await settle();
    expect(play.session).toBeNull();
    expect(sockets[0].closedByClient).toBe(true);
    expect(reports).toHaveLength(1);
    expect(reports[0].id).toBe('101');
    expect(reports[0].summary).toMatchObject({ latencyP50Ms: 30, latencyP95Ms: 30, drops: 0, reconnects: 0, playedSecs: 2 });
    expect(reports[0].summary.fps).toBeGreaterThan(29);
    expect(root.game.qualityReport).toEqual({ sessionId: '101', gameName: '弹球大师', endReason: 'over', summary: reports[0].summary });
    play.dispose();
    root.dispose();
  });

  it('in the window that confirmed, the confirm answer\'s ticket opens the stream', async () => {
    const { play, channel, sockets, tickets, root, t } = await setup();
    t.api.on('POST', '/api/japi/yoo/game/confirmConnect', () => ({
      ...live({ status: GameStatus.CONNECTING, gameId: 1 }),
      streamUrl: 'ws://127.0.0.1:7002',
      ticket: 'from-confirm',
    }));
    channel.pushGameState(live({ status: GameStatus.READY, gameId: 1, connectCountdown: 30 }));
    await settle();
    await root.game.confirmConnect();
    play.start();
    await settle();
    expect(sockets.map((s) => s.url)).toEqual(['ws://127.0.0.1:7002/stream?ticket=from-confirm']);
    expect(tickets).toEqual([]);
    // a reconnect asks for a fresh one
    sockets[0].drop();
    await vi.advanceTimersByTimeAsync(300);
    expect(tickets).toEqual(['101']);
    play.dispose();
    root.dispose();
  });

  it('a game other than the page\'s gets no stream here', async () => {
    const { play, channel, tickets, root } = await setup();
    play.start();
    channel.pushGameState(live({ id: 55, status: GameStatus.PLAYING, gameId: 2 }));
    await settle();
    expect(root.game.live?.gameId).toBe(2);
    expect(play.session).toBeNull();
    expect(tickets).toEqual([]);
    play.dispose();
    root.dispose();
  });

  it('a play window hands its report to its opener', async () => {
    const { play, channel, root, serve, effects } = await setup();
    play.start();
    channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1 }));
    await settle();
    await serve(3);
    channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'over' });
    await settle();
    expect(effects.sharedReports).toHaveLength(1);
    expect(effects.sharedReports[0].sessionId).toBe('101');
    play.dispose();
    root.dispose();
  });

  it('a play window the platform\'s end closes at once still finishes, reports and hands over first', async () => {
    const { play, channel, reports, root, serve, effects } = await setup();
    effects.isPlayWindow = true;
    root.notice.setPlayPage(1);
    play.start();
    channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1, gameName: '弹球大师' }));
    await settle();
    await serve(3);
    // the host was lost: 130124 arrives before the session's ended state
    channel.push({ kind: 'notification', code: 130124, content: '', data: JSON.stringify({ gameId: 1, reason: 'host_lost' }) });
    expect(effects.closedSelf).toBe(1);
    expect(play.session).toBeNull();
    expect(reports).toHaveLength(1);
    expect(effects.sharedReports.map((r) => [r.gameName, r.endReason])).toEqual([['弹球大师', 'host_lost']]);
    // the ended state that follows changes nothing more
    channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'host_lost' });
    await settle();
    expect(reports).toHaveLength(1);
    play.dispose();
    root.dispose();
  });

  it('the opener shows a report its play window handed over', async () => {
    const { root, effects } = await setup();
    const summary = { playedSecs: 61, latencyP50Ms: 20, latencyP95Ms: 45, fps: 29.9, drops: 3, reconnects: 1 };
    effects.receiveReport({ sessionId: '7', gameName: '超级企鹅', endReason: 'host_lost', summary });
    expect(root.game.qualityReport?.summary).toEqual(summary);
    root.game.dismissQualityReport();
    expect(root.game.qualityReport).toBeNull();
    root.dispose();
  });

  it('no picture, no report; leaving the page while the game runs on sends none', async () => {
    const { play, channel, reports, root, serve } = await setup();
    play.start();
    channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1 }));
    await settle();
    await serve(5);
    play.dispose(); // the page goes; the game goes on
    expect(reports).toHaveLength(0);
    expect(root.game.qualityReport).toBeNull();
    root.dispose();
  });

  it('a page closed while the game runs keeps its figures; the page that sees the end sends one merged report', async () => {
    const first = await setup();
    first.play.start();
    first.channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1 }));
    await settle();
    await first.serve(31);
    first.decoder.clock += 2000;
    first.play.dispose(); // the window closed; the game goes on
    expect(first.reports).toHaveLength(0);
    // '返回游戏' opens a new page of the same session, sharing the site's storage
    const shared = { getItem: (k: string) => first.storage.get(k) ?? null, setItem: (k: string, v: string) => void first.storage.set(k, v) };
    const second = await setup({ env: first, storage: shared });
    second.play.start();
    await settle();
    await second.serve(31);
    second.decoder.clock += 1000;
    first.channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'over' });
    await settle();
    expect(second.reports).toHaveLength(1);
    const s = second.reports[0].summary;
    expect(s.playedSecs).toBe(5); // 3 s on the first page, 2 s on the second
    expect(s.reconnects).toBe(1); // the reopened page
    expect(s.fps).toBeGreaterThan(29);
    expect(first.storage.get('yoo_pending_quality')).toBe('{}'); // sent once, kept no more
    second.play.dispose();
    first.root.dispose();
  });

  it('the site\'s window sends the figures of a play page that closed when the game ends there', async () => {
    localStorage.clear();
    const env = await setup({ storage: localStorage });
    const posted: unknown[] = [];
    env.t.api.on('POST', '/api/japi/yoo/game/qualityReport', (body) => {
      posted.push(body);
      return null;
    });
    env.play.start();
    env.channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1, gameName: '弹球大师' }));
    await settle();
    await env.serve(31);
    env.play.dispose(); // the play window closed
    env.root.notice.setPlayPage(null);
    env.channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'over' });
    await settle();
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ id: '101', reconnects: 0 });
    expect(env.root.game.qualityReport).toMatchObject({ sessionId: '101', gameName: '弹球大师', endReason: 'over' });
    expect(env.reports).toHaveLength(0);
    env.root.dispose();
    localStorage.clear();
  });

  it('a session moved to another device is not over: no report', async () => {
    const { play, channel, reports, root, serve } = await setup();
    play.start();
    channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1 }));
    await settle();
    await serve(5);
    channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1, clientType: 'pc' }));
    await settle();
    expect(play.session).toBeNull();
    expect(reports).toHaveLength(0);
    play.dispose();
    root.dispose();
  });

  it('a session the platform gives no ticket for shows the status instead of a stream', async () => {
    const { play, channel, sockets, root } = await setup({ refuse: true });
    play.start();
    channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1 }));
    await settle();
    expect(play.session?.phase).toBe('unavailable');
    expect(play.session?.hasStream).toBe(false);
    expect(sockets).toHaveLength(0);
    play.dispose();
    root.dispose();
  });

  it('the stats overlay toggles and is remembered', async () => {
    const { play, root, storage } = await setup();
    expect(play.statsVisible).toBe(false);
    play.toggleStats();
    expect(play.statsVisible).toBe(true);
    expect(storage.get(STATS_VISIBLE_KEY)).toBe('1');
    play.toggleStats();
    expect(storage.get(STATS_VISIBLE_KEY)).toBe('0');
    root.dispose();
  });

  it('network failures are retried, refusals are final', () => {
    expect(isFinalRefusal(new ApiError(-1, '网络异常', null))).toBe(false);
    expect(isFinalRefusal(new ApiError(40004, '未找到', null))).toBe(true);
    expect(isFinalRefusal(new Error('x'))).toBe(false);
  });
});
