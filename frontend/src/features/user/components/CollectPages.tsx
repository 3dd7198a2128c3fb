import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import type { CatalogueGame } from '../../../api/types';
import { CollectButton } from '../../catalogue/components/CollectButton';
import { GameCard, gameDetailPath } from '../../../components/GameCard';
import { GuessYouLike } from '../../layout/components/RecentPopover';
import { collectStoreOf, COLLECTED_PAGE_SIZE, CollectText, PLAYED_PAGE_SIZE } from '../../catalogue/stores/collectStore';
import { useStores } from '../stores/context';
import '../../../styles/collect.css';

/** The user-centre page for a guest: log in first. */
function LoginFirst({ title }: { title: string }) {
  const { ui } = useStores();
  return (
    <div className="status-page">
      <h1 className="status-page__title">{title}</h1>
      <button type="button" className="btn btn--primary" onClick={() => ui.openLogin()}>
        登录
      </button>
    </div>
  );
}

/** The games as catalogue cards, each with its collect button. */
function Grid({ games, testId }: { games: CatalogueGame[]; testId: string }) {
  const navigate = useNavigate();
  return (
    <div className="collect-page__grid" data-testid={testId}>
      {games.map((g) => (
        <div key={g.id} className="collect-page__card">
          <CollectButton game={g} className="btn btn--ghost btn--sm" />
          <GameCard game={g} onOpen={(game) => navigate(gameDetailPath(game.id))} />
        </div>
      ))}
    </div>
  );
}

/** /user/collect: every favourite, 20 a page (social.md §2.1, §2.4). */
export const CollectPage = observer(function CollectPage() {
  const root = useStores();
  const store = collectStoreOf(root);
  const loggedIn = root.user.isLoggedIn;
  useEffect(() => {
    if (loggedIn) void store.loadCollected(1, COLLECTED_PAGE_SIZE);
  }, [store, loggedIn]);
  if (!root.user.ready) return <div className="page container" />;
  if (!loggedIn) return <LoginFirst title="登录后查看我的收藏" />;
  const pages = Math.max(1, Math.ceil(store.collectedTotal / COLLECTED_PAGE_SIZE));
  const page = store.collectedPage;
  return (
    <div className="page container collect-page" data-testid="collect-page">
      <div className="collect-page__head">
        <h1>我的收藏</h1>
        <span data-testid="collect-total">共 {store.collectedTotal} 款</span>
      </div>
      {store.error && <p className="notice notice--error">{store.error}</p>}
      {store.collectedLoaded && !store.error && store.collectedTotal === 0 ? (
        <>
          <p className="recent-empty" data-testid="collect-empty">
            {CollectText.COLLECTED_EMPTY}
          </p>
          <GuessYouLike store={store} />
        </>
      ) : (
        <Grid games={store.collected} testId="collect-list" />
      )}
      {pages > 1 && (
        <div className="history__pager">
          <button type="button" className="btn btn--ghost btn--sm" disabled={page <= 1} onClick={() => void store.loadCollected(page - 1, COLLECTED_PAGE_SIZE)}>
            上一页
          </button>
          <span>
            {page} / {pages}
          </span>
          <button type="button" className="btn btn--ghost btn--sm" disabled={page >= pages} onClick={() => void store.loadCollected(page + 1, COLLECTED_PAGE_SIZE)}>
            下一页
          </button>
        </div>
      )}
    </div>
  );
});

/** /user/played: the recently played games, with 清空记录 (social.md §2.1, §2.4, §5). */
export const PlayedPage = observer(function PlayedPage() {
  const root = useStores();
  const store = collectStoreOf(root);
  const loggedIn = root.user.isLoggedIn;
  useEffect(() => {
    if (loggedIn) void store.loadPlayed(PLAYED_PAGE_SIZE);
  }, [store, loggedIn]);
  if (!root.user.ready) return <div className="page container" />;
  if (!loggedIn) return <LoginFirst title="登录后查看最近玩过" />;
  return (
    <div className="page container collect-page" data-testid="played-page">
      <div className="collect-page__head">
        <h1>最近玩过</h1>
        {store.played.length > 0 && (
          <button type="button" className="btn btn--ghost btn--sm" data-testid="played-clear" onClick={() => void store.clearPlayed()}>
            {CollectText.CLEAR}
          </button>
        )}
      </div>
      {store.playedLoaded && store.played.length === 0 ? (
        <>
          <p className="recent-empty" data-testid="played-empty">
            {CollectText.PLAYED_EMPTY}
          </p>
          <GuessYouLike store={store} />
        </>
      ) : (
        <Grid games={store.played} testId="played-list" />
      )}
    </div>
  );
});
