// The first-play game start guide (core-platform.md §2.14, §4.4, §4.8): recommended games, the
// player's latency, an animation of about 4.5 s, then '下一步' continues the start. Loaded by the
// first start that may show it.
import { isInCar } from './browserCheck';

/** localStorage: '1' once the guide was shown (closed or gone through) in this browser */
export const START_GUIDE_KEY = 'yoo_game_start_guide_displayed';
/** §2.14: how many recommended games the guide shows */
export const RECOMMENDED_GAMES = 7;
/** §2.14: the guide's animation, after which '下一步' continues */
export const START_GUIDE_ANIMATION_MS = 4500;

type Store = Pick<Storage, 'getItem' | 'setItem'>;

export function wasShown(storage: Store | null): boolean {
  try {
    return storage?.getItem(START_GUIDE_KEY) === '1';
  } catch {
    return false;
  }
}

export function markShown(storage: Store | null): void {
  try {
    storage?.setItem(START_GUIDE_KEY, '1');
  } catch {
    // refused storage: the guide may show again
  }
}

/** In-car mode skips the guide (§4.14). */
export function skippedHere(userAgent: string | undefined): boolean {
  return userAgent !== undefined && isInCar(userAgent);
}

/**
 * §4.8: the latency the guide shows: the smallest positive node ping, capped by
 * game_start_guide_max_delay (no cap when it is not a positive number); null without one.
 */
export function guideLatency(pings: (number | null)[], maxDelay: number): number | null {
  const positive = pings.filter((p): p is number => p !== null && Number.isFinite(p) && p > 0);
  if (positive.length === 0) return null;
  const best = Math.round(Math.min(...positive));
  return Number.isFinite(maxDelay) && maxDelay > 0 ? Math.min(best, maxDelay) : best;
}
