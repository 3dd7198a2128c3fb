// The coupon group's pure rules (commerce.md §2.14, §4.4, §4.5 "Merchant cart", §5, §9): the
// tier price of a count, the cart's active items and total, the bank transfer's countdown and
// the payment poll's timings. Prices are fen, shown as yuan with 2 decimals.

/** A price tier as the server sends it. */
export interface PriceTier {
  min_num: number;
  max_num: number;
  price: number;
}

/** A cart line: the goods' tiers and the quantity chosen (payCount). */
export interface CartLine {
  id: number;
  prices: PriceTier[];
  payCount: number;
}

/** §4.4: the payment query every 5 s, stopping after 120 s. */
export const GROUP_POLL_MS = 5_000;
export const GROUP_POLL_STOP_MS = 120_000;

export const CouponGroupText = {
  TITLE: '卡券团购',
  BANK_TITLE: '对公转账说明',
  ACCOUNT: '团购账号',
  PAID_BUTTON: '已付款完成',
  NOT_RECEIVED: '暂未收到您的支付记录，如半小时后仍未到账请联系客服！',
  COPY: '复制',
  COPIED: '复制成功',
  COPY_FAILED: '复制失败',
  EMPTY: '商品列表为空',
  CLOSED: '商户功能暂未开放',
  REDEEMED: '兑换成功',
} as const;

/** The tier price of `count`: the tier with min_num ≤ count ≤ max_num, else 0 (§4.5). */
export function unitPrice(tiers: PriceTier[], count: number): number {
  return tiers.find((t) => t.min_num <= count && count <= t.max_num)?.price ?? 0;
}

/** The lines that count: payCount set and above 0 (§4.5, §5). */
export function activeLines<T extends CartLine>(lines: T[]): T[] {
  return lines.filter((l) => Number.isFinite(l.payCount) && l.payCount > 0);
}

/** The cart's total, fen: Σ unit × payCount over the active lines. */
export function cartTotal(lines: CartLine[]): number {
  return activeLines(lines).reduce((sum, l) => sum + unitPrice(l.prices, l.payCount) * l.payCount, 0);
}

/** Fen as yuan with exactly 2 decimals (the cart's total, §9): 16100 → '161.00'. */
export function yuan2(fen: number): string {
  return (Math.round(Number.isFinite(fen) ? fen : 0) / 100).toFixed(2);
}

/** A quantity typed into the cart: a whole number ≥ 0 (cleared: 0). */
export function parseCount(value: string | number): number {
  const n = typeof value === 'number' ? value : Number.parseInt(value, 10);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** The bank transfer's countdown from `limitTime` seconds: '{D天}{H小时}{m分钟}' (§2.5, §9). */
export function countdownText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3_600);
  const m = Math.floor((s % 3_600) / 60);
  return `${d > 0 ? `${d}天` : ''}${d > 0 || h > 0 ? `${h}小时` : ''}${m}分钟`;
}

/** '请在{D天H小时m分钟}内完成转账'. */
export function transferLine(seconds: number): string {
  return `请在${countdownText(seconds)}内完成转账`;
}
