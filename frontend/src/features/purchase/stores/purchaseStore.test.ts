import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { answerCouponCheck, makeRoot, settle, type PricedGoods } from '../../../test/helpers';
import { CouponPaths } from '../../coupon/stores/couponStore';
import { QR_RETRY_MS, QrState } from '../../../lib/purchase';
import { PurchasePaths, PurchaseText } from './purchaseStore';

// Server answers as the facade sends them (test data: prices in fen, pay methods per product).
const WECHAT = { payCode: 'wechat', payType: 0, payName: '微信支付', desc: '' };
const ALIPAY = { payCode: 'alipay', payType: 1, payName: '支付宝', desc: '' };
const COIN = { payCode: 'yunyoubi', payType: 7, payName: '云游币', desc: '' };

function goods(id: number, over: Record<string, unknown> = {}) {
  return {
    id,
    code: `g${id}`,
    type: 2,
    title: `${id}小时时长卡`,
    name: `${id}小时时长卡`,
    image: '',
    label: '',
    price: 600 * id,
    retail_price: 800 * id,
    member_price: 0,
    crossed_price: 800 * id,
    month_price: 0,
    introduction: '',
    give_goods_name: '',
    external: { cycleable: false, first_price: 0 },
    pay_types: [WECHAT, ALIPAY, COIN],
    ...over,
  };
}

const SECTIONS: Record<string, unknown[]> = {
  shop_card_time: [goods(1), goods(2), goods(5), goods(10), goods(20)],
  shop_card_coin: [goods(30, { type: 0, title: '100云游币', pay_types: [WECHAT, ALIPAY] })],
  shop_card_queue: [goods(40, { type: 3, title: '速进时长1小时' })],
  shop_vip: [goods(50, { type: 4, title: '月卡VIP' }), goods(51, { type: 4, title: '季卡VIP' })],
  shop_vvip: [goods(60, { type: 5, title: '月卡VVIP' })],
  shop_queue_accelerate: [goods(60, { type: 5, title: '月卡VVIP' }), goods(50, { type: 4, title: '月卡VIP' })],
  shop_time_useup_yoodo: [goods(70, { type: 12, title: '100油豆' })],
};

async function setup(opts: { member?: string | null; loggedIn?: boolean } = {}) {
  const env = await makeRoot({
    loggedIn: opts.loggedIn ?? true,
    profile: { balance: 0, member_info: { using: opts.member ?? null, items: [], near_expiration: false, join_at: null } } as never,
  });
  const { t } = env;
  t.api.on('GET', PurchasePaths.sectionGoods, (q: { section_key: string }) => ({
    section_key: q.section_key,
    name: '',
    instruction: '',
    goods: SECTIONS[q.section_key] ?? [],
  }));
  answerCouponCheck(t, Object.values(SECTIONS).flat() as PricedGoods[]);
  let orders = 0;
  t.api.on('POST', PurchasePaths.submit, (b: { pay_method: string }) => {
    orders++;
    if (b.pay_method === 'yunyoubi') return { order_no: `O${orders}`, payable: 600, exchanged: true };
    return { order_no: `O${orders}`, payable: 1200, exchanged: false };
  });
  let tickets = 0;
  t.api.on('GET', PurchasePaths.qrcode, () => {
    tickets++;
    return { qrcode: `http://127.0.0.1/api/dev/pay/O${orders}`, ticket: `T${tickets}` };
  });
  return env;
}

async function opened(type: Parameters<Awaited<ReturnType<typeof makeRoot>>['root']['openPurchase']>[0], opts: Parameters<typeof setup>[0] = {}) {
  const env = await setup(opts);
  env.root.openPurchase(type);
  await settle(60);
  const p = env.root.purchase!;
  return { ...env, p };
}

