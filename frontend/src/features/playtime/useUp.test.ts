import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../test/fakeTransport';
import { loggedInRoot, settle } from '../../test/helpers';

const card = { id: 7, goods_title: '畅玩时长30分钟', expires_at: 1_790_000_000_000, minutes: 30, play_type: 2, status: 0 };

describe('the use-up prompt (commerce.md §2.9, §4.8)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it("130102 opens it with the game's usable time card (page size 1) and yoodo rule; 立即使用 uses it", async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/start', () => fail(130102, '游戏时长不足，请补充时长'));
    t.api.on('GET', '/api/v3/user/card/available', () => ({ total: 1, data: [card] }));
    t.api.on('POST', '/api/japi/yoo/game/yoodoRule', () => ({ yoodo: '60', yoodoText: '可消耗%s悠豆/小时' }));
    t.api.on('POST', '/api/v3/user/card/activate', () => ({ goods_title: card.goods_title, minutes: 30, play_type: 2 }));
    await root.game.start({ gameId: 3, gameName: '测试游戏', nodeId: 1 });
    await settle(60);
    expect(t.api.callsTo('/api/v3/user/card/available')[0].body).toEqual({ game_id: 3, page_size: 1 });
    expect(t.api.callsTo('/api/japi/yoo/game/yoodoRule')[0].body).toEqual({ gameId: 3 });
    expect(root.playTime.useUpCard?.id).toBe(7);
    expect(root.playTime.yoodoRule?.yoodo).toBe('60');
    await root.playTime.useCard();
    expect(t.api.callsTo('/api/v3/user/card/activate')[0].body).toEqual({ id: 7 });
    expect(root.ui.toasts.at(-1)).toMatchObject({ type: 'success', message: '使用成功' });
    expect(root.playTime.useUp).toBeNull();
    root.dispose();
  });

  it('without a card, 好的 opens the yoodo purchase for time run out; a failed use shows the message', async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('GET', '/api/v3/user/card/available', () => ({ total: 0, data: [] }));
    t.api.on('POST', '/api/japi/yoo/game/yoodoRule', () => fail(130101, '游戏不存在'));
    root.playTime.openUseUp(5);
    await settle(60);
    expect(root.playTime.useUpCard).toBeNull();
    expect(root.playTime.yoodoRule).toBeNull();
    root.playTime.useUpCard = { ...card } as never;
    t.api.on('POST', '/api/v3/user/card/activate', () => fail(20173, '该卡不可使用'));
    await root.playTime.useCard();
    expect(root.ui.toasts.at(-1)).toMatchObject({ type: 'error', message: '该卡不可使用' });
    expect(root.playTime.useUp).toEqual({ gameId: 5 });
    root.dispose();
  });
});
