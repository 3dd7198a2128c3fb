import { observer } from 'mobx-react-lite';
import { GameImage } from '../../../components/GameImage';
import { Modal } from '../../../components/Modal';
import { useStores } from '../../../stores/context';

/** The queue dialog (core-platform.md §2.7): rank, animation, 收起 and 退出排队. */
export const QueueDialog = observer(function QueueDialog() {
  const { game, ui } = useStores();
  const live = game.live;
  if (!game.queueDialogVisible || !live) return null;

  const exit = async () => {
    const ok = await ui.confirm({
      title: '退出排队',
      message: '退出后需要重新排队，确定要退出排队吗？',
      confirmText: '立即退出',
      cancelText: '再玩一会',
    });
    if (ok) await game.cancelQueue();
  };

  return (
    <Modal
      title="排队中"
      testId="queue-dialog"
      width={440}
      className="queue-dialog"
      headerActions={
        <>
          <button type="button" className="btn btn--ghost btn--sm" data-testid="queue-minimise" onClick={() => ui.setQueueDialogLarge(false)}>
            收起
          </button>
          <button type="button" className="btn btn--danger btn--sm" data-testid="queue-exit" onClick={() => void exit()}>
            退出排队
          </button>
        </>
      }
    >
      <div className="queue">
        <div className="queue__orbit" aria-hidden="true">
          <span className="queue__ring" />
          <span className="queue__ring queue__ring--2" />
          <span className="queue__ring queue__ring--3" />
        </div>
        <GameImage src={live.gameLogo} name={live.gameName} className="queue__logo" />
        <div className="queue__name">{live.gameName}</div>
        {live.nodeName && <div className="queue__node">{live.nodeName}</div>}
        <div className="queue__rank" data-testid="queue-rank">
          排队中，当前第 <b>{live.sort ?? '-'}</b> 位
        </div>
        <div className="queue__bars" aria-hidden="true">
          <span />
          <span />
          <span />
          <span />
          <span />
        </div>
        <p className="queue__tip">排队完成后将自动为您启动游戏</p>
      </div>
    </Modal>
  );
});
