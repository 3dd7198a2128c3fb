import { observer } from 'mobx-react-lite';
import { useLocation, useNavigate } from 'react-router';
import { Avatar } from '../../../components/Avatar';
import { Modal } from '../../../components/Modal';
import { RoomText } from '../../../lib/room';
import { useStores } from '../stores/context';
import '../live.css';

/** What every page shows of rooms: the live summary dialog and the room float. */
export function LiveOverlays() {
  return (
    <>
      <LiveSummaryDialog />
      <RoomFloat />
    </>
  );
}

/** The live summary (social.md §2.15): duration, stats by room type, the gift list. */
export const LiveSummaryDialog = observer(function LiveSummaryDialog() {
  const { room } = useStores();
  const s = room?.summary;
  if (!room || !room.summaryOpen || !s) return null;
  const stats: [string, number | undefined][] =
    s.type === 1
      ? [
          ['观众', s.audienceCount],
          ['PK', s.pkCount],
          ['新增粉丝', s.fansAddCount],
          ['送礼人数', s.giveGiftUserCount],
          ['金币', s.gold],
        ]
      : s.type === 2
        ? [
            ['观众', s.audienceCount],
            ['上麦', s.mikeCount],
            ['参赛', s.competitionCount],
            ['新增粉丝', s.fansAddCount],
            ['送礼人数', s.giveGiftUserCount],
            ['金币', s.gold],
          ]
        : [
            ['观众', s.audienceCount],
            ['上麦', s.mikeCount],
            ['控制', s.controlCount],
            ['新增粉丝', s.fansAddCount],
            ['送礼人数', s.giveGiftUserCount],
            ['金币', s.gold],
          ];
  const gifts = s.giftLogList ?? [];
  return (
    <Modal title="直播已结束" testId="live-summary" onClose={() => room.closeSummary()} width={440}>
      <p className="live-summary__duration" data-testid="live-duration">
        直播时长 {s.liveDuration} 分钟
      </p>
      <dl className="live-summary__stats">
        {stats.map(([label, n]) => (
          <div key={label} data-testid="live-stat">
            <dt>{label}</dt>
            <dd>{n ?? 0}</dd>
          </div>
        ))}
      </dl>
      {gifts.length === 0 ? (
        <p className="live-summary__empty">{RoomText.NO_GIFTS}</p>
      ) : (
        <ul className="live-summary__gifts">
          {gifts.map((g, i) => (
            <li key={i}>
              <Avatar src={g.avatar} name={g.nickname} size={28} />
              <span>{g.nickname}</span>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn btn--primary btn--block" data-testid="live-summary-close" onClick={() => room.closeSummary()}>
        知道了
      </button>
    </Modal>
  );
});

/** The room float (§2.11): a member away from the room page sees the room, one click back in. */
export const RoomFloat = observer(function RoomFloat() {
  const { room } = useStores();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const info = room?.info;
  if (!room || !room.inRoom || !info || pathname === `/game/live/${room.ddRid}` || pathname.startsWith('/game/play')) return null;
  return (
    <button type="button" className="room-float" data-testid="room-float" onClick={() => navigate(`/game/live/${room.ddRid}`)}>
      <span className="room-float__live">直播中</span>
      <span className="room-float__game">{info.game.name || '游戏加载中...'}</span>
      <span className="room-float__host">
        <Avatar src={info.room.host.avatar} name={info.room.host.nickname} size={22} />
        {info.room.host.nickname}
      </span>
    </button>
  );
});
