// The live rooms' pure rules (social.md §2.11–2.16, §4.5–4.9, §5, §9): codes, formats, form
// validation, the barrage's colours and text rules, and the ordering of a room's event stream by
// offset. Stores and components share them; nothing here touches the network or the clock.

/** Room modes (§9). */
export const RoomMode = { RELAY: 2, HAND: 4 } as const;

/** Room load state (§4.2). */
export const RoomLoad = { LOADING: 0, SUCCESS: 1, ERROR: 2 } as const;
export type RoomLoadState = (typeof RoomLoad)[keyof typeof RoomLoad];

/** Apply-control state (§4.7): none, pending, denied; how long each lasts is the server's (its `until`). */
export const ApplyState = { NONE: 0, PENDING: 1, DENIED: 2 } as const;
export type ApplyStateCode = (typeof ApplyState)[keyof typeof ApplyState];

/** Mike actions (§9): apply with control, leave the seat. */
export const MikeAction = { APPLY_CONTROL: 2, DOWN: 3 } as const;

/** Mike info flags (§3, §9). */
export const MIKE_FULL = 2;
export const MIKE_IN_LIST = 2;
export const CONTROL_RECYCLABLE = 2;

/** Seat types (§4.1 mic permission): DENY 0, MAIN 1, ASSISTANT 2; > 0 means the seat has control. */
export const SeatType = { DENY: 0, MAIN: 1, ASSISTANT: 2 } as const;

/** Room entry refusals (§4.5, §8) and the codes the room reacts to. */
export const RoomCode = {
  CHAT_NEEDS_PHONE: 20007,
  USER_NOT_AUTH: 20150,
  USER_IS_MINOR: 20151,
  USER_IS_MINOR_RELAY_LIMIT: 20152,
  USER_IS_MINOR_CONTROL_LIMIT: 20153,
  USER_NOT_RELAY: 20154,
  ROOM_NOT_EDITABLE: 130011,
  GAME_NOT_SUPPORT_RELAY: 130129,
  PASSWORD: 130201,
  PASSWORD_ERROR: 130202,
  CONFIRM_CONNECT: 130203,
  CONFIRM_EXIT: 130204,
  NOT_EXIST: 130300,
  GAME_RELAY_EXIST: 130442,
  CONFIRM_GAME_EXIT: 130443,
  USER_RELAY_END: 130447,
  LIVE_OFFLINE: 130134,
} as const;

// The room event codes (§4.8, §9, and our own 3000 chat, 3001 rotation change, 3002 room end) are
// the server's list: RoomEventCode of api/codes.ts (generated into src/gen/codes.ts).

/** Report reasons (§9), ids 0–6. */
export const REPORT_REASONS: readonly { id: number; name: string }[] = [
  { id: 0, name: '广告' },
  { id: 1, name: '色情' },
  { id: 2, name: '违法犯罪' },
  { id: 3, name: '诈骗' },
  { id: 4, name: '骚扰' },
  { id: 5, name: '辱骂' },
  { id: 6, name: '其他' },
];

/** Barrage (§4.9, §9). */
export const BARRAGE_MAX = 500;
export const BarrageColor = {
  ENTER: '#94F7C5',
  CONTROL_REQUEST: '#FE8342',
  DEFAULT: '#fff',
  GIFT_NAME: '#FFF338',
  OWN_STROKE: '#F52846',
} as const;
export const OWN_STROKE_WIDTH = 2;

/** Page sizes (§9). */
export const BLACKLIST_PAGE_SIZE = 10;
export const GAME_PICKER_SIZE = 100;
export const ONLINE_PAGE_SIZE = 20;
export const ROOM_LIST_PAGE_SIZE = 20;

/** Texts of the spec (§4.3, §4.8, §5, §8). */
export const RoomText = {
  SUPER_ADMIN: '超管暂不支持创建房间',
  ONLY_TOGETHER: '当前游戏仅支持一起玩，请先完善游戏的房间信息',
  NAME_EMPTY: '房间名称不能为空',
  NAME_TOO_LONG: '房间名称最多15个字',
  MODE_EMPTY: '房间模式不能为空',
  GAME_EMPTY: '游戏不能为空',
  FORM_PASSWORD_FORMAT: '密码格式不正确',
  PASSWORD_EMPTY: '密码不能为空',
  PASSWORD_FORMAT: '密码格式不正确',
  PASSWORD_TITLE: '验证房间密码',
  BIND_PHONE: '根据相关法律法规，为保障您的账户安全，体验当前功能需绑定手机号哦~',
  QUEUE_REMOVED: '您已被移除排麦',
  MIKE_UP_TITLE: '上麦提醒',
  MIKE_INVITE_TITLE: '邀请上麦',
  MIKE_INVITE_TEXT: '邀请你上麦，快来一起玩吧~',
  CONTROL_INVITE_TITLE: '邀请一起玩',
  CONTROL_INVITE_TEXT: '邀请你一起加入游戏，快来体验吧~',
  CONTROL_OFF: '当前用户被收回控制权',
  NO_GIFTS: '本次直播未收到礼物，下次加油呀~',
  NOT_SUPPORTED: '当前游戏暂不支持一起玩<br>启动游戏后将退出一起玩的游戏',
  READY_IN_ROOM: '游戏已准备就绪，进入游戏将退出房间',
  NOT_EXIST: '房间不存在或已结束',
} as const;

/** Room heat (§2.11): as is below 10000, else in 万 with 2 decimals. */
export function formatHeat(heat: number): string {
  const n = Number.isFinite(heat) && heat > 0 ? Math.floor(heat) : 0;
  if (n < 10000) return String(n);
  return `${(Math.floor(n / 100) / 100).toFixed(2)}万`;
}

