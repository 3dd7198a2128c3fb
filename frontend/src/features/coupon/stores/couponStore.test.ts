import { describe, expect, it } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { makeRoot, settle } from '../../../test/helpers';
import { PurchasePaths } from '../../purchase/stores/purchaseStore';
import { CouponPaths, couponRowText, disabledReason } from './couponStore';

const WECHAT = { payCode: 'wechat', payType: 0, payName: '微信支付', desc: '' };

function coupon(id: number, face: number, usable: number) {
  return {
    id,
    sid: `s${id}`,
    goods_title: `券${id}`,
    goods_code: '',
    goods_types: [2],
    face_value: face,
    usable,
    min_order_money: 0,
    supermarket: false,
    status: 0,
    expires_at: 0,
    near_expiration: false,
    used_at: null,
    source: 'welcome',
  };
}

describe('coupon rules', () => {
  it('the row text and the disabled reasons of §2.5 and §5', () => {
    expect(couponRowText(2, false, 0)).toBe('2张可用');
    expect(couponRowText(0, false, 0)).toBe('暂无可用优惠券');
    expect(couponRowText(2, true, 500)).toBe('已优惠5元');
    expect(couponRowText(1, true, 250)).toBe('已优惠2.5元');
    expect(disabledReason(-1)).toBe('未达门槛');
    expect(disabledReason(-2)).toBe('商品不可用');
    expect(disabledReason(0)).toBe('不可用');
  });
});

describe('the purchase dialog with coupons', () => {
  async function opened() {
    const env = await makeRoot({ loggedIn: true, profile: { balance: 0 } as never });
    const { t } = env;
    const g = { id: 2, code: 'g2', type: 2, title: '时长', name: '', image: '', label: '', price: 1000, retail_price: 1000, member_price: 0, crossed_price: 0, month_price: 0, introduction: '', give_goods_name: '', external: { cycleable: false, first_price: 0 }, pay_types: [WECHAT] };
    t.api.on('GET', PurchasePaths.sectionGoods, () => ({ section_key: 'shop_card_time', name: '', instruction: '', goods: [g] }));
    t.api.on('GET', CouponPaths.list, () => ({ data: [coupon(7, 500, 1), coupon(8, 300, 1), coupon(9, 1000, -2)], usable_num: 2, ts: 0 }));
    t.api.on('GET', CouponPaths.check, (q: { goods_num: number; coupon_id?: number }) => {
      if (q.coupon_id === 9) fail(20261, '该商品不可使用此优惠券');
      const off = q.coupon_id === 7 ? 500 : q.coupon_id === 8 ? 300 : 0;
      return { use_coupons: [], discount_money: off, month_price: 0, pay_money: 1000 * q.goods_num - off, usable_num: 2, unit_price: 1000, retail_total: 1000 * q.goods_num, savings: off };
    });
    t.api.on('POST', PurchasePaths.submit, () => ({ order_no: 'O1', payable: 500, exchanged: false }));
    t.api.on('GET', PurchasePaths.qrcode, () => ({ qrcode: 'http://x', ticket: 'T' }));
    env.root.openPurchase('time');
    await settle(60);
    return { ...env, p: env.root.purchase! };
  }

  it('lists the coupons, applies one, clears it when chosen again, ignores a disabled one, re-checks on count and submits it', async () => {
    const { p, t } = await opened();
    const c = p.coupon;
    expect(c.rowText).toBe('2张可用');
    expect(p.totalFen).toBe(1000);
    c.choose(9);
    await settle(20);
    expect(c.chosenId).toBeNull();
    c.choose(7);
    await settle(20);
    expect(c.rowText).toBe('已优惠5元');
    expect(p.totalFen).toBe(500);
    expect(p.savedFen).toBe(500);
    c.choose(7);
    await settle(20);
    expect(c.chosenId).toBeNull();
    expect(p.totalFen).toBe(1000);
    c.choose(8);
    await settle(20);
    p.setCount(2);
    await settle(40);
    expect(c.chosenId).toBe(8);
    expect(p.totalFen).toBe(1700);
    const checks = t.api.callsTo(CouponPaths.check);
    expect(checks[checks.length - 1].body).toMatchObject({ goods_num: 2, coupon_id: 8 });
    await p.submit();
    expect(t.api.callsTo(PurchasePaths.submit)[0].body).toMatchObject({ goods_num: 2, coupon_id: 8 });
  });
});
