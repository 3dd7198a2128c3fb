import { describe, expect, it } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { makeRoot, settle } from '../../../test/helpers';
import { PurchasePaths } from '../../purchase/stores/purchaseStore';
import { AD_SLOTS_PATH, adStoreOf } from './adStore';

const WECHAT = { payCode: 'wechat', payType: 0, payName: '微信支付', desc: '' };

function ad(id: number, over: Record<string, unknown> = {}) {
  return {
    id,
    title: `广告${id}`,
    target_title: '',
    image: '',
    target_type: 5,
    target_value: 'useup_60',
    need_login: true,
    sort: 0,
    start_at: 0,
    end_at: 0,
    pay_times: 2,
    paid_times: 0,
    out_of_pay_times: false,
    ...over,
  };
}

const GOODS = {
  id: 151,
  code: 'useup_60',
  type: 2,
  title: '续玩时长1小时',
  name: '续玩时长1小时',
  image: '',
  label: '',
  price: 200,
  retail_price: 200,
  member_price: 0,
  crossed_price: 0,
  month_price: 0,
  introduction: '',
  give_goods_name: '',
  external: { cycleable: false, first_price: 0 },
  pay_types: [WECHAT],
};

async function setup(loggedIn: boolean, slots: Record<string, unknown[]>) {
  const env = await makeRoot({ loggedIn });
  env.t.api.on('GET', AD_SLOTS_PATH, (q: { keys: string }) => q.keys.split(',').map((key) => ({ key, items: slots[key] ?? [] })));
  env.t.api.on('GET', PurchasePaths.goodsItem, () => GOODS);
  return { ...env, ads: adStoreOf(env.root) };
}

describe('ad slots (commerce.md §2.15)', () => {
  it('the slots shown in one turn are read in one request; a slot without items has none', async () => {
    const { t, ads } = await setup(false, { header_right: [ad(1)], gift_playtime_useup: [ad(2), ad(3, { target_type: 3, target_value: 'buyCoin' })] });
    ads.want('header_right');
    ads.want('gift_playtime_useup');
    ads.want('member_expire');
    expect(ads.loaded('header_right')).toBe(false);
    await settle();
    const reads = t.api.callsTo(AD_SLOTS_PATH);
    expect(reads).toHaveLength(1);
    expect(reads[0].body).toEqual({ keys: 'header_right,gift_playtime_useup,member_expire' });
    expect(ads.items('gift_playtime_useup').map((i) => i.id)).toEqual([2, 3]);
    expect(ads.loaded('member_expire')).toBe(true);
    expect(ads.items('member_expire')).toEqual([]);
    ads.want('header_right');
    await settle();
    expect(t.api.callsTo(AD_SLOTS_PATH)).toHaveLength(1);
  });

  it('a type-4 item, and one the server says is out of pay times, is not clickable', async () => {
    const { ads } = await setup(false, {
      s: [ad(1, { target_type: 4, target_value: '{"type":"goods","section_key":"shop_card_coin"}' }), ad(2, { out_of_pay_times: true }), ad(3)],
    });
    ads.want('s');
    await settle();
    const [json, out, ok] = ads.items('s');
    expect([ads.clickable(json), ads.clickable(out), ads.clickable(ok)]).toEqual([false, false, true]);
    expect(ads.isOut(out)).toBe(true);
  });

  it('need_login: a guest gets the login dialog first, no purchase', async () => {
    const { t, root, ads } = await setup(false, { s: [ad(7)] });
    ads.want('s');
    await settle();
    ads.click(ads.items('s')[0]);
    await settle();
    expect(root.ui.loginOpen).toBe(true);
    expect(t.api.callsTo(PurchasePaths.goodsItem)).toHaveLength(0);
  });

  it('a section ad opens its goods; the order carries the ad; 70109 marks it out of pay times', async () => {
    const { t, root, ads } = await setup(true, { s: [ad(7)] });
    let limit = false;
    t.api.on('POST', PurchasePaths.submit, () => {
      if (limit) fail(70109, '该商品购买次数已达上限');
      return { order_no: 'O1', payable: 200, exchanged: false };
    });
    t.api.on('GET', PurchasePaths.qrcode, () => ({ qrcode: 'http://127.0.0.1/api/dev/pay/O1', ticket: 'T1' }));
    ads.want('s');
    await settle();
    ads.click(ads.items('s')[0]);
    await settle(60);
    const p = root.purchase!;
    expect(p.isOpen).toBe(true);
    expect(p.goods[0].code).toBe('useup_60');
    await p.submit();
    await settle();
    expect(t.api.callsTo(PurchasePaths.submit)[0].body).toMatchObject({ goods_code: 'useup_60', ad_id: 7 });
    // the order counts against the ad: its slot is read again
    expect(t.api.callsTo(AD_SLOTS_PATH)).toHaveLength(2);
    p.close();

    limit = true;
    ads.click(ads.items('s')[0]);
    await settle(60);
    await root.purchase!.submit();
    await settle();
    expect(ads.isOut(ads.items('s')[0])).toBe(true);
    expect(ads.clickable(ads.items('s')[0])).toBe(false);
    expect(root.purchase!.isOpen).toBe(false);
    expect(root.ui.toasts.map((x) => x.message)).toContain('该商品购买次数已达上限');
  });

  it('another user: the shown slots are read again', async () => {
    const { t, root, ads, setLoggedIn } = await setup(false, { s: [ad(1)] });
    ads.want('s');
    await settle();
    setLoggedIn(true);
    await root.user.loadProfile();
    await settle();
    expect(t.api.callsTo(AD_SLOTS_PATH).length).toBeGreaterThanOrEqual(2);
  });
});
