import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { live, loggedInRoot, settle } from '../../../test/helpers';
import { QUEUE_POLL_MS } from './gameStore';
import { GameStatus } from '../../../api/codes';
import { PREVIEW_MIN_INTERVAL_MS } from './queueStore';

const T0 = new Date('2025-06-01T12:00:00Z').getTime();
const CARDS = '/api/v3/user/card/list';
const SIZE = '/api/japi/yoo/game/gameChannelSize';
const ACTIVATE = '/api/v3/user/card/activate';
const CONFIG = '/api/japi/yoo/common/config/list';

const card = (id: number, title = '速进卡（1次）') => ({ id, goods_title: title, expires_at: Date.UTC(2025, 5, 30, 15, 59), status: 0 });

/** A logged-in root with a scripted queue server: cards, channel preview, wx config. */
async function queueRoot(opts: { cards?: ReturnType<typeof card>[]; wx?: Record<string, string> } = {}) {
  const env = await loggedInRoot();
  const server = { cards: opts.cards ?? [], preSort: 0, waitDuration: 0 };
  env.t.api.on('GET', CARDS, () => ({ total: server.cards.length, data: server.cards, ts: 0 }));
  env.t.api.on('POST', SIZE, (body) => ({ preSort: server.preSort, waitDuration: server.waitDuration, isFast: body.isFast }));
  env.t.api.on('POST', CONFIG, (body) =>
    body.groupCode === 'wx_sort_entry' ? (opts.wx ?? { web: '0', delay_show_code_time: '30', delay_show_reserve_time: '60' }) : {},
  );
  return { ...env, server };
}

