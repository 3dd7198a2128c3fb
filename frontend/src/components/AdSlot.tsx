/**
 * An ad/gift slot by key (core-platform.md §9: gift_game_dialog, gift_game_countdown,
 * gift_game_float, gift_playtime_useup). The site serves no ads yet: the slot is an empty
 * container that the gift activities will fill.
 */
export function AdSlot({ slot }: { slot: string }) {
  return <div className={`ad-slot ad-slot--${slot}`} data-testid={`ad-${slot}`} data-slot={slot} />;
}
