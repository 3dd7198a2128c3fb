import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { live, loggedInRoot, makeRoot, settle } from '../../../test/helpers';
import { exitPathFor, readyRemainingSeconds, START_DEBOUNCE_MS } from './gameStore';
import { GameStatus } from '../../../api/codes';
import { nodeStatusText } from '../../../lib/gameStatus';

const T0 = new Date('2025-06-01T12:00:00Z').getTime();

describe('game state from pushes', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it('a READY session the server puts back in the queue waits again; a stale QUEUE answer does not undo READY', async () => {
    const { root, channel } = await loggedInRoot();
    const game = root.game;
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 2 }));
    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 60, responseTime: T0 }));
    expect(game.readyDialogVisible).toBe(true);
    // an answer read before the READY push, arriving after it (a later serverTime, as a start
    // answer serialised late would have): dropped
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 1, serverTime: T0 + 50 }));
    expect(game.status).toBe(GameStatus.READY);
    // the machine was lost: the server puts the session back first in the queue
    root.ui.setQueueDialogLarge(false);
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 1, requeues: 1 }));
    expect(game.status).toBe(GameStatus.QUEUE);
    expect(game.readyDialogVisible).toBe(false);
    expect(game.queueDialogVisible).toBe(true);
    expect(game.live?.sort).toBe(1);
    expect(game.lastEnded).toBeNull();
    // a stale READY of before the return does not undo it either
    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 60, responseTime: T0 }));
    expect(game.status).toBe(GameStatus.QUEUE);
    // and READY again when a machine frees
    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 60, responseTime: T0 + 30, requeues: 1 }));
    expect(game.readyDialogVisible).toBe(true);
    root.dispose();
  });

  it('QUEUE rank changes, READY with its countdown, CONNECTING, PLAYING and the end, all pushed', async () => {
    const { root, channel, navigations, t } = await loggedInRoot();
    const game = root.game;

    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 3 }));
    expect(game.queueDialogVisible).toBe(true);
    expect(game.live?.sort).toBe(3);
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 1 }));
    expect(game.live?.sort).toBe(1);

    // minimised: the float shows instead, and reopens the dialog
    root.ui.setQueueDialogLarge(false);
    expect(game.queueDialogVisible).toBe(false);
    expect(game.floatVisible).toBe(true);
    game.reopenQueueDialog();
    expect(game.queueDialogVisible).toBe(true);

    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 6, responseTime: Date.now() }));
    expect(game.queueDialogVisible).toBe(false);
    expect(game.readyDialogVisible).toBe(true);
    expect(game.floatVisible).toBe(false);
    expect(game.readySecondsShown).toBe(6);
    await vi.advanceTimersByTimeAsync(2000);
    expect(game.readySecondsShown).toBe(4);

    t.api.on('POST', '/api/japi/yoo/game/confirmConnect', () => live({ status: GameStatus.CONNECTING }));
    await game.confirmConnect();
    expect(t.api.callsTo('/api/japi/yoo/game/confirmConnect')[0].body).toEqual({ id: 101 });
    expect(game.status).toBe(GameStatus.CONNECTING);
    expect(game.readyDialogVisible).toBe(false);
    expect(navigations).toEqual(['/game/play?gameId=1']);

    channel.pushGameState(live({ status: GameStatus.PLAYING, onlineDuration: 10 }));
    expect(game.onlineSeconds).toBe(10);
    await vi.advanceTimersByTimeAsync(5000);
    expect(Math.floor(game.onlineSeconds)).toBe(15);

    channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'time_up' });
    expect(game.hasGameOnline).toBe(false);
    expect(game.lastEnded).toMatchObject({ id: '101', gameId: 1, endReason: 'time_up', deliberate: false });
    expect(root.ui.missedQueue).toBeNull();
    root.dispose();
  });

  it('a pushed end with endReason missed shows the missed-queue message; 重新排队 starts the same game on the same node', async () => {
    const { root, channel, t } = await loggedInRoot();
    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 6, responseTime: Date.now(), nodeId: 7 }));
    vi.setSystemTime(T0 + 6000);
    channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'missed' });
    expect(root.ui.missedQueue).toMatchObject({ gameId: 1, gameName: '测试游戏', nodeId: 7 });

    t.api.on('POST', '/api/japi/yoo/game/start', () => live({ id: 102, status: GameStatus.QUEUE, sort: 2 }));
    await root.game.requeue();
    expect(t.api.callsTo('/api/japi/yoo/game/start')[0].body).toMatchObject({ gameId: 1, nodeId: 7, afterAuthCheck: 1 });
    expect(root.ui.missedQueue).toBeNull();
    expect(root.game.queueDialogVisible).toBe(true);
    root.dispose();
  });

  it('when the countdown reaches 0 it re-reads floatBall after 1 s and shows missed if no game is online', async () => {
    const { root, channel, t } = await loggedInRoot();
    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 3, responseTime: Date.now() }));
    const reads = () => t.api.callsTo('/api/japi/yoo/game/floatBall').length;
    const before = reads();
    await vi.advanceTimersByTimeAsync(3000);
    expect(root.game.readyDialogVisible).toBe(false);
    expect(reads()).toBe(before);
    await vi.advanceTimersByTimeAsync(1000);
    await settle();
    expect(reads()).toBe(before + 1);
    expect(root.ui.missedQueue).toMatchObject({ sessionId: '101', gameId: 1 });
    root.dispose();
  });

  it('放弃 cancels the confirmation, hides the dialog and never reports a missed queue', async () => {
    const { root, channel, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/cancelConfirm', () => null);
    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 6, responseTime: Date.now() }));
    await root.game.giveUp();
    expect(t.api.callsTo('/api/japi/yoo/game/cancelConfirm')[0].body).toEqual({ id: 101 });
    expect(root.game.readyDialogVisible).toBe(false);
    channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'gave_up' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(root.ui.missedQueue).toBeNull();
    root.dispose();
  });

  it('an answer older than a push does not move the session back, and an ended session stays ended', async () => {
    const { root, channel } = await loggedInRoot();
    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 6, responseTime: Date.now() }));
    root.game.applyServerEvent(live({ status: GameStatus.QUEUE, sort: 1 }));
    expect(root.game.status).toBe(GameStatus.READY);
    channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'over' });
    root.game.applyServerEvent(live({ status: GameStatus.PLAYING }));
    expect(root.game.hasGameOnline).toBe(false);
    root.dispose();
  });

  it('the QUEUE safety poll reads floatBall every 5 s only while queued', async () => {
    const { root, channel, t } = await loggedInRoot();
    const reads = () => t.api.callsTo('/api/japi/yoo/game/floatBall').length;
    t.api.on('POST', '/api/japi/yoo/game/floatBall', () => live({ status: GameStatus.QUEUE, sort: 4 }));
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 5 }));
    const before = reads();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reads()).toBe(before + 2);
    expect(root.game.live?.sort).toBe(4);
    channel.pushGameState(live({ status: GameStatus.PLAYING }));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reads()).toBe(before + 2);
    root.dispose();
  });
});

