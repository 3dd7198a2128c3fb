import type { BackpackCard, ExclusiveCard } from '../../../api/types';

/** The play-time type of an exclusive card (commerce.md §4.12). */
export const EXCLUSIVE_PLAY_TYPE = 4;

/** The section name of the games an exclusive card can be used for (commerce.md §2.1). */
export const USABLE_GAMES = '可用游戏';

/** The screen of the games of a category: `/game/section?game_category_id&section_name=可用游戏`. */
export function gameSectionPath(gameCategoryId: number): string {
  return `/game/section?game_category_id=${gameCategoryId}&section_name=${encodeURIComponent(USABLE_GAMES)}`;
}

/** The category an exclusive card of the backpack is tied to, or null (another card, or unknown). */
export function exclusiveOf(card: BackpackCard, exclusive: readonly ExclusiveCard[]): ExclusiveCard | null {
  if (card.play_type !== EXCLUSIVE_PLAY_TYPE) return null;
  return exclusive.find((e) => e.id === card.id) ?? null;
}

/** The line an exclusive card shows: its minutes left, usable only for its category's games. */
export function exclusiveText(e: ExclusiveCard): string {
  return `剩余${e.minutes_left}分钟专属时长，仅限可用游戏使用`;
}

/** A positive integer category id from the query string, else null. */
export function parseCategory(raw: string | null): number | null {
  if (raw == null || !/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 && Number.isSafeInteger(n) ? n : null;
}
