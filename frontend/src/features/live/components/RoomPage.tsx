import { observer } from 'mobx-react-lite';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Avatar } from '../../../components/Avatar';
import { GameStatus } from '../../../api/codes';
import { ApplyState, FACES, faceGlyph, formatMinSec, formatOnline, RoomLoad, RoomMode, RoomText, SeatType } from '../../../lib/room';
import { useStores } from '../stores/context';
import type { RoomStore } from '../stores/roomStore';
import { bindInput, canvasSink } from '../../../stream/pageInput';
import type { StreamSession } from '../../../stream/streamSession';
import { browserDecoderEnv } from '../../../stream/decoder';
import { browserCodecEnv } from '../../../stream/support';
import { RoomStreamStore } from '../stores/roomStreamStore';
import { useRoom } from '../stores/useRoom';
import { BlacklistDialog, PasswordPrompt, ReportDialog, SettingsDialog } from './RoomDialogs';
import '../live.css';

type Tab = 'chat' | 'online' | 'mike';

/**
 * /game/live/{ddRid} (social.md §2.14): the host's stream with the barrage over it, the control
 * panel under it, and beside it the chat, the online list and the mic seats. Entering happens
 * here (§4.5, with the password prompt); leaving the page keeps the membership (the room float
 * shows) until 退出房间.
 */
export const RoomPage = observer(function RoomPage() {
  const room = useRoom();
  if (!room) {
    return (
      <div className="status-page" data-testid="room-loading">
        <div className="spinner" aria-hidden="true" />
        <p className="status-page__text">正在进入房间...</p>
      </div>
    );
  }
  return <LoadedRoomPage room={room} />;
});

