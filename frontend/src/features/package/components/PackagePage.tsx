import { reaction } from 'mobx';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { yuan } from '../../../lib/purchase';
import { formatDateTime } from '../../../lib/time';
import { useStores } from '../stores/context';
import { buttonText, memberPriceShown, PACKAGES, PackageStore, playedText, type PackageKind } from '../stores/packageStore';
import '../package.css';

/**
 * /user/package: the daily and night packages (commerce.md §2.7): each package's card (played
 * time, expiry, price per days, renew or activate), its three privileges, its rules and the
 * purchase records popover. Buying opens the purchase dialog on the package's SKU.
 */
export const PackagePage = observer(function PackagePage() {
  const root = useStores();
  const { user, ui, api } = root;
  const [store] = useState(() => new PackageStore(api));
  const loggedIn = user.isLoggedIn;

  useEffect(() => {
    if (!loggedIn) return undefined;
    void store.load();
    // a purchase re-reads the profile: the packages follow
    return reaction(
      () => user.profile,
      () => void store.load(),
    );
  }, [store, loggedIn, user]);

  if (!user.ready) return <div className="page container" />;
  if (!loggedIn) {
    return (
      <div className="status-page">
        <h1 className="status-page__title">登录后查看畅玩包</h1>
        <button type="button" className="btn btn--primary" onClick={() => ui.openLogin()}>
          登录
        </button>
      </div>
    );
  }
  const kind = store.kind;
  const pkg = PACKAGES[kind];
  return (
    <div className="page container package" data-testid="package-page">
      <div className="package__tabs" role="tablist">
        {(['daily', 'night'] as PackageKind[]).map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={k === kind}
            className={`package__tab${k === kind ? ' package__tab--on' : ''}`}
            data-testid={`package-tab-${k}`}
            onClick={() => store.select(k)}
          >
            {PACKAGES[k].title}
          </button>
        ))}
      </div>
      {store.failed ? (
        <p className="package__empty" data-testid="package-failed">
          暂无库存
        </p>
      ) : (
        <PackageCard store={store} kind={kind} onBuy={() => store.skus[kind] && root.openPurchase('time', { goods: store.skus[kind]! })} />
      )}
      <ul className="package__privileges" data-testid="package-privileges">
        {pkg.privileges.map((p) => (
          <li key={p} className="package__privilege">
            {p}
          </li>
        ))}
      </ul>
      {store.rules[kind] && (
        // the rules are the server's own HTML configuration (daily_play / allnight_play)
        <div className="package__rules" data-testid="package-rules" dangerouslySetInnerHTML={{ __html: store.rules[kind]! }} />
      )}
      <div className="package__records">
        <button type="button" className="btn btn--ghost btn--sm" data-testid="package-records-toggle" onClick={() => void store.toggleRecords()}>
          购买记录
        </button>
        {store.recordsOpen && (
          <div className="package__popover" data-testid="package-records">
            {store.records === null ? (
              <p>加载中…</p>
            ) : store.records.length === 0 ? (
              <p className="package__empty">暂无购买记录</p>
            ) : (
              <ul>
                {store.records.map((r) => (
                  <li key={r.order_no} className="package__record" data-testid="package-record">
                    <span>{r.comment}</span>
                    <span>{formatDateTime(r.created_at * 1000)}</span>
                    <span>¥{yuan(r.total_paid)}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
    </div>
  );
});

const PackageCard = observer(function PackageCard({ store, kind, onBuy }: { store: PackageStore; kind: PackageKind; onBuy: () => void }) {
  const info = store.infos[kind];
  const sku = store.skus[kind] ?? null;
  return (
    <div className={`package__card package__card--${kind}`} data-testid={`package-card-${kind}`}>
      <div className="package__name">{PACKAGES[kind].title}</div>
      <div className="package__played" data-testid="package-played">
        累计畅玩 {playedText(info?.play_time ?? 0)}
      </div>
      {info && !info.exp_hide && (
        <div className="package__expiry" data-testid="package-expiry">
          {info.status === 2 ? '已过期' : `${formatDateTime(info.expired_at)} 到期`}
        </div>
      )}
      {sku && (
        <div className="package__price" data-testid="package-price">
          ¥{yuan(sku.retail_price)}/{sku.face_value}天
          {memberPriceShown(kind, sku) && <span className="package__member-price"> 会员价 ¥{yuan(sku.member_price)}</span>}
        </div>
      )}
      <button type="button" className="btn btn--vip" data-testid="package-buy" disabled={!sku} onClick={onBuy}>
        {buttonText(info?.status, sku)}
      </button>
    </div>
  );
});
