import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreProvider } from '../../../kernel/storeContext';
import { PurchasePaths } from '../stores/purchaseStore';
import { fail } from '../../../test/fakeTransport';
import { answerCouponCheck, makeRoot, settle, type PricedGoods } from '../../../test/helpers';
import { QrState } from '../../../lib/purchase';
import { PurchaseDialog } from './PurchaseDialog';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const WECHAT = { payCode: 'wechat', payType: 0, payName: '微信支付', desc: '' };
const COIN = { payCode: 'yunyoubi', payType: 7, payName: '云游币', desc: '' };

function goods(id: number, over: Record<string, unknown> = {}) {
  return {
    id,
    code: `g${id}`,
    type: 2,
    title: `商品${id}`,
    name: `商品${id}`,
    image: '',
    label: '',
    price: 1000,
    retail_price: 1200,
    member_price: 0,
    crossed_price: 1200,
    month_price: 0,
    introduction: '第一行\n第二行',
    give_goods_name: '',
    external: { cycleable: false, first_price: 0 },
    pay_types: [WECHAT, COIN],
    ...over,
  };
}

async function mount(sections: Record<string, unknown[]>) {
  const env = await makeRoot({ loggedIn: true });
  env.t.api.on('GET', PurchasePaths.sectionGoods, (q: { section_key: string }) => ({ section_key: q.section_key, name: '', instruction: '', goods: sections[q.section_key] ?? [] }));
  answerCouponCheck(env.t, Object.values(sections).flat() as PricedGoods[]);
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root: Root = createRoot(host);
  act(() =>
    root.render(
      <StoreProvider store={env.root}>
        <MemoryRouter>
          <PurchaseDialog />
        </MemoryRouter>
      </StoreProvider>,
    ),
  );
  const $ = (id: string) => host.querySelector<HTMLElement>(`[data-testid="${id}"]`);
  const $$ = (id: string) => [...host.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
  const open = async (type: Parameters<typeof env.root.openPurchase>[0]) => {
    env.root.openPurchase(type);
    await act(async () => {
      await env.root.loadPurchase();
      await settle(60);
    });
  };
  return { ...env, host, root, $, $$, open, done: () => (act(() => root.unmount()), env.root.dispose()) };
}

describe('the purchase dialog (commerce.md §2.5)', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('time: its title, four products per view, quantity, pay methods, total with savings, 立即支付', async () => {
    const m = await mount({ shop_card_time: [1, 2, 3, 4, 5].map((i) => goods(i)) });
    await m.open('time');
    expect(m.host.querySelector('.modal__title')!.textContent).toBe('购买游戏时长');
    expect(m.$('purchase-goods')!.dataset.perView).toBe('4');
    expect(m.$$('goods-card')).toHaveLength(4);
    expect(m.$$('goods-card')[0].getAttribute('aria-checked')).toBe('true');
    expect(m.$('purchase-count')).not.toBeNull();
    expect(m.$$('pay-wechat')).toHaveLength(1);
    act(() => {
      const input = m.$('purchase-count') as HTMLInputElement;
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(input, '3');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    // the server's total for 3 is not in yet: pending, not a figure computed here
    expect(m.$('purchase-total')!.textContent).toBe('¥…');
    expect(m.$('purchase-total')!.dataset.pending).toBe('true');
    expect(m.host.textContent).not.toContain('已为你节省');
    await act(() => settle(60));
    expect(m.$('purchase-total')!.dataset.pending).toBeUndefined();
    expect(m.$('purchase-total')!.textContent).toBe('¥30');
    expect(m.host.textContent).toContain('已为你节省¥6');
    expect(m.$('purchase-pay')!.textContent).toBe('立即支付');
    act(() => m.$('pay-yunyoubi')!.click());
    expect(m.$('purchase-pay')!.textContent).toBe('立即兑换');
    m.done();
  });

  it('member: three per view and the tabs 标准会员 / 高级会员', async () => {
    const m = await mount({ shop_vip: [1, 2, 3, 4].map((i) => goods(i, { type: 4 })) });
    await m.open('member');
    expect(m.host.querySelector('.modal__title')!.textContent).toBe('购买会员');
    expect(m.$('purchase-goods')!.dataset.perView).toBe('3');
    expect(m.$$('goods-card')).toHaveLength(3);
    expect(m.$('purchase-tab-vip')!.textContent).toBe('标准会员');
    expect(m.$('purchase-tab-vvip')!.textContent).toBe('高级会员');
    expect(m.$('purchase-count')).toBeNull();
    m.done();
  });

  it('the QR step: chosen goods, the QR of the pay page, the overlay per state, then 支付成功', async () => {
    const m = await mount({ shop_card_time: [goods(1)] });
    m.t.api.on('POST', PurchasePaths.submit, () => ({ order_no: 'O1', payable: 1000, exchanged: false }));
    m.t.api.on('GET', PurchasePaths.qrcode, () => ({ qrcode: 'http://127.0.0.1:8080/api/dev/pay/O1', ticket: 'T1' }));
    const answers: ((ok: boolean, code?: number) => void)[] = [];
    m.t.api.on(
      'POST',
      PurchasePaths.polling,
      () =>
        new Promise((resolve, reject) => {
          answers.push((ok, code) => {
            if (ok) resolve({ status: 'success' });
            else {
              try {
                fail(code!, '');
              } catch (e) {
                reject(e);
              }
            }
          });
        }),
    );
    await m.open('time');
    await act(async () => {
      m.$('purchase-pay')!.click();
      await settle(60);
    });
    expect(m.$('purchase-chosen')!.textContent).toBe('已选商品：商品1');
    expect(m.$('purchase-payable')!.textContent).toBe('¥10');
    const qr = m.$('purchase-qr')!;
    expect(qr.dataset.state).toBe(String(QrState.LOAD_SUCCESS));
    expect(qr.dataset.url).toBe('http://127.0.0.1:8080/api/dev/pay/O1');
    expect(qr.querySelector('svg path')!.getAttribute('d')!.length).toBeGreaterThan(100);
    expect(m.$('purchase-qr-overlay')).toBeNull();
    await act(async () => {
      answers.shift()!(false, 20143);
      await settle(60);
    });
    expect(m.$('purchase-qr-overlay')!.textContent).toBe('扫描成功请在手机上支付点击刷新');
    await act(async () => {
      answers.shift()!(true);
      await settle(60);
    });
    expect(m.$('purchase-result')!.textContent).toContain('支付成功');
    expect(m.$('purchase-result-line')!.textContent).toBe('您已成功购买 商品1');
    m.done();
  });
});
