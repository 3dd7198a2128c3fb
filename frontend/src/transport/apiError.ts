/** A call whose envelope code was not 0 (or that never produced an envelope). */
export class ApiError<D = unknown> extends Error {
  readonly code: number;
  readonly data: D;

  constructor(code: number, message: string, data: D) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.data = data;
  }
}

/** Codes of API.md / core-platform.md §8 that the client reacts to by number. */
export const ErrorCode = {
  /** no envelope at all: network failure or a non-JSON body */
  NETWORK: -1,
  BAD_REQUEST: 40000,
  CSRF: 40003,
  NOT_LOGGED_IN: 20119,
  SESSION_INVALID: 40001,
  /** the account is frozen or banned: the forbidden alert (core-platform.md §2.6) */
  ACCOUNT_FORBIDDEN: 20101,
  /** certification first (core-platform.md §8.2) */
  USER_NOT_AUTH: 20150,
  /** a minor outside the hours minors may play, or in a room */
  USER_IS_MINOR: 20151,
  /** a minor's payment within the limits: confirm, then resubmit with confirm = 1 */
  USER_IS_MINOR_CHARGE_LIMIT: 20160,
  PHONE_EMPTY: 20116,
  PHONE_FORMAT: 20111,
  CODE_EMPTY: 20112,
  CODE_WRONG: 20113,
  CODE_TOO_OFTEN: 20114,
  /** the security check first: a password login after failures, a code send beyond the thresholds (§8.1) */
  CAPTCHA_REQUIRED: 20125,
  /** the security check's result was not taken */
  CAPTCHA_FAILED: 20128,
  GAME_NOT_FOUND: 130100,
  GAME_NOT_OPEN: 130101,
  GAME_SHORT_OF_TIME: 130102,
  GAME_OTHER_CLIENT_ACTIVE: 130115,
  GAME_OTHER_GAME_ACTIVE: 130116,
  GAME_CURRENT_GAME_ACTIVE: 130117,
  GAME_SESSION_GONE: 130118,
  GAME_BAD_STATE: 130119,
  CARD_NOT_QUEUED: 130120,
  GAME_NEED_SUBSCRIBE: 130126,
  GAME_UNSUPPORTED_CLIENT: 130128,
  /** §8.2: the game cannot be played together (in a room of this mode) */
  GAME_NOT_SUPPORT_RELAY: 130129,
  /** ours: the game is played only together; a start alone is refused */
  GAME_RELAY_ONLY: 130121,
  GAME_VIP_ONLY: 130464,
  GAME_VVIP_ONLY: 130465,
  GAME_MOVE_NEEDS_MEMBER: 130466,
  /** social.md §8: starting a game while in a room */
  GAME_RELAY_EXIST: 130442,
  CARD_NOT_FOUND: 20172,
  CARD_UNUSABLE: 20173,
  NODE_MAINTENANCE: 130150,
  NODE_NOT_FOUND: 130151,
} as const;

export const NETWORK_ERROR_MESSAGE = '网络异常，请稍后重试';

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** The message to show for any thrown value. */
export function errorMessage(e: unknown): string {
  if (e instanceof ApiError) return e.message || NETWORK_ERROR_MESSAGE;
  return NETWORK_ERROR_MESSAGE;
}
