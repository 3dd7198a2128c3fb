import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { CatalogueGame } from '../../../api/types';
import { GameCard, gameDetailPath } from '../../../components/GameCard';
import { useStores } from '../stores/context';
import { errorMessage } from '../../../transport/apiError';
import { parseCategory, USABLE_GAMES } from '../stores/exclusive';

/** /game/section?game_category_id&section_name=可用游戏: the games an exclusive card is usable for (commerce.md §2.1). */
export function GameSectionPage() {
  const { api } = useStores();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const category = parseCategory(params.get('game_category_id'));
  const title = params.get('section_name') || USABLE_GAMES;
  const [games, setGames] = useState<CatalogueGame[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (category === null) return undefined;
    let live = true;
    api.get('/api/web/v1/game/section', { game_category_id: String(category) }).then(
      (page) => live && setGames(page.data),
      (e: unknown) => live && setError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [api, category]);

  return (
    <div className="page container" data-testid="game-section-page">
      <div className="page__head">
        <h1 className="page__title">{title}</h1>
        {games && <span className="page__meta">共 {games.length} 款游戏</span>}
      </div>
      {(category === null || error) && <div className="notice notice--error">{error ?? '参数错误'}</div>}
      {games && games.length === 0 && (
        <div className="empty" data-testid="empty">
          暂无相关游戏
        </div>
      )}
      {games && games.length > 0 && (
        <div className="game-grid" data-testid="game-section-grid">
          {games.map((g) => (
            <GameCard key={g.id} game={g} onOpen={(game) => navigate(gameDetailPath(game.id))} />
          ))}
        </div>
      )}
    </div>
  );
}
