import { observer } from 'mobx-react-lite';
import { AdSlot } from '../../../components/AdSlot';
import { Modal } from '../../../components/Modal';
import { RoomText } from '../../../lib/room';
import { useStores } from '../stores/context';

/**
 * '开始游戏' ready dialog (core-platform.md §2.10, §4.3). Its appearance leaves fullscreen and
 * sends the boarding reminder: a GameStore reaction, once per session.
 */
export const ReadyDialog = observer(function ReadyDialog() {
  const { game, room } = useStores();
  const live = game.live;
  if (!game.readyDialogVisible || !live) return null;
  return (
    <Modal
      title="开始游戏"
      testId="ready-dialog"
      width={420}
      className="ready-dialog"
      footer={
        <>
          <button type="button" className="btn btn--ghost" data-testid="ready-giveup" onClick={() => void game.giveUp()}>
            放弃
          </button>
          <button type="button" className="btn btn--primary" data-testid="ready-enter" onClick={() => void game.confirmConnect()}>
            进入游戏
          </button>
        </>
      }
    >
      <div className="ready">
        <div className="ready__ring" aria-hidden="true">
          <span>{game.readySecondsShown}</span>
        </div>
        <p className="ready__text" data-testid="ready-text">
          {room && room.inRoom && !room.isHost ? RoomText.READY_IN_ROOM : `${live.gameName} 已准备就绪，是否进入游戏？`}
        </p>
        <p className="ready__countdown" data-testid="ready-countdown">
          {game.readySecondsShown}秒后自动放弃
        </p>
      </div>
      <AdSlot slot="gift_game_countdown" />
    </Modal>
  );
});
