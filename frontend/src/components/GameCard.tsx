import { gameAvailability, memberBadge } from '../lib/gameStatus';
import type { CatalogueGame } from '../api/types';
import { GameImage } from './GameImage';

/** The detail link of a game; r is a random value so that the page is always fresh. */
export function gameDetailPath(id: number): string {
  return `/game/detail/${id}?r=${Math.random().toString(36).slice(2, 10)}`;
}

/** A catalogue card: greyed and not clickable when the game is coming soon, off the shelf or unsupported. */
export function GameCard({ game, onOpen }: { game: CatalogueGame; onOpen: (game: CatalogueGame) => void }) {
  const { disabled, label } = gameAvailability(game);
  const badge = memberBadge(game.member_type);
  const open = () => {
    if (!disabled) onOpen(game);
  };
  return (
    <div
      className={`game-card${disabled ? ' is-disabled' : ''}`}
      data-testid={`game-card-${game.id}`}
      role="link"
      aria-disabled={disabled}
      tabIndex={disabled ? -1 : 0}
      onClick={open}
      onKeyDown={(e) => {
        if (e.key === 'Enter') open();
      }}
    >
      <div className="game-card__cover">
        <GameImage src={game.image || game.image_vertical || game.logo} name={game.name} />
        <div className="game-card__tags">
          {game.instant_play && <span className="tag tag--instant">秒玩</span>}
          {label && <span className="tag tag--status">{label}</span>}
        </div>
        {badge && <span className={`badge badge--${badge.toLowerCase()}`}>{badge}</span>}
      </div>
      <div className="game-card__name" title={game.name}>
        {game.name}
      </div>
    </div>
  );
}
