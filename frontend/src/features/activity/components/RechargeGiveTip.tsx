import { useEffect, useState } from 'react';
import type { RechargeGive } from '../../../api/types';
import { activityDisabled, activityStatus } from '../../../lib/activity';
import { useStores } from '../stores/context';

let cached: Promise<string> | null = null;

/** The recharge-gift activity's title while it runs ('' otherwise); read once per page load. */
function rechargeTitle(get: () => Promise<RechargeGive>): Promise<string> {
  if (!cached) {
    cached = get().then(
      (g) => (activityDisabled(activityStatus(g.startTime, g.endTime, g.sys_time)) ? '' : g.title),
      () => {
        cached = null;
        return '';
      },
    );
  }
  return cached;
}

/**
 * The coin pay method's recharge-bonus tooltip (commerce.md §2.5 item 8): the recharge-gift
 * activity's title and '去充值', which opens the coin recharge.
 */
export function RechargeGiveTip() {
  const root = useStores();
  const [title, setTitle] = useState('');
  useEffect(() => {
    let live = true;
    void rechargeTitle(() => root.api.get('/api/activity/recharge_give')).then((t) => {
      if (live) setTitle(t);
    });
    return () => {
      live = false;
    };
  }, [root]);
  if (!title) return null;
  return (
    <div className="recharge-tip" role="note" data-testid="recharge-give-tip">
      <span className="recharge-tip__title">{title}</span>
      <button type="button" className="btn btn--link btn--sm" onClick={() => root.openPurchase('coin')}>
        去充值
      </button>
    </div>
  );
}
