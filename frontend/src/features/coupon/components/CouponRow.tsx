import { observer } from 'mobx-react-lite';
import { yuan } from '../../../lib/purchase';
import { disabledReason, type CouponStore } from '../stores/couponStore';
import '../coupon.css';

/** '满X元可用' or '无门槛' (commerce.md §2.13). */
export function thresholdText(minFen: number): string {
  return minFen > 0 ? `满${yuan(minFen)}元可用` : '无门槛';
}

/**
 * The purchase dialog's coupon row (commerce.md §2.5 item 7) and its picker: 'N张可用',
 * '已优惠X元', '暂无可用优惠券'; in the picker '未使用优惠券' and each coupon, disabled with
 * its reason when it cannot be used (§5).
 */
export const CouponRow = observer(function CouponRow({ c }: { c: CouponStore }) {
  return (
    <div className="purchase__row coupon-row">
      <span className="purchase__label">优惠券</span>
      <button
        type="button"
        className={`coupon-row__value${c.chosenId !== null ? ' is-chosen' : ''}`}
        data-testid="coupon-row"
        disabled={c.coupons.length === 0}
        onClick={() => c.togglePicker()}
      >
        {c.rowText}
      </button>
      {c.pickerOpen && (
        <ul className="coupon-picker" data-testid="coupon-picker" role="listbox" aria-label="优惠券">
          <li>
            <button
              type="button"
              role="option"
              aria-selected={c.chosenId === null}
              className={`coupon-picker__none${c.chosenId === null ? ' is-active' : ''}`}
              onClick={() => c.choose(null)}
            >
              未使用优惠券
            </button>
          </li>
          {c.coupons.map((x) => (
            <li key={x.id}>
              <button
                type="button"
                role="option"
                aria-selected={c.chosenId === x.id}
                aria-disabled={x.usable <= 0}
                className={`coupon-picker__item${c.chosenId === x.id ? ' is-active' : ''}${x.usable <= 0 ? ' is-disabled' : ''}`}
                data-testid={`coupon-${x.id}`}
                onClick={() => c.choose(x.id)}
              >
                <span className="coupon-picker__face">¥{yuan(x.face_value)}</span>
                <span className="coupon-picker__title">{x.goods_title}</span>
                <span className="coupon-picker__rule">{thresholdText(x.min_order_money)}</span>
                {x.usable <= 0 && <span className="coupon-picker__reason">{disabledReason(x.usable)}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});
