import { observer } from 'mobx-react-lite';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatHMS } from '../../../lib/time';
import { GameStatus } from '../../../api/codes';
import { useStores } from '../stores/context';
import { browserPlayEnv, pageStorage, platformPlayApi } from '../stores/playApi';
import { PlayStore } from '../stores/playStore';
import { StreamView } from './StreamView';

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

/** Whether this browser can lock the pointer (a mouse, not a touch screen). */
function canLockPointer(): boolean {
  return typeof Element !== 'undefined' && 'requestPointerLock' in Element.prototype && window.matchMedia?.('(pointer: fine)').matches === true;
}

/**
 * /game/play?gameId=: the game's stream with the notice barrage, the online time and 退出游戏
 * (core-platform.md §4.5, §2.14), full screen, pointer lock and the stats overlay. The
 * NoticeStore knows the page is open: pushes about this game (ended by the server, time up)
 * close it from there. The stream itself is the PlayStore's.
 */
export const PlayPage = observer(function PlayPage() {
  const root = useStores();
  const { game, user, ui, catalogue, notice, effects } = root;
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const gameId = Number(params.get('gameId'));
  const [exiting, setExiting] = useState(false);
  const [play, setPlay] = useState<PlayStore | null>(null);
  const [fullscreen, setFullscreen] = useState(false);
  const streamRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!Number.isInteger(gameId) || gameId <= 0) return;
    const p = new PlayStore(root, gameId, platformPlayApi(root.api), browserPlayEnv(), pageStorage());
    p.start();
    setPlay(p);
    // a closing window runs no effect clean-up: keep the stream's figures as it goes
    const onHide = (e: PageTransitionEvent) => {
      if (!e.persisted) p.dispose();
    };
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      p.dispose();
      setPlay(null);
    };
  }, [root, gameId]);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement !== null && document.fullscreenElement === streamRef.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

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

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void streamRef.current?.requestFullscreen().catch(() => ui.warning('当前浏览器不支持全屏'));
  };
  const lockPointer = () => {
    const canvas = streamRef.current?.querySelector('canvas');
    if (!canvas) return;
    canvas.focus({ preventScroll: true });
    try {
      void Promise.resolve(canvas.requestPointerLock()).catch(() => undefined);
    } catch {
      // refused (not from a click): nothing to undo
    }
  };

  const session = play?.session ?? null;
  const streaming = session !== null && session.hasStream;
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
  } else if (play && session && streaming) {
    body = <StreamView play={play} session={session} />;
  } else if (session && session.message) {
    // no picture can come: this browser cannot decode it, or the host ended the game
    body = (
      <div className="play__center">
        <p className="play__status play__status--problem" data-testid="stream-message" data-phase={session.phase}>
          {session.message}
        </p>
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
        {play?.loadingTip && (
          <p className="play__tip" data-testid="play-loading-tip">
            {play.loadingTip}
          </p>
        )}
      </div>
    );
  }

  return (
    <div className="play" data-testid="play-page">
      <div className={`play__stream${streaming ? ' has-stream' : ''}`} ref={streamRef}>
        {!streaming && <div className="play__backdrop" style={cover ? { backgroundImage: `url("${cover}")` } : undefined} />}
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
        <div className="play__actions">
          {streaming && (
            <>
              <button type="button" className="btn btn--ghost btn--sm" data-testid="play-stats" aria-pressed={play?.statsVisible ?? false} onClick={() => play?.toggleStats()}>
                {play?.statsVisible ? '隐藏数据' : '显示数据'}
              </button>
              {canLockPointer() && (
                <button type="button" className="btn btn--ghost btn--sm" data-testid="play-lock" onClick={lockPointer}>
                  锁定鼠标
                </button>
              )}
              {document.fullscreenEnabled && (
                <button type="button" className="btn btn--ghost btn--sm" data-testid="play-fullscreen" onClick={toggleFullscreen}>
                  {fullscreen ? '退出全屏' : '全屏'}
                </button>
              )}
            </>
          )}
          {live && (
            <button type="button" className="btn btn--danger" data-testid="play-exit" disabled={exiting} onClick={() => void exit()}>
              退出游戏
            </button>
          )}
        </div>
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