const LoadedRoomPage = observer(function LoadedRoomPage({ room }: { room: RoomStore }) {
  const root = useStores();
  const { user } = root;
  const params = useParams();
  const navigate = useNavigate();
  const ddRid = Number(params.id);
  const [stream, setStream] = useState<RoomStreamStore | null>(null);
  const [tab, setTab] = useState<Tab>('chat');
  const [dialog, setDialog] = useState<null | 'blacklist' | 'settings' | { report: number; name: string }>(null);
  const stageRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!user.ready || !Number.isInteger(ddRid) || ddRid <= 0) return;
    if (room.ddRid !== ddRid || !room.inRoom) void room.enter(ddRid);
  }, [room, ddRid, user.ready]);

  useEffect(() => {
    const s = new RoomStreamStore(root, {
      createWebSocket: (url) => new WebSocket(url),
      decoder: browserDecoderEnv(),
      codecs: browserCodecEnv(),
      now: () => performance.now(),
    });
    s.start();
    setStream(s);
    return () => {
      s.dispose();
      setStream(null);
      room.leavePage();
    };
  }, [root, room]);

  const exit = async () => {
    await room.exit();
    if (!room.summaryOpen) navigate('/game/live');
  };
  const fullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void stageRef.current?.requestFullscreen().catch(() => undefined);
  };

  // An address that names no room (/game/live/abc, /game/live/0) would wait forever.
  const validId = Number.isInteger(ddRid) && ddRid > 0;
  if (room.passwordPrompt && validId) return <PasswordPrompt />;
  if (!validId || (room.load === RoomLoad.ERROR && room.ddRid === ddRid)) {
    return (
      <div className="status-page" data-testid="room-error">
        <h1 className="status-page__title">无法进入房间</h1>
        <p className="status-page__text" data-testid="room-error-text">
          {validId ? room.error?.message : RoomText.NOT_EXIST}
        </p>
        <button type="button" className="btn btn--primary" onClick={() => navigate('/game/live')}>
          返回
        </button>
      </div>
    );
  }
  if (!room.inRoom || room.ddRid !== ddRid || !room.info) {
    if (room.ended && room.ddRid === ddRid) {
      return (
        <div className="status-page" data-testid="room-ended">
          <h1 className="status-page__title">直播已结束</h1>
        </div>
      );
    }
    return (
      <div className="status-page" data-testid="room-loading">
        <div className="spinner" aria-hidden="true" />
        <p className="status-page__text">正在进入房间...</p>
      </div>
    );
  }

  const info = room.info;
  const session = stream?.session ?? null;
  const queued = room.gameStatus === GameStatus.QUEUE || room.gameStatus === GameStatus.READY;
  const waiting = room.isHost
    ? queued
      ? '你正在排队进入游戏，开始后观众将看到你的画面'
      : '开始游戏后，观众将看到你的游戏画面'
    : queued
      ? '主播正在排队进入游戏...'
      : '等待主播开始游戏';
  return (
    <div className="room" data-testid="room-page" data-ddrid={ddRid}>
      <div className="room__bar">
        <div className="room__title">
          <span className={`room__mode room__mode--${info.room.mode === RoomMode.HAND ? 'hand' : 'relay'}`}>{info.room.mode === RoomMode.HAND ? '手柄模式' : '一起玩'}</span>
          <strong data-testid="room-name">{info.room.roomName}</strong>
          <span className="room__game">{info.game.name || '游戏加载中...'}</span>
        </div>
        <div className="room__tools">
          <button type="button" className="btn btn--ghost btn--sm" data-testid="room-online-count" onClick={() => setTab('online')}>
            在线 {formatOnline(room.members.onlineCount)}
          </button>
          <button type="button" className="btn btn--ghost btn--sm" data-testid="barrage-toggle" aria-pressed={room.talk.barrageOn} onClick={() => room.talk.setBarrageOn(!room.talk.barrageOn)}>
            {room.talk.barrageOn ? '关闭弹幕' : '开启弹幕'}
          </button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={fullscreen}>
            全屏
          </button>
          {room.isHost && (
            <>
              <button type="button" className="btn btn--ghost btn--sm" data-testid="room-settings" onClick={() => setDialog('settings')}>
                设置
              </button>
              <button
                type="button"
                className="btn btn--ghost btn--sm"
                data-testid="room-blacklist"
                onClick={() => {
                  void room.members.loadBlacklist(1);
                  setDialog('blacklist');
                }}
              >
                黑名单
              </button>
            </>
          )}
          <button type="button" className="btn btn--danger btn--sm" data-testid="room-exit" onClick={() => void exit()}>
            {room.isHost ? '结束直播' : '退出房间'}
          </button>
        </div>
      </div>
      <div className="room__main">
        <div className="room__left">
          <div className="room__stage" ref={stageRef}>
            {session && session.hasStream ? (
              <RoomStreamView session={session} controlling={room.hasControl} />
            ) : (
              <div className="room__waiting" data-testid="room-waiting">
                {session?.message ?? waiting}
              </div>
            )}
            {room.talk.barrageOn && <BarrageOverlay room={room} />}
          </div>
          <ControlPanel room={room} />
        </div>
        <div className="room__side">
          <div className="room__tabs" role="tablist">
            {(
              [
                ['chat', '聊天'],
                ['online', `在线(${formatOnline(room.members.onlineCount)})`],
                ['mike', '麦位'],
              ] as const
            ).map(([k, label]) => (
              <button key={k} type="button" role="tab" aria-selected={tab === k} data-testid={`room-tab-${k}`} className={`room__tab${tab === k ? ' is-active' : ''}`} onClick={() => setTab(k)}>
                {label}
              </button>
            ))}
          </div>
          {tab === 'chat' && <ChatPanel room={room} />}
          {tab === 'online' && <OnlinePanel room={room} onReport={(id, name) => setDialog({ report: id, name })} />}
          {tab === 'mike' && <MikePanel room={room} />}
        </div>
      </div>
      {dialog === 'blacklist' && <BlacklistDialog onClose={() => setDialog(null)} />}
      {dialog === 'settings' && <SettingsDialog onClose={() => setDialog(null)} />}
      {dialog !== null && typeof dialog === 'object' && <ReportDialog userId={dialog.report} name={dialog.name} onClose={() => setDialog(null)} />}
    </div>
  );
});

/** The host's picture; the keys and pointer go to it while this user holds control. */
const RoomStreamView = observer(function RoomStreamView({ session, controlling }: { session: StreamSession; controlling: boolean }) {
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
  useEffect(() => {
    if (controlling && session.phase === 'playing') canvasRef.current?.focus({ preventScroll: true });
  }, [controlling, session.phase]);
  return (
    <>
      <canvas
        ref={canvasRef}
        className={`stream__canvas${session.phase === 'playing' ? ' is-playing' : ''}`}
        data-testid="stream-canvas"
        data-phase={session.phase}
        data-control={controlling ? '1' : '0'}
        tabIndex={0}
        aria-label="游戏画面"
      />
      {session.message && (
        <div className="stream__message" data-testid="room-stream-message">
          <p>{session.message}</p>
          {session.canRetry && (
            <button type="button" className="btn btn--primary" onClick={() => session.retry()}>
              重新连接
            </button>
          )}
        </div>
      )}
    </>
  );
});

