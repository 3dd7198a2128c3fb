import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { CollectButton } from './CollectButton';
import { GameImage } from '../../../components/GameImage';
import { gameAvailability, memberBadge, platformName } from '../../../lib/gameStatus';
import { useStores } from '../stores/context';

/**
 * /game/detail/:id: the game, its '开始游戏' button and its collect button (social.md §2.8,
 * §4.11; core-platform.md §4.4).
 */
export const GameDetailPage = observer(function GameDetailPage() {
  const { catalogue, game } = useStores();
  const { id: rawId } = useParams();
  const id = Number(rawId);
  const valid = Number.isInteger(id) && id > 0;

  useEffect(() => {
    if (valid) void catalogue.loadDetail(id);
  }, [catalogue, id, valid]);

  const entry = valid ? catalogue.detail(id) : undefined;
  if (!valid || entry?.notFound) {
    return (
      <div className="status-page">
        <h1 className="status-page__title">游戏不存在</h1>
        <Link to="/game" className="btn btn--primary">
          去游戏库看看
        </Link>
      </div>
    );
  }
  const info = entry?.info;
  if (!info) {
    return (
      <div className="page container">
        {entry?.error ? (
          <div className="notice notice--error">
            {entry.error}
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => void catalogue.loadDetail(id)}>
              重试
            </button>
          </div>
        ) : (
          <div className="detail detail--skeleton" />
        )}
      </div>
    );
  }

  const { disabled, label } = gameAvailability(info);
  const badge = memberBadge(info.member_type);
  const platform = platformName(info.platform);
  const cover = info.image || info.image_vertical || info.logo;
  return (
    <div className="detail" data-testid="game-detail">
      <div className="detail__backdrop" style={cover ? { backgroundImage: `url("${cover}")` } : undefined} />
      <div className="container detail__inner">
        <GameImage src={cover} name={info.name} className="detail__cover" />
        <div className="detail__info">
          <h1 className="detail__name" data-testid="detail-name">
            {info.name}
          </h1>
          <div className="detail__tags">
            {platform && <span className="tag tag--platform">{platform}</span>}
            {info.instant_play && <span className="tag tag--instant">秒玩</span>}
            {badge && <span className={`badge badge--${badge.toLowerCase()} badge--inline`}>{badge}</span>}
            {label && <span className="tag tag--status">{label}</span>}
          </div>
          <dl className="detail__facts">
            <div>
              <dt>中文</dt>
              <dd>{info.chinese ? '支持' : '不支持'}</dd>
            </div>
            <div>
              <dt>手柄</dt>
              <dd>{info.controller ? '支持' : '不支持'}</dd>
            </div>
          </dl>
          {info.description && <p className="detail__desc">{info.description}</p>}
          <button
            type="button"
            className="btn btn--primary btn--xl detail__start"
            data-testid="start-game"
            disabled={disabled || game.starting || game.loadingNodes}
            onClick={() => void game.requestStart({ id: info.id, name: info.name })}
          >
            {disabled ? label : '开始游戏'}
          </button>
          <CollectButton game={info} className="btn btn--ghost btn--xl detail__collect" />
        </div>
      </div>
    </div>
  );
});