describe('opening (commerce.md §4.1, §2.5)', () => {
  it('time: the section shop_card_time, the first product, count 1, four per view, its title', async () => {
    const { p, t, root } = await opened('time');
    expect(p.isOpen).toBe(true);
    expect(t.api.callsTo(PurchasePaths.sectionGoods)[0].body).toEqual({ section_key: 'shop_card_time' });
    expect(p.step).toBe('list');
    expect(p.selected?.id).toBe(1);
    expect(p.count).toBe(1);
    expect(p.perView).toBe(4);
    expect(p.title).toBe('购买游戏时长');
    expect(p.payMethod).toBe('wechat');
    expect(p.showsCount).toBe(true);
    root.dispose();
  });

  it('the quantity is 1–100; cleared or not a number it is 1 (§5); the total and the savings follow it in fen', async () => {
    const { p, root } = await opened('time');
    p.select(1);
    for (const [input, want] of [
      ['3', 3],
      ['0', 1],
      ['101', 100],
      ['', 1],
      ['abc', 1],
      [2.7, 2],
    ] as const) {
      p.setCount(input);
      expect(p.count).toBe(want);
    }
    await settle(60);
    expect(p.totalFen).toBe(1200 * 2);
    expect(p.savedFen).toBe(1600 * 2 - 1200 * 2);
    root.dispose();
  });

  it('the total and the savings are the server\'s answer for the selection: pending until it is in, never computed here', async () => {
    const { p, t, root } = await opened('time');
    // the server's figures (not price × count: the rule is its own)
    const answers: { q: { goods_code: string; goods_num: number; coupon_id?: number }; resolve: (v: unknown) => void }[] = [];
    t.api.on('GET', CouponPaths.check, (q) => new Promise((resolve) => answers.push({ q, resolve })));
    const summary = (pay: number, savings: number) => ({ use_coupons: [], discount_money: 0, month_price: 0, pay_money: pay, usable_num: 0, unit_price: 1, retail_total: pay + savings, savings });
    p.setCount(3);
    await settle(60);
    expect(p.totalFen).toBeNull();
    expect(p.savedFen).toBe(0);
    expect(answers.at(-1)!.q).toMatchObject({ goods_code: 'g1', goods_num: 3 });
    const forThree = answers.at(-1)!;
    p.setCount(4);
    await settle(60);
    // the answer for 3 arrives after 4 was asked for: not shown
    forThree.resolve(summary(1111, 22));
    await settle(60);
    expect(p.totalFen).toBeNull();
    answers.at(-1)!.resolve(summary(1777, 333));
    await settle(60);
    expect(p.totalFen).toBe(1777);
    expect(p.savedFen).toBe(333);
    // another product: pending again until its answer
    p.select(2);
    await settle(60);
    expect(p.totalFen).toBeNull();
    expect(answers.at(-1)!.q).toMatchObject({ goods_code: 'g5', goods_num: 4 });
    answers.at(-1)!.resolve(summary(999, 0));
    await settle(60);
    expect(p.totalFen).toBe(999);
    expect(p.savedFen).toBe(0);
    root.dispose();
  });

  it('a guest gets the server\'s total too: checked without a coupon, no coupon list read', async () => {
    // the root opens the dialog for a logged-in user; the store itself prices for any caller
    const { t, root } = await setup({ loggedIn: false });
    const p = await root.loadPurchase();
    await p.open('time');
    await settle(60);
    expect(p.totalFen).toBe(600);
    expect(p.savedFen).toBe(200);
    expect(t.api.callsTo(CouponPaths.list)).toHaveLength(0);
    const checks = t.api.callsTo(CouponPaths.check);
    expect(checks.at(-1)!.body).toEqual({ goods_code: 'g1', goods_num: 1 });
    p.setCount(2);
    await settle(60);
    expect(p.totalFen).toBe(1200);
    expect(p.savedFen).toBe(400);
    root.dispose();
  });

  it('a member defaults to vvip when the user is vvip: three per view, the tabs, the other tab reads shop_vip', async () => {
    const { p, t, root } = await opened('member', { member: 'vvip' });
    expect(p.category).toBe('vvip');
    expect(t.api.callsTo(PurchasePaths.sectionGoods)[0].body).toEqual({ section_key: 'shop_vvip' });
    expect(p.perView).toBe(3);
    expect(p.tabsVisible).toBe(true);
    expect(p.title).toBe('购买会员');
    await p.setCategory('vip');
    await settle();
    expect(t.api.callsTo(PurchasePaths.sectionGoods)[1].body).toEqual({ section_key: 'shop_vip' });
    expect(p.selected?.title).toBe('月卡VIP');
    root.dispose();
  });

  it('a member who is not vvip opens on vip', async () => {
    const { p, root } = await opened('member', { member: null });
    expect(p.category).toBe('vip');
    expect(p.selected?.title).toBe('月卡VIP');
    root.dispose();
  });

  it('queue acceleration that sells only memberships becomes member_special, the category of its first item, tabs for both', async () => {
    const { p, root } = await opened('queue_accelerate');
    expect(p.type).toBe('member_special');
    expect(p.category).toBe('vvip');
    expect(p.tabsVisible).toBe(true);
    await p.setCategory('vip');
    expect(p.selected?.title).toBe('月卡VIP');
    root.dispose();
  });

  it("an empty list is '商品列表为空' and closes", async () => {
    const { p, root } = await opened('yoodo');
    expect(root.ui.toasts.at(-1)).toMatchObject({ type: 'error', message: PurchaseText.EMPTY_LIST });
    expect(p.isOpen).toBe(false);
    root.dispose();
  });

  it("subscription without a game package list: '获取游戏订阅包列表错误' and closes", async () => {
    const { p, t, root } = await opened('subscription');
    expect(root.ui.toasts.at(-1)).toMatchObject({ type: 'error', message: PurchaseText.NO_PACKAGES });
    expect(p.isOpen).toBe(false);
    expect(t.api.callsTo(PurchasePaths.sectionGoods)).toHaveLength(0);
    root.dispose();
  });

  it("subscription of a game: its first package's durations (speci_list, months) are the choices, the first selected", async () => {
    const env = await setup();
    const { t, root } = env;
    t.api.on('GET', '/api/shop/goods/game-package', () => ({ data: [goods(401, { type: 9, title: '沙海商队订阅包' })] }));
    const speci = (id: number, months: number, price: number) => ({
      id,
      goods_code: `sub_19_${months}m`,
      title: `沙海商队订阅包·${months}个月`,
      face_value: months,
      face_value_txt: `${months}个月`,
      retail_price: price,
      member_price: 0,
      crossed_price: 0,
      month_price: Math.round(price / months),
    });
    t.api.on('GET', '/api/shop/goods/game-package/item', () => ({
      ...goods(401, { type: 9, title: '沙海商队订阅包' }),
      speci_list: [speci(402, 1, 1800), speci(403, 3, 4800), speci(404, 12, 16800)],
    }));
    root.openPurchase('subscription', { gameId: 19 });
    await settle(60);
    const p = root.purchase!;
    expect(t.api.callsTo('/api/shop/goods/game-package')[0].body).toEqual({ game_id: 19 });
    expect(t.api.callsTo('/api/shop/goods/game-package/item')[0].body).toEqual({ package_id: 401 });
    expect(p.isOpen).toBe(true);
    expect(p.goods.map((g) => [g.id, g.face_value, g.price])).toEqual([
      [402, 1, 1800],
      [403, 3, 4800],
      [404, 12, 16800],
    ]);
    expect(p.selectedIndex).toBe(0);
    root.dispose();
  });

  it('subscription of a game without packages: the same error', async () => {
    const env = await setup();
    env.t.api.on('GET', '/api/shop/goods/game-package', () => ({ data: [] }));
    env.root.openPurchase('subscription', { gameId: 1 });
    await settle(60);
    expect(env.root.ui.toasts.at(-1)).toMatchObject({ type: 'error', message: PurchaseText.NO_PACKAGES });
    expect(env.root.purchase!.isOpen).toBe(false);
    env.root.dispose();
  });

  it('a guest gets the login dialog; the purchase opens after the login', async () => {
    const env = await setup({ loggedIn: false });
    env.root.openPurchase('time');
    await settle();
    expect(env.root.ui.loginOpen).toBe(true);
    expect(env.root.purchase).toBeNull();
    env.setLoggedIn(true);
    await env.root.user.loadProfile();
    env.root.ui.takeAfterLogin()?.();
    await settle(60);
    expect(env.root.purchase?.isOpen).toBe(true);
    env.root.dispose();
  });

  it('pay methods are the ones the server allows for the product; the coin product has no coin payment', async () => {
    const { p, root } = await opened('coin');
    expect(p.payMethods.map((m) => m.payCode)).toEqual(['wechat', 'alipay']);
    p.setPayMethod('yunyoubi');
    expect(p.payMethod).toBe('wechat');
    expect(p.title).toBe('云游币充值');
    root.dispose();
  });

  it('the list and the detail: 详情 shows one product, 返回 goes back', async () => {
    const { p, root } = await opened('time');
    p.showDetail(2);
    expect(p.step).toBe('detail');
    expect(p.selected?.id).toBe(5);
    expect(p.title).toBe('购买游戏时长');
    p.backToList();
    expect(p.step).toBe('list');
    root.dispose();
  });

  it('an upgrade opens on its detail: 会员升级, the days left are what is bought and shown, no quantity', async () => {
    const env = await setup({ member: 'vip' });
    const up = goods(201, { type: 21, title: 'VIP升级VVIP', price: 65, retail_price: 65, up: { up_from: 'vip', up_to: 'vvip', up_days: 10, unit_price: 65 } });
    answerCouponCheck(env.t, [up as PricedGoods]);
    env.root.openPurchase('member', { goods: up as never, category: 'vvip' });
    await settle(60);
    const p = env.root.purchase!;
    expect(p.step).toBe('detail');
    expect(p.title).toBe('会员升级');
    expect(p.showsCount).toBe(false);
    expect(p.totalFen).toBe(650);
    expect(p.units).toBe(10);
    expect(p.chosenLine).toContain('10');
    env.root.dispose();
  });

  it('the carousel pages by one view and stops at the ends', async () => {
    const { p, root } = await opened('time');
    p.slide(-1);
    expect(p.carouselStart).toBe(0);
    p.slide(1);
    expect(p.carouselStart).toBe(1);
    p.slide(1);
    expect(p.carouselStart).toBe(1);
    root.dispose();
  });
});