describe('queue lanes in the queue dialog', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it('a normal player in QUEUE: cards and the VVIP preview are read, the upsell card says rank and wait', async () => {
    const { root, t, channel, server } = await queueRoot();
    server.preSort = 2;
    server.waitDuration = 130;
    expect(t.api.callsTo(SIZE)).toHaveLength(0); // nothing before a queue
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 5, isFast: 0 }));
    await settle();
    expect(t.api.callsTo(CARDS)[0].body).toEqual({ status: 0, card_type: 1 });
    expect(t.api.callsTo(SIZE)[0].body).toEqual({ isFast: 3 });
    expect(root.queue.laneCard).toEqual({ kind: 'upsell', lane: 3, label: 'VVIP专属通道', text: '预计排名第3位，等待时间少于3分钟' });
    expect(root.queue.notice.kind).toBe('text');
    expect(root.queue.sortEntryVisible).toBe(false);
    expect(root.queue.dialogAdVisible).toBe(true);

    t.api.on('GET', '/api/web/v1/section/goods', () => ({ section_key: 'shop_queue_accelerate', name: '', instruction: '', goods: [] }));
    root.queue.accelerate();
    await root.loadPurchase(); // the purchase code is a chunk of its own
    await settle(60);
    expect(t.api.callsTo('/api/web/v1/section/goods')[0].body).toEqual({ section_key: 'shop_queue_accelerate' });
    root.dispose();
  });

  it('channel info is read only in QUEUE: with the 5 s poll and rank changes, never while PLAYING', async () => {
    const { root, t, channel } = await queueRoot();
    let floatBall = live({ status: GameStatus.QUEUE, sort: 5 });
    t.api.on('POST', '/api/japi/yoo/game/floatBall', () => floatBall);
    channel.pushGameState(floatBall);
    await settle();
    const reads = () => t.api.callsTo(SIZE).length;
    const first = reads();
    expect(first).toBe(1);
    await vi.advanceTimersByTimeAsync(QUEUE_POLL_MS);
    expect(reads()).toBe(first + 1);
    // a rank change right after a read waits for the poll; one a second later reads at once
    floatBall = live({ status: GameStatus.QUEUE, sort: 6 });
    channel.pushGameState(floatBall); // someone joined ahead
    await settle();
    expect(reads()).toBe(first + 1);
    await vi.advanceTimersByTimeAsync(PREVIEW_MIN_INTERVAL_MS);
    floatBall = live({ status: GameStatus.QUEUE, sort: 7 });
    channel.pushGameState(floatBall);
    await settle();
    expect(reads()).toBe(first + 2);
    floatBall = live({ status: GameStatus.PLAYING });
    channel.pushGameState(floatBall);
    await vi.advanceTimersByTimeAsync(QUEUE_POLL_MS * 3);
    expect(reads()).toBe(first + 2);
    expect(root.queue.preview).toBeNull();
    root.dispose();
  });

  it('card precedence: carrier, then the ultimate lane, then an owned card, then the upsell', async () => {
    const { root, channel } = await queueRoot({ cards: [card(11), card(12)] });
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 3, isFast: 0 }));
    await settle();
    expect(root.queue.laneCard).toMatchObject({ kind: 'card', card: { id: 11 }, more: true });
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 1, isFast: 1 }));
    await settle();
    expect(root.queue.laneCard).toEqual({ kind: 'fast' });
    expect(root.queue.dialogAdVisible).toBe(false);
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 1, isFast: 2 }));
    await settle();
    expect(root.queue.laneCard).toEqual({ kind: 'carrier' });
    root.dispose();
  });

  it('立即使用: activate {id}, 使用成功, the pushed state moves the player to lane 1 at rank 1', async () => {
    const { root, t, channel, server } = await queueRoot({ cards: [card(11)] });
    t.api.on('POST', ACTIVATE, () => {
      server.cards = [];
      return { goods_title: '速进卡（1次）', isFast: 1, sort: 1 };
    });
    t.api.on('POST', '/api/japi/yoo/game/floatBall', () => live({ status: GameStatus.QUEUE, sort: 1, isFast: 1 }));
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 4, isFast: 0 }));
    await settle();
    expect(root.queue.laneCard.kind).toBe('card');
    expect(await root.queue.activateCard(root.queue.cards[0])).toBe(true);
    expect(t.api.callsTo(ACTIVATE)[0].body).toEqual({ id: 11 });
    expect(root.ui.toasts.map((x) => x.message)).toContain('使用成功');
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 1, isFast: 1 }));
    await settle();
    expect(root.game.live?.sort).toBe(1);
    expect(root.queue.laneCard).toEqual({ kind: 'fast' });
    root.dispose();
  });

  it('the float uses the first card; a refused card shows the server message and re-reads the list', async () => {
    const { root, t, channel, server } = await queueRoot({ cards: [card(11), card(12)] });
    t.api.on('POST', ACTIVATE, () => {
      server.cards = [card(12)];
      fail(20173, '卡券不可用');
    });
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 4 }));
    await settle();
    expect(await root.queue.activateFirstCard()).toBe(false);
    expect(t.api.callsTo(ACTIVATE)[0].body).toEqual({ id: 11 });
    expect(root.ui.toasts.at(-1)).toMatchObject({ type: 'error', message: '卡券不可用' });
    await settle();
    expect(root.queue.cards.map((c) => c.id)).toEqual([12]);
    root.dispose();
  });

  it('minimising and reopening re-reads the cards (a card granted meanwhile shows up)', async () => {
    const { root, channel, server } = await queueRoot();
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 2 }));
    await settle();
    expect(root.queue.laneCard.kind).toBe('upsell');
    server.cards = [card(21)];
    root.ui.setQueueDialogLarge(false);
    await settle();
    expect(root.queue.laneCard.kind).toBe('card');
    root.dispose();
  });

  it('a MEMBER_INFO push re-reads the profile and, while queued, the cards', async () => {
    const { root, t, channel, server } = await queueRoot();
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 2 }));
    await settle();
    const profileReads = t.api.callsTo('/api/user/profile').length;
    server.cards = [card(31)];
    channel.push({ kind: 'memberInfo' });
    await settle();
    expect(t.api.callsTo('/api/user/profile')).toHaveLength(profileReads + 1);
    expect(root.queue.laneCard).toMatchObject({ kind: 'card', card: { id: 31 } });
    root.dispose();
  });

  it('wx_sort_entry web 1: the QR after delay_show_code_time and the queue-sort entry', async () => {
    const { root, channel } = await queueRoot({ wx: { web: '1', delay_show_code_time: '30', delay_show_reserve_time: '60' } });
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 2, queDuration: 10 }));
    await settle();
    expect(root.queue.notice.kind).toBe('text');
    expect(root.queue.sortEntryVisible).toBe(true);
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 2, queDuration: 31 }));
    expect(root.queue.notice.kind).toBe('qr');
    root.dispose();
  });
});

