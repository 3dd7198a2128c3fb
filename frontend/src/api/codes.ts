// Codes of the spec that the client switches on (they are values of the contract, not shapes), and
// the typed reading of a push frame's data by its code.

// The session statuses (core-platform.md §4.1), the queue lanes (isFast, §4.6; their names and
// weights come from queueRules) and the notification codes (§4.11): the server's own lists,
// generated into src/gen/codes.ts (scripts/gen-api.mjs, from the document's x-push-codes).
import { GameStatus, Lane, NotificationCode, RoomEventCode } from '../gen/codes';
import type { NotificationData, RoomEventData } from '../gen/codes';

export { GameStatus, Lane, NotificationCode, RoomEventCode };
export type { NotificationData, RoomEventData };
export type GameStatusCode = (typeof GameStatus)[keyof typeof GameStatus];

/** core-platform.md §4.9: the certification pre-check's answers. */
export const AuthType = { PASS: 0, CONFIRM: 1, DENY: 2 } as const;

/** The JSON object a push frame's `data` text holds; null when there is none (empty, not JSON, not an object). */
function pushObject(text: string): object | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * The `data` of a room event (the frame's JSON text) as the server declares it for `code`
 * (RoomEventData, generated); null when the frame carries none.
 */
export function eventData<C extends keyof RoomEventData>(_code: C, text: string): RoomEventData[C] | null {
  return pushObject(text) as RoomEventData[C] | null;
}

/**
 * The `data` of a notification (the frame's JSON text) as the server declares it for `code`
 * (NotificationData, generated); null when the frame carries none.
 */
export function notificationData<C extends keyof NotificationData>(_code: C, text: string): NotificationData[C] | null {
  return pushObject(text) as NotificationData[C] | null;
}