/** The barrage (§4.9): the newest lines over the stream, in §9's colours. */
const BarrageOverlay = observer(function BarrageOverlay({ room }: { room: RoomStore }) {
  const shown = room.talk.barrage.slice(-8);
  return (
    <div className="room-barrage" data-testid="room-barrage" aria-live="polite">
      {shown.map((b, i) => (
        <div
          key={b.key}
          className={`room-barrage__item${b.notice ? ' is-notice' : ''}`}
          data-testid="barrage-item"
          style={{
            color: b.color,
            top: `${(i % 8) * 11 + 2}%`,
            WebkitTextStroke: b.stroke ? `${b.stroke / 2}px ${b.strokeColor}` : undefined,
          }}
        >
          {b.text}
        </div>
      ))}
    </div>
  );
});

/** Apply, return, the rotation; for the host the request list and revoke. */
/** The rotation's turn lengths the host may pick (the server takes 30 s to 1 h). */
const TURN_CHOICES: readonly [number, string][] = [
  [30, '30秒'],
  [60, '1分钟'],
  [180, '3分钟'],
  [300, '5分钟'],
  [600, '10分钟'],
];

const ControlPanel = observer(function ControlPanel({ room }: { room: RoomStore }) {
  const rot = room.control.rotation;
  const [turnSecs, setTurnSecs] = useState(() => (rot.turnSecs > 0 ? rot.turnSecs : 300));
  const applyText =
    room.control.applyState === ApplyState.PENDING ? `申请中 ${room.control.applySecondsLeft}s` : room.control.applyState === ApplyState.DENIED ? `已被拒绝 ${room.control.applySecondsLeft}s` : '申请控制';
  const controller = room.info?.room.controller ?? 0;
  const guestControls = controller > 0 && controller !== room.hostUid;
  return (
    <div className="room-control" data-testid="control-panel">
      {rot.on && (
        <div className="room-control__rotation" data-testid="rotation-panel">
          <span>轮流控制中</span>
          {rot.position > 0 ? <span data-testid="rotation-position">排队第{rot.position}位</span> : <span>共{rot.queued}人排队</span>}
          <span data-testid="rotation-left">本轮剩余 {formatMinSec(rot.secondsLeft)}</span>
        </div>
      )}
      {!room.isHost && (
        <div className="room-control__row">
          {room.hasControl ? (
            <>
              <span className="room-control__state" data-testid="control-state">
                你正在控制游戏
              </span>
              <button type="button" className="btn btn--outline btn--sm" data-testid="control-return" onClick={() => void room.control.returnControl()}>
                归还控制权
              </button>
            </>
          ) : (
            <button type="button" className="btn btn--primary btn--sm" data-testid="control-apply" data-state={room.control.applyState} disabled={room.control.applyState !== ApplyState.NONE} onClick={() => void room.control.applyControl()}>
              {applyText}
            </button>
          )}
          {room.seats.inMikeList ? (
            <button type="button" className="btn btn--ghost btn--sm" data-testid="mike-down" onClick={() => void room.seats.mikeDown()}>
              下麦
            </button>
          ) : room.seats.canApplySeat ? (
            <button type="button" className="btn btn--ghost btn--sm" data-testid="mike-up" onClick={() => void room.seats.mikeUp()}>
              上麦
            </button>
          ) : room.seats.canQueueSeat ? (
            <button type="button" className="btn btn--ghost btn--sm" data-testid="mike-queue" onClick={() => void room.seats.mikeQueue()}>
              排麦
            </button>
          ) : null}
        </div>
      )}
      {room.isHost && (
        <>
          <div className="room-control__row">
            {guestControls && (
              <button type="button" className="btn btn--outline btn--sm" data-testid="control-recycle" onClick={() => void room.control.recycleControl()}>
                收回控制权
              </button>
            )}
            <label className="room-control__toggle">
              <input type="checkbox" data-testid="rotation-toggle" checked={rot.on} onChange={(e) => void room.control.setRotation(e.target.checked, turnSecs)} />
              轮流控制
            </label>
            <select className="input room-control__turn" data-testid="rotation-turn" aria-label="每人时长" value={turnSecs} onChange={(e) => setTurnSecs(Number(e.target.value))}>
              {TURN_CHOICES.map(([secs, label]) => (
                <option key={secs} value={secs}>
                  每人{label}
                </option>
              ))}
            </select>
          </div>
          <ul className="room-control__requests" data-testid="control-requests">
            {(room.control.requests ?? []).map((r) => (
              <li key={r.userId} data-testid="control-request" data-uid={r.userId}>
                <span>{r.user.nickname} 申请控制权</span>
                <button type="button" className="btn btn--primary btn--sm" data-testid="control-assign" onClick={() => void room.control.assignControl(r.userId, true)}>
                  同意
                </button>
                <button type="button" className="btn btn--ghost btn--sm" data-testid="control-deny" onClick={() => void room.control.assignControl(r.userId, false)}>
                  拒绝
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
});

const ChatPanel = observer(function ChatPanel({ room }: { room: RoomStore }) {
  const [text, setText] = useState('');
  const [faces, setFaces] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const count = room.talk.chat.length;
  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [count]);
  const send = async (faceId: number | null = null) => {
    if (await room.talk.sendChat(faceId === null ? text : '', faceId)) {
      if (faceId === null) setText('');
      setFaces(false);
    }
  };
  return (
    <div className="room-chat">
      <ul className="room-chat__list" ref={listRef} data-testid="chat-list">
        {room.talk.chat.map((c) => (
          <li key={c.key} className={`room-chat__item room-chat__item--${c.kind}${c.own ? ' is-own' : ''}`} data-testid="chat-item">
            {c.kind === 'text' && <span className="room-chat__name">{c.nickname}：</span>}
            {c.faceId !== null && faceGlyph(c.faceId) ? <span className="room-chat__face">{faceGlyph(c.faceId)}</span> : <span className="room-chat__text">{c.text}</span>}
          </li>
        ))}
      </ul>
      {faces && (
        <div className="room-chat__faces" data-testid="chat-faces">
          {FACES.map((f) => (
            <button key={f.id} type="button" title={f.name} onClick={() => void send(f.id)}>
              {f.glyph}
            </button>
          ))}
        </div>
      )}
      <form
        className="room-chat__form"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <button type="button" className="btn btn--ghost btn--sm" aria-label="表情" onClick={() => setFaces(!faces)}>
          😊
        </button>
        <input className="input" data-testid="chat-input" placeholder="说点什么..." maxLength={room.info?.chatMaxChars} value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit" className="btn btn--primary btn--sm" data-testid="chat-send">
          发送
        </button>
      </form>
    </div>
  );
});

const OnlinePanel = observer(function OnlinePanel({ room, onReport }: { room: RoomStore; onReport: (uid: number, name: string) => void }) {
  const { ui } = useStores();
  const rows = room.members.online?.rows ?? [];
  const total = room.members.online?.totalRows ?? 0;
  const pages = Math.max(1, Math.ceil(total / 20));
  return (
    <div className="room-online" data-testid="online-list">
      <ul>
        {rows.map((u) => (
          <li key={u.userId} className="room-online__item" data-testid="online-user" data-uid={u.userId}>
            <Avatar src={u.avatar} name={u.nickname} size={28} />
            <span className="room-online__name">
              {u.nickname}
              {u.userId === room.hostUid && <em className="room-online__tag">主播</em>}
            </span>
            {u.userId !== room.uid && (
              <span className="room-online__actions">
                {room.isHost && (
                  <>
                    <button type="button" className="btn btn--ghost btn--sm" data-testid="invite-mike" onClick={() => void room.seats.inviteMike(u.userId)}>
                      邀请上麦
                    </button>
                    <button type="button" className="btn btn--ghost btn--sm" data-testid="invite-control" onClick={() => void room.control.inviteControl(u.userId)}>
                      邀请一起玩
                    </button>
                    <button
                      type="button"
                      className="btn btn--ghost btn--sm"
                      data-testid="kick"
                      onClick={async () => {
                        if (await ui.confirm({ title: '提示', message: `确定将 ${u.nickname} 移出房间吗？` })) void room.members.kick(u.userId);
                      }}
                    >
                      踢出
                    </button>
                    <button type="button" className="btn btn--ghost btn--sm" data-testid="ban-chat" onClick={() => void room.members.banChat(u.userId, !u.chatBanned)}>
                      {u.chatBanned ? '解除禁言' : '禁言'}
                    </button>
                    <button type="button" className="btn btn--ghost btn--sm" data-testid="black-add" onClick={() => void room.members.blacklistAdd(u.userId)}>
                      拉黑
                    </button>
                  </>
                )}
                <button type="button" className="btn btn--ghost btn--sm" data-testid="report" onClick={() => onReport(u.userId, u.nickname)}>
                  举报
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
      {pages > 1 && (
        <div className="room-online__pages">
          <button type="button" className="btn btn--ghost btn--sm" disabled={room.members.onlinePage <= 1} onClick={() => void room.members.loadOnline(room.members.onlinePage - 1)}>
            上一页
          </button>
          <span>
            {room.members.onlinePage}/{pages}
          </span>
          <button type="button" className="btn btn--ghost btn--sm" disabled={room.members.onlinePage >= pages} onClick={() => void room.members.loadOnline(room.members.onlinePage + 1)}>
            下一页
          </button>
        </div>
      )}
    </div>
  );
});

const SEAT_TEXT: Record<string, string> = { open: '空位', closed: '已关闭', banned: '已禁麦', locked: '已锁定', host: '主播' };

/** The mic seats: host seat, taken seats with their control mark, open/locked seats; the host's seat and queue tools. */
const MikePanel = observer(function MikePanel({ room }: { room: RoomStore }) {
  const seats = room.seats.mike?.mikeList ?? [];
  const queue = room.seats.mikeQueueList ?? [];
  const host = room.isHost;
  return (
    <div className="room-mike" data-testid="mike-list">
      <ul className="room-mike__seats">
        {seats.map((s) => (
          <li
            key={s.index}
            className={`room-mike__seat${s.type > SeatType.DENY ? ' has-control' : ''}`}
            data-testid="mike-seat"
            data-uid={s.userId ?? ''}
            data-state={s.user && s.state !== 'host' ? 'taken' : s.state}
            data-type={s.type}
          >
            <Avatar src={s.user?.avatar} name={s.user?.nickname ?? String(s.index + 1)} size={36} />
            <span className="room-mike__name">{s.user?.nickname ?? SEAT_TEXT[s.state] ?? '空位'}</span>
            {s.state === 'host' && <em className="room-online__tag">主播</em>}
            {s.type > SeatType.DENY && <em className="room-mike__ctl">控制中</em>}
            {s.isBanVoice ? <em className="room-mike__ban">禁麦</em> : null}
            {host && s.state !== 'host' && (
              <span className="room-online__actions">
                {s.user && s.userId !== null && s.userId !== undefined ? (
                  <>
                    <button type="button" className="btn btn--ghost btn--sm" onClick={() => void room.seats.operateSeat(s.userId!, 3)}>
                      抱下麦
                    </button>
                    <button type="button" className="btn btn--ghost btn--sm" onClick={() => void room.seats.operateSeat(s.userId!, s.isBanVoice ? 5 : 4)}>
                      {s.isBanVoice ? '解除禁麦' : '禁麦'}
                    </button>
                  </>
                ) : (
                  <button type="button" className="btn btn--ghost btn--sm" onClick={() => void room.seats.lockSeat(s.index, s.state !== 'locked')}>
                    {s.state === 'locked' ? '解锁' : '锁麦'}
                  </button>
                )}
              </span>
            )}
          </li>
        ))}
      </ul>
      {room.seats.mikeFull && <p className="room-mike__full">麦位已满</p>}
      {host && (
        <div className="room-mike__tools">
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void room.seats.lockAllSeats(true)}>
            全部锁麦
          </button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void room.seats.lockAllSeats(false)}>
            全部解锁
          </button>
        </div>
      )}
      {host && (
        <div className="room-mike__queue" data-testid="mike-queue-list">
          <div className="room-mike__queue-head">
            <span>排麦列表（{queue.length}）</span>
            {queue.length > 0 && (
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => void room.seats.queueClear()}>
                清空
              </button>
            )}
          </div>
          <ul>
            {queue.map((u, i) => (
              <li key={u.userId} className="room-online__item">
                <span className="room-online__name">
                  {i + 1}. {u.nickname}
                </span>
                <span className="room-online__actions">
                  {i > 0 && (
                    <button type="button" className="btn btn--ghost btn--sm" onClick={() => void room.seats.queueTop(u.userId)}>
                      置顶
                    </button>
                  )}
                  {i > 0 && (
                    <button type="button" className="btn btn--ghost btn--sm" onClick={() => void room.seats.queueSwitch(u.userId, queue[i - 1].userId)}>
                      上移
                    </button>
                  )}
                  <button type="button" className="btn btn--ghost btn--sm" onClick={() => void room.seats.inviteMike(u.userId)}>
                    邀请上麦
                  </button>
                  <button type="button" className="btn btn--ghost btn--sm" onClick={() => void room.seats.queueRemove(u.userId)}>
                    移除
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {!host && room.seats.mike?.isMikeReq && (
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => void room.seats.mikeQueueCancel()}>
          取消排麦
        </button>
      )}
    </div>
  );
});
