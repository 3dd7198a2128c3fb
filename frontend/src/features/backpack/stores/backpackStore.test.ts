import { FakeApi, fail } from '../../../test/fakeTransport';
import type { BackpackCard } from './backpackStore';
import { BACKPACK_PAGE_SIZE, BackpackStore, backpackPath, canGive, cardTexts, countdownText, RELATION_GIFT_TYPE, tabOfPath } from './backpackStore';

const LIST = '/api/v3/user/card/list';
const TOTAL = '/api/v3/user/card/total';
const ACTIVATE = '/api/v3/user/card/activate';
// 2026-11-23 23:59:59.999 UTC+8
const END_OF_DAY = Date.UTC(2026, 10, 23, 15, 59, 59, 999);

const card = (id: number, over: Partial<BackpackCard> = {}): BackpackCard => ({
  id,
  goods_title: '120分钟付费时长卡',
  expires_at: END_OF_DAY,
  status: 0,
  card_type: 1,
  play_type: 1,
  minutes: 120,
  source: 'grant',
  used_at: null,
  near_expiration: false,
  remain_give_times: 0,
  ...over,
});

function setup(opts: { confirm?: boolean } = {}) {
  const api = new FakeApi();
  const toasts: [string, string][] = [];
  const asked: string[] = [];
  let refreshed = 0;
  const store = new BackpackStore(api, {
    confirm: (m) => {
      asked.push(m);
      return Promise.resolve(opts.confirm ?? true);
    },
    toast: (t, m) => toasts.push([t, m]),
    refreshUser: () => {
      refreshed += 1;
      return Promise.resolve();
    },
  });
  return { api, store, toasts, asked, refreshed: () => refreshed };
}

