// Codes of the spec that the client switches on (they are values of the contract, not shapes).

/** Session status codes (core-platform.md §4.1). */
export const GameStatus = {
  QUEUE: 1,
  READY: 3,
  CONNECTING: 4,
  PLAYING: 5,
} as const;
export type GameStatusCode = (typeof GameStatus)[keyof typeof GameStatus];

/** Queue lane codes (isFast, core-platform.md §4.6). Names and weights come from the server. */
export const Lane = {
  NORMAL: 0,
  MEMBER: 1,
  CARRIER: 2,
  VVIP: 3,
  VIP: 4,
  NIGHT: 5,
  DAILY: 6,
} as const;

/** Notification codes of core-platform.md §4.11 the client handles. */
export const NotificationCode = {
  USER_GAME_STATUS_CHANGE: 130122,
  USER_GAME_TIME_NOT_ENOUGH: 130123,
  USER_GAME_END: 130124,
  USER_TIME_END: 130125,
  GAME_OFFLINE_SOON: 130132,
  LIVE_CONTROL_OFFLINE_SOON: 130133,
  LIGHT_PACKAGE_END_SOON: 130467,
  /** social.md §4.8: the live control time is over: control released, alert, home */
  LIVE_OFFLINE: 130134,
  /** social.md §4.8: the host's relay ended (the room is over) */
  USER_RELAY_END: 130447,
  /** core-platform.md §4.11: a minor's play window closes: the limit alert (msg, remark) */
  CHILDREN_LIMIT: 130135,
  /** core-platform.md §4.11: the game was hanging and is ended: info toast, re-read the game duration */
  GAME_HANG_END: 130140,
} as const;

/** core-platform.md §4.9: the certification pre-check's answers. */
export const AuthType = { PASS: 0, CONFIRM: 1, DENY: 2 } as const;
