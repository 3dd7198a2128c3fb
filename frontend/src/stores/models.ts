// The shapes of API.md "Shapes", as the client reads them. Fields the client does not use are
// left optional so that a server adding fields never breaks the build.

export interface Profile {
  uid: number | string;
  nickname: string;
  display_name?: string;
  avatar?: string;
  avatar_frame?: string;
  gender?: number;
  status?: number;
  cellphone?: string;
  id_authed?: boolean;
  growth_level?: number;
  /** play time in minutes */
  play_time_total?: number;
  play_time_free?: number;
  play_time_paid?: number;
  member_info?: MemberInfo;
  privilege?: Privilege;
  fast_enter_free?: number;
  fast_enter_member?: number;
  fast_enter_paid?: number;
  fast_enter_remain_times?: number;
  /** seconds of fast-entry time left */
  fast_enter_expires_in?: number;
  yoodo?: string;
  balance?: number;
  systemTime?: number;
}

export interface MemberInfo {
  using?: string | null;
  items?: { type: string; expired_at?: number | string }[];
  near_expiration?: boolean;
  join_at?: number | string | null;
}

export interface Privilege {
  cross_screen?: boolean;
  [key: string]: unknown;
}

/** One item of the registration gift (commerce.md §2.9). */
export interface GiftGoods {
  name: string;
  face_value_txt: string;
}

export interface LoginResult {
  uid: number | string;
  nickname: string;
  is_new_user?: boolean;
  give_goods?: GiftGoods[];
}

export type MemberType = 'vip' | 'vvip' | 'hvip' | null;

export interface CatalogueGame {
  id: number;
  name: string;
  image?: string;
  image_vertical?: string;
  image_square?: string;
  logo?: string;
  /** 0 coming soon, 1 on the shelf, 2 off the shelf, 10 not supported on this client */
  status: number;
  deleted?: boolean;
  available?: boolean;
  collected?: boolean;
  member_type?: MemberType;
  instant_play?: boolean;
}

export interface GameInfo extends CatalogueGame {
  description?: string;
  platform?: string;
  chinese?: boolean;
  controller?: boolean;
  startMode?: number;
  supportModes?: number[];
  associatedType?: number;
  startUrl?: string;
}

export interface GamePage {
  data: CatalogueGame[];
  total: number;
}

export interface GameNode {
  id: number;
  name: string;
  /** only 1 can be chosen */
  status: number;
  pingUrl: string;
  pingIp?: string;
  ip?: string;
}

/** Session status codes (core-platform.md §4.1). */
export const GameStatus = {
  QUEUE: 1,
  READY: 3,
  CONNECTING: 4,
  PLAYING: 5,
} as const;
export type GameStatusCode = (typeof GameStatus)[keyof typeof GameStatus];

export type EndReason = 'missed' | 'gave_up' | 'cancelled' | 'over' | 'time_up' | string;

/** A live session (hasGameOnline true) as floatBall, start and the 130122 push return it. */
export interface LiveGameState {
  hasGameOnline: true;
  id: number | string;
  gameId: number;
  gameName: string;
  gameLogo?: string;
  status: number;
  gameMode?: number;
  clientType?: string;
  ballStatus?: number;
  /** seconds of the ready countdown */
  connectCountdown?: number;
  /** server time in ms at which READY began */
  responseTime?: number;
  /** seconds spent PLAYING */
  onlineDuration?: number;
  isFast?: number;
  /** exact queue rank, 1 = next */
  sort?: number;
  queDuration?: number;
  nodeId?: number;
  nodeName?: string;
}

/** No live session; after an end it names the session and why it ended. */
export interface EndedGameState {
  hasGameOnline: false;
  id?: number | string;
  gameId?: number;
  endReason?: EndReason;
}

export type GameState = LiveGameState | EndedGameState;

/** Queue lanes (isFast, core-platform.md §4.6, API.md "Queue lanes"). */
export const Lane = {
  NORMAL: 0,
  MEMBER: 1,
  CARRIER: 2,
  VVIP: 3,
  VIP: 4,
  NIGHT: 5,
  DAILY: 6,
} as const;

/** gameChannelSize: what joining lane `isFast` now would mean for the caller's channel. */
export interface ChannelSize {
  /** players who would be ahead; expected rank = preSort + 1 */
  preSort: number;
  /** expected seconds of wait: the long end of the range; 0 while not measured */
  waitDuration: number;
  /** the range of that wait in seconds (null while not measured; max null: no upper end) */
  waitDurationMin?: number | null;
  waitDurationMax?: number | null;
  /** the caller's own expected wait in seconds, measured the same way */
  ownWaitMin?: number | null;
  ownWaitMax?: number | null;
  isFast: number;
}

/** A usable fast-entry card of /api/v3/user/card/list. */
export interface FastEnterCard {
  id: number | string;
  goods_title: string;
  /** ms */
  expires_at: number;
  status: number;
}

export interface CardList {
  total: number;
  data: FastEnterCard[];
}

/** The answer of /api/v3/user/card/activate. */
export interface CardActivation {
  goods_title: string;
  isFast: number;
  sort: number;
}

/** Config group wx_sort_entry: the messaging-app notice area of the queue dialog (strings). */
export interface WxSortEntryConfig {
  web?: string;
  delay_show_code_time?: string;
  delay_show_reserve_time?: string;
}

/** Notification codes of core-platform.md §4.11 the client handles. */
export const NotificationCode = {
  USER_GAME_STATUS_CHANGE: 130122,
  USER_GAME_TIME_NOT_ENOUGH: 130123,
  USER_GAME_END: 130124,
  USER_TIME_END: 130125,
  GAME_OFFLINE_SOON: 130132,
  LIVE_CONTROL_OFFLINE_SOON: 130133,
  LIGHT_PACKAGE_END_SOON: 130467,
} as const;
