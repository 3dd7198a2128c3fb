import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { NavLink, useParams } from 'react-router';
import { yuan } from '../../../lib/purchase';
import { formatDateTime } from '../../../lib/time';
import { useStores } from '../stores/context';
import { HistoryPage } from '../../user/components/HistoryPage';
import { BillStore, orderStateText } from '../stores/billStore';
import '../../package/package.css';
import { LiveRecordTab } from './LiveRecordTab';

/** /user/bill (index: the purchase records), /user/bill/buyRecord, /user/bill/gameRecord and /user/bill/liveRecord. */
export const BillPage = observer(function BillPage() {
  const { tab } = useParams();
  const { user, ui, api } = useStores();
  const [bill] = useState(() => new BillStore(api));
  const loggedIn = user.isLoggedIn;
  const game = tab === 'gameRecord';
  const live = tab === 'liveRecord';

  useEffect(() => {
    if (loggedIn && !game && !live) void bill.load(1);
  }, [bill, loggedIn, game, live]);

  if (!user.ready) return <div className="page container" />;
  if (!loggedIn) {
    return (
      <div className="status-page">
        <h1 className="status-page__title">登录后查看账单</h1>
        <button type="button" className="btn btn--primary" onClick={() => ui.openLogin()}>
          登录
        </button>
      </div>
    );
  }
  return (
    <div className="page container package" data-testid="bill-page">
      <nav className="package__tabs">
        <NavLink to="/user/bill/buyRecord" className={() => `package__tab${game || live ? '' : ' package__tab--on'}`} data-testid="bill-tab-buy">
          购买记录
        </NavLink>
        <NavLink to="/user/bill/gameRecord" className={() => `package__tab${game ? ' package__tab--on' : ''}`} data-testid="bill-tab-game">
          游戏记录
        </NavLink>
        <NavLink to="/user/bill/liveRecord" className={() => `package__tab${live ? ' package__tab--on' : ''}`} data-testid="bill-tab-live">
          直播记录
        </NavLink>
      </nav>
      {game ? (
        <HistoryPage />
      ) : live ? (
        <LiveRecordTab />
      ) : (
        <>
          {bill.error && <p className="package__empty">{bill.error}</p>}
          {!bill.loading && !bill.error && bill.items.length === 0 && <p className="package__empty">暂无购买记录</p>}
          <ul className="package__popover">
            {bill.items.map((r) => (
              <li key={r.order_no} className="package__record" data-testid="bill-record">
                <span>{r.comment}</span>
                <span>{formatDateTime(r.created_at * 1000)}</span>
                <span>¥{yuan(r.total_paid)}</span>
                <span>{orderStateText(r.state)}</span>
              </li>
            ))}
          </ul>
          {bill.pages > 1 && (
            <div className="package__tabs">
              <button type="button" className="btn btn--ghost btn--sm" disabled={bill.page <= 1} onClick={() => void bill.load(bill.page - 1)}>
                上一页
              </button>
              <span>
                {bill.page}/{bill.pages}
              </span>
              <button type="button" className="btn btn--ghost btn--sm" disabled={bill.page >= bill.pages} onClick={() => void bill.load(bill.page + 1)}>
                下一页
              </button>
            </div>
          )}
        </>
      )}
    </div>
  );
});
