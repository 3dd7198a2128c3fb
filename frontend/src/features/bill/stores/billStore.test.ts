import { FakeApi } from '../../../test/fakeTransport';
import { BILL_PAGE_SIZE, BillStore, orderStateText } from './billStore';

const order = (n: number) => ({ order_no: `O${n}`, comment: '畅玩时长5小时', created_at: 1_790_000_000, total_paid: 600, state: 'fulfilled', pay_method: 'wechat', goods_type: 2 });

describe('BillStore', () => {
  it('reads the purchase records a page at a time', async () => {
    const api = new FakeApi();
    api.on('GET', '/api/v3/user/order', (q) => ({ total: 45, data: [order(Number(q.page))], ts: 0 }));
    const b = new BillStore(api);
    await b.load(1);
    expect(api.calls[0].body).toEqual({ page: 1, page_size: BILL_PAGE_SIZE });
    expect(b.pages).toBe(3);
    await b.load(3);
    expect(b.items[0].order_no).toBe('O3');
  });

  it('state texts', () => {
    expect(orderStateText('fulfilled')).toBe('已支付');
    expect(orderStateText('created')).toBe('待支付');
    expect(orderStateText('refunded')).toBe('已退款');
  });
});