describe('queue-quit retention (core-platform.md §2.8, §2.9)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it('normal lane: the VVIP retention first; 再等等 keeps the place', async () => {
    const { root, t, channel, server } = await queueRoot();
    server.preSort = 1;
    t.api.on('POST', '/api/japi/yoo/game/cancelQue', () => null);
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 3, isFast: 0 }));
    await settle();
    const done = root.queue.requestExit();
    await settle();
    expect(root.queue.retention).toMatchObject({ preSort: 1 });
    expect(t.api.callsTo(SIZE).at(-1)!.body).toEqual({ isFast: 3 });
    expect(root.game.floatVisible).toBe(false);
    root.queue.settleRetention(true);
    await done;
    expect(root.queue.retention).toBeNull();
    expect(root.ui.messageBoxes).toHaveLength(0);
    expect(t.api.callsTo('/api/japi/yoo/game/cancelQue')).toHaveLength(0);
    root.dispose();
  });

  it('the product of queue_detainment_goods: its lane (a fast-entry card: 1), 速进通道, 立即加速 buys it and stays queued', async () => {
    const { root, t, channel, server } = await queueRoot();
    server.preSort = 0;
    const card = { id: 231, code: 'detain_card', type: 3, title: '限时加速卡', price: 190, retail_price: 190, pay_types: [] };
    t.api.on('GET', '/api/web/v1/section/goods', () => ({ section_key: 'queue_detainment_goods', instruction: '', goods: [card] }));
    t.api.on('POST', '/api/japi/yoo/game/cancelQue', () => null);
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 3, isFast: 0 }));
    await settle();
    const done = root.queue.requestExit();
    await settle(60);
    expect(t.api.callsTo('/api/web/v1/section/goods').at(-1)!.body).toEqual({ section_key: 'queue_detainment_goods', page_size: 1 });
    expect(t.api.callsTo(SIZE).at(-1)!.body).toEqual({ isFast: 1 });
    expect(root.queue.retention).toMatchObject({ preSort: 0, goods: { code: 'detain_card' } });
    expect(root.queue.retentionText).toBe('速进通道');
    root.queue.buyRetention();
    await done;
    await root.loadPurchase();
    await settle(60);
    expect(root.queue.retention).toBeNull();
    expect(t.api.callsTo('/api/japi/yoo/game/cancelQue')).toHaveLength(0);
    expect(root.purchase?.isOpen).toBe(true);
    expect(root.purchase?.step).toBe('detail');
    expect(root.purchase?.selected?.code).toBe('detain_card');
    expect(root.purchase?.title).toBe('购买速进时长');
    root.dispose();
  });

  it('normal lane: 仍要退出, then the exit confirm 退出排队 / 立即退出 / 再玩一会; 立即退出 cancels the queue', async () => {
    const { root, t, channel } = await queueRoot();
    t.api.on('POST', '/api/japi/yoo/game/cancelQue', () => null);
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 3, isFast: 0 }));
    await settle();

    // 再玩一会 at the confirm keeps the place
    let done = root.queue.requestExit();
    await settle();
    root.queue.settleRetention(false);
    await settle();
    expect(root.ui.messageBoxes[0]).toMatchObject({ title: '退出排队', confirmText: '立即退出', cancelText: '再玩一会' });
    root.ui.messageBoxes[0].resolve(false);
    await done;
    expect(t.api.callsTo('/api/japi/yoo/game/cancelQue')).toHaveLength(0);

    done = root.queue.requestExit();
    await settle();
    root.queue.settleRetention(false);
    await settle();
    root.ui.messageBoxes[0].resolve(true);
    await done;
    expect(t.api.callsTo('/api/japi/yoo/game/cancelQue')[0].body).toEqual({ id: 101 });
    root.dispose();
  });

  it('fast entry: no retention, straight to the exit confirm', async () => {
    const { root, t, channel } = await queueRoot();
    t.api.on('POST', '/api/japi/yoo/game/cancelQue', () => null);
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 1, isFast: 3 }));
    await settle();
    const done = root.queue.requestExit();
    await settle();
    expect(root.queue.retention).toBeNull();
    expect(root.ui.messageBoxes[0].title).toBe('退出排队');
    root.ui.messageBoxes[0].resolve(true);
    await done;
    expect(t.api.callsTo('/api/japi/yoo/game/cancelQue')).toHaveLength(1);
    root.dispose();
  });

  it('the queue ending while the retention is open closes it without an exit', async () => {
    const { root, t, channel } = await queueRoot();
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 1, isFast: 0 }));
    await settle();
    const done = root.queue.requestExit();
    await settle();
    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 30, responseTime: Date.now() }));
    await done;
    expect(root.queue.retention).toBeNull();
    expect(root.ui.messageBoxes).toHaveLength(0);
    expect(t.api.callsTo('/api/japi/yoo/game/cancelQue')).toHaveLength(0);
    root.dispose();
  });
});
