import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { formatPlayTime } from '../../../lib/time';
import { useStores } from '../stores/context';
import { BACKPACK_FILTERS, BACKPACK_TABS, BackpackStore, backpackPath, canGive, cardTexts, tabOfPath } from '../stores/backpackStore';
import '../backpack.css';
import { Link, useNavigate, useParams } from 'react-router';
import { exclusiveOf, exclusiveText, gameSectionPath, EXCLUSIVE_PLAY_TYPE } from '../../exclusive/stores/exclusive';
import { CouponItem } from '../../coupon/components/CouponItem';

/**
 * /user/card and /user/card/{card,gift,coupon}: the backpack (commerce.md §2.1, §2.13): a tab by
 * address, status filters, the cards and '使用'.
 */
export const BackpackPage = observer(function BackpackPage() {
  const { user, ui, api } = useStores();
  const tab = tabOfPath(useParams().tab);
  const navigate = useNavigate();
  const [bp] = useState(
    () =>
      new BackpackStore(api, {
        confirm: (message) => ui.confirm({ message }),
        toast: (type, message) => ui.toast(type, message),
        refreshUser: () => user.loadProfile(),
      }),
  );
  const [giving, setGiving] = useState<{ id: number; phone: string } | null>(null);
  const loggedIn = user.isLoggedIn;

  useEffect(() => {
    if (loggedIn) void bp.selectTab(tab);
  }, [bp, loggedIn, tab]);

  useEffect(() => {
    if (!loggedIn) return undefined;
    void bp.loadTotals();
    void bp.loadExclusive();
    const timer = setInterval(() => bp.tick(), 1000);
    return () => clearInterval(timer);
  }, [bp, loggedIn]);

  if (!user.ready) return <div className="page container" />;
  if (!loggedIn) {
    return (
      <div className="status-page">
        <h1 className="status-page__title">登录后查看背包</h1>
        <button type="button" className="btn btn--primary" onClick={() => ui.openLogin()}>
          登录
        </button>
      </div>
    );
  }
  const p = user.profile;
  return (
    <div className="page container backpack" data-testid="backpack-page">
      <div className="backpack__head">
        <h1 className="backpack__title">我的背包</h1>
        {p && (
          <span className="backpack__time" data-testid="backpack-play-time">
            剩余时长 {formatPlayTime(p.play_time_total)}
          </span>
        )}
      </div>
      <div className="backpack__tabs" role="tablist">
        {BACKPACK_TABS.map((t) => {
          const count = bp.tabCount(t.key);
          return (
            <button
              key={t.key}
              type="button"
              role="tab"
              aria-selected={bp.tab === t.cardType}
              className={`backpack__tab${bp.tab === t.cardType ? ' is-active' : ''}`}
              data-testid={`backpack-tab-${t.key}`}
              onClick={() => void navigate(backpackPath(t.key))}
            >
              {t.label}
              {count !== null && count > 0 && <span className="backpack__count">({count})</span>}
            </button>
          );
        })}
      </div>
      <div className="backpack__filters">
        {BACKPACK_FILTERS.map((f) => (
          <button
            key={f.status}
            type="button"
            className={`btn btn--sm ${bp.filter === f.status ? 'btn--primary' : 'btn--ghost'}`}
            data-testid={`backpack-filter-${f.status}`}
            onClick={() => void bp.selectFilter(f.status)}
          >
            {f.label}
          </button>
        ))}
      </div>
      {bp.error && <p className="backpack__error">{bp.error}</p>}
      {!bp.loading && !bp.error && bp.items.length === 0 && (
        <p className="backpack__empty" data-testid="backpack-empty">
          {bp.tab === 3 ? '暂无优惠券' : bp.tab === 2 ? '暂无礼包' : '暂无卡券'}
        </p>
      )}
      <ul className="backpack__list">
        {bp.items.map((c) => {
          if (c.coupon) return <CouponItem key={c.id} card={c} coupon={c.coupon} />;
          const t = cardTexts(c, bp.nowMs);
          const ex = exclusiveOf(c, bp.exclusive);
          return (
            <li key={c.id} className={`backpack__item${c.status === 0 ? '' : ' is-done'}`} data-testid={`backpack-card-${c.id}`}>
              <div className="backpack__body">
                <div className="backpack__name">{t.title}</div>
                <div className="backpack__desc">{t.description}</div>
                <div className={`backpack__expiry${c.near_expiration && c.status === 0 ? ' is-near' : ''}`}>{t.expiry}</div>
                <div className="backpack__source">{t.source}</div>
                {ex && (
                  <div className="backpack__exclusive" data-testid={`backpack-exclusive-${c.id}`}>
                    {exclusiveText(ex)}
                  </div>
                )}
                {t.gift && (
                  <div className="backpack__gift" data-testid={`backpack-gift-${c.id}`}>
                    {t.gift}
                  </div>
                )}
                {giving?.id === c.id && (
                  <form
                    className="backpack__give"
                    onSubmit={(e) => {
                      e.preventDefault();
                      void bp.give(c, giving.phone).then((done) => done && setGiving(null));
                    }}
                  >
                    <input
                      className="input"
                      inputMode="numeric"
                      maxLength={11}
                      placeholder="对方手机号"
                      aria-label="对方手机号"
                      value={giving.phone}
                      onChange={(e) => setGiving({ id: c.id, phone: e.target.value })}
                    />
                    <button type="submit" className="btn btn--primary btn--sm" disabled={bp.using !== null}>
                      确定赠送
                    </button>
                    <button type="button" className="btn btn--ghost btn--sm" onClick={() => setGiving(null)}>
                      取消
                    </button>
                  </form>
                )}
              </div>
              {canGive(c) && giving?.id !== c.id && (
                <button type="button" className="btn btn--ghost btn--sm" data-testid={`backpack-give-${c.id}`} onClick={() => setGiving({ id: c.id, phone: '' })}>
                  赠送
                </button>
              )}
              {c.status === 0 && c.play_type === EXCLUSIVE_PLAY_TYPE ? (
                ex && (
                  <Link className="btn btn--primary btn--sm" data-testid={`backpack-games-${c.id}`} to={gameSectionPath(ex.game_category_id)}>
                    可用游戏
                  </Link>
                )
              ) : c.status === 0 ? (
                <button
                  type="button"
                  className="btn btn--primary btn--sm"
                  disabled={bp.using !== null}
                  data-testid={`backpack-use-${c.id}`}
                  onClick={() => void bp.use(c)}
                >
                  使用
                </button>
              ) : (
                <span className="backpack__status">{t.status}</span>
              )}
            </li>
          );
        })}
      </ul>
      {bp.pages > 1 && (
        <div className="backpack__pager">
          <button type="button" className="btn btn--ghost btn--sm" disabled={bp.page <= 1 || bp.loading} onClick={() => void bp.load(bp.page - 1)}>
            上一页
          </button>
          <span>
            {bp.page} / {bp.pages}
          </span>
          <button type="button" className="btn btn--ghost btn--sm" disabled={bp.page >= bp.pages || bp.loading} onClick={() => void bp.load(bp.page + 1)}>
            下一页
          </button>
        </div>
      )}
    </div>
  );
});
