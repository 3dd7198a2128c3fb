import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { GameCard, gameDetailPath } from '../../../components/GameCard';
import { useStores } from '../stores/context';
import { Pagination } from './Pagination';
import { GameSectionPage } from '../../exclusive/components/GameSectionPage';

/** /game?page=&keyword= (social.md §2.8); /game/section (the games of a category, commerce.md §2.1) shares its chunk. */
export function GameListPage() {
  return useLocation().pathname.endsWith('/section') ? <GameSectionPage /> : <Catalogue />;
}

const Catalogue = observer(function Catalogue() {
  const { catalogue } = useStores();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const keyword = params.get('keyword') ?? '';

  useEffect(() => {
    void catalogue.loadPage(page, keyword);
  }, [catalogue, page, keyword]);

  const goTo = (p: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(p));
    setParams(next);
    window.scrollTo({ top: 0 });
  };

  const showEmpty = catalogue.loaded && !catalogue.loading && !catalogue.error && catalogue.games.length === 0;
  return (
    <div className="page container">
      <div className="page__head">
        <h1 className="page__title">{keyword ? `“${keyword}”的搜索结果` : '游戏库'}</h1>
        {catalogue.loaded && !catalogue.error && <span className="page__meta">共 {catalogue.total} 款游戏</span>}
      </div>
      {catalogue.error && (
        <div className="notice notice--error">
          {catalogue.error}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void catalogue.loadPage(page, keyword)}>
            重试
          </button>
        </div>
      )}
      {showEmpty ? (
        <div className="empty" data-testid="empty">
          <div className="empty__art" aria-hidden="true" />
          暂无相关游戏
        </div>
      ) : (
        <div className={`game-grid${catalogue.loading ? ' is-loading' : ''}`} data-testid="game-grid">
          {catalogue.games.map((g) => (
            <GameCard key={g.id} game={g} onOpen={(game) => navigate(gameDetailPath(game.id))} />
          ))}
          {!catalogue.loaded && Array.from({ length: 12 }, (_, i) => <div key={i} className="game-card game-card--skeleton" />)}
        </div>
      )}
      <Pagination page={catalogue.page} pageCount={catalogue.pageCount} onChange={goTo} />
    </div>
  );
});
