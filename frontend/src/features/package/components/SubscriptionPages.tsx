import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { openOutside } from '../../../lib/carMode';
import { yuan } from '../../../lib/purchase';
import { formatDateTime } from '../../../lib/time';
import { useStores } from '../stores/context';
import { SubscriptionStore } from '../stores/subscriptionStore';
import '../package.css';

/** /user/subscription: the player's subscriptions, each with its zone. */
export const SubscriptionPage = observer(function SubscriptionPage() {
  const { user, ui, api } = useStores();
  const [store] = useState(() => new SubscriptionStore(api));
  const loggedIn = user.isLoggedIn;
  useEffect(() => {
    if (loggedIn) void store.loadMine();
  }, [store, loggedIn]);

  if (!user.ready) return <div className="page container" />;
  if (!loggedIn) {
    return (
      <div className="status-page">
        <h1 className="status-page__title">登录后查看我的订阅</h1>
        <button type="button" className="btn btn--primary" onClick={() => ui.openLogin()}>
          登录
        </button>
      </div>
    );
  }
  const subs = store.subscriptions;
  return (
    <div className="page container package" data-testid="subscription-page">
      <h1>我的订阅</h1>
      {subs !== null && subs.length === 0 && <p className="package__empty">暂无订阅</p>}
      <ul className="package__popover">
        {(subs ?? []).map((s) => (
          <li key={`${s.package_id}-${s.game.id}`} className="package__record" data-testid="subscription-item">
            <span>{s.title}</span>
            <span>{s.game.name}</span>
            <span>{s.status === 1 ? `${formatDateTime(s.expired_at)} 到期` : '已过期'}</span>
            {s.package_id > 0 && (
              <a
                href={`/subscription/${s.package_id}`}
                target="_blank"
                rel="noreferrer"
                data-testid="subscription-zone-link"
                onClick={(e) => {
                  e.preventDefault();
                  openOutside(ui, `/subscription/${s.package_id}`, '订阅专区');
                }}
              >
                订阅专区
              </a>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
});

/** /subscription/{id}: a package's zone: its durations and the games it unlocks. */
export const SubscriptionZonePage = observer(function SubscriptionZonePage() {
  const { id } = useParams();
  const root = useStores();
  const [store] = useState(() => new SubscriptionStore(root.api));
  useEffect(() => {
    void store.loadZone(Number(id));
  }, [store, id]);
  const zone = store.zone;
  if (store.error) {
    return (
      <div className="status-page">
        <h1 className="status-page__title">{store.error}</h1>
      </div>
    );
  }
  if (!zone) return <div className="page container" />;
  const gameId = zone.games[0]?.id;
  return (
    <div className="page container package" data-testid="subscription-zone">
      <h1>{zone.package.title}</h1>
      <ul className="package__privileges">
        {zone.package.speci_list.map((s) => (
          <li key={s.id} className="package__privilege" data-testid="zone-speci">
            {s.face_value_txt} ¥{yuan(s.retail_price)}
          </li>
        ))}
      </ul>
      {gameId !== undefined && (
        <button type="button" className="btn btn--vip" data-testid="zone-subscribe" onClick={() => root.openPurchase('subscription', { gameId })}>
          立即订阅
        </button>
      )}
      <h2>包内游戏</h2>
      <ul className="package__popover">
        {zone.games.map((g) => (
          <li key={g.id} className="package__record">
            <Link to={`/game/detail/${g.id}`}>{g.name}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
});
