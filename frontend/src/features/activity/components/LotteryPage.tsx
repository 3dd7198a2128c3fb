import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { Modal } from '../../../components/Modal';
import { useStores } from '../stores/context';
import { LotteryStore, type RecordTab } from '../stores/lotteryStore';
import '../activity.css';

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** /land/lottery: the rotary, the winning dialog and the records (commerce.md §2.16). */
export const LotteryPage = observer(function LotteryPage() {
  const { api, ui, user } = useStores();
  const [s] = useState(
    () =>
      new LotteryStore(api, {
        toast: (type, message) => ui.toast(type, message),
        login: () => ui.openLogin(),
        isLoggedIn: () => user.isLoggedIn,
        refreshUser: () => user.loadProfile(),
      }),
  );
  const loggedIn = user.isLoggedIn;
  useEffect(() => {
    void s.load();
    void s.loadRecords(2);
  }, [s, loggedIn]);

  const l = s.lottery;
  const records = s.records;
  const pages = records ? Math.max(1, Math.ceil(records.totalRows / records.pageSize)) : 1;
  return (
    <div className="page container lottery" data-testid="lottery-page">
      <h1 className="lottery__title">{l?.title ?? '幸运大转盘'}</h1>
      {l && s.status !== 1 && <p className="lottery__closed">{s.status === 0 ? '活动未开始' : '活动已结束'}</p>}
      <div className="lottery__board">
        <ul className="lottery__grid" aria-label="奖品">
          {s.items.map((item, i) => (
            <li
              key={item.id}
              className={`lottery__cell${s.active === i ? ' is-active' : ''}`}
              data-testid={`lottery-item-${item.id}`}
            >
              {item.name}
            </li>
          ))}
        </ul>
        <button type="button" className="btn btn--primary lottery__go" data-testid="lottery-draw" disabled={!s.canDraw} onClick={() => void s.draw(wait)}>
          {s.spinning ? '抽奖中…' : '立即抽奖'}
        </button>
        <p className="lottery__chances" data-testid="lottery-chances">
          {s.chances === null ? `登录后每天可抽${l?.dailyChances ?? 0}次` : `今日剩余 ${s.chances} 次`}
        </p>
      </div>

      <section className="lottery__records">
        <div className="lottery__tabs" role="tablist">
          {([
            [2, '全部记录'],
            [1, '我的记录'],
          ] as [RecordTab, string][]).map(([tab, label]) => (
            <button
              key={tab}
              type="button"
              role="tab"
              aria-selected={s.tab === tab}
              className={`lottery__tab${s.tab === tab ? ' is-active' : ''}`}
              data-testid={`lottery-tab-${tab}`}
              onClick={() => void s.loadRecords(tab)}
            >
              {label}
            </button>
          ))}
        </div>
        {records && records.rows.length === 0 && <p className="lottery__empty">暂无记录</p>}
        <ul className="lottery__list" data-testid="lottery-records">
          {records?.rows.map((r) => (
            <li key={r.id} className="lottery__row">
              <span>{r.phone}</span>
              <span>{r.name}</span>
              <span className="lottery__time">{r.createTime}</span>
            </li>
          ))}
        </ul>
        {pages > 1 && (
          <div className="lottery__pager">
            <button type="button" className="btn btn--sm" disabled={s.page <= 1} onClick={() => void s.loadRecords(s.tab, s.page - 1)}>
              上一页
            </button>
            <span>
              {s.page}/{pages}
            </span>
            <button type="button" className="btn btn--sm" disabled={s.page >= pages} onClick={() => void s.loadRecords(s.tab, s.page + 1)}>
              下一页
            </button>
          </div>
        )}
      </section>

      {s.result && (
        <Modal title={s.result.won ? '恭喜中奖' : '很遗憾'} testId="lottery-result" onClose={() => s.closeResult()}>
          <p className="lottery__prize" data-testid="lottery-prize">
            {s.result.won ? `恭喜获得「${s.result.name}」，奖励已发放到您的账户` : `${s.result.name}，再接再厉`}
          </p>
          <button type="button" className="btn btn--primary" onClick={() => s.closeResult()}>
            知道了
          </button>
        </Modal>
      )}
    </div>
  );
});
