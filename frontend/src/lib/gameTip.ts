// The game tip before a start (core-platform.md §4.7, §2.14): the '温馨提示' dialog shows it
// unless the player ticked '当前游戏版本不再提醒' for this very content. What is kept per browser
// (§3.5 "the hashes of dismissed game tips") is one hash per game: a changed tip hashes
// differently and shows again.
import type { GameTip, TipAd } from '../api/types';

/** localStorage: {gameId: hash of the dismissed tip} */
export const DISMISSED_TIPS_KEY = 'yoo_dismissed_game_tips';

/** A hash of everything the dialog shows (FNV-1a, 32 bits, hex): equal content, equal hash. */
export function tipHash(tip: GameTip): string {
  const content = JSON.stringify([tip.tip, tip.tipExt ?? '', tip.yoodo ?? '', tip.yoodoText ?? '']);
  let h = 0x811c9dc5;
  for (let i = 0; i < content.length; i++) {
    h ^= content.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The tip's ad (tipExt is a JSON string of one); null when absent or not one. */
export function tipAd(tip: GameTip): TipAd | null {
  if (!tip.tipExt) return null;
  try {
    const ad = JSON.parse(tip.tipExt) as Partial<TipAd> | null;
    return ad && typeof ad === 'object' && typeof ad.target_title === 'string' ? (ad as TipAd) : null;
  } catch {
    return null;
  }
}

/** yoodoText split around its %s, so the amount can be highlighted; null without a yoodo line. */
export function yoodoParts(tip: GameTip): { before: string; amount: string; after: string } | null {
  if (!tip.yoodoText || !tip.yoodo) return null;
  const at = tip.yoodoText.indexOf('%s');
  if (at < 0) return { before: tip.yoodoText, amount: '', after: '' };
  return { before: tip.yoodoText.slice(0, at), amount: tip.yoodo, after: tip.yoodoText.slice(at + 2) };
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;

/** The dismissed tips of this browser. Without storage nothing is remembered. */
export class DismissedTips {
  private readonly storage: Store | null;

  constructor(storage: Store | null) {
    this.storage = storage;
  }

  private read(): Record<string, string> {
    try {
      const v = JSON.parse(this.storage?.getItem(DISMISSED_TIPS_KEY) ?? '{}') as unknown;
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {};
    } catch {
      return {};
    }
  }

  /** The player asked not to see this content of this game's tip again. */
  has(gameId: number, hash: string): boolean {
    return this.read()[String(gameId)] === hash;
  }

  remember(gameId: number, hash: string): void {
    const all = this.read();
    all[String(gameId)] = hash;
    this.write(all);
  }

  /** Unticked again: the tip shows next time (a newer dismissal of the game is left alone). */
  forget(gameId: number, hash: string): void {
    const all = this.read();
    if (all[String(gameId)] !== hash) return;
    delete all[String(gameId)];
    this.write(all);
  }

  private write(all: Record<string, string>): void {
    if (!this.storage) return;
    try {
      this.storage.setItem(DISMISSED_TIPS_KEY, JSON.stringify(all));
    } catch {
      // a full or refused storage: the tip shows again next time
    }
  }
}
