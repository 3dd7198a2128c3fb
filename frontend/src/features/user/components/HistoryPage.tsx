import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { QualityRows } from '../../game/components/QualityRows';
import { formatHMS } from '../../../lib/time';
import { useStores } from '../stores/context';
import { endReasonText } from '../../../lib/endReason';
import { HistoryStore } from '../stores/historyStore';

function formatDateTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** /user/history: the player's played sessions, each with its stream's quality report. */
export const HistoryPage = observer(function HistoryPage() {
  const { user, ui, api } = useStores();
  const [history] = useState(() => new HistoryStore(api));
  const loggedIn = user.isLoggedIn;

  useEffect(() => {
    if (loggedIn) void history.load(1);
  }, [history, loggedIn]);

  if (!user.ready) return <div className="page container" />;
  if (!loggedIn) {
    return (
      <div className="status-page">
        <h1 className="status-page__title">登录后查看游戏记录</h1>
        <button type="button" className="btn btn--primary" onClick={() => ui.openLogin()}>
          登录
        </button>
      </div>
    );
  }
  return (
    <div className="page container history" data-testid="history-page">
      <h1 className="history__title">游戏记录</h1>
      {history.error && <p className="history__error">{history.error}</p>}
      {!history.loading && !history.error && history.items.length === 0 && <p className="history__empty">还没有游戏记录</p>}
      <ul className="history__list">
        {history.items.map((r) => (
          <li key={r.id} className="history__item" data-testid={`history-${r.id}`}>
            <div className="history__head">
              <span className="history__game">{r.gameName}</span>
              <span className="history__meta">
                {r.nodeName} · {formatDateTime(r.startedAt)}
              </span>
            </div>
            <div className="history__facts">
              <span>时长 {formatHMS(r.playedSecs)}</span>
              <span>计费 {r.chargedMinutes} 分钟</span>
              <span data-testid="history-end">{endReasonText(r.endReason)}</span>
            </div>
            {r.quality ? (
              <QualityRows summary={r.quality} />
            ) : (
              <p className="history__no-quality">无画面质量报告</p>
            )}
          </li>
        ))}
      </ul>
      {history.pages > 1 && (
        <div className="history__pager">
          <button type="button" className="btn btn--ghost btn--sm" disabled={history.page <= 1 || history.loading} onClick={() => void history.load(history.page - 1)}>
            上一页
          </button>
          <span>
            {history.page} / {history.pages}
          </span>
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            disabled={history.page >= history.pages || history.loading}
            onClick={() => void history.load(history.page + 1)}
          >
            下一页
          </button>
        </div>
      )}
    </div>
  );
});
