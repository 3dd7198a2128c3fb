import { describe, expect, it } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { makeRoot, settle } from '../../../test/helpers';
import { cartTotal, countdownText, GROUP_POLL_MS, transferLine, unitPrice, yuan2 } from '../../../lib/couponGroup';
import { CouponGroupPaths, CouponGroupStore, type GroupEffects } from './couponGroupStore';

const TIERS = [
  { min_num: 1, max_num: 9, price: 900 },
  { min_num: 10, max_num: 99, price: 800 },
];
const GOODS = [
  { id: 1, name: '10元时长券', skin: 'blue', prices: TIERS, face_value: 1000, valid_days: 30 },
  { id: 2, name: '30元VVIP会员券', skin: 'golden', prices: [{ min_num: 1, max_num: 9, price: 2700 }], face_value: 3000, valid_days: 30 },
];

/** Timers run by hand, a settable clock and a clipboard that may refuse. */
class FakeEffects implements GroupEffects {
  nowMs = 1_000_000;
  timers: { at: number; f: () => void }[] = [];
  copyFails = false;
  copied: string[] = [];
  setTimeout(f: () => void, ms: number): unknown {
    const t = { at: this.nowMs + ms, f };
    this.timers.push(t);
    return t;
  }
  clearTimeout(t: unknown): void {
    this.timers = this.timers.filter((x) => x !== t);
  }
  now(): number {
    return this.nowMs;
  }
  copy(text: string): Promise<void> {
    if (this.copyFails) return Promise.reject(new Error('denied'));
    this.copied.push(text);
    return Promise.resolve();
  }
  async advance(ms: number): Promise<void> {
    const end = this.nowMs + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.nowMs = next.at;
      next.f();
      await settle(20);
    }
    this.nowMs = end;
  }
}

async function setup(status = 1) {
  const env = await makeRoot({ loggedIn: true });
  const { t } = env;
  t.api.on('GET', CouponGroupPaths.appInfo, () => ({ status }));
  t.api.on('GET', CouponGroupPaths.goods, () => ({ data: GOODS, total: 2 }));
  t.api.on('POST', CouponGroupPaths.config, () => ({ rules: '1. 规则一\n2. 规则二' }));
  const fx = new FakeEffects();
  const store = new CouponGroupStore(env.root, fx);
  await store.load();
  return { ...env, store, fx };
}

function order(payMethod: string) {
  return {
    order: { order_no: 'G1', payable: 10700, pay_method: payMethod, title: '10元时长券等11张', expires_at: 1_000_000 + 3 * 86_400_000 },
    items: [],
    pay_url: null,
  };
}

describe('coupon group rules', () => {
  it('tier prices, the cart total to 2 decimals and the countdown', () => {
    expect(unitPrice(TIERS, 0)).toBe(0);
    expect(unitPrice(TIERS, 9)).toBe(900);
    expect(unitPrice(TIERS, 10)).toBe(800);
    expect(unitPrice(TIERS, 100)).toBe(0);
    expect(cartTotal([{ id: 1, prices: TIERS, payCount: 10 }, { id: 2, prices: TIERS, payCount: 0 }])).toBe(8000);
    expect(yuan2(16100)).toBe('161.00');
    expect(yuan2(905)).toBe('9.05');
    expect(countdownText(3 * 86_400)).toBe('3天0小时0分钟');
    expect(countdownText(3_660)).toBe('1小时1分钟');
    expect(countdownText(59)).toBe('0分钟');
    expect(transferLine(86_400 + 120)).toBe('请在1天0小时2分钟内完成转账');
  });
});

