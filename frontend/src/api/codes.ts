// Codes of the spec that the client switches on (they are values of the contract, not shapes).

// The session statuses (core-platform.md §4.1), the queue lanes (isFast, §4.6; their names and
// weights come from queueRules) and the notification codes (§4.11): the server's own lists,
// generated into src/gen/codes.ts (scripts/gen-api.mjs, from the document's x-push-codes).
import { GameStatus } from '../gen/codes';

export { GameStatus, Lane, NotificationCode } from '../gen/codes';
export type { NotificationData, RoomEventData } from '../gen/codes';
export type GameStatusCode = (typeof GameStatus)[keyof typeof GameStatus];

/** core-platform.md §4.9: the certification pre-check's answers. */
export const AuthType = { PASS: 0, CONFIRM: 1, DENY: 2 } as const;