describe('QR payment (commerce.md §4.3)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A polling handler the test answers one call at a time. */
  function scriptPolling(t: Awaited<ReturnType<typeof setup>>['t']) {
    const pending: { resolve: (v: unknown) => void; reject: (e: unknown) => void; body: unknown }[] = [];
    t.api.on(
      'POST',
      PurchasePaths.polling,
      (body) =>
        new Promise((resolve, reject) => {
          pending.push({ resolve, reject, body });
        }),
    );
    return {
      pending,
      async answer(code: number, data: unknown = null) {
        const next = pending.shift()!;
        if (code === 0) next.resolve({ status: 'success' });
        else {
          try {
            fail(code, 'x', data);
          } catch (e) {
            next.reject(e);
          }
        }
        await settle(60);
      },
    };
  }

  async function toQr() {
    const env = await opened('time');
    const poll = scriptPolling(env.t);
    env.p.setCount(2);
    await env.p.submit();
    await settle(60);
    return { ...env, poll };
  }

  it('the order, its QR (the pay page address), waiting, scanned, paid: the result step and the profile re-read', async () => {
    const { p, t, poll, root } = await toQr();
    expect(t.api.callsTo(PurchasePaths.submit)[0].body).toMatchObject({ goods_id: 1, goods_num: 2, pay_method: 'wechat', confirm: 0 });
    expect(t.api.callsTo(PurchasePaths.submit)[0].idempotencyKey).toMatch(/^[\x21-\x7e]{1,64}$/);
    expect(p.step).toBe('qrcode');
    expect(t.api.callsTo(PurchasePaths.qrcode)[0].body).toEqual({ action: 'scan_payment', params: JSON.stringify({ order_no: 'O1' }) });
    expect(p.qr).toEqual({ state: QrState.LOAD_SUCCESS, url: 'http://127.0.0.1/api/dev/pay/O1', ticket: 'T1' });
    expect(p.chosenLine).toBe('已选商品：1小时时长卡 x2');
    expect(poll.pending[0].body).toEqual({ order_no: 'O1', ticket: 'T1' });
    await poll.answer(20142);
    expect(p.qr?.state).toBe(QrState.LOAD_SUCCESS);
    await poll.answer(20143);
    expect(p.qr?.state).toBe(QrState.SCAN_SUCCESS);
    expect(p.qrOverlay).toMatchObject({ text: '扫描成功<br />请在手机上支付', actionText: '点击刷新' });
    const profileReads = t.api.callsTo('/api/user/profile').length;
    await poll.answer(0);
    expect(p.step).toBe('result');
    expect(p.resultLine).toBe('您已成功购买 1小时时长卡 x2');
    expect(t.api.callsTo('/api/user/profile').length).toBe(profileReads + 1);
    expect(poll.pending).toHaveLength(0);
    root.dispose();
  });

  it("20140 with status invalid: INVALID, '点击重新下单' goes back to the list", async () => {
    const { p, poll, root } = await toQr();
    await poll.answer(20140, { status: 'invalid' });
    expect(p.qr?.state).toBe(QrState.INVALID);
    expect(p.qrOverlay).toMatchObject({ action: 'reorder', actionText: '点击重新下单' });
    p.overlayAction();
    expect(p.step).toBe('list');
    expect(p.order).toBeNull();
    root.dispose();
  });

  it("20140: TIMEOUT, '点击刷新' generates the QR again and polls with the new ticket", async () => {
    const { p, t, poll, root } = await toQr();
    await poll.answer(20140);
    expect(p.qr?.state).toBe(QrState.TIMEOUT);
    expect(poll.pending).toHaveLength(0);
    expect(p.qrOverlay?.actionText).toBe('点击刷新');
    p.overlayAction();
    expect(p.qr?.state).toBe(QrState.LOADING);
    await settle(60);
    expect(t.api.callsTo(PurchasePaths.qrcode)).toHaveLength(2);
    expect(p.qr).toMatchObject({ state: QrState.LOAD_SUCCESS, ticket: 'T2' });
    expect(poll.pending[0].body).toEqual({ order_no: 'O1', ticket: 'T2' });
    root.dispose();
  });

  it('20141: SCAN_CANCEL with 点击刷新; polling stops', async () => {
    const { p, poll, root } = await toQr();
    await poll.answer(20141);
    expect(p.qr?.state).toBe(QrState.SCAN_CANCEL);
    expect(p.qrOverlay?.actionText).toBe('点击刷新');
    expect(poll.pending).toHaveLength(0);
    root.dispose();
  });

  it('any other error polls again after 10 s, not before', async () => {
    const { p, poll, root } = await toQr();
    await poll.answer(-1);
    expect(p.qr?.state).toBe(QrState.LOAD_SUCCESS);
    expect(poll.pending).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(QR_RETRY_MS - 1);
    expect(poll.pending).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await settle(30);
    expect(poll.pending).toHaveLength(1);
    root.dispose();
  });

  it('the QR fails to generate: LOAD_FAIL with 点击刷新', async () => {
    const env = await opened('time');
    env.t.api.on('GET', PurchasePaths.qrcode, () => fail(50000, '服务繁忙'));
    await env.p.submit();
    await settle(60);
    expect(env.p.qr?.state).toBe(QrState.LOAD_FAIL);
    expect(env.p.qrOverlay?.action).toBe('refresh');
    env.root.dispose();
  });

  it('closing stops every poll: a waiting retry never fires, a late answer changes nothing', async () => {
    const { p, poll, root } = await toQr();
    await poll.answer(-1);
    p.close();
    expect(p.isOpen).toBe(false);
    await vi.advanceTimersByTimeAsync(QR_RETRY_MS * 3);
    expect(poll.pending).toHaveLength(0);

    // and a long poll in flight as the dialog closes
    root.openPurchase('time');
    await settle(60);
    await p.submit();
    await settle(60);
    expect(poll.pending).toHaveLength(1);
    p.close();
    await poll.answer(0);
    expect(p.step).toBe('qrcode');
    expect(p.result).toBeNull();
    expect(poll.pending).toHaveLength(0);
    root.dispose();
  });

  it('返回 of the QR step stops the poll and goes back to where the order was made', async () => {
    const { p, poll, root } = await toQr();
    p.back();
    expect(p.step).toBe('list');
    await poll.answer(0);
    expect(p.step).toBe('list');
    root.dispose();
  });

  it('a bought fast-entry time closes the dialog at once (the queue-card callback)', async () => {
    const env = await opened('queue');
    const poll = scriptPolling(env.t);
    await env.p.submit();
    await settle(60);
    await poll.answer(0);
    expect(env.p.isOpen).toBe(false);
    expect(env.root.ui.toasts.at(-1)).toMatchObject({ type: 'success', message: PurchaseText.PAID });
    env.root.dispose();
  });
});

