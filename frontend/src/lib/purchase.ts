// The purchase dialog's pure rules (commerce.md §2.5, §4.1, §4.3, §5, §9): operation types and
// their sections and titles, the QR display states and their overlay actions, the quantity rule,
// fen shown as yuan. What is sold, at which price and with which pay methods comes from the server.
import { ProductType } from './products';

/** The purchase types of commerce.md §9 this client opens the dialog with. */
export type PurchaseType =
  | 'time'
  | 'queue'
  | 'queue_accelerate'
  | 'coin'
  | 'yoodo'
  | 'yoodo_time_useup'
  | 'shop_time_hangup_yoodo'
  | 'member'
  | 'member_special'
  | 'subscription';

/** Member category of the member dialogs (commerce.md §4.1). */
export type MemberCategory = 'vip' | 'vvip';

/** The dialog's steps (commerce.md §2.5). bankResult belongs to coupon groups (a later part). */
export type PurchaseStep = 'list' | 'detail' | 'qrcode' | 'result';

/** The section of `GET /api/web/v1/section/goods` each type lists (commerce.md §7). */
export function sectionKey(type: PurchaseType, category: MemberCategory): string | null {
  switch (type) {
    case 'time':
      return 'shop_card_time';
    case 'queue':
      return 'shop_card_queue';
    case 'queue_accelerate':
      return 'shop_queue_accelerate';
    case 'coin':
      return 'shop_card_coin';
    case 'yoodo':
      return 'shop_card_yoodo';
    case 'yoodo_time_useup':
      return 'shop_time_useup_yoodo';
    case 'shop_time_hangup_yoodo':
      return 'shop_time_hangup_yoodo';
    case 'member':
    case 'member_special':
      return category === 'vvip' ? 'shop_vvip' : 'shop_vip';
    case 'subscription':
      // a game's subscription packs come from the game-package call, not a section
      return null;
  }
}

export const isMemberType = (type: PurchaseType): boolean => type === 'member' || type === 'member_special';

/** Products per carousel view (commerce.md §9): 3 for member types, 4 for others. */
export const perView = (type: PurchaseType): number => (isMemberType(type) ? 3 : 4);

/** The dialog's title by operation type (commerce.md §2.5). */
export function purchaseTitle(type: PurchaseType, listName?: string | null): string {
  switch (type) {
    case 'member':
    case 'member_special':
      return '购买会员';
    case 'time':
      return '购买游戏时长';
    case 'queue':
      return '购买速进时长';
    case 'queue_accelerate':
      return '排队加速';
    case 'coin':
      return '云游币充值';
    case 'yoodo':
    case 'shop_time_hangup_yoodo':
      return '油豆充值';
    case 'yoodo_time_useup':
      return listName || '油豆充值';
    case 'subscription':
      return '购买订阅包';
  }
}

/** The title by product type, for a dialog opened on one product (commerce.md §2.5). */
export function productTitle(productType: number): string {
  switch (productType) {
    case ProductType.TIME:
      return '购买游戏时长';
    case ProductType.QUEUE:
      return '购买速进时长';
    case ProductType.VIP:
    case ProductType.VIP_NEW:
    case ProductType.VVIP:
    case ProductType.VVIP_NEW:
      return '购买会员';
    case ProductType.SUBSCRIPTION:
      return '购买订阅包';
    case ProductType.GIFT_1:
    case ProductType.GIFT_2:
      return '购买礼包';
    case ProductType.YOODO:
      return '油豆充值';
    case ProductType.VIP_UPGRADE:
      return '会员升级';
    case ProductType.DAILY_PACKAGE:
      return '购买日间畅玩包';
    case ProductType.NIGHT_PACKAGE:
      return '购买夜间畅玩包';
    default:
      return '购买';
  }
}

