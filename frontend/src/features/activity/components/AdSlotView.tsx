import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import type { AdSlotProps } from '../../../components/AdSlot';
import { useStores } from '../stores/context';
import { adStoreOf } from '../stores/adStore';
import '../ads.css';

/** The label of a section ad this user is out of pay times on (commerce.md §2.15). */
export const OUT_OF_PAY_TIMES_LABEL = '已达购买上限';

/** A slot's items: each an image or its title; a click runs its action (commerce.md §2.15). */
const AdSlotView = observer(function AdSlotView({ slot, fallback = null, onItemClick }: AdSlotProps) {
  const root = useStores();
  const ads = adStoreOf(root);
  useEffect(() => ads.want(slot), [ads, slot]);
  if (!ads.loaded(slot)) return null;
  const items = ads.items(slot);
  if (items.length === 0) return <>{fallback}</>;
  return (
    <ul className="ad-slot__items">
      {items.map((item) => {
        const out = ads.isOut(item);
        return (
          <li key={item.id}>
            <button
              type="button"
              className={`ad-item${out ? ' is-out' : ''}`}
              data-testid={`ad-item-${item.id}`}
              data-out={out ? '1' : undefined}
              disabled={!ads.clickable(item)}
              title={item.title}
              onClick={() => {
                ads.click(item);
                onItemClick?.();
              }}
            >
              {item.image ? <img className="ad-item__image" src={item.image} alt={item.title} /> : <span className="ad-item__title">{item.title}</span>}
              {out && (
                <span className="ad-item__out" data-testid={`ad-out-${item.id}`}>
                  {OUT_OF_PAY_TIMES_LABEL}
                </span>
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
});

export default AdSlotView;