describe('start flow', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  const node = (id: number, name: string, status: number) => ({ id, name, status, pingUrl: `/api/node/${id}/ping`, pingIp: '', ip: '' });
  const NODES = [node(1, '测试一区', 1), node(2, '测试二区', 1), node(3, '维护区', 0)];

  it('a guest gets the login dialog instead of a start', async () => {
    const { root, t } = await makeRoot({ loggedIn: false });
    await root.game.requestStart({ id: 1, name: '测试游戏' });
    expect(root.ui.loginOpen).toBe(true);
    expect(t.api.callsTo('/api/japi/yoo/game/selectNode')).toHaveLength(0);
    root.dispose();
  });

  it('node dialog: probes, status texts, 请选择区服, then start with nodeDelay and nodeId', async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/selectNode', () => NODES);
    t.api.on('POST', '/api/japi/yoo/common/config/list', () => ({ game_node_delay_factor: '2' }));
    t.api.on('POST', '/api/japi/yoo/game/start', () => live({ status: GameStatus.QUEUE, sort: 1 }));
    t.probeResults.set('/api/node/1/ping', 31);
    t.probeResults.set('/api/node/2/ping', null);

    await root.game.requestStart({ id: 1, name: '测试游戏' });
    await settle();
    const game = root.game;
    expect(game.nodePicker).toMatchObject({ gameId: 1, selectedId: null });
    expect(t.probed.sort()).toEqual(['/api/node/1/ping', '/api/node/2/ping']);
    expect(NODES.map((n) => nodeStatusText(n, game.probes.get(n.id), game.nodeDelayFactor))).toEqual(['延迟16ms', '超时', '维护中']);

    await game.confirmNode();
    expect(root.ui.toasts.map((x) => x.message)).toContain('请选择区服');
    game.selectNode(NODES[2]);
    expect(game.nodePicker?.selectedId).toBeNull();
    game.selectNode(NODES[0]);
    await game.confirmNode();
    expect(game.nodePicker).toBeNull();
    expect(t.api.callsTo('/api/japi/yoo/game/start')[0].body).toEqual({
      gameId: 1,
      nodeDelay: '[{"id":1,"ping":31}]',
      afterAuthCheck: 1,
      nodeId: 1,
    });
    expect(game.queueDialogVisible).toBe(true);

    // the node list is cached: a second start within 10 minutes does not read it again
    await vi.advanceTimersByTimeAsync(START_DEBOUNCE_MS);
    await game.requestStart({ id: 1, name: '测试游戏' });
    expect(t.api.callsTo('/api/japi/yoo/game/selectNode')).toHaveLength(1);
    root.dispose();
  });

  it('the browser check: an old Chromium gets the alert and no start; 70–71 asks, 继续游戏 goes on', async () => {
    const { root, t, effects } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/selectNode', () => NODES);
    effects.userAgent = 'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/69.0.0.0 Safari/537.36';
    const blocked = root.game.requestStart({ id: 1, name: '测试游戏' });
    // the check's module loads on the first start
    await vi.waitFor(() => expect(root.ui.messageBoxes).toHaveLength(1));
    expect(root.ui.messageBoxes.map((b) => [b.message, b.showCancel])).toEqual([['您当前浏览器版本较低，游戏无法运行', false]]);
    root.ui.messageBoxes[0].resolve(true);
    await blocked;
    expect(t.api.callsTo('/api/japi/yoo/game/selectNode')).toHaveLength(0);

    await vi.advanceTimersByTimeAsync(START_DEBOUNCE_MS);
    effects.userAgent = 'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/71.0.0.0 Safari/537.36';
    const warned = root.game.requestStart({ id: 1, name: '测试游戏' });
    await vi.waitFor(() => expect(root.ui.messageBoxes).toHaveLength(1));
    const box = root.ui.messageBoxes.at(-1)!;
    expect([box.message, box.confirmText]).toEqual(['您当前浏览器版本较低，可能会影响游戏体验', '继续游戏']);
    box.resolve(true);
    await warned;
    await settle();
    expect(t.api.callsTo('/api/japi/yoo/game/selectNode')).toHaveLength(1);
    root.dispose();
  });

  it('the certification pre-check: DENY waits for certification, CONFIRM lets 下次再说 go on', async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/selectNode', () => NODES);
    let authType = 2;
    t.api.on('GET', '/api/v3/user/authorize/pre-check', () => ({ auth_type: authType }));
    const denied = root.game.requestStart({ id: 1, name: '测试游戏' });
    await vi.waitFor(() => expect(root.ui.certification).not.toBeNull());
    expect(root.ui.certification!.skippable).toBe(false);
    root.ui.certification!.resolve(false);
    await denied;
    expect(t.api.callsTo('/api/japi/yoo/game/selectNode')).toHaveLength(0);

    authType = 1;
    await vi.advanceTimersByTimeAsync(START_DEBOUNCE_MS);
    const confirmed = root.game.requestStart({ id: 1, name: '测试游戏' });
    await vi.waitFor(() => expect(root.ui.certification?.skippable).toBe(true));
    root.ui.certification!.resolve(false);
    await confirmed;
    await settle();
    expect(t.api.callsTo('/api/japi/yoo/game/selectNode')).toHaveLength(1);
    root.dispose();
  });

  it('start is debounced 1000 ms on the leading edge', async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/selectNode', () => NODES);
    void root.game.requestStart({ id: 1, name: '测试游戏' });
    void root.game.requestStart({ id: 1, name: '测试游戏' });
    await settle();
    expect(t.api.callsTo('/api/japi/yoo/game/selectNode')).toHaveLength(1);
    root.dispose();
  });

  it('130116: the switch confirm names the running game; confirming exits it and starts the new one', async () => {
    const { root, t } = await loggedInRoot();
    let started = 0;
    t.api.on('POST', '/api/japi/yoo/game/start', () => {
      started++;
      if (started === 1) fail(130116, '您当前正在运行其他游戏', { id: 9, gameId: 5, gameName: '原神', hasGameOnline: true });
      return live({ id: 201, status: GameStatus.QUEUE, sort: 1 });
    });
    t.api.on('POST', '/api/japi/yoo/game/floatBall', () =>
      started === 1 && !t.api.callsTo('/api/japi/yoo/game/over').length
        ? live({ id: 9, gameId: 5, gameName: '原神', status: GameStatus.PLAYING })
        : { hasGameOnline: false },
    );
    t.api.on('POST', '/api/japi/yoo/game/over', () => ({ roomSerial: null }));
    const done = root.game.start({ gameId: 1, gameName: '测试游戏', nodeId: 1 });
    await settle(60);
    expect(root.ui.messageBoxes[0].message).toBe('当前正在运行《原神》，是否退出并切换？');
    root.ui.messageBoxes[0].resolve(true);
    await done;
    expect(t.api.callsTo('/api/japi/yoo/game/over')[0].body).toEqual({ id: 9 });
    expect(started).toBe(2);
    expect(root.game.live?.id).toBe(201);
    root.dispose();
  });

  it('130115: confirm, force-cancel by data.id, then 退出游戏成功', async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/start', () => fail(130115, '您正在其他设备上运行当前游戏', { id: 'other-3', gameId: 1, hasGameOnline: true }));
    t.api.on('POST', '/api/japi/yoo/game/over', () => ({ roomSerial: null }));
    const done = root.game.start({ gameId: 1, gameName: '测试游戏', nodeId: 1 });
    await settle(60);
    expect(root.ui.messageBoxes[0]).toMatchObject({ message: '您正在其他设备上运行当前游戏', detail: '请退出游戏后重新启动' });
    root.ui.messageBoxes[0].resolve(true);
    await done;
    expect(t.api.callsTo('/api/japi/yoo/game/over')[0].body).toEqual({ id: 'other-3' });
    expect(root.ui.toasts.map((x) => x.message)).toContain('退出游戏成功');
    root.dispose();
  });

  it('130117 is an info message and any other code shows the server message as an error', async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/start', () => fail(130117, '当前游戏已在运行中', { id: 1, gameId: 1, hasGameOnline: true }));
    await root.game.start({ gameId: 1, gameName: '测试游戏', nodeId: 1 });
    expect(root.ui.toasts.at(-1)).toMatchObject({ type: 'info', message: '当前游戏已在运行中' });
    t.api.on('POST', '/api/japi/yoo/game/start', () => fail(130150, '区服维护中，请选择其他区服'));
    await root.game.start({ gameId: 1, gameName: '测试游戏', nodeId: 3 });
    expect(root.ui.toasts.at(-1)).toMatchObject({ type: 'error', message: '区服维护中，请选择其他区服' });
    root.dispose();
  });

  it('logout with a game running here warns, ends the game by its status, then logs out', async () => {
    const { root, t, channel, navigations } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/cancelQue', () => null);
    t.api.on('POST', '/api/user/logout', () => null);
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 2 }));
    const done = root.logout();
    await settle();
    expect(root.ui.messageBoxes[0].message).toBe('当前有游戏正在运行，确定要退出登录吗？');
    root.ui.messageBoxes[0].resolve(true);
    await done;
    expect(t.api.callsTo('/api/japi/yoo/game/cancelQue')[0].body).toEqual({ id: 101 });
    expect(t.api.calls.findIndex((c) => c.path === '/api/japi/yoo/game/cancelQue')).toBeLessThan(
      t.api.calls.findIndex((c) => c.path === '/api/user/logout'),
    );
    expect(root.user.isLoggedIn).toBe(false);
    expect(root.game.state).toBeNull();
    expect(navigations).toEqual(['/']);
    root.dispose();
  });
});

