import { observer } from 'mobx-react-lite';
import { Modal } from '../../../components/Modal';
import { expectedRank } from '../../../lib/lanes';
import { useStores } from '../stores/context';

/**
 * Queue-quit retention (core-platform.md §2.8): the first product of queue_detainment_goods and
 * the rank on its lane before leaving the queue; '立即加速' buys it and stays queued.
 */
export const RetentionDialog = observer(function RetentionDialog() {
  const { queue } = useStores();
  const r = queue.retention;
  if (!r) return null;
  return (
    <Modal
      title="退出排队"
      testId="retention-dialog"
      width={400}
      className="retention-dialog"
      onClose={() => queue.settleRetention(true)}
      footer={
        <>
          <button type="button" className="btn btn--ghost" data-testid="retention-exit" onClick={() => queue.settleRetention(false)}>
            仍要退出
          </button>
          <button type="button" className="btn btn--ghost" data-testid="retention-stay" onClick={() => queue.settleRetention(true)}>
            再等等
          </button>
          {r.goods && (
            <button type="button" className="btn btn--vip" data-testid="retention-buy" onClick={() => queue.buyRetention()}>
              立即加速
            </button>
          )}
        </>
      }
    >
      <div className="retention">
        {r.goods && (
          <div className="retention__badge" data-testid="retention-goods">
            {r.goods.title}
          </div>
        )}
        <p className="retention__title" data-testid="retention-text">
          {queue.retentionText}
        </p>
        <p className="retention__rank" data-testid="retention-rank">
          {r.preSort === null ? '正在计算预计排名...' : `开通后预计排名第${expectedRank(r.preSort)}位`}
        </p>
      </div>
    </Modal>
  );
});
