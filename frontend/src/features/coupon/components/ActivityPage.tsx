import { observer } from 'mobx-react-lite';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { CouponActivity } from '../../../api/types';
import { yuan } from '../../../lib/purchase';
import { isMemberProduct, isVvipProduct } from '../../../lib/products';
import { useStores } from '../stores/context';
import { errorMessage } from '../../../transport/apiError';
import { thresholdText } from './CouponRow';
import '../coupon.css';

/** The limited-time coupon activity's calls (commerce.md §7 "Merchant and activities"). */
export const ActivityPaths = {
  item: '/api/v3/shop/activity/item',
  receive: '/api/v3/shop/activity/goods/get',
  totals: '/api/v3/user/card/goods/total',
} as const;

/** How many coupons and SKUs the page shows (commerce.md §2.16). */
const SHOWN = 2;

/** Receiving is allowed for a guest, or while fewer than 2 coupon statistics have remain > 0. */
export function canReceive(loggedIn: boolean, remains: number[]): boolean {
  return !loggedIn || remains.filter((r) => r > 0).length < SHOWN;
}

const STATUS_TEXT = ['活动未开始', '活动进行中', '活动已结束'];

/** /activity/coupon?activity_id=N: the limited-time coupon activity (commerce.md §2.16, §4.13). */
export const ActivityPage = observer(function ActivityPage() {
  const root = useStores();
  const { api, user, ui } = root;
  const [params] = useSearchParams();
  const id = Number(params.get('activity_id') ?? '1') || 1;
  const [activity, setActivity] = useState<CouponActivity | null>(null);
  const [remains, setRemains] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const loggedIn = user.isLoggedIn;

  const load = useCallback(async () => {
    try {
      const a = await api.get(ActivityPaths.item, { activity_id: id });
      setActivity(a);
      if (loggedIn && a.coupons.length > 0) {
        const t = await api.get(ActivityPaths.totals, { goods_codes: a.coupons.map((c) => c.sid).join(',') });
        setRemains(t.map((s) => s.remain));
      } else {
        setRemains([]);
      }
    } catch (e) {
      ui.error(errorMessage(e));
    }
  }, [api, id, loggedIn, ui]);

  useEffect(() => {
    void load();
  }, [load]);

  const receive = async () => {
    if (!loggedIn) {
      ui.openLogin();
      return;
    }
    setBusy(true);
    try {
      await api.post(ActivityPaths.receive, { activity_id: id });
      ui.success('领取成功');
      await load();
    } catch (e) {
      ui.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  if (!activity) return <div className="page container" />;
  const allowed = activity.status === 1 && canReceive(loggedIn, remains) && !activity.received;
  return (
    <div className="activity-page" data-testid="coupon-activity">
      <h1>{activity.title}</h1>
      <p>
        {STATUS_TEXT[activity.status] ?? ''} · {activity.startTime} 至 {activity.endTime}
      </p>
      <div className="activity-page__coupons">
        {activity.coupons.slice(0, SHOWN).map((c) => (
          <div key={c.sid} className="activity-page__coupon">
            <div className="coupon-card__face">¥{yuan(c.face_value)}</div>
            <div>{c.goods_title}</div>
            <div>{thresholdText(c.min_order_money)}</div>
          </div>
        ))}
      </div>
      <button type="button" className="btn btn--primary" data-testid="activity-receive" disabled={!allowed || busy} onClick={() => void receive()}>
        {activity.received ? '已领取' : '立即领取'}
      </button>
      <div className="activity-page__skus">
        {activity.goods.slice(0, SHOWN).map((g) => (
          <div key={g.code} className="activity-page__sku">
            <div>{g.title}</div>
            <div>
              券后¥{yuan(g.extra.coupon_price)} <s>¥{yuan(g.retail_price)}</s>
            </div>
            <button
              type="button"
              className="btn btn--primary btn--sm"
              data-testid={`activity-buy-${g.code}`}
              onClick={() =>
                // the purchase dialog opened on this SKU (commerce.md §2.16)
                api.get('/api/v3/shop/goods/item', { goods_code: g.code }).then(
                  (goods) =>
                    root.openPurchase(isMemberProduct(goods.type) ? 'member' : 'time', {
                      goods,
                      category: isVvipProduct(goods.type) ? 'vvip' : 'vip',
                    }),
                  (e: unknown) => ui.error(errorMessage(e)),
                )
              }
            >
              立即购买
            </button>
          </div>
        ))}
      </div>
    </div>
  );
});
