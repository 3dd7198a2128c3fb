import type { BackpackCard, Coupon } from '../../../api/types';
import { yuan } from '../../../lib/purchase';
import { formatDateTime } from '../../../lib/time';
import { thresholdText } from './CouponRow';

/** A coupon's status line (commerce.md §2.13): invalid, used on …, expired, or its expiry. */
export function couponStatusText(c: Coupon): string {
  if (c.status === 3) return '已失效';
  if (c.status === 1) return c.used_at ? `已于${formatDateTime(c.used_at)}使用` : '已使用';
  if (c.status === 2) return '已过期';
  return c.near_expiration ? `${formatDateTime(c.expires_at)}后过期` : `有效期至${formatDateTime(c.expires_at)}`;
}

/** A coupon in the backpack's coupons tab. */
export function CouponItem({ card, coupon }: { card: BackpackCard; coupon: Coupon }) {
  return (
    <li className={`backpack__item coupon-card${coupon.status === 0 ? '' : ' is-done'}`} data-testid={`backpack-card-${card.id}`}>
      <div className="coupon-card__face">¥{yuan(coupon.face_value)}</div>
      <div className="backpack__body">
        <div className="backpack__name">
          {coupon.goods_title}
          {coupon.supermarket && <span className="coupon-card__tag">超市专享</span>}
        </div>
        <div className="backpack__desc">{thresholdText(coupon.min_order_money)}</div>
        <div
          className={`backpack__expiry${coupon.near_expiration && coupon.status === 0 ? ' is-near coupon-card__near' : ''}`}
          data-testid={`coupon-status-${card.id}`}
        >
          {couponStatusText(coupon)}
        </div>
      </div>
    </li>
  );
}
