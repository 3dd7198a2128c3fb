// The message centre's display rules (social.md §2.9): an item's time, and where a card
// message's "go now" leads.

import { beijingTime } from './time';

/**
 * The time shown for a message sent at `sendTime` ('YYYY-MM-DD HH:mm:ss', Beijing time) at
 * `nowMs`: HH:mm the same day, MM-DD HH:mm the same year, else the full date without seconds.
 * A time that does not parse is shown as it came.
 */
export function messageTime(sendTime: string, nowMs: number): string {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})/.exec(sendTime);
  if (!m) return sendTime;
  const [, y, mo, d, h, mi] = m;
  const now = beijingTime(nowMs);
  const sameYear = Number(y) === now.year;
  if (sameYear && Number(mo) === now.month && Number(d) === now.day) return `${h}:${mi}`;
  if (sameYear) return `${mo}-${d} ${h}:${mi}`;
  return `${y}-${mo}-${d} ${h}:${mi}`;
}

/**
 * What a card message's "go now" does, from its msgTepParam (a JSON string with goods_type and
 * auto_activate): 0 or 2 open the backpack's cards, 1 the shop; null when the message is no
 * card message (no "go now").
 */
export function cardAction(msgTepParam: string | null | undefined): 'backpack' | 'shop' | null {
  if (!msgTepParam) return null;
  let v: unknown;
  try {
    v = JSON.parse(msgTepParam);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object' || !('auto_activate' in v)) return null;
  const a = Number((v as { auto_activate: unknown }).auto_activate);
  if (a === 1) return 'shop';
  if (a === 0 || a === 2) return 'backpack';
  return null;
}