describe('pure rules', () => {
  it('ready countdown = connectCountdown - (now - responseTime)/1000, on the server clock', () => {
    const s = live({ status: GameStatus.READY, connectCountdown: 30, responseTime: 1_000_000 });
    expect(readyRemainingSeconds(s, 1_000_000, 0, 0)).toBe(30);
    expect(readyRemainingSeconds(s, 1_012_500, 0, 0)).toBe(17.5);
    // the browser clock is 5 s behind the server: 5 s more have passed on the server
    expect(readyRemainingSeconds(s, 1_000_000, 5000, 0)).toBe(25);
    // without responseTime, the countdown runs from the arrival of the state
    const noTime = live({ status: GameStatus.READY, connectCountdown: 10, responseTime: 0 });
    expect(readyRemainingSeconds(noTime, 2_004_000, 0, 2_000_000)).toBe(6);
    // ... whatever the skew: 4 s since the arrival are 4 s on either clock
    expect(readyRemainingSeconds(noTime, 2_004_000, -1_600_000, 2_000_000)).toBe(6);
    expect(readyRemainingSeconds(noTime, 2_004_000, 86_400_000, 2_000_000)).toBe(6);
    // a server clock behind the browser's (a platform set to an earlier time): not lapsed
    const behind = live({ status: GameStatus.READY, connectCountdown: 60, responseTime: 1_000_000 });
    expect(readyRemainingSeconds(behind, 1_000_000 + 1_600_000 + 10_000, -1_600_000, 0)).toBe(50);
  });

  it('exit uses cancelQue in QUEUE, cancelConfirm in READY and CONNECTING, over when PLAYING', () => {
    expect(exitPathFor(GameStatus.QUEUE)).toBe('/api/japi/yoo/game/cancelQue');
    expect(exitPathFor(GameStatus.READY)).toBe('/api/japi/yoo/game/cancelConfirm');
    expect(exitPathFor(GameStatus.CONNECTING)).toBe('/api/japi/yoo/game/cancelConfirm');
    expect(exitPathFor(GameStatus.PLAYING)).toBe('/api/japi/yoo/game/over');
  });
});

describe('ready dialog side effects (core-platform.md §2.10)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it('the ready dialog appearing leaves fullscreen and sends the reminder once per session', async () => {
    const { root, channel, effects } = await loggedInRoot();
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 1 }));
    expect(effects.reminders).toEqual([]);
    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 20, responseTime: Date.now() }));
    expect(effects.reminders).toEqual(['101']);
    expect(effects.fullscreenExits).toHaveLength(1);
    // a repeated push of the same READY does not remind again
    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 20, responseTime: Date.now() }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(effects.reminders).toEqual(['101']);
    // another client's READY shows no dialog and no reminder
    channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'gave_up' });
    channel.pushGameState(live({ id: 102, status: GameStatus.READY, clientType: 'other', connectCountdown: 20, responseTime: Date.now() }));
    expect(effects.reminders).toEqual(['101']);
    root.dispose();
  });

  it('starting a game asks for notification permission from the click', async () => {
    const { root, effects, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/selectNode', () => []);
    await root.game.requestStart({ id: 1, name: '测试游戏' });
    expect(effects.permissionRequests).toBe(1);
    root.dispose();
  });
});
