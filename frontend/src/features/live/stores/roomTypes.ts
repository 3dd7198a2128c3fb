// The room's vocabulary (social.md §7): its calls and their answers' types, the chat and barrage
// lines, the socket's watch side, the entry options, and what the room's parts see of the room.
// The room's stores import it; it imports none of them.
import type { DataOf, RoomUser } from '../../../api/types';
import type { AppServices } from '../../../kernel/services';

/** The room calls (social.md §7; chat, list and rotation are ours). */
export const RoomPaths = {
  params: '/api/japi/yoo/v2/room/params',
  relayCheck: '/api/japi/yoo/v2/room/relayCheck',
  relay: '/api/japi/yoo/v2/room/relay',
  edit: '/api/japi/yoo/v2/room/edit',
  myRoom: '/api/japi/yoo/v2/room/myRoom',
  loginRelayRoom: '/api/japi/yoo/v2/room/loginRelayRoom',
  connection: '/api/japi/yoo/v2/room/connection',
  info: '/api/japi/yoo/v2/room/info',
  userList: '/api/japi/yoo/v2/room/userList',
  exit: '/api/japi/yoo/v2/room/exit',
  liveDetail: '/api/japi/yoo/v2/room/live/detail',
  list: '/api/japi/yoo/v2/room/list',
  relayCount: '/api/japi/yoo/orm/relayCount',
  mikeList: '/api/japi/yoo/mike/list',
  mikeUp: '/api/japi/yoo/mike/up',
  mikeUpOrDown: '/api/japi/yoo/mike/upOrDown',
  mikeInvite: '/api/japi/yoo/mike/invite',
  mikeInviteAccept: '/api/japi/yoo/mike/invite/accept',
  mikeInviteRefuse: '/api/japi/yoo/mike/invite/refuse',
  mikeReqAction: '/api/japi/yoo/mikeReq/action',
  mikeReqList: '/api/japi/yoo/mikeReq/list',
  mikeReqClear: '/api/japi/yoo/mikeReq/clear',
  mikeReqTop: '/api/japi/yoo/mikeReq/top',
  mikeReqSwitch: '/api/japi/yoo/mikeReq/switchMikeReq',
  mikeOperate: '/api/japi/yoo/mike/operat',
  mikeLock: '/api/japi/yoo/mike/lock',
  mikeLockAll: '/api/japi/yoo/mike/lockAll',
  controlApply: '/api/japi/yoo/control/apply',
  controlApplyList: '/api/japi/yoo/control/applyList',
  controlAssign: '/api/japi/yoo/control/assign',
  controlDeny: '/api/japi/yoo/control/deny',
  controlRecycle: '/api/japi/yoo/control/recycle',
  controlInvite: '/api/japi/yoo/control/invite',
  controlInviteAccept: '/api/japi/yoo/control/invite/accept',
  controlInviteRefuse: '/api/japi/yoo/control/invite/refuse',
  controlRemand: '/api/japi/yoo/control/remand',
  rotation: '/api/japi/yoo/control/rotation',
  kick: '/api/japi/yoo/blacklist/kick',
  banMessage: '/api/japi/yoo/mike/banMessage',
  report: '/api/japi/yoo/report/add',
  blackList: '/api/japi/social/black/list',
  blackAdd: '/api/japi/social/black/add',
  blackDel: '/api/japi/social/black/del',
  chatSend: '/api/japi/yoo/room/chat/send',
} as const;

export type RoomEntry = DataOf<typeof RoomPaths.loginRelayRoom, 'post'>;
export type RoomInfo = DataOf<typeof RoomPaths.info, 'post'>;
export type MikeInfo = DataOf<typeof RoomPaths.mikeList, 'post'>;
/** The apply-control state and its deadline (server ms) as the apply call and the mike info serve it. */
export type ApplyControl = DataOf<typeof RoomPaths.controlApply, 'post'>;
export type RoomUserPage = DataOf<typeof RoomPaths.userList, 'post'>;
export type ControlApplies = DataOf<typeof RoomPaths.controlApplyList, 'post'>;
export type MikeQueue = DataOf<typeof RoomPaths.mikeReqList, 'post'>;
export type LiveDetail = DataOf<typeof RoomPaths.liveDetail, 'post'>;
export type BlackPage = DataOf<typeof RoomPaths.blackList, 'post'>;
export type RoomConnection = DataOf<typeof RoomPaths.connection, 'post'>;

/** One line of the barrage overlay (§3 Barrage item). */
export interface BarrageEntry {
  key: number;
  text: string;
  color: string;
  /** notices get the notice look */
  notice: boolean;
  /** the user's own messages: stroke 2 in #F52846 */
  stroke: number;
  strokeColor: string | null;
  createdAt: number;
}

/** One line of the chat list. */
export interface ChatEntry {
  key: number;
  offset: number;
  userId: number | null;
  nickname: string;
  text: string;
  faceId: number | null;
  /** an enter, a gift or a system line rather than a user's message */
  kind: 'text' | 'enter' | 'gift' | 'notice';
  own: boolean;
}

/** The socket's side of a room: watch and unwatch frames (RootStore wires it to the channel). */
export interface RoomWatcher {
  watch(ddRid: number, epoch: string, afterOffset: number): void;
  unwatch(ddRid: number): void;
}

/** Options of one entry attempt (§4.5). */
export interface EnterOptions {
  /** the 4 digits typed in the prompt */
  password?: string;
  /** 1 after a confirm: exit the other room / device / running game */
  force?: boolean;
  /** a membership restored at start-up: a refusal forgets the room, nothing is asked */
  silent?: boolean;
}

export const ONLINE_RELOAD_MS = 300;
/** A refused watch enters the room again at most this often. */
export const REENTRY_MIN_MS = 10_000;

/** What the room's parts (seats, control, talk, members, events) see of the room (RoomStore). */
export interface RoomCore {
  readonly ddRid: number | null;
  readonly roomSerial: number | null;
  readonly uid: number | null;
  readonly hostUid: number | null;
  readonly isHost: boolean;
  readonly info: RoomInfo | null;
  /** runs a room action: busy meanwhile, its failure said (20007 asks to bind a phone) */
  act(fn: () => Promise<unknown>, after?: () => void): Promise<boolean>;
  loadInfo(): Promise<void>;
  readonly seats: { loadMike(): Promise<void> };
  readonly control: { clearApply(): void; loadRequests(): Promise<void> };
}

/** What the room store needs from the others (the root store provides it). */
export type RoomDeps = Pick<AppServices, 'api' | 'ui' | 'effects' | 'user'> & {
  /** the server clock's skew (the rotation's and the apply's deadlines) and the status read */
  game: { readonly skewMs: number; refresh(): Promise<void> };
};

/** An event's msg when it is a text to show (the server puts the code's name there otherwise). */
export function shownText(msg: string): string {
  return /^[A-Z_]+$/.test(msg) ? '' : msg;
}

/** A room user's shown name: the display name, else the nickname. */
export function nameOf(u: Pick<RoomUser, 'displayName' | 'nickname'> | null | undefined): string {
  return u?.displayName || u?.nickname || '';
}
