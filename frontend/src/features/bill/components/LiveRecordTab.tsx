import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { formatDateTime } from '../../../lib/time';
import { useStores } from '../stores/context';
import { liveRecordTexts, LiveRecordStore } from '../stores/liveRecord';

/** /user/bill/liveRecord: the rooms the caller hosted, what each received and charged. */
export const LiveRecordTab = observer(function LiveRecordTab() {
  const { api } = useStores();
  const [list] = useState(() => new LiveRecordStore(api));
  useEffect(() => {
    void list.load(1);
  }, [list]);
  return (
    <>
      {list.error && <p className="package__empty">{list.error}</p>}
      {!list.loading && !list.error && list.items.length === 0 && (
        <p className="package__empty" data-testid="live-record-empty">
          暂无直播记录
        </p>
      )}
      <ul className="package__popover">
        {list.items.map((r) => {
          const t = liveRecordTexts(r);
          return (
            <li key={r.dd_rid} className="package__record" data-testid="live-record">
              <span>{r.name}</span>
              <span>{r.game_name}</span>
              <span>{formatDateTime(r.created_at)}</span>
              <span>{t.earned}</span>
              <span>{t.charged}</span>
              <span>{t.status}</span>
            </li>
          );
        })}
      </ul>
      {list.pages > 1 && (
        <div className="package__tabs">
          <button type="button" className="btn btn--ghost btn--sm" disabled={list.page <= 1} onClick={() => void list.load(list.page - 1)}>
            上一页
          </button>
          <span>
            {list.page}/{list.pages}
          </span>
          <button type="button" className="btn btn--ghost btn--sm" disabled={list.page >= list.pages} onClick={() => void list.load(list.page + 1)}>
            下一页
          </button>
        </div>
      )}
    </>
  );
});
