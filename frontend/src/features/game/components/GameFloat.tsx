import { observer } from 'mobx-react-lite';
import { useLocation, useNavigate } from 'react-router';
import { AdSlot } from '../../../components/AdSlot';
import { GameImage } from '../../../components/GameImage';
import { floatIconName } from '../../../lib/gameStatus';
import { formatHMS, formatPlayTime } from '../../../lib/time';
import { GameStatus, Lane } from '../../../api/codes';
import { useStores } from '../stores/context';

/** The corner widget of a running game (core-platform.md §2.11). */
export const GameFloat = observer(function GameFloat() {
  const { game, ui, room } = useStores();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const live = game.live;
  if (!live || !game.floatVisible || pathname.startsWith('/game/play')) return null;
  const playing = live.status === GameStatus.CONNECTING || live.status === GameStatus.PLAYING;
  const icon = floatIconName(live.status, live.isFast);
  return (
    <aside className="game-float" data-testid="game-float">
      <button type="button" className="game-float__close" aria-label="关闭" onClick={() => ui.closeFloat(String(live.id))}>
        ×
      </button>
      <button type="button" className="game-float__game" onClick={() => navigate(`/game/detail/${live.gameId}?r=${Date.now()}`)}>
        <GameImage src={live.gameLogo} name={live.gameName} className="game-float__logo" />
        <span className={`game-float__icon game-float__icon--${icon}`} data-icon={icon} data-testid="float-icon" aria-hidden="true" />
        <span className="game-float__name">{live.gameName}</span>
        {room?.hostsRelay && (
          <span className="game-float__live" data-testid="float-live">
            直播中
          </span>
        )}
      </button>
      {live.status === GameStatus.QUEUE && (
        <>
          <button type="button" className="game-float__queue" data-testid="float-queue" onClick={() => game.reopenQueueDialog()}>
            <span className="pulse-dot" />
            排队中 第{live.sort ?? '-'}位
          </button>
          {game.isThisClient && <FloatLaneOffer />}
        </>
      )}
      {live.status === GameStatus.READY && <div className="game-float__state">游戏已准备就绪</div>}
      {playing && (
        <>
          <div className="game-float__time" data-testid="float-time">
            {live.status === GameStatus.PLAYING ? `在线 ${formatHMS(game.onlineSeconds)}` : '正在连接...'}
          </div>
          {game.steps?.hanging && (
            <div className="game-float__state" data-testid="float-hang">
              挂机中 {formatPlayTime(game.steps.hanging.minutes)}
            </div>
          )}
          {game.isThisClient ? (
            <button type="button" className="btn btn--primary btn--sm btn--block" data-testid="float-return" onClick={() => game.returnToGame()}>
              返回游戏
            </button>
          ) : (
            <button type="button" className="btn btn--outline btn--sm btn--block" data-testid="float-move" onClick={() => void game.moveHere()}>
              转到本设备继续
            </button>
          )}
        </>
      )}
      {!game.isThisClient && (
        <>
          <div className="game-float__other" data-testid="float-other-device">
            正在其他设备上运行
          </div>
          <button type="button" className="btn btn--danger btn--sm btn--block" data-testid="float-end" onClick={() => void game.endOnOtherDevice()}>
            退出游戏
          </button>
        </>
      )}
      {/* in a live room the float sits beside the room's chat: it stays compact there */}
      {!pathname.startsWith('/game/live/') && <AdSlot slot="gift_game_float" />}
    </aside>
  );
});

/** In QUEUE: carrier free fast entry, '使用速进卡' (the first card) or '立即加速'. */
const FloatLaneOffer = observer(function FloatLaneOffer() {
  const { queue } = useStores();
  const card = queue.laneCard;
  switch (card.kind) {
    case 'carrier':
      return (
        <div className="game-float__lane" data-testid="float-lane">
          天翼电竞宽带免费速进
        </div>
      );
    case 'fast':
      return (
        <div className="game-float__lane" data-testid="float-lane">
          已享受速进通道
        </div>
      );
    case 'card':
      return (
        <button
          type="button"
          className="btn btn--primary btn--sm btn--block"
          data-testid="float-use-card"
          disabled={queue.activatingId !== null}
          onClick={() => void queue.activateFirstCard()}
        >
          使用速进卡
        </button>
      );
    case 'upsell':
      return (
        <button type="button" className="btn btn--vip btn--sm btn--block" data-testid="float-accelerate" onClick={() => queue.accelerate()}>
          {card.lane === Lane.VVIP ? 'VVIP专属加速 ' : ''}立即加速
        </button>
      );
    default:
      return null;
  }
});