describe('auto-renew (commerce.md §5)', () => {
  it("asks '确认开通' with '同意并支付' before paying unless the agreements are ticked; closing resets them", async () => {
    const env = await setup();
    env.t.api.on('GET', PurchasePaths.sectionGoods, () => ({
      section_key: 'shop_vip',
      instruction: '',
      goods: [goods(322, { type: 14, title: 'VIP连续包月', external: { cycleable: true, first_price: 1500 }, pay_types: [ALIPAY] })],
    }));
    env.root.openPurchase('member');
    await settle(60);
    const p = env.root.purchase!;
    expect(p.payMethods.map((m) => m.payCode)).toEqual(['alipay']);
    void p.submit();
    await settle();
    const box = env.root.ui.messageBoxes.at(-1)!;
    expect(box).toMatchObject({ title: '确认开通', confirmText: '同意并支付' });
    box.resolve(false);
    await settle();
    expect(env.t.api.callsTo(PurchasePaths.submit)).toHaveLength(0);
    void p.submit();
    await settle();
    env.root.ui.messageBoxes.at(-1)!.resolve(true);
    await settle(60);
    expect(env.t.api.callsTo(PurchasePaths.submit)).toHaveLength(1);
    expect(p.agreed).toBe(true);
    p.close();
    expect(p.agreed).toBe(false);
    env.root.dispose();
  });
});

