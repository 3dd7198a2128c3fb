import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { CatalogueGame } from '../../../api/types';
import { gameDetailPath } from '../../../components/GameCard';
import { GameImage } from '../../../components/GameImage';
import { collectStoreOf, CollectText, type CollectStore } from '../../catalogue/stores/collectStore';
import { useStores } from '../stores/context';
import '../../../styles/collect.css';

type Tab = 'played' | 'collected';

/** A game of the popover's lists: its logo and name, to its detail page. */
function GameRow({ game, testId, onOpen }: { game: CatalogueGame; testId: string; onOpen: () => void }) {
  return (
    <li>
      <Link to={gameDetailPath(game.id)} className="recent-item" data-testid={testId} onClick={onOpen}>
        <GameImage src={game.logo} name={game.name} />
        <span className="recent-item__name">{game.name}</span>
      </Link>
    </li>
  );
}

/** "Guess you like": 2 random games of the favourite section and '换一批'. */
export const GuessYouLike = observer(function GuessYouLike({ store, onOpen }: { store: CollectStore; onOpen?: () => void }) {
  useEffect(() => {
    void store.loadGuess();
  }, [store]);
  if (store.guess.length === 0) return null;
  return (
    <div className="guess" data-testid="guess-you-like">
      <div className="guess__head">
        <span>{CollectText.GUESS}</span>
        <button type="button" data-testid="guess-change" onClick={() => store.changeBatch()}>
          {CollectText.CHANGE_BATCH}
        </button>
      </div>
      <ul className="recent-list">
        {store.guess.map((g) => (
          <GameRow key={g.id} game={g} testId={`guess-${g.id}`} onOpen={() => onOpen?.()} />
        ))}
      </ul>
    </div>
  );
});

/**
 * The header's recent popover (social.md §2.4), for logged-in users: 最近玩过 (up to 10,
 * 清空记录 with its confirmation; a load failure shows nothing) and 我的收藏 (up to 20,
 * 查看全部 to /user/collect); each read when its tab opens.
 */
const RecentPopover = observer(function RecentPopover() {
  const root = useStores();
  const store = collectStoreOf(root);
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<Tab>('played');

  useEffect(() => {
    if (!open) return;
    if (tab === 'played') void store.loadPlayed();
    else void store.loadCollected();
  }, [open, tab, store]);

  if (!root.user.isLoggedIn) return null;
  const close = () => setOpen(false);
  return (
    <div className="recent-entry" onMouseLeave={close}>
      <button
        type="button"
        className="btn btn--sm btn--ghost"
        data-testid="header-recent"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        onMouseEnter={() => setOpen(true)}
      >
        最近玩过
      </button>
      {open && (
        <div className="popover recent-popover" data-testid="recent-popover">
          <div className="tabs" role="tablist">
            <button
              type="button"
              role="tab"
              className={`tabs__tab${tab === 'played' ? ' is-active' : ''}`}
              aria-selected={tab === 'played'}
              data-testid="recent-tab-played"
              onClick={() => setTab('played')}
            >
              最近玩过
            </button>
            <button
              type="button"
              role="tab"
              className={`tabs__tab${tab === 'collected' ? ' is-active' : ''}`}
              aria-selected={tab === 'collected'}
              data-testid="recent-tab-collected"
              onClick={() => setTab('collected')}
            >
              我的收藏
            </button>
          </div>
          {tab === 'played' ? <PlayedTab store={store} onOpen={close} /> : <CollectedTab store={store} onOpen={close} />}
        </div>
      )}
    </div>
  );
});

const PlayedTab = observer(function PlayedTab({ store, onOpen }: { store: CollectStore; onOpen: () => void }) {
  if (!store.playedLoaded) return null;
  if (store.played.length === 0) {
    return (
      <>
        <p className="recent-empty" data-testid="recent-played-empty">
          {CollectText.PLAYED_EMPTY}
        </p>
        <GuessYouLike store={store} onOpen={onOpen} />
      </>
    );
  }
  return (
    <>
      <div className="recent-popover__bar">
        <button type="button" data-testid="recent-clear" onClick={() => void store.clearPlayed()}>
          {CollectText.CLEAR}
        </button>
      </div>
      <ul className="recent-list" data-testid="recent-played">
        {store.played.map((g) => (
          <GameRow key={g.id} game={g} testId={`recent-played-${g.id}`} onOpen={onOpen} />
        ))}
      </ul>
    </>
  );
});

const CollectedTab = observer(function CollectedTab({ store, onOpen }: { store: CollectStore; onOpen: () => void }) {
  if (!store.collectedLoaded) return null;
  return (
    <>
      <div className="recent-popover__bar">
        <Link to="/user/collect" data-testid="recent-view-all" onClick={onOpen}>
          {CollectText.VIEW_ALL}
        </Link>
      </div>
      {store.collectedTotal === 0 ? (
        <>
          <p className="recent-empty" data-testid="recent-collected-empty">
            {CollectText.COLLECTED_EMPTY}
          </p>
          <GuessYouLike store={store} onOpen={onOpen} />
        </>
      ) : (
        <ul className="recent-list" data-testid="recent-collected">
          {store.collected.map((g) => (
            <GameRow key={g.id} game={g} testId={`recent-collected-${g.id}`} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </>
  );
});

export default RecentPopover;
