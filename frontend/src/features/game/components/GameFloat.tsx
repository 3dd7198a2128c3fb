import { observer } from 'mobx-react-lite';
import { useLocation, useNavigate } from 'react-router';
import { GameImage } from '../../../components/GameImage';
import { formatHMS } from '../../../lib/time';
import { GameStatus } from '../../../stores/models';
import { useStores } from '../../../stores/context';

/** The corner widget of a running game (core-platform.md §2.11). */
export const GameFloat = observer(function GameFloat() {
  const { game, ui } = useStores();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const live = game.live;
  if (!live || !game.floatVisible || pathname.startsWith('/game/play')) return null;
  const playing = live.status === GameStatus.CONNECTING || live.status === GameStatus.PLAYING;
  return (
    <aside className="game-float" data-testid="game-float">
      <button type="button" className="game-float__close" aria-label="关闭" onClick={() => ui.closeFloat(String(live.id))}>
        ×
      </button>
      <button type="button" className="game-float__game" onClick={() => navigate(`/game/detail/${live.gameId}?r=${Date.now()}`)}>
        <GameImage src={live.gameLogo} name={live.gameName} className="game-float__logo" />
        <span className="game-float__name">{live.gameName}</span>
      </button>
      {live.status === GameStatus.QUEUE && (
        <button type="button" className="game-float__queue" data-testid="float-queue" onClick={() => game.reopenQueueDialog()}>
          <span className="pulse-dot" />
          排队中 第{live.sort ?? '-'}位
        </button>
      )}
      {live.status === GameStatus.READY && <div className="game-float__state">游戏已准备就绪</div>}
      {playing && (
        <>
          <div className="game-float__time" data-testid="float-time">
            {live.status === GameStatus.PLAYING ? `在线 ${formatHMS(game.onlineSeconds)}` : '正在连接...'}
          </div>
          <button
            type="button"
            className="btn btn--primary btn--sm btn--block"
            data-testid="float-return"
            onClick={() => navigate(`/game/play?gameId=${live.gameId}`)}
          >
            返回游戏
          </button>
        </>
      )}
    </aside>
  );
});
