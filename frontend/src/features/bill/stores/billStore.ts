import type { OrderRecord } from '../../../api/types';
import { PagedList } from '../../../lib/pagedList';
import type { Api } from '../../../transport/types';

export const BILL_PAGE_SIZE = 20;

/** An order's state as the bill shows it. */
export function orderStateText(state: string): string {
  switch (state) {
    case 'fulfilled':
    case 'paid':
      return '已支付';
    case 'created':
      return '待支付';
    case 'cancelled':
      return '已取消';
    case 'expired':
      return '已过期';
    case 'refunded':
      return '已退款';
    default:
      return state;
  }
}

/** The purchase records of the bill (GET user/order), a page at a time, newest first. */
export class BillStore extends PagedList<OrderRecord> {
  constructor(api: Api) {
    super((page, page_size) => api.get('/api/v3/user/order', { page, page_size }), BILL_PAGE_SIZE);
  }
}
