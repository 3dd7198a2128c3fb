import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { live, loggedInRoot, settle } from '../../../test/helpers';
import { GameStatus } from '../../../api/codes';
import { fail } from '../../../test/fakeTransport';
import { BARRAGE_MAX_WAITING, BARRAGE_MS, barrageText } from './noticeStore';

const T0 = new Date('2025-06-01T12:00:00Z').getTime();
const note = (code: number, data: unknown = {}) => ({ kind: 'notification' as const, code, content: '', data: JSON.stringify(data) });

describe('play page notices (core-platform.md §4.11)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it('barrage texts by code', () => {
    expect(barrageText(130123, { left: 8 })).toBe('游戏时长不足8分钟，请及时补充');
    expect(barrageText(130123, null)).toBe('游戏时长不足10分钟，请及时补充');
    expect(barrageText(130132, null)).toBe('游戏即将下线，请及时保存游戏进度');
    expect(barrageText(130467, null)).toBe('畅玩包即将到期，到期后将消耗游戏时长');
    expect(barrageText(130122, null)).toBeNull();
  });

  it('on the play page the notices queue up and cross one at a time, 8 s each', async () => {
    const { root, channel } = await loggedInRoot();
    root.notice.setPlayPage(1);
    channel.push(note(130123, { left: 9, gameId: 1 }));
    channel.push(note(130132, { gameId: 1 }));
    channel.push(note(130123, { left: 9, gameId: 1 })); // the same text again: not twice
    channel.push(note(130467));
    expect(root.notice.barrage.map((b) => b.code)).toEqual([130123, 130132, 130467]);
    expect(root.notice.current?.text).toBe('游戏时长不足9分钟，请及时补充');
    expect(root.playTime.useUp).toBeNull();
    await vi.advanceTimersByTimeAsync(BARRAGE_MS);
    expect(root.notice.current?.code).toBe(130132);
    await vi.advanceTimersByTimeAsync(BARRAGE_MS * 2);
    expect(root.notice.current).toBeNull();
    channel.push(note(130133));
    expect(root.notice.current?.code).toBe(130133);
    root.dispose();
  });

  it('the waiting line is capped, oldest dropped first; leaving the page clears it', async () => {
    const { root } = await loggedInRoot();
    root.notice.setPlayPage(1);
    for (let i = 1; i <= BARRAGE_MAX_WAITING + 3; i++) root.notice.pushBarrage(130123, `n${i}`);
    expect(root.notice.barrage).toHaveLength(BARRAGE_MAX_WAITING + 1);
    expect(root.notice.barrage[0].text).toBe('n1');
    expect(root.notice.barrage.at(-1)!.text).toBe(`n${BARRAGE_MAX_WAITING + 3}`);
    root.notice.setPlayPage(null);
    expect(root.notice.barrage).toHaveLength(0);
    root.dispose();
  });

  it('barrage notices off the play page are dropped (130132, 130133, 130467)', async () => {
    const { root, channel } = await loggedInRoot();
    channel.push(note(130132));
    channel.push(note(130467));
    expect(root.notice.barrage).toHaveLength(0);
    expect(root.playTime.useUp).toBeNull();
    root.dispose();
  });

  it('a time-short notice that comes while this window opens the play page crosses it when it mounts', async () => {
    const { root, channel, navigations, t } = await loggedInRoot();
    channel.pushGameState(live({ status: GameStatus.READY, gameId: 1, connectCountdown: 30 }));
    // the first minute is charged as the game starts: its notice comes before the confirm's answer
    t.api.on('POST', '/api/japi/yoo/game/confirmConnect', () => {
      channel.push(note(130123, { left: 1, gameId: 1 }));
      channel.push(note(130467));
      return live({ status: GameStatus.PLAYING, gameId: 1 });
    });
    await root.game.confirmConnect();
    expect(navigations).toEqual(['/game/play?gameId=1']);
    expect(root.playTime.useUp).toBeNull();
    expect(root.notice.barrage).toHaveLength(0);
    root.notice.setPlayPage(1);
    expect(root.notice.barrage.map((b) => b.text)).toEqual(['游戏时长不足1分钟，请及时补充', '畅玩包即将到期，到期后将消耗游戏时长']);
    expect(root.game.playPageOpening).toBeNull();
    // once the page is up and gone again, the off-page path is back: the use-up prompt
    root.notice.setPlayPage(null);
    channel.push(note(130123, { left: 1, gameId: 1 }));
    expect(root.playTime.useUp).not.toBeNull();
    root.dispose();
  });

  it('a play page that never mounts holds nothing back once its game ends', async () => {
    const { root, channel, t } = await loggedInRoot();
    channel.pushGameState(live({ status: GameStatus.READY, gameId: 1, connectCountdown: 30 }));
    t.api.on('POST', '/api/japi/yoo/game/confirmConnect', () => live({ status: GameStatus.PLAYING, gameId: 1 }));
    await root.game.confirmConnect();
    expect(root.game.playPageOpening).toBe(1);
    channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'over' });
    expect(root.game.playPageOpening).toBeNull();
    root.dispose();
  });

  it('a refused confirm opens nothing: a later time-short notice off the play page is the use-up prompt', async () => {
    const { root, channel, navigations, t } = await loggedInRoot();
    channel.pushGameState(live({ status: GameStatus.READY, gameId: 1, connectCountdown: 30 }));
    t.api.on('POST', '/api/japi/yoo/game/confirmConnect', () => {
      fail(130100, '游戏已结束');
    });
    t.api.on('POST', '/api/japi/yoo/game/floatBall', () => live({ status: GameStatus.PLAYING, gameId: 1 }));
    await root.game.confirmConnect();
    expect(navigations).toEqual([]);
    expect(root.game.playPageOpening).toBeNull();
    channel.push(note(130123, { left: 3, gameId: 1 }));
    expect(root.playTime.useUp).not.toBeNull();
    root.dispose();
  });

  it('130124 on the play page: leave fullscreen, alert 游戏已结束 once, and go home', async () => {
    const { root, channel, effects, navigations, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/floatBall', () => ({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'over' }));
    channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1 }));
    root.notice.setPlayPage(1);
    channel.push(note(130124, { gameId: 1, reason: 'admin' }));
    await settle();
    channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'over' });
    expect(effects.fullscreenExits).toHaveLength(1);
    expect(navigations).toEqual(['/']);
    expect(root.ui.messageBoxes).toHaveLength(1);
    expect(root.ui.messageBoxes[0].message).toBe('游戏已结束');
    root.dispose();
  });

  it('a pushed end of the game on screen (not asked by this client) goes home with 游戏已结束', async () => {
    const { root, channel, navigations } = await loggedInRoot();
    channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1 }));
    root.notice.setPlayPage(1);
    channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'over' });
    expect(navigations).toEqual(['/']);
    expect(root.ui.messageBoxes[0].message).toBe('游戏已结束');
    root.dispose();
  });
});
