import { observer } from 'mobx-react-lite';
import { Modal } from '../../../components/Modal';
import { useStores } from '../stores/context';

/** The missed-queue message with '重新排队' (core-platform.md §2.10, §4.3). */
export const MissedQueueMessage = observer(function MissedQueueMessage() {
  const { game, ui } = useStores();
  const missed = ui.missedQueue;
  if (!missed) return null;
  return (
    <Modal
      title="提示"
      testId="missed-queue"
      width={380}
      onClose={() => ui.clearMissedQueue()}
      footer={
        <>
          <button type="button" className="btn btn--ghost" onClick={() => ui.clearMissedQueue()}>
            取消
          </button>
          <button type="button" className="btn btn--primary" data-testid="missed-requeue" onClick={() => void game.requeue()}>
            重新排队
          </button>
        </>
      }
    >
      <p className="message-box__text">您的排队已错过，请重新排队</p>
      <p className="message-box__detail">{missed.gameName}</p>
    </Modal>
  );
});
