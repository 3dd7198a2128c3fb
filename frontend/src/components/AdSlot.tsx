import { createContext, Suspense, useContext, type ReactNode } from 'react';

export interface AdSlotProps {
  /** the slot's key (commerce.md §2.2 header_user_pannel, header_right; §2.8 member_expire;
   * §2.9 gift_playtime_useup; core-platform.md §9 gift_game_dialog, gift_game_countdown,
   * gift_game_float) */
  slot: string;
  /** shown when the slot has no items (the member expiry popup's own button) */
  fallback?: ReactNode;
  /** after an item's action started (a popup closes) */
  onItemClick?: () => void;
}

/**
 * What fills the slots: the activity feature's view (its items and their actions), which the app
 * provides (src/app/App.tsx) lazily, so the header's slots cost the home page nothing and the
 * pages that show a slot need not know the activity feature. None provided: empty slots.
 */
const AdSlotViewContext = createContext<((props: AdSlotProps) => ReactNode) | null>(null);

export const AdSlotViewProvider = AdSlotViewContext.Provider;

/**
 * An ad slot by key: its items (image or title) and what a click does, loaded with their code
 * on first show. A slot without items shows nothing (the container stays, empty:
 * `.ad-slot:empty`).
 */
export function AdSlot(props: AdSlotProps) {
  const renderView = useContext(AdSlotViewContext);
  return (
    <div className={`ad-slot ad-slot--${props.slot}`} data-testid={`ad-${props.slot}`} data-slot={props.slot}>
      <Suspense fallback={null}>{renderView?.(props)}</Suspense>
    </div>
  );
}
