import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { CardTotal, NightPlay } from '../../../api/types';
import { formatDateTime } from '../../../lib/time';
import { useStores } from '../stores/context';
import { backpackPath } from '../../backpack/stores/backpackStore';

/** A daily/night package row's text (commerce.md §2.4): '已过期' at status 2, else '{expired_at} 到期'. */
export function packageRowText(p: NightPlay): string {
  return p.status === 2 ? '已过期' : `${formatDateTime(p.expired_at)} 到期`;
}

/**
 * The user-centre card panel's package rows and footer (commerce.md §2.4): the daily and night
 * packages (hidden when exp_hide), an entry to /user/package, the 礼包 / 优惠券 counts of the
 * caller's unused holdings and the 收藏 count (social.md §2.17).
 */
export const CardPanelFooter = observer(function CardPanelFooter() {
  const { api, user } = useStores();
  const [totals, setTotals] = useState<CardTotal | null>(null);
  const [packages, setPackages] = useState<NightPlay[]>([]);
  useEffect(() => {
    let live = true;
    api.get('/api/v3/user/card/total').then(
      (t) => live && setTotals(t),
      () => undefined,
    );
    api.get('/api/v3/user/night-play/all').then(
      (list) => live && setPackages(list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api]);
  return (
    <div className="card-panel" data-testid="card-panel">
      {packages
        .filter((p) => !p.exp_hide)
        .map((p) => (
          <div key={p.type} className="card-panel__row" data-testid={`card-panel-package-${p.type}`}>
            <span>{p.name}</span>
            <span>{packageRowText(p)}</span>
            <Link to="/user/package" className="btn btn--ghost btn--sm">
              查看
            </Link>
          </div>
        ))}
      <div className="card-panel__footer">
        <Link to="/user/package" data-testid="card-panel-package">
          畅玩套餐
        </Link>
        <Link to={backpackPath('card')} data-testid="card-panel-gift">
          礼包 {totals?.gift ?? 0}
        </Link>
        <Link to={backpackPath('coupon')} data-testid="card-panel-coupon">
          优惠券 {totals?.coupon ?? 0}
        </Link>
        {/* social.md §2.17: 收藏 (the profile's collects) to /user/collect */}
        <Link to="/user/collect" data-testid="card-panel-collect">
          收藏 {user.profile?.collects ?? 0}
        </Link>
      </div>
    </div>
  );
});