describe('coin exchange (commerce.md §4.1, §8)', () => {
  it("paid with coins: '兑换成功', the dialog closes, the profile is re-read", async () => {
    const { p, t, root } = await opened('time');
    p.setPayMethod('yunyoubi');
    expect(p.payText).toBe('立即兑换');
    const reads = t.api.callsTo('/api/user/profile').length;
    await p.submit();
    await settle();
    expect(root.ui.toasts.at(-1)).toMatchObject({ type: 'success', message: '兑换成功' });
    expect(p.isOpen).toBe(false);
    expect(t.api.callsTo('/api/user/profile').length).toBe(reads + 1);
    root.dispose();
  });

  it("20160: a minor confirms the charge reminder and the submit goes again with confirm = 1; 20151 is the minor pay alert", async () => {
    const { p, t, root } = await opened('time');
    t.api.on('POST', PurchasePaths.submit, (body) => {
      if ((body as { confirm: number }).confirm !== 1) fail(20160, '您是未成年人，本次充值需在监护人同意后进行，确认继续充值吗？');
      fail(20151, '根据国家相关规定，8周岁以上未满16周岁的用户，单次充值金额不得超过50元，每月充值金额累计不得超过200元');
    });
    void p.submit();
    await settle();
    const ask = root.ui.messageBoxes.at(-1)!;
    expect([ask.message, ask.confirmText]).toEqual(['您是未成年人，本次充值需在监护人同意后进行，确认继续充值吗？', '确认充值']);
    ask.resolve(true);
    await settle(60);
    const confirms = t.api.callsTo(PurchasePaths.submit).map((c) => (c.body as { confirm: number }).confirm);
    expect(confirms).toEqual([0, 1]);
    const alert = root.ui.messageBoxes.at(-1)!;
    expect([alert.title, alert.confirmText, alert.showCancel]).toEqual(['温馨提示', '好的', false]);
    expect(alert.message).toContain('单次充值金额不得超过50元');
    root.dispose();
  });

  it('20110: the recharge prompt; 去充值 opens the coin purchase, cancel reopens the pay dialog', async () => {
    const { p, t, root } = await opened('time');
    t.api.on('POST', PurchasePaths.submit, () => fail(20110, '余额不足'));
    p.setPayMethod('yunyoubi');
    void p.submit();
    await settle();
    expect(p.hidden).toBe(true);
    const box = root.ui.messageBoxes.at(-1)!;
    expect(box).toMatchObject({ message: PurchaseText.COIN_SHORT, confirmText: '去充值' });
    box.resolve(false);
    await settle();
    expect(p.hidden).toBe(false);
    // every press of the pay button is a submit of its own
    void p.submit();
    await settle();
    root.ui.messageBoxes.at(-1)!.resolve(false);
    await settle();
    const keys = t.api.callsTo(PurchasePaths.submit).map((c) => c.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
    expect(p.type).toBe('time');
    expect(p.step).toBe('list');

    void p.submit();
    await settle();
    root.ui.messageBoxes.at(-1)!.resolve(true);
    await settle(60);
    expect(p.isOpen).toBe(true);
    expect(p.type).toBe('coin');
    expect(t.api.callsTo(PurchasePaths.sectionGoods).at(-1)!.body).toEqual({ section_key: 'shop_card_coin' });
    root.dispose();
  });

  it('another refusal shows its message and leaves the dialog as it was', async () => {
    const { p, t, root } = await opened('time');
    t.api.on('POST', PurchasePaths.submit, () => fail(40000, '商品已下架'));
    await p.submit();
    await settle();
    expect(root.ui.toasts.at(-1)).toMatchObject({ type: 'error', message: '商品已下架' });
    expect(p.isOpen).toBe(true);
    expect(p.step).toBe('list');
    root.dispose();
  });
});

describe('where purchases open (commerce.md §2.9, §2.10)', () => {
  it("'立即加速' of the queue opens the queue acceleration; the use-up '好的' and the time-up '去充值' the yoodo for time run out", async () => {
    const env = await setup();
    env.root.queue.accelerate();
    await settle(60);
    expect(env.root.purchase?.isOpen).toBe(true);
    expect(env.t.api.callsTo(PurchasePaths.sectionGoods).at(-1)!.body).toEqual({ section_key: 'shop_queue_accelerate' });

    env.root.purchase!.close();
    env.root.playTime.openUseUp(7);
    env.root.playTime.topUp();
    await settle(60);
    expect(env.root.playTime.useUp).toBeNull();
    expect(env.root.purchase?.type).toBe('yoodo_time_useup');
    expect(env.root.purchase?.gameId).toBe(7);
    expect(env.t.api.callsTo(PurchasePaths.sectionGoods).at(-1)!.body).toEqual({ section_key: 'shop_time_useup_yoodo' });
    env.root.dispose();
  });
});