describe('BackpackStore', () => {
  it('has an address per tab: /user/card/card, /user/card/gift, /user/card/coupon; /user/card is the cards tab', () => {
    expect(backpackPath('card')).toBe('/user/card/card');
    expect(backpackPath('coupon')).toBe('/user/card/coupon');
    expect(tabOfPath('card')).toBe(1);
    expect(tabOfPath('gift')).toBe(2);
    expect(tabOfPath('coupon')).toBe(3);
    expect(tabOfPath(undefined)).toBe(1);
    expect(tabOfPath('nope')).toBe(1);
  });

  it('reads a page of the tab and filter, and the counts show only on the unused filter', async () => {
    const { api, store } = setup();
    api.on('GET', LIST, () => ({ total: 1, data: [card(1)], ts: 0 }));
    api.on('GET', TOTAL, () => ({ card: 1, gift: 0, coupon: 0, ts: 0 }));
    await Promise.all([store.load(1), store.loadTotals()]);
    expect(api.callsTo(LIST)[0].body).toEqual({ status: '0', page: '1', page_size: String(BACKPACK_PAGE_SIZE), card_type: '1' });
    expect(store.items.map((c) => c.id)).toEqual([1]);
    expect(store.tabCount('card')).toBe(1);
    await store.selectFilter(2);
    expect(api.callsTo(LIST)[1].body).toMatchObject({ status: '2', page: '1' });
    expect(store.tabCount('card')).toBeNull();
    await store.selectTab(2);
    expect(api.callsTo(LIST)[2].body).toMatchObject({ card_type: '2', status: '2' });
  });

  it('a page after the first that comes back empty is re-read one page earlier', async () => {
    const { api, store } = setup();
    api.on('GET', LIST, (q) => (Number(q.page) >= 3 ? { total: 24, data: [], ts: 0 } : { total: 24, data: [card(Number(q.page))], ts: 0 }));
    await store.load(3);
    expect(api.callsTo(LIST).map((c) => (c.body as { page: string }).page)).toEqual(['3', '2']);
    expect(store.page).toBe(2);
    expect(store.items.map((c) => c.id)).toEqual([2]);
  });

  it('使用 confirms, uses, toasts and re-reads the user, the list and the counts', async () => {
    const { api, store, toasts, asked, refreshed } = setup();
    let used = false;
    api.on('GET', LIST, () => ({ total: used ? 0 : 1, data: used ? [] : [card(7)], ts: 0 }));
    api.on('GET', TOTAL, () => ({ card: used ? 0 : 1, gift: 0, coupon: 0, ts: 0 }));
    api.on('POST', ACTIVATE, () => {
      used = true;
      return { goods_title: '120分钟付费时长卡', isFast: 0, sort: 0, minutes: 120, play_type: 1 };
    });
    await store.load(1);
    expect(await store.use(store.items[0])).toBe(true);
    expect(asked).toEqual(['确定要使用 120分钟付费时长卡 吗？']);
    expect(api.callsTo(ACTIVATE)[0].body).toEqual({ id: 7 });
    expect(toasts).toEqual([['success', '使用成功']]);
    expect(refreshed()).toBe(1);
    expect(store.items).toEqual([]);
    expect(store.totals?.card).toBe(0);
    expect(store.using).toBeNull();
  });

  it('a declined confirm uses nothing; a refusal toasts its message; a gift says 兑换成功; relation gifts are refused', async () => {
    const declined = setup({ confirm: false });
    expect(await declined.store.use(card(1))).toBe(false);
    expect(declined.api.callsTo(ACTIVATE)).toHaveLength(0);

    const { api, store, toasts } = setup();
    api.on('GET', LIST, () => ({ total: 1, data: [card(1)], ts: 0 }));
    api.on('GET', TOTAL, () => ({ card: 1, gift: 0, coupon: 0, ts: 0 }));
    api.on('POST', ACTIVATE, () => fail(20173, '卡券不可用'));
    expect(await store.use(card(1))).toBe(false);
    expect(toasts).toEqual([['error', '卡券不可用']]);

    api.on('POST', ACTIVATE, () => ({ goods_title: '礼包', isFast: 0, sort: 0, minutes: 0, play_type: 0 }));
    await store.selectTab(2);
    expect(await store.use(card(2, { card_type: 2 }))).toBe(true);
    expect(toasts[1]).toEqual(['success', '兑换成功']);

    expect(await store.use(card(3, { card_type: 2 }), RELATION_GIFT_TYPE)).toBe(false);
    expect(api.callsTo(ACTIVATE)).toHaveLength(2);
  });

  it('赠送 gives by phone, refuses a malformed phone, toasts a refusal; the gift texts name the other side', async () => {
    const { api, store, toasts } = setup();
    api.on('GET', LIST, () => ({ total: 0, data: [], ts: 0 }));
    api.on('GET', TOTAL, () => ({ card: 0, gift: 0, coupon: 0, ts: 0 }));
    api.on('POST', '/api/v3/user/card/give', (b) =>
      (b as { phone: string }).phone === '13800000001' ? fail(20174, '不能赠送给自己') : card(9, { status: 1, target_user: { phone: '13800000002' } }),
    );
    const giftable = card(9, { remain_give_times: 1 });
    expect(canGive(giftable)).toBe(true);
    expect(canGive(card(9))).toBe(false);
    expect(canGive(card(9, { remain_give_times: 1, status: 2 }))).toBe(false);
    expect(await store.give(giftable, '123')).toBe(false);
    expect(api.callsTo('/api/v3/user/card/give')).toHaveLength(0);
    expect(await store.give(giftable, '13800000001')).toBe(false);
    expect(await store.give(giftable, ' 13800000002 ')).toBe(true);
    expect(api.callsTo('/api/v3/user/card/give')[1].body).toEqual({ id: 9, phone: '13800000002' });
    expect(toasts).toEqual([
      ['error', '请输入正确的手机号'],
      ['error', '不能赠送给自己'],
      ['success', '已赠送给13800000002'],
    ]);
    expect(cardTexts(card(1, { status: 1, target_user: { phone: '13800000002' } }), 0).gift).toBe('赠送给13800000002');
    expect(cardTexts(card(1, { from_user: { phone: '13800000003' } }), 0).gift).toBe('13800000003赠送给我');
    expect(cardTexts(card(1), 0).gift).toBeNull();
  });

  it('shows the expiry at 23:59:59 UTC+8, or a countdown near expiry', () => {
    expect(cardTexts(card(1), END_OF_DAY - 10 * 86_400_000).expiry).toBe('有效期至 2026-11-23 23:59:59');
    const near = card(1, { near_expiration: true });
    expect(cardTexts(near, END_OF_DAY - (2 * 86_400_000 + 5 * 3_600_000 + 1)).expiry).toBe('2天5小时后过期');
    expect(cardTexts(near, END_OF_DAY - 3_723_999).expiry).toBe('01:02:03后过期');
    expect(countdownText(-5)).toBe('00:00:00');
    const texts = cardTexts(card(1, { play_type: 2, minutes: 30, source: 'monthly' }), 0);
    expect(texts.description).toBe('30分钟免费时长，使用后加入账户');
    expect(texts.source).toBe('来源：会员月度领取');
    expect(cardTexts(card(1, { status: 3 }), 0).status).toBe('已失效');
  });
});
