import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatHMS } from '../../../lib/time';
import { GameStatus } from '../../../api/codes';
import { useStores } from '../../../stores/context';

function statusLine(status: number, sort: number | undefined): string {
  switch (status) {
    case GameStatus.QUEUE:
      return `排队中，当前第 ${sort ?? '-'} 位`;
    case GameStatus.READY:
      return '游戏已准备就绪';
    case GameStatus.CONNECTING:
      return '正在连接...';
    case GameStatus.PLAYING:
      return '游戏中';
    default:
      return '正在连接...';
  }
}

/**
 * /game/play?gameId=: the stream area with the notice barrage, the online time and 退出游戏
 * (core-platform.md §4.5, §2.14). The NoticeStore knows the page is open: pushes about this game
 * (ended by the server, time up) close it from there.
 */
export const PlayPage = observer(function PlayPage() {
  const { game, user, ui, catalogue, notice, effects } = useStores();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const gameId = Number(params.get('gameId'));
  const [exiting, setExiting] = useState(false);

  useEffect(() => {
    if (Number.isInteger(gameId) && gameId > 0) void catalogue.loadDetail(gameId);
  }, [catalogue, gameId]);

  useEffect(() => {
    notice.setPlayPage(Number.isInteger(gameId) && gameId > 0 ? gameId : null);
    return () => notice.setPlayPage(null);
  }, [notice, gameId]);

  const live = game.live && game.live.gameId === gameId ? game.live : null;
  const info = catalogue.detail(gameId)?.info;
  const cover = info?.image || info?.image_vertical || live?.gameLogo || info?.logo;

  const exit = async () => {
    const ok = await ui.confirm({
      title: '退出游戏',
      message: '确定要退出游戏吗？',
      confirmText: '立即退出',
      cancelText: '再玩一会',
    });
    if (!ok) return;
    setExiting(true);
    try {
      await game.exitCurrent();
    } finally {
      setExiting(false);
    }
    // a play page in its own window closes itself; in this window it goes home
    if (!effects.closePlayWindow()) navigate('/');
  };

  let body;
  if (user.ready && !user.isLoggedIn) {
    body = (
      <div className="play__center">
        <p className="play__status">请先登录</p>
        <button type="button" className="btn btn--primary" onClick={() => ui.openLogin()}>
          登录
        </button>
      </div>
    );
  } else if (!live && game.state !== null) {
    body = (
      <div className="play__center">
        <p className="play__status" data-testid="play-status">
          游戏已结束
        </p>
        <Link to="/" className="btn btn--primary">
          返回首页
        </Link>
      </div>
    );
  } else {
    const status = live?.status ?? GameStatus.CONNECTING;
    body = (
      <div className="play__center">
        {status !== GameStatus.PLAYING && <div className="spinner" aria-hidden="true" />}
        <p className={`play__status${status === GameStatus.PLAYING ? ' is-playing' : ''}`} data-testid="play-status">
          {statusLine(status, live?.sort)}
        </p>
        {live?.nodeName && <p className="play__node">{live.nodeName}</p>}
      </div>
    );
  }

  return (
    <div className="play" data-testid="play-page">
      <div className="play__stream">
        <div className="play__backdrop" style={cover ? { backgroundImage: `url("${cover}")` } : undefined} />
        <Barrage />
        {body}
      </div>
      <div className="play__bar">
        <div className="play__game">
          <span className="play__name">{live?.gameName ?? info?.name ?? ''}</span>
          <span className="play__time" data-testid="play-online-time">
            在线时长 {formatHMS(live ? game.onlineSeconds : 0)}
          </span>
        </div>
        {live && (
          <button type="button" className="btn btn--danger" data-testid="play-exit" disabled={exiting} onClick={() => void exit()}>
            退出游戏
          </button>
        )}
      </div>
    </div>
  );
});

/** The notice barrage: one notice at a time slides across the top of the stream area. */
const Barrage = observer(function Barrage() {
  const { notice } = useStores();
  const item = notice.current;
  if (!item) return null;
  return (
    <div className="barrage" aria-live="polite">
      <div key={item.id} className="barrage__item" data-testid="barrage" data-code={item.code}>
        {item.text}
      </div>
    </div>
  );
});