/** QR display states (commerce.md §4.3, reading B's numbers). */
export const QrState = {
  LOADING: 0,
  LOAD_SUCCESS: 1,
  LOAD_FAIL: 2,
  TIMEOUT: 3,
  SCAN_SUCCESS: 4,
  SCAN_CANCEL: 5,
  INVALID: 6,
} as const;
export type QrStateCode = (typeof QrState)[keyof typeof QrState];

/** The long poll's answers (commerce.md §8). */
export const QrCode = {
  TIMEOUT: 20140,
  CANCEL: 20141,
  WAITING: 20142,
  SCAN_SUCCESS: 20143,
} as const;

/** Other poll errors retry after this (commerce.md §9). */
export const QR_RETRY_MS = 10_000;

/** What the QR's overlay says and offers in a state (commerce.md §4.3); null = no overlay. */
export interface QrOverlay {
  text: string;
  /** refresh regenerates the QR; reorder goes back to the step before the QR */
  action: 'refresh' | 'reorder' | null;
  actionText: string;
}

export function qrOverlay(state: QrStateCode): QrOverlay | null {
  switch (state) {
    case QrState.LOAD_SUCCESS:
      return null;
    case QrState.LOADING:
      return { text: '二维码加载中', action: null, actionText: '' };
    case QrState.LOAD_FAIL:
      return { text: '二维码加载失败', action: 'refresh', actionText: '点击刷新' };
    case QrState.TIMEOUT:
      return { text: '二维码已过期', action: 'refresh', actionText: '点击刷新' };
    case QrState.SCAN_SUCCESS:
      return { text: '扫描成功<br />请在手机上支付', action: 'refresh', actionText: '点击刷新' };
    case QrState.SCAN_CANCEL:
      return { text: '已取消支付', action: 'refresh', actionText: '点击刷新' };
    case QrState.INVALID:
      return { text: '订单已失效', action: 'reorder', actionText: '点击重新下单' };
  }
}

/** Purchase quantity (commerce.md §5, §9): an integer 1–100; cleared or not a number resets to 1. */
export const MIN_COUNT = 1;
export const MAX_COUNT = 100;

export function clampCount(input: string | number): number {
  const n = typeof input === 'number' ? input : input.trim() === '' ? NaN : Number(input);
  if (!Number.isFinite(n)) return MIN_COUNT;
  return Math.min(MAX_COUNT, Math.max(MIN_COUNT, Math.floor(n)));
}

/** The quantity shows only for time or coin operations or TIME products (commerce.md §5). */
export const showsCount = (type: PurchaseType, productType: number | undefined): boolean =>
  type === 'time' || type === 'coin' || productType === ProductType.TIME;

/** The unit of an auto-renew plan by its months (commerce.md §3 renewal plans, §9: 1, 3, 12). */
export function renewalUnit(months: number): string {
  if (months === 3) return '季';
  if (months === 12) return '年';
  return '月';
}

/** Fen as yuan with two decimals, trailing zeros dropped: 1990 → '19.9', 600 → '6'. */
export function yuan(fen: number): string {
  const v = Math.round(Number.isFinite(fen) ? fen : 0);
  const sign = v < 0 ? '-' : '';
  const abs = Math.abs(v);
  const whole = Math.floor(abs / 100);
  const cents = abs % 100;
  if (cents === 0) return `${sign}${whole}`;
  return `${sign}${whole}.${String(cents).padStart(2, '0').replace(/0$/, '')}`;
}

/** The result step's line (commerce.md §2.5): '您已成功购买 {title} [xN] [- N个月]'. */
export function boughtLine(title: string, count: number, months?: number | null): string {
  return `您已成功购买 ${title}${count > 1 ? ` x${count}` : ''}${months ? ` - ${months}个月` : ''}`;
}

/** '已选商品：{title}' of the QR step, with 'xN' when more than one (commerce.md §2.5). */
export function chosenLine(title: string, count: number, months?: number | null): string {
  return `已选商品：${title}${count > 1 ? ` x${count}` : ''}${months ? ` - ${months}个月` : ''}`;
}