/** Online count (§2.14): "99+" at 100 or more. */
export function formatOnline(count: number): string {
  const n = Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;
  return n >= 100 ? '99+' : String(n);
}

/** A chat text matching [name.ext] has its extension stripped (§4.9): "[微笑.png]" → "[微笑]". */
export function stripNameExt(text: string): string {
  return text.replace(/\[([^[\]]+?)\.[A-Za-z0-9]+\]/g, '[$1]');
}

/** base64 of an ASCII text (the 4-digit password, §5). */
export function encodePassword(password: string): string {
  if (typeof btoa === 'function') return btoa(password);
  return Buffer.from(password, 'ascii').toString('base64');
}

/** The start-relay form (§2.12). */
export interface RoomForm {
  roomName: string;
  mode: number | null;
  gameId: number | null;
  password: string;
  isShow: boolean;
}

/** The first rule of §5 the form breaks, or null. */
export function validateRoomForm(form: RoomForm, gamePreset: boolean): string | null {
  const name = form.roomName.trim();
  if (!name) return RoomText.NAME_EMPTY;
  if ([...name].length > 15) return RoomText.NAME_TOO_LONG;
  if (form.mode === null) return RoomText.MODE_EMPTY;
  if (!gamePreset && form.gameId === null) return RoomText.GAME_EMPTY;
  if (form.password !== '' && !/^\d{4}$/.test(form.password)) return RoomText.FORM_PASSWORD_FORMAT;
  return null;
}

/** The password prompt's rule (§5), or null. */
export function validatePassword(password: string): string | null {
  if (password === '') return RoomText.PASSWORD_EMPTY;
  if (!/^\d{4}$/.test(password)) return RoomText.PASSWORD_FORMAT;
  return null;
}

/** The room form as the create/edit calls take it (§3): password base64 with isUpdatePass 1. */
export function roomFormBody(form: RoomForm): { roomName: string; mode: number; gameId: number; isShow: 0 | 1; password?: string; isUpdatePass: 0 | 1 } {
  const body = {
    roomName: form.roomName.trim(),
    mode: form.mode ?? RoomMode.RELAY,
    gameId: form.gameId ?? 0,
    isShow: form.isShow ? (1 as const) : (0 as const),
    isUpdatePass: form.password ? (1 as const) : (0 as const),
  };
  return form.password ? { ...body, password: encodePassword(form.password) } : body;
}

/** One event of a room's stream, free of protobuf types. */
export interface RoomEventItem {
  offset: number;
  code: number;
  msg: string;
  desc: string;
  /** JSON text of the spec's `data` for that code */
  data: string;
  userIds: number[];
  excludeUserIds: number[];
  ts: number;
}

/** Whether an event is for this user: untargeted, or naming them, and not excluding them. */
export function eventIsFor(e: Pick<RoomEventItem, 'userIds' | 'excludeUserIds'>, uid: number | null): boolean {
  if (uid !== null && e.excludeUserIds.includes(uid)) return false;
  if (e.userIds.length === 0) return true;
  return uid !== null && e.userIds.includes(uid);
}

/**
 * Where a batch of events stands against the position the client has applied. A batch covers
 * the offsets `first`..`last` (a busy room merges a batch's entries and leaves, so it may hold
 * fewer events than offsets, never a gap): `apply` holds its events after the position, in
 * order (what was applied before is dropped), and `offset` is the position after it; `gap` is
 * true when the batch starts past the next offset or the epoch changed, so the room must be
 * refetched instead.
 */
export function orderEvents(
  position: { epoch: string | null; offset: number },
  epoch: string,
  batch: { first: number; last: number; events: readonly RoomEventItem[] },
): { apply: RoomEventItem[]; gap: boolean; offset: number } {
  const at = position.offset;
  if (position.epoch !== null && position.epoch !== epoch) return { apply: [], gap: true, offset: at };
  if (batch.last <= at) return { apply: [], gap: false, offset: at }; // a second copy
  if (batch.first > at + 1) return { apply: [], gap: true, offset: at };
  const apply = batch.events.filter((e) => e.offset > at && e.offset <= batch.last).sort((a, b) => a.offset - b.offset);
  return { apply, gap: false, offset: batch.last };
}

/** Chat faces (the emoji the chat box offers; a message carries the face's id). */
export const FACES: readonly { id: number; name: string; glyph: string }[] = [
  { id: 1, name: '微笑', glyph: '😊' },
  { id: 2, name: '大笑', glyph: '😂' },
  { id: 3, name: '喜欢', glyph: '😍' },
  { id: 4, name: '酷', glyph: '😎' },
  { id: 5, name: '惊讶', glyph: '😮' },
  { id: 6, name: '哭', glyph: '😭' },
  { id: 7, name: '生气', glyph: '😠' },
  { id: 8, name: '点赞', glyph: '👍' },
  { id: 9, name: '鼓掌', glyph: '👏' },
  { id: 10, name: '加油', glyph: '💪' },
  { id: 11, name: '爱心', glyph: '❤️' },
  { id: 12, name: '火', glyph: '🔥' },
];

export function faceGlyph(id: number | null | undefined): string | null {
  if (id === null || id === undefined) return null;
  return FACES.find((f) => f.id === id)?.glyph ?? null;
}

/** Seconds left of a deadline, rounded up, never negative. */
export function secondsLeft(untilMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((untilMs - nowMs) / 1000));
}

/** "m:ss" of a number of seconds (the rotation turn's time left). */
export function formatMinSec(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