describe('CouponGroupStore', () => {
  it('prices the cart by tiers, counts only active lines and clears', async () => {
    const { store, root } = await setup();
    expect(store.open).toBe(true);
    await settle();
    expect(store.rules).toEqual(['1. 规则一', '2. 规则二']);
    store.setCount(1, '10');
    store.setCount(2, '1');
    expect(store.totalFen).toBe(10 * 800 + 2700);
    store.setCount(2, '');
    expect(store.active.map((l) => l.id)).toEqual([1]);
    store.clear();
    expect(store.totalFen).toBe(0);
    store.openDialog();
    expect(store.dialogOpen).toBe(false);
    expect(root.ui.toasts.at(-1)?.message).toBe('商品列表为空');
  });

  it('a closed merchant area reads no goods', async () => {
    const { store, t } = await setup(0);
    expect(store.open).toBe(false);
    expect(t.api.callsTo(CouponGroupPaths.goods)).toHaveLength(0);
  });

  it('a bank transfer: the bankResult step, the poll every 5 s for 120 s, then 已付款完成 and the manual check', async () => {
    const { store, t, fx, root } = await setup();
    let status = 'pending';
    t.api.on('POST', CouponGroupPaths.submit, () => order('bank'));
    t.api.on('GET', CouponGroupPaths.query, () => ({ status, order: {} }));
    t.api.on('GET', CouponGroupPaths.bankConfig, () => ({ key: 'bank_pay_config', config: JSON.stringify({ limitTime: 259200, sections: [] }), content: {} }));
    store.setCount(1, 11);
    store.setPayMethod('bank');
    store.openDialog();
    await store.submit();
    await settle();
    expect(store.step).toBe('bankResult');
    expect(store.title).toBe('对公转账说明');
    expect(store.bank?.limitTime).toBe(259200);
    expect(store.secondsLeft()).toBe(3 * 86_400);
    const body = t.api.callsTo(CouponGroupPaths.submit)[0].body as { pay_method: string; goods: string };
    expect(body.pay_method).toBe('bank');
    expect(JSON.parse(body.goods)).toEqual([{ id: 1, num: 11 }]);
    await fx.advance(GROUP_POLL_MS);
    expect(t.api.callsTo(CouponGroupPaths.query)).toHaveLength(1);
    await fx.advance(110_000);
    expect(store.pollStopped).toBe(false);
    await fx.advance(10_000);
    expect(store.pollStopped).toBe(true);
    const asked = t.api.callsTo(CouponGroupPaths.query).length;
    expect(asked).toBeLessThanOrEqual(24);
    await fx.advance(60_000);
    expect(t.api.callsTo(CouponGroupPaths.query)).toHaveLength(asked);
    await store.manualCheck();
    expect(root.ui.toasts.at(-1)?.message).toBe('暂未收到您的支付记录，如半小时后仍未到账请联系客服！');
    status = 'success';
    await store.manualCheck();
    expect(store.step).toBe('result');
    expect(store.totalFen).toBe(0);
  });

  it('a QR payment is paid by the poll; closing stops it', async () => {
    const { store, t, fx } = await setup();
    let status = 'pending';
    t.api.on('POST', CouponGroupPaths.submit, () => order('wechat'));
    t.api.on('GET', CouponGroupPaths.qrcode, () => ({ qrcode: 'http://pay/G1', ticket: 'T' }));
    t.api.on('GET', CouponGroupPaths.query, () => ({ status, order: {} }));
    store.setCount(1, 2);
    store.openDialog();
    await store.submit();
    expect(store.step).toBe('qrcode');
    expect(store.qrUrl).toBe('http://pay/G1');
    await fx.advance(GROUP_POLL_MS);
    status = 'success';
    await fx.advance(GROUP_POLL_MS);
    expect(store.step).toBe('result');

    store.setCount(1, 2);
    store.openDialog();
    status = 'pending';
    await store.submit();
    store.close();
    const before = t.api.callsTo(CouponGroupPaths.query).length;
    await fx.advance(30_000);
    expect(t.api.callsTo(CouponGroupPaths.query)).toHaveLength(before);
  });

  it('copies with 复制成功 / 复制失败 and redeems a key', async () => {
    const { store, t, fx, root } = await setup();
    await store.copy('6222');
    expect(fx.copied).toEqual(['6222']);
    expect(root.ui.toasts.at(-1)?.message).toBe('复制成功');
    fx.copyFails = true;
    await store.copy('6222');
    expect(root.ui.toasts.at(-1)?.message).toBe('复制失败');
    t.api.on('POST', CouponGroupPaths.redeem, (b: { key: string }) => {
      if (b.key !== 'GOOD') fail(20194, '兑换码已被使用');
      return { key: 'GOOD', goods_name: 'x', coupon_id: 1, coupon_title: '10元时长券', face_value: 1000, expires_at: 0 };
    });
    expect(await store.redeem('GOOD')).not.toBeNull();
    expect(root.ui.toasts.at(-1)?.message).toBe('兑换成功：10元时长券');
    expect(await store.redeem('USED')).toBeNull();
    expect(root.ui.toasts.at(-1)?.message).toBe('兑换码已被使用');
  });
});
