import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GameStatus } from '../../api/codes';
import { fail } from '../../test/fakeTransport';
import { live, loggedInRoot, settle } from '../../test/helpers';
import { scienceSeconds, TIME_UP_MESSAGE, TIME_UP_SECONDS } from './stores/playTimeStore';

const T0 = new Date('2025-06-01T12:00:00Z').getTime();

describe('the time-up countdown is the notice\'s scienceDuration (commerce.md §2.9)', () => {
  it('reads a positive number of seconds, else the default', () => {
    expect(scienceSeconds(30)).toBe(30);
    expect(scienceSeconds('45')).toBe(45);
    expect(scienceSeconds(2.2)).toBe(3);
    for (const bad of [undefined, null, 0, -5, 'x', '', Number.NaN, {}, Infinity]) expect(scienceSeconds(bad)).toBe(TIME_UP_SECONDS);
  });
});

describe('130125 and 130102 (commerce.md §2.9, §4.8)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it('130125 on the play page counts down the pushed scienceDuration, then closes the game', async () => {
    const { root, channel, t, navigations } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/over', () => ({ roomSerial: null }));
    t.api.on('POST', '/api/japi/yoo/game/floatBall', () => live({ status: GameStatus.PLAYING, gameId: 1 }));
    channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1 }));
    root.notice.setPlayPage(1);
    channel.push({ kind: 'notification', code: 130125, content: 'USER_TIME_END', data: '{"gameId":1,"scienceDuration":30}' });
    expect(root.playTime.timeUp).toMatchObject({ gameId: 1, confirming: false });
    expect(root.playTime.timeUpSeconds).toBe(30);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(root.playTime.timeUpSeconds).toBe(10);
    expect(navigations).toEqual([]);
    t.api.on('POST', '/api/japi/yoo/game/floatBall', () => ({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'over' }));
    await vi.advanceTimersByTimeAsync(10_000);
    await settle();
    expect(root.playTime.timeUp).toBeNull();
    // the game's session actions load on their first use (a dynamic import, which takes real
    // time however the test's clock runs): wait for the exit, bounded
    await vi.waitFor(() => expect(navigations).toEqual(['/']), { timeout: 5_000 });
    expect(root.ui.toasts.at(-1)).toMatchObject({ message: TIME_UP_MESSAGE });
    root.dispose();
  });

  it('130125 off the play page opens the use-up prompt for the game, not the countdown', async () => {
    const { root, channel, t } = await loggedInRoot();
    t.api.on('GET', '/api/v3/user/card/available', () => ({ total: 0, data: [] }));
    t.api.on('POST', '/api/japi/yoo/game/yoodoRule', () => fail(130101, '游戏不存在'));
    channel.push({ kind: 'notification', code: 130125, content: 'USER_TIME_END', data: '{"gameId":4,"scienceDuration":30}' });
    await settle(60);
    expect(root.playTime.timeUp).toBeNull();
    expect(root.playTime.useUp).toEqual({ gameId: 4 });
    expect(t.api.callsTo('/api/v3/user/card/available')[0].body).toEqual({ game_id: 4, page_size: 1 });
    root.dispose();
  });

  it('a start refused with 130102 opens the use-up prompt for that game and no other dialog', async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/start', () => fail(130102, '游戏时长不足，请补充时长'));
    t.api.on('GET', '/api/v3/user/card/available', () => ({ total: 0, data: [] }));
    t.api.on('POST', '/api/japi/yoo/game/yoodoRule', () => ({ yoodo: '60', yoodoText: '可消耗%s悠豆/小时' }));
    await root.game.start({ gameId: 3, gameName: '测试游戏', nodeId: 1 });
    await settle(60);
    expect(root.playTime.useUp).toEqual({ gameId: 3 });
    expect(root.playTime.timeUp).toBeNull();
    expect(root.ui.messageBoxes).toHaveLength(0);
    root.playTime.topUp();
    expect(root.playTime.useUp).toBeNull();
    root.dispose();
  });
});
