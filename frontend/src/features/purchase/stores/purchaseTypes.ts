// The purchase dialog's vocabulary (commerce.md §7, §8): its calls, the codes it reacts to, its
// texts, the coin pay code, the order's idempotency key, the QR step and the result.
import type { DataOf, Goods } from '../../../api/types';
import type { QrStateCode } from '../../../lib/purchase';

/** The purchase calls (commerce.md §7). */
export const PurchasePaths = {
  sectionGoods: '/api/web/v1/section/goods',
  goodsItem: '/api/v3/shop/goods/item',
  submit: '/api/payment/goods',
  qrcode: '/api/v3/qrcode/generate',
  polling: '/api/v3/payment/order/polling',
  query: '/api/payment/query',
} as const;

/** Codes of commerce.md §8 the dialog reacts to by number. */
export const PurchaseCode = {
  COIN_NOT_ENOUGH: 20110,
  NEED_PHONE: 20107,
} as const;

export const PurchaseText = {
  EMPTY_LIST: '商品列表为空',
  NO_PACKAGES: '获取游戏订阅包列表错误',
  EXCHANGED: '兑换成功',
  PAID: '支付成功',
  COIN_SHORT_TITLE: '余额不足',
  COIN_SHORT: '您的云游币余额不足，请先充值',
  COIN_SHORT_OK: '去充值',
  PHONE_TITLE: '绑定手机号',
  PHONE_FALLBACK: '根据相关法律法规，为保障您的账户安全，体验当前功能需绑定手机号哦~',
  PHONE_OK: '去绑定',
  RENEW_TITLE: '确认开通',
  RENEW_TEXT: '开通前请阅读并同意《会员服务协议》和《自动续费服务协议》',
  RENEW_OK: '同意并支付',
} as const;

/** The pay code of paying with the platform coin (commerce.md §9). */
export const COIN_PAY_CODE = 'yunyoubi';

/** A fresh `Idempotency-Key` (1–64 visible ASCII characters, API.md). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}


/** The QR step (commerce.md §2.5, §4.3) of one order. */
export interface QrView {
  state: QrStateCode;
  /** what the QR encodes: the pay page's address; empty until generated */
  url: string;
  ticket: string;
}

/** The result step: what was bought. */
export interface PurchaseResult {
  title: string;
  count: number;
}

/**
 * A game package's durations (speci_list, months) as the products to choose from ('订阅时长',
 * commerce.md §2.6); a package without durations is its own product.
 */
export function subscriptionGoods(item: DataOf<'/api/shop/goods/game-package/item', 'get'>): Goods[] {
  return item.speci_list.length
    ? item.speci_list.map((s) => ({
        ...item,
        id: s.id,
        code: s.goods_code,
        goods_code: s.goods_code,
        title: s.title,
        face_value: s.face_value,
        face_value_txt: s.face_value_txt,
        retail_price: s.retail_price,
        member_price: s.member_price,
        crossed_price: s.crossed_price,
        month_price: s.month_price,
        price: s.retail_price,
        speci_list: [],
      }))
    : [item];
}
