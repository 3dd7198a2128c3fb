import { observer } from 'mobx-react-lite';
import { useEffect, useRef } from 'react';
import { bindInput, canvasSink } from '../../../stream/pageInput';
import type { StreamSession } from '../../../stream/streamSession';
import type { PlayStore } from '../stores/playStore';

/**
 * The game's picture: a canvas that fills the stream area keeping the picture's aspect, with the
 * input listeners on it, the message over it while there is no picture, and the stats overlay.
 */
export const StreamView = observer(function StreamView({ play, session }: { play: PlayStore; session: StreamSession }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    session.attach(canvasSink(canvas));
    const unbind = bindInput(canvas, session);
    return () => {
      unbind();
      session.attach(null);
    };
  }, [session]);

  const playing = session.phase === 'playing';
  // the keys go to the game once its picture shows, without a click first
  useEffect(() => {
    if (playing) canvasRef.current?.focus({ preventScroll: true });
  }, [playing]);

  return (
    <>
      <canvas
        ref={canvasRef}
        className={`stream__canvas${playing ? ' is-playing' : ''}`}
        data-testid="stream-canvas"
        data-phase={session.phase}
        tabIndex={0}
        aria-label="游戏画面"
      />
      {session.message && (
        <div className="stream__message" data-testid="stream-message" data-phase={session.phase}>
          {(session.phase === 'connecting' || session.phase === 'reconnecting') && <div className="spinner" aria-hidden="true" />}
          <p>{session.message}</p>
          {session.canRetry && (
            <button type="button" className="btn btn--primary" data-testid="stream-retry" onClick={() => session.retry()}>
              重新连接
            </button>
          )}
        </div>
      )}
      {play.statsVisible && <StreamStats session={session} />}
    </>
  );
});

/** The stats overlay: its own observer, so the figures' refresh every second redraws only it. */
const StreamStats = observer(function StreamStats({ session }: { session: StreamSession }) {
  const f = session.figures;
  return (
    <dl className="stream__stats" data-testid="stream-stats">
      <div>
        <dt>帧率</dt>
        <dd data-testid="stat-fps">{f.fps} fps</dd>
      </div>
      <div>
        <dt>延迟</dt>
        <dd data-testid="stat-rtt">{f.rttMs === null ? '-' : `${f.rttMs} ms`}</dd>
      </div>
      <div>
        <dt>码率</dt>
        <dd data-testid="stat-bitrate">{f.kbps >= 1000 ? `${(f.kbps / 1000).toFixed(1)} Mbps` : `${f.kbps} kbps`}</dd>
      </div>
      <div>
        <dt>丢帧</dt>
        <dd data-testid="stat-dropped">{f.dropped}</dd>
      </div>
      <div>
        <dt>分辨率</dt>
        <dd>{f.width > 0 ? `${f.width}×${f.height}` : '-'}</dd>
      </div>
    </dl>
  );
});
