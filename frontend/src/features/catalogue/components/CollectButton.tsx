import { observer } from 'mobx-react-lite';
import type { CatalogueGame } from '../../../api/types';
import { collectStoreOf } from '../stores/collectStore';
import { useStores } from '../stores/context';
import '../../../styles/collect.css';

/**
 * A game's collect button (social.md §2.8 "collect", §4.11): 收藏 / 已收藏 by the game's
 * collected flag; a click collects or uncollects ('收藏成功' / '取消收藏成功'), a guest's opens
 * the login dialog.
 */
export const CollectButton = observer(function CollectButton({
  game,
  className = 'btn btn--ghost',
}: {
  game: Pick<CatalogueGame, 'id' | 'collected'>;
  className?: string;
}) {
  const root = useStores();
  const store = collectStoreOf(root);
  const collected = root.user.isLoggedIn && store.isCollected(game);
  return (
    <button
      type="button"
      className={`${className} collect-btn${collected ? ' is-collected' : ''}`}
      data-testid={`collect-${game.id}`}
      aria-pressed={collected}
      disabled={store.busy.has(game.id)}
      onClick={(e) => {
        e.stopPropagation();
        void store.toggle(game);
      }}
    >
      {collected ? '★ 已收藏' : '☆ 收藏'}
    </button>
  );
});
