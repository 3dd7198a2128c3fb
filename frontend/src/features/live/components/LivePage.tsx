import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Avatar } from '../../../components/Avatar';
import { formatHeat } from '../../../lib/room';
import { useStores } from '../stores/context';
import { LiveStore } from '../stores/liveStore';
import { RelayDialog } from './RelayDialog';
import '../live.css';

/** /game/live (social.md §2.11): the public rooms with their heat and each game's relay count. */
export const LivePage = observer(function LivePage() {
  const root = useStores();
  const navigate = useNavigate();
  const [live] = useState(() => new LiveStore(root));
  const [search, setSearch] = useSearchParams();

  useEffect(() => {
    void live.loadList(1);
  }, [live]);

  // a start of a game played only together lands here (core-platform.md §4.4 step 10): the
  // start-relay dialog opens with the game, once
  useEffect(() => {
    const id = Number(search.get('relayGame'));
    if (!Number.isInteger(id) || id <= 0) return;
    const name = search.get('relayGameName') ?? '';
    const mode = Number(search.get('relayMode')) || 2;
    setSearch({}, { replace: true });
    void live.openRelay({ id, name }, { mode });
  }, [live, search, setSearch]);

  const rows = live.list?.rows ?? [];
  return (
    <div className="page container live-list" data-testid="live-list">
      <div className="live-list__head">
        <h1 className="live-list__title">一起玩</h1>
        <button type="button" className="btn btn--primary" data-testid="live-create" onClick={() => void live.openRelay()}>
          创建房间
        </button>
      </div>
      {!live.loading && rows.length === 0 && (
        <p className="live-list__empty" data-testid="live-empty">
          暂无直播间，快来创建第一个房间吧~
        </p>
      )}
      <ul className="live-list__grid">
        {rows.map(({ room: r, game: g, heat }) => (
          <li key={r.ddRid}>
            <button type="button" className="room-card" data-testid="room-card" data-ddrid={r.ddRid} onClick={() => navigate(`/game/live/${r.ddRid}`)}>
              <div className="room-card__cover" style={g.logo ? { backgroundImage: `url("${g.logo}")` } : undefined}>
                <span className="room-card__live">直播中</span>
                {r.hasPassword && (
                  <span className="room-card__lock">需密码</span>
                )}
                <span className="room-card__heat" data-testid="room-heat">
                  热度 {formatHeat(heat)}
                </span>
              </div>
              <div className="room-card__body">
                <div className="room-card__name">{r.roomName}</div>
                <div className="room-card__host">
                  <Avatar src={r.host.avatar} name={r.host.nickname} size={22} />
                  <span>{r.host.nickname}</span>
                </div>
                <div className="room-card__game">
                  {g.name || '游戏加载中...'}
                  <span className="room-card__count" data-testid="relay-count">
                    {live.countOf(g.id)}个房间在玩
                  </span>
                </div>
              </div>
            </button>
          </li>
        ))}
      </ul>
      {live.dialog && <RelayDialog live={live} />}
    </div>
  );
});
