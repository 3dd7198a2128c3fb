import { makeAutoObservable, runInAction } from 'mobx';
import { GameStatus } from '../../../api/codes';
import type { BodyOf, DataOf } from '../../../api/types';
import {
  APPLY_DENIED_SECONDS,
  APPLY_PENDING_SECONDS,
  ApplyState,
  BARRAGE_MAX,
  BarrageColor,
  BLACKLIST_PAGE_SIZE,
  CONTROL_RECYCLABLE,
  eventData,
  eventIsFor,
  MIKE_FULL,
  MIKE_IN_LIST,
  MikeAction,
  ONLINE_PAGE_SIZE,
  orderEvents,
  RoomCode,
  RoomEventCode,
  RoomLoad,
  RoomText,
  secondsLeft,
  stripNameExt,
  encodePassword,
  roomFormBody,
  type ApplyStateCode,
  type RoomEventItem,
  type RoomForm,
  type RoomLoadState,
} from '../../../lib/room';
import { ApiError, ErrorCode, errorMessage } from '../../../transport/apiError';
import type { RootStore } from '../../../stores/rootStore';

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

const ONLINE_RELOAD_MS = 300;
/** A refused watch enters the room again at most this often. */
export const REENTRY_MIN_MS = 10_000;

/**
 * The room this client is in (a user is in at most one room per device): entry with every
 * outcome of §4.5, the room's state (info, mike seats, online list, control requests, barrage and
 * chat), its event stream applied in offset order (duplicates dropped, a gap or ROOM_RESET makes
 * it refetch and watch again), the apply-control countdown of §4.7, and every room action. The
 * room page, the room float and the game float read it; components never call the server.
 */
export class RoomStore {
  ddRid: number | null = null;
  load: RoomLoadState = RoomLoad.LOADING;
  /** the stored error of the ERROR view (§4.2) */
  error: { code: number; message: string } | null = null;
  info: RoomInfo | null = null;
  mike: MikeInfo | null = null;
  online: RoomUserPage | null = null;
  onlinePage = 1;
  /** the host's control request list */
  requests: ControlApplies | null = null;
  /** the seat queue (first come first), read by the host */
  mikeQueueList: MikeQueue | null = null;
  blacklist: BlackPage | null = null;
  barrage: BarrageEntry[] = [];
  chat: ChatEntry[] = [];
  barrageOn = true;
  applyState: ApplyStateCode = ApplyState.NONE;
  /** ms (Date.now) at which the apply state goes back to 0 */
  applyUntil = 0;
  nowMs = Date.now();
  /** the password prompt (§2.13), with the server's message after a wrong try */
  passwordPrompt: { ddRid: number; message: string | null } | null = null;
  /** the live summary dialog (§2.15) */
  summary: LiveDetail | null = null;
  summaryOpen = false;
  /** the room ended (host exit or the relay session's end) */
  ended = false;
  /** where this client stands in the room's event stream */
  epoch: string | null = null;
  offset = 0;
  /** the stream's connect info (§4.5 last rule) */
  connection: RoomConnection | null = null;
  busy = false;

  private nextKey = 1;
  private lastReentry = Number.NEGATIVE_INFINITY;
  private tickTimer: ReturnType<typeof setInterval> | null = null;
  private onlineTimer: ReturnType<typeof setTimeout> | null = null;
  private refetching: Promise<void> | null = null;
  private watcher: RoomWatcher | null = null;
  private readonly root: RootStore;

  constructor(root: RootStore) {
    this.root = root;
    makeAutoObservable<RoomStore, 'root' | 'nextKey' | 'lastReentry' | 'tickTimer' | 'onlineTimer' | 'refetching' | 'watcher'>(this, {
      root: false,
      nextKey: false,
      lastReentry: false,
      tickTimer: false,
      onlineTimer: false,
      refetching: false,
      watcher: false,
    });
  }

  // ---------------------------------------------------------------- derived

  get uid(): number | null {
    return this.root.user.profile?.uid ?? null;
  }

  get roomSerial(): number | null {
    return this.info?.room.roomSerial ?? null;
  }

  get hostUid(): number | null {
    return this.info?.room.userId ?? null;
  }

  get isHost(): boolean {
    return this.uid !== null && this.hostUid === this.uid;
  }

  /** The user is in a room whose state is loaded. */
  get inRoom(): boolean {
    return this.ddRid !== null && this.load === RoomLoad.SUCCESS && !this.ended;
  }

  /** The user hosts an open relay (the game float's "live" label, §2.11). */
  get hostsRelay(): boolean {
    return this.inRoom && this.isHost;
  }

  get gameStatus(): number | null {
    return this.info?.room.gameStatus ?? null;
  }

  /** This user holds control (a seat of type > 0, or the room's controller). */
  get hasControl(): boolean {
    const uid = this.uid;
    if (uid === null || !this.info) return false;
    const controller = this.info.room.controller;
    if (controller > 0) return controller === uid;
    return this.isHost;
  }

  get inMikeList(): boolean {
    return this.mike?.mikeSubStatus === MIKE_IN_LIST || (this.mike?.mikeList ?? []).some((s) => s.userId !== undefined && s.userId !== null && s.userId === this.uid);
  }

  get mikeFull(): boolean {
    return this.mike?.mikeStatus === MIKE_FULL;
  }

  /** §4.6: apply for a seat when not in the list and the list is not full. */
  get canApplySeat(): boolean {
    return !this.isHost && !this.inMikeList && !this.mikeFull;
  }

  /** §4.6: queue when not in the list, the list is full, mike is open and nothing is pending. */
  get canQueueSeat(): boolean {
    return !this.isHost && !this.inMikeList && this.mikeFull && this.mike?.isOpenMike !== false && this.mike?.isMikeReq !== true;
  }

  get controlRecyclable(): boolean {
    return this.mike?.controlStatus === CONTROL_RECYCLABLE;
  }

  /** Seconds left of the apply state's display (0 when none). */
  get applySecondsLeft(): number {
    return this.applyState === ApplyState.NONE ? 0 : secondsLeft(this.applyUntil, this.nowMs);
  }

  get onlineCount(): number {
    return this.online?.totalRows ?? 0;
  }

  /** The rotation (beyond the spec): on, queue, my position (1-based, 0 = not queued), time left. */
  get rotation(): { on: boolean; position: number; queued: number; secondsLeft: number; turnSecs: number; current: number | null } {
    const r = this.info?.room.rotation;
    if (!r || !r.on) return { on: false, position: 0, queued: 0, secondsLeft: 0, turnSecs: r?.turnSecs ?? 0, current: null };
    const queue = r.queue ?? [];
    const index = this.uid === null ? -1 : queue.indexOf(this.uid);
    const left = typeof r.turnEndsAt === 'number' && r.turnEndsAt > 0 ? secondsLeft(r.turnEndsAt, this.nowMs + this.root.game.skewMs) : 0;
    return { on: true, position: index + 1, queued: queue.length, secondsLeft: left, turnSecs: r.turnSecs, current: r.current ?? null };
  }

  // ---------------------------------------------------------------- wiring

  /** The socket side (RootStore sets it when the channel exists, null when it goes). */
  setWatcher(watcher: RoomWatcher | null): void {
    this.watcher = watcher;
  }

  /** The socket (re)opened: watch the room again from where this client stands. */
  onChannelOpen(): void {
    this.sendWatch();
  }

  private sendWatch(): void {
    if (this.ddRid === null || this.epoch === null || this.ended) return;
    this.watcher?.watch(this.ddRid, this.epoch, this.offset);
  }

  // ---------------------------------------------------------------- entry (§4.5)

  /**
   * Logs into room `ddRid`; each refusal of §4.5 gets its reaction. On success the room's state
   * is read and the event stream watched from the position in the answer.
   */
  async enter(ddRid: number, opts: EnterOptions = {}): Promise<void> {
    if (!this.root.user.isLoggedIn) {
      this.root.ui.openLogin(() => void this.enter(ddRid, opts));
      return;
    }
    if (this.ddRid !== null && this.ddRid !== ddRid) this.forget();
    this.ddRid = ddRid;
    if (!this.inRoom) this.load = RoomLoad.LOADING;
    this.error = null;
    this.ended = false;
    const body: BodyOf<typeof RoomPaths.loginRelayRoom> = { ddRid, mode: 1, invitable: 1 };
    if (opts.password) body.password = encodePassword(opts.password);
    if (opts.force) body.force = 1;
    let entry: RoomEntry;
    try {
      entry = await this.root.api.post(RoomPaths.loginRelayRoom, body);
    } catch (e) {
      if (opts.silent) {
        runInAction(() => this.forget());
        return;
      }
      await this.entryFailed(ddRid, e, opts);
      return;
    }
    runInAction(() => {
      this.passwordPrompt = null;
      this.epoch = entry.epoch;
      this.offset = entry.offset;
      this.barrage = [];
      this.chat = [];
    });
    await this.refetch();
    runInAction(() => {
      if (this.ddRid === ddRid && !this.ended) this.load = RoomLoad.SUCCESS;
    });
    this.startTick();
    this.sendWatch();
  }

  private async entryFailed(ddRid: number, e: unknown, opts: EnterOptions): Promise<void> {
    const ui = this.root.ui;
    if (!(e instanceof ApiError)) {
      this.setError(ErrorCode.NETWORK, errorMessage(e));
      return;
    }
    const remark = (e.data as { remark?: string } | null)?.remark;
    switch (e.code) {
      case RoomCode.PASSWORD:
        runInAction(() => (this.passwordPrompt = { ddRid, message: null }));
        return;
      case RoomCode.PASSWORD_ERROR:
        runInAction(() => (this.passwordPrompt = { ddRid, message: e.message || '房间密码错误' }));
        return;
      case RoomCode.CONFIRM_CONNECT:
      case RoomCode.CONFIRM_EXIT: {
        const ok = await ui.confirm({ title: '提示', message: e.message });
        if (!ok) {
          this.setError(e.code, e.message);
          return;
        }
        await this.enter(ddRid, { ...opts, force: true });
        return;
      }
      case RoomCode.CONFIRM_GAME_EXIT: {
        const ok = await ui.confirm({ title: '提示', message: e.message });
        if (!ok) {
          this.setError(e.code, e.message);
          return;
        }
        // the server force-cancels the running game; its play page closes on the end push
        await this.enter(ddRid, { ...opts, force: true });
        void this.root.game.refresh();
        return;
      }
      case RoomCode.USER_IS_MINOR:
      case RoomCode.USER_IS_MINOR_RELAY_LIMIT:
      case RoomCode.USER_IS_MINOR_CONTROL_LIMIT:
        this.setError(e.code, e.message);
        await ui.alert({ title: '温馨提示', message: e.message, detail: remark, confirmText: '好的' });
        return;
      case ErrorCode.NOT_LOGGED_IN:
        ui.openLogin(() => void this.enter(ddRid, opts));
        return;
      default:
        this.setError(e.code, e.message || (e.code === RoomCode.NOT_EXIST ? RoomText.NOT_EXIST : errorMessage(e)));
    }
  }

  /** After login (or a reload): the membership the server knows, entered again quietly. */
  async restore(ddRid: number): Promise<void> {
    if (this.ddRid === null) await this.enter(ddRid, { silent: true });
  }

  /** The password prompt's submit; a bad format is refused locally with §5's text. */
  async submitPassword(password: string): Promise<string | null> {
    const p = this.passwordPrompt;
    if (!p) return null;
    const bad = /^\d{4}$/.test(password) ? null : password === '' ? RoomText.PASSWORD_EMPTY : RoomText.PASSWORD_FORMAT;
    if (bad) return bad;
    await this.enter(p.ddRid, { password });
    return null;
  }

  cancelPassword(): void {
    const p = this.passwordPrompt;
    this.passwordPrompt = null;
    if (p && this.load !== RoomLoad.SUCCESS) this.setError(RoomCode.PASSWORD, RoomText.PASSWORD_TITLE);
  }

  private setError(code: number, message: string): void {
    this.load = RoomLoad.ERROR;
    this.error = { code, message };
  }

  /** Leaves the room (返回 / exit). The host's exit ends the room and opens the live summary. */
  async exit(): Promise<void> {
    const ddRid = this.ddRid;
    if (ddRid === null) return;
    const host = this.isHost;
    let serial = this.roomSerial;
    try {
      const exited = await this.root.api.post(RoomPaths.exit, {});
      if (exited?.roomSerial) serial = exited.roomSerial;
    } catch (e) {
      this.root.ui.error(errorMessage(e));
    }
    this.forget();
    if (host && serial !== null) await this.openSummary(serial);
  }

  /** The page goes away while the user stays a member (the room float shows). */
  leavePage(): void {
    if (this.ended || this.load === RoomLoad.ERROR) this.forget();
  }

  /** Drops the room locally: no watch, no timers. */
  forget(): void {
    if (this.ddRid !== null) this.watcher?.unwatch(this.ddRid);
    this.ddRid = null;
    this.info = null;
    this.mike = null;
    this.online = null;
    this.requests = null;
    this.mikeQueueList = null;
    this.blacklist = null;
    this.barrage = [];
    this.chat = [];
    this.epoch = null;
    this.offset = 0;
    this.connection = null;
    this.passwordPrompt = null;
    this.applyState = ApplyState.NONE;
    this.applyUntil = 0;
    this.load = RoomLoad.LOADING;
    this.error = null;
    this.stopTick();
    if (this.onlineTimer) clearTimeout(this.onlineTimer);
    this.onlineTimer = null;
  }

  // ---------------------------------------------------------------- reads

  /** Room info, mike info, online list (and the host's request list), in parallel. */
  async refetch(): Promise<void> {
    if (this.refetching) return this.refetching;
    const p = Promise.all([this.loadInfo(), this.loadMike(), this.loadOnline(1)]).then(() => undefined);
    this.refetching = p;
    try {
      await p;
    } finally {
      this.refetching = null;
    }
    if (this.isHost) await Promise.all([this.loadRequests(), this.loadMikeQueue()]);
  }

  async loadMikeQueue(): Promise<void> {
    const ddRid = this.ddRid;
    if (ddRid === null) return;
    try {
      const q = await this.root.api.post(RoomPaths.mikeReqList, { ddRid });
      runInAction(() => {
        if (this.ddRid === ddRid) this.mikeQueueList = q;
      });
    } catch {
      // kept as it was
    }
  }

  async loadInfo(): Promise<void> {
    const ddRid = this.ddRid;
    if (ddRid === null) return;
    try {
      const info = await this.root.api.post(RoomPaths.info, { ddRid });
      runInAction(() => {
        if (this.ddRid === ddRid) this.info = info;
      });
      await this.followGame();
    } catch (e) {
      if (e instanceof ApiError && e.code === RoomCode.NOT_EXIST) this.roomEnded();
    }
  }

  async loadMike(): Promise<void> {
    const ddRid = this.ddRid;
    if (ddRid === null) return;
    try {
      const mike = await this.root.api.post(RoomPaths.mikeList, { ddRid });
      runInAction(() => {
        if (this.ddRid !== ddRid) return;
        this.mike = mike;
        // the server's apply state (§4.7) wins over the local one, with its deadline
        const a = mike.applyControl;
        if (a && a.state !== this.applyState) {
          this.applyState = a.state === ApplyState.PENDING || a.state === ApplyState.DENIED ? a.state : ApplyState.NONE;
          this.applyUntil = a.until ? a.until - this.root.game.skewMs : 0;
        }
      });
    } catch {
      // the next event refetches
    }
  }

  async loadOnline(page = this.onlinePage): Promise<void> {
    const ddRid = this.ddRid;
    if (ddRid === null) return;
    try {
      const online = await this.root.api.post(RoomPaths.userList, { ddRid, page, size: ONLINE_PAGE_SIZE });
      runInAction(() => {
        if (this.ddRid !== ddRid) return;
        this.online = online;
        this.onlinePage = page;
      });
    } catch {
      // kept as it was
    }
  }

  async loadRequests(): Promise<void> {
    const serial = this.roomSerial;
    if (serial === null) return;
    try {
      const requests = await this.root.api.post(RoomPaths.controlApplyList, { roomSerial: serial });
      runInAction(() => (this.requests = requests));
    } catch {
      // kept as it was
    }
  }

  /** §4.5 last rule: while the relay is CONNECTING or PLAYING, the stream's connect info. */
  private async followGame(): Promise<void> {
    const ddRid = this.ddRid;
    const status = this.gameStatus;
    if (ddRid === null) return;
    if (status !== GameStatus.CONNECTING && status !== GameStatus.PLAYING) {
      runInAction(() => (this.connection = null));
      return;
    }
    if (this.connection?.streamUrl) return;
    try {
      const c = await this.root.api.post(RoomPaths.connection, { ddRid });
      runInAction(() => {
        if (this.ddRid === ddRid) this.connection = c;
      });
    } catch {
      // no stream yet
    }
  }

  /** A fresh viewer ticket for the room's stream (the stream asks at every connect). */
  async streamTicket(): Promise<{ streamUrl: string; ticket: string }> {
    const ddRid = this.ddRid;
    if (ddRid === null) throw new ApiError(RoomCode.NOT_EXIST, RoomText.NOT_EXIST, null);
    const c = await this.root.api.post(RoomPaths.connection, { ddRid });
    if (!c.streamUrl || !c.ticket) throw new ApiError(RoomCode.NOT_EXIST, '暂无游戏画面', null);
    return { streamUrl: c.streamUrl, ticket: c.ticket };
  }

  private scheduleOnlineReload(): void {
    if (this.onlineTimer) return;
    this.onlineTimer = setTimeout(() => {
      this.onlineTimer = null;
      void this.loadOnline();
    }, ONLINE_RELOAD_MS);
  }

  // ---------------------------------------------------------------- the event stream

  /** A ROOM_EVENTS frame: applied in offset order; a copy is dropped, a gap refetches. */
  applyEvents(ddRid: number, epoch: string, batch: { first: number; last: number; events: readonly RoomEventItem[] }): void {
    if (ddRid !== this.ddRid || this.ended) return;
    const { apply, gap, offset } = orderEvents({ epoch: this.epoch, offset: this.offset }, epoch, batch);
    if (gap) {
      void this.resync(epoch, null);
      return;
    }
    if (this.epoch === null) this.epoch = epoch;
    for (const e of apply) this.applyEvent(e);
    this.offset = offset;
  }

  /** A ROOM_RESET frame: the server cannot resume this client; refetch and watch from its position. */
  applyReset(ddRid: number, epoch: string, offset: number): void {
    if (ddRid !== this.ddRid || this.ended) return;
    if (epoch === '') {
      // the room refused the watch (the membership lapsed while the socket was away, or the
      // room is gone): enter again, at most once in a while, rather than watch in a loop
      const now = Date.now();
      if (now - this.lastReentry < REENTRY_MIN_MS) return;
      this.lastReentry = now;
      void this.enter(ddRid);
      return;
    }
    void this.resync(epoch, offset);
  }

  private async resync(epoch: string, offset: number | null): Promise<void> {
    if (offset !== null) {
      this.epoch = epoch;
      this.offset = offset;
    }
    await this.refetch();
    // a gap without a position: the info answer's position is where the refetched state stands
    runInAction(() => {
      if (offset === null && this.info) {
        this.epoch = this.info.epoch;
        this.offset = this.info.offset;
      }
    });
    this.sendWatch();
  }

  /** One event of §4.8 (plus our chat), already known to be next in order. */
  private applyEvent(e: RoomEventItem): void {
    if (!eventIsFor(e, this.uid)) return;
    const data = eventData(e);
    const nickname = typeof data.nickname === 'string' ? data.nickname : '';
    const ui = this.root.ui;
    const msg = shownText(e.msg);
    const C = RoomEventCode;
    switch (e.code) {
      case C.ROOM_INFO_CHANGE:
        // the host refetches; others apply the data directly (§4.8)
        if (this.isHost || !this.info) {
          void this.loadInfo();
          return;
        }
        if (typeof data.roomName === 'string') this.info.room.roomName = data.roomName;
        if (typeof data.mode === 'number') this.info.room.mode = data.mode;
        if (typeof data.isShow === 'number') this.info.room.isShow = data.isShow;
        if (typeof data.hasPassword === 'boolean') this.info.room.hasPassword = data.hasPassword;
        return;
      case C.GAME_INFO_CHANGE: {
        const status = Number(data.status);
        if (this.info && Number.isFinite(status)) this.info.room.gameStatus = status;
        void this.followGame();
        return;
      }
      case C.ROTATION_CHANGE:
        if (this.info && data && typeof data.on === 'boolean') this.info.room.rotation = data as unknown as typeof this.info.room.rotation;
        else void this.loadInfo();
        return;
      case C.ROOM_END:
        this.roomEnded();
        return;
      case C.MIKE_INFO_CHANGE:
        void this.loadMike();
        if (this.isHost) void this.loadMikeQueue();
        return;
      case C.CONTROL_CHANGE:
        if (this.info && typeof data.controller === 'number') this.info.room.controller = data.controller;
        void this.loadMike();
        if (this.isHost) void this.loadRequests();
        return;
      case C.ROOM_ENTER: {
        // a busy room's batch carries its entries as one event: `count` entered
        const count = Number(data.count) > 1 ? Number(data.count) : 1;
        const text = count > 1 ? `${nickname} 等${count}人进入房间` : `${nickname} 进入房间`;
        this.scheduleOnlineReload();
        this.addChat(e, { kind: 'enter', nickname, text, userId: numberOr(data.userId) });
        this.addBarrage(text, BarrageColor.ENTER);
        return;
      }
      case C.ROOM_LEAVE:
        this.scheduleOnlineReload();
        return;
      case C.GIFT_MESSAGE: {
        const giver = nameOf(data.giver);
        const receiver = nameOf(data.receiver);
        const num = Number(data.giftNum) > 0 ? Number(data.giftNum) : 1;
        const text = `${giver} 送给 ${receiver} 礼物 x${num}`;
        this.addChat(e, { kind: 'gift', nickname: giver, text, userId: null });
        this.addBarrage(text, BarrageColor.GIFT_NAME);
        return;
      }
      case C.MIKE_QUEUE_TOP:
      case C.MIKE_QUEUE_CANCEL:
      case C.MIKE_BLOCK:
      case C.MIKE_DOWN:
      case C.CHAT_BLOCK:
        void this.loadMike();
        this.scheduleOnlineReload();
        if (msg) ui.info(msg);
        return;
      case C.MIKE_DOWN_AND_CONTROL_OFF:
        void this.loadMike();
        void this.loadInfo();
        this.scheduleOnlineReload();
        this.setApply(ApplyState.NONE);
        if (msg) ui.info(msg);
        return;
      case C.MIKE_QUEUE_REMOVE:
        void this.loadMike();
        this.scheduleOnlineReload();
        ui.info(RoomText.QUEUE_REMOVED);
        return;
      case C.MIKE_UP:
        this.scheduleOnlineReload();
        void this.loadMike();
        void this.mikeUpNotice(msg);
        return;
      case C.MIKE_UP_INVITE:
        void this.answerMikeInvite();
        return;
      case C.INVITE_DENY:
        if (msg) ui.info(msg);
        return;
      case C.CONTROL_REQUEST:
        if (!this.isHost) return;
        void this.loadRequests();
        this.addBarrage(`${nickname} 申请控制权`, BarrageColor.CONTROL_REQUEST);
        return;
      case C.CONTROL_ON:
        this.setApply(ApplyState.NONE);
        void this.loadInfo();
        void this.loadMike();
        if (msg) ui.success(msg);
        return;
      case C.CONTROL_DENY:
        this.setApply(ApplyState.DENIED);
        if (e.desc || msg) ui.info(e.desc || msg);
        return;
      case C.CONTROL_RETURN:
        void this.loadInfo();
        void this.loadMike();
        if (data.controlType !== 'MAIN') ui.info(`${nickname} 已归还控制权`);
        return;
      case C.CONTROL_OFF:
        this.setApply(ApplyState.NONE);
        void this.loadInfo();
        void this.loadMike();
        ui.info(RoomText.CONTROL_OFF);
        return;
      case C.CONTROL_ON_INVITE:
        void this.answerControlInvite();
        return;
      case C.KICK_OUT:
      case C.KICK_OUT_:
        if (this.ddRid !== null) this.watcher?.unwatch(this.ddRid);
        this.setError(e.code, msg || '你已被移出该房间');
        this.stopTick();
        return;
      case C.CHAT: {
        const text = typeof data.text === 'string' ? stripNameExt(data.text) : '';
        const faceId = numberOr(data.faceId);
        const userId = numberOr(data.userId);
        const own = userId !== null && userId === this.uid;
        this.addChat(e, { kind: 'text', nickname, text, userId, faceId });
        if (text) this.addBarrage(text, BarrageColor.DEFAULT, own);
        return;
      }
      default:
      // MIKE_BLOCK_TMP, BLOCK, UNBLOCK, WELCOME_MESSAGE_CHANGE: handling not shown in §4.8
    }
  }

  private addBarrage(text: string, color: string, own = false, notice = false): void {
    if (!text) return;
    const item: BarrageEntry = {
      key: this.nextKey++,
      text,
      color,
      notice,
      stroke: own ? 2 : 0,
      strokeColor: own ? BarrageColor.OWN_STROKE : null,
      createdAt: Date.now(),
    };
    this.barrage.push(item);
    if (this.barrage.length > BARRAGE_MAX) this.barrage.splice(0, this.barrage.length - BARRAGE_MAX);
  }

  /**
   * LIVE_OFFLINE (130134) on the live page: control and the keyboard are released (the page stops
   * sending input), the limit alert shows, then home.
   */
  liveOffline(rawData: string): void {
    let text = '';
    try {
      const d: unknown = JSON.parse(rawData);
      if (d && typeof d === 'object' && typeof (d as { msg?: unknown }).msg === 'string') text = (d as { msg: string }).msg;
    } catch {
      // no text: the default
    }
    this.setApply(ApplyState.NONE);
    if (this.info) this.info.room.controller = this.hostUid ?? 0;
    this.root.effects.exitFullscreen();
    void this.root.ui.alert({ title: '温馨提示', message: text || '一起玩的操控时间已结束', confirmText: '好的' }).then(() => this.root.ui.navigate('/'));
  }

  /** A notice line in the barrage (e.g. 130133 in a room). */
  noticeBarrage(text: string): void {
    this.addBarrage(text, BarrageColor.DEFAULT, false, true);
  }

  private addChat(e: RoomEventItem, c: Omit<ChatEntry, 'key' | 'offset' | 'own' | 'faceId'> & { faceId?: number | null }): void {
    this.chat.push({ key: this.nextKey++, offset: e.offset, own: c.userId !== null && c.userId === this.uid, faceId: c.faceId ?? null, ...c });
    if (this.chat.length > BARRAGE_MAX) this.chat.splice(0, this.chat.length - BARRAGE_MAX);
  }

  setBarrageOn(on: boolean): void {
    this.barrageOn = on;
  }

  private async mikeUpNotice(msg: string): Promise<void> {
    const stay = await this.root.ui.confirm({ title: RoomText.MIKE_UP_TITLE, message: msg || '你已上麦', confirmText: '确定', cancelText: '下麦' });
    if (!stay) await this.mikeDown();
  }

  private async answerMikeInvite(): Promise<void> {
    const ok = await this.root.ui.confirm({ title: RoomText.MIKE_INVITE_TITLE, message: RoomText.MIKE_INVITE_TEXT, confirmText: '同意', cancelText: '拒绝' });
    const serial = this.roomSerial;
    if (serial === null) return;
    try {
      await this.root.api.post(ok ? RoomPaths.mikeInviteAccept : RoomPaths.mikeInviteRefuse, { roomSerial: serial });
    } catch (e) {
      this.root.ui.info(errorMessage(e));
    }
  }

  private async answerControlInvite(): Promise<void> {
    const ok = await this.root.ui.confirm({ title: RoomText.CONTROL_INVITE_TITLE, message: RoomText.CONTROL_INVITE_TEXT, confirmText: '同意', cancelText: '拒绝' });
    const serial = this.roomSerial;
    if (serial === null) return;
    try {
      await this.root.api.post(ok ? RoomPaths.controlInviteAccept : RoomPaths.controlInviteRefuse, { roomSerial: serial });
    } catch (e) {
      this.root.ui.info(errorMessage(e));
    }
  }

  /** USER_RELAY_END (130447), or the stream's last event: the room is over; everyone gets the summary. */
  roomEnded(): void {
    if (this.ended || this.ddRid === null) return;
    const serial = this.roomSerial;
    if (this.ddRid !== null) this.watcher?.unwatch(this.ddRid);
    this.ended = true;
    this.connection = null;
    this.stopTick();
    this.root.effects.exitFullscreen();
    if (serial !== null) void this.openSummary(serial);
  }

  // ---------------------------------------------------------------- apply-control countdown (§4.7)

  private setApply(state: ApplyStateCode): void {
    this.applyState = state;
    this.nowMs = Date.now();
    this.applyUntil =
      state === ApplyState.PENDING ? this.nowMs + APPLY_PENDING_SECONDS * 1000 : state === ApplyState.DENIED ? this.nowMs + APPLY_DENIED_SECONDS * 1000 : 0;
  }

  /** The 1 s tick: the apply state expires, the rotation's time left moves. */
  tick(): void {
    this.nowMs = Date.now();
    if (this.applyState !== ApplyState.NONE && this.nowMs >= this.applyUntil) {
      this.applyState = ApplyState.NONE;
      this.applyUntil = 0;
    }
  }

  private startTick(): void {
    if (this.tickTimer) return;
    this.tickTimer = setInterval(() => this.tick(), 1000);
  }

  private stopTick(): void {
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.tickTimer = null;
  }

  // ---------------------------------------------------------------- actions

  private async act(fn: () => Promise<unknown>, after?: () => void): Promise<boolean> {
    this.busy = true;
    try {
      await fn();
      runInAction(() => after?.());
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.code === RoomCode.CHAT_NEEDS_PHONE) {
        await this.root.ui.alert({ title: '温馨提示', message: RoomText.BIND_PHONE, confirmText: '好的' });
      } else if (e instanceof ApiError && e.code === RoomCode.USER_IS_MINOR_CONTROL_LIMIT) {
        const remark = (e.data as { remark?: string } | null)?.remark;
        await this.root.ui.alert({ title: '温馨提示', message: e.message, detail: remark, confirmText: '好的' });
      } else {
        this.root.ui.error(errorMessage(e));
      }
      return false;
    } finally {
      runInAction(() => (this.busy = false));
    }
  }

  /** Chat (needs a bound phone: 20007 prompts to bind one). The message comes back on the stream. */
  async sendChat(text: string, faceId: number | null = null): Promise<boolean> {
    const ddRid = this.ddRid;
    const t = text.trim();
    if (ddRid === null || (!t && faceId === null)) return false;
    const body: BodyOf<typeof RoomPaths.chatSend> = { ddRid, text: t };
    if (faceId !== null) body.faceId = faceId;
    return this.act(() => this.root.api.post(RoomPaths.chatSend, body));
  }

  /** Apply for a seat (§4.6). */
  async mikeUp(): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.mikeUp, { ddRid, action: 1 }), () => void this.loadMike());
  }

  /** Queue for a seat when the list is full (§4.6). */
  async mikeQueue(): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.mikeReqAction, { ddRid, action: 1 }), () => void this.loadMike());
  }

  /** Leave the seat queue. */
  async mikeQueueCancel(): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.mikeReqAction, { ddRid, action: 2 }), () => void this.loadMike());
  }

  /** The host on a member's seat: 1 up, 3 down, 4 ban voice, 5 lift the ban. */
  async operateSeat(userId: number, action: 1 | 3 | 4 | 5): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.mikeOperate, { ddRid, userId, action }), () => void this.loadMike());
  }

  /** The host locks (or opens) one seat, 1..=7. */
  async lockSeat(seat: number, lock: boolean): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.mikeLock, { ddRid, seat, lock: lock ? 1 : 0 }), () => void this.loadMike());
  }

  async lockAllSeats(lock: boolean): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.mikeLockAll, { ddRid, lock: lock ? 1 : 0 }), () => void this.loadMike());
  }

  /** The host's queue operations: top, remove, switch two, clear. */
  async queueTop(userId: number): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.mikeReqTop, { ddRid, userId }), () => void this.loadMikeQueue());
  }

  async queueRemove(userId: number): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.mikeReqAction, { ddRid, action: 3, userId }), () => void this.loadMikeQueue());
  }

  async queueSwitch(userId: number, targetUserId: number): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.mikeReqSwitch, { ddRid, userId, targetUserId }), () => void this.loadMikeQueue());
  }

  async queueClear(): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.mikeReqClear, { ddRid }), () => void this.loadMikeQueue());
  }

  /** Leave the seat (action 3); control held goes with it. */
  async mikeDown(): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(
      () => this.root.api.post(RoomPaths.mikeUpOrDown, { ddRid, action: MikeAction.DOWN }),
      () => {
        this.setApply(ApplyState.NONE);
        void this.loadMike();
      },
    );
  }

  /** Apply for control (§4.7: state 1 for 30 s). */
  async applyControl(): Promise<boolean> {
    const serial = this.roomSerial;
    if (serial === null || this.applyState !== ApplyState.NONE) return false;
    return this.act(async () => {
      const a = await this.root.api.post(RoomPaths.controlApply, { roomSerial: serial });
      runInAction(() => {
        this.setApply(ApplyState.PENDING);
        // the server's deadline (its clock) when it gave one
        if (a?.until) this.applyUntil = a.until - this.root.game.skewMs;
      });
    });
  }

  private afterControl(): void {
    void this.loadInfo();
    void this.loadMike();
    if (this.isHost) void this.loadRequests();
  }

  /** The host grants (or denies) a request. */
  async assignControl(userId: number, agree = true): Promise<boolean> {
    const serial = this.roomSerial;
    if (serial === null) return false;
    // the actor of a control change is left out of its CONTROL_CHANGE: read the result here
    return this.act(() => this.root.api.post(agree ? RoomPaths.controlAssign : RoomPaths.controlDeny, { roomSerial: serial, userId }), () => this.afterControl());
  }

  async inviteControl(userId: number): Promise<boolean> {
    const serial = this.roomSerial;
    if (serial === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.controlInvite, { roomSerial: serial, userId }), () => this.root.ui.success('邀请已发送'));
  }

  async inviteMike(userId: number): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.mikeInvite, { ddRid, userId }), () => this.root.ui.success('邀请已发送'));
  }

  /** The host takes control back (recycle). */
  async recycleControl(): Promise<boolean> {
    const serial = this.roomSerial;
    if (serial === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.controlRecycle, { roomSerial: serial }), () => this.afterControl());
  }

  /** A guest with control gives it back (remand). */
  async returnControl(): Promise<boolean> {
    const serial = this.roomSerial;
    const uid = this.uid;
    if (serial === null || uid === null) return false;
    return this.act(
      () => this.root.api.post(RoomPaths.controlRemand, { roomSerial: serial, remandUserId: uid }),
      () => {
        this.setApply(ApplyState.NONE);
        this.afterControl();
      },
    );
  }

  async setRotation(on: boolean, turnSecs?: number): Promise<boolean> {
    const serial = this.roomSerial;
    if (serial === null) return false;
    const body: BodyOf<typeof RoomPaths.rotation> = { roomSerial: serial, on: on ? 1 : 0 };
    if (turnSecs !== undefined) body.turnSecs = turnSecs;
    return this.act(async () => {
      const r = await this.root.api.post(RoomPaths.rotation, body);
      runInAction(() => {
        if (this.info && r) this.info.room.rotation = r;
      });
    });
  }

  async kick(userId: number): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.kick, { ddRid, userId }), () => this.scheduleOnlineReload());
  }

  async banChat(userId: number, ban: boolean): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(
      () => this.root.api.post(RoomPaths.banMessage, { ddRid, userId, ban: ban ? 1 : 0 }),
      () => {
        this.root.ui.success(ban ? '已禁言' : '已解除禁言');
        // the online list says who is banned: the button turns into its undo
        void this.loadOnline();
      },
    );
  }

  async report(userId: number, reason: number, text: string): Promise<boolean> {
    const ddRid = this.ddRid;
    if (ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.report, { ddRid, userId, reason, text }), () => this.root.ui.success('举报成功'));
  }

  /** The blacklist dialog: page 1 replaces the list, later pages append (§7 Moderation). */
  async loadBlacklist(page = 1): Promise<void> {
    try {
      const res = await this.root.api.post(RoomPaths.blackList, { page, size: BLACKLIST_PAGE_SIZE });
      runInAction(() => {
        if (page === 1 || !this.blacklist) this.blacklist = res;
        else this.blacklist = { ...res, rows: [...this.blacklist.rows, ...res.rows] };
      });
    } catch (e) {
      this.root.ui.error(errorMessage(e));
    }
  }

  async blacklistAdd(userId: number): Promise<boolean> {
    return this.act(() => this.root.api.post(RoomPaths.blackAdd, { userId }), () => void this.loadBlacklist(1));
  }

  async blacklistDel(userId: number): Promise<boolean> {
    return this.act(() => this.root.api.post(RoomPaths.blackDel, { userId }), () => void this.loadBlacklist(1));
  }

  /** Room settings: the room form (§2.14 settings) of the room this user hosts. */
  async edit(form: RoomForm): Promise<boolean> {
    if (this.ddRid === null) return false;
    return this.act(() => this.root.api.post(RoomPaths.edit, roomFormBody(form)), () => void this.loadInfo());
  }

  // ---------------------------------------------------------------- live summary (§2.15)

  /** The host's relay session ended from PLAYING (game/over named the room's serial). */
  liveEnded(roomSerial: number): void {
    if (this.ddRid !== null && this.roomSerial === roomSerial) {
      this.roomEnded();
      return;
    }
    if (!this.summaryOpen) void this.openSummary(roomSerial);
  }

  async openSummary(roomSerial: number): Promise<void> {
    try {
      const detail = await this.root.api.post(RoomPaths.liveDetail, { roomSerial });
      runInAction(() => {
        this.summary = detail;
        this.summaryOpen = true;
      });
    } catch (e) {
      this.root.ui.error(errorMessage(e));
    }
  }

  closeSummary(): void {
    this.summaryOpen = false;
    if (this.ended) {
      this.forget();
      this.ended = false;
      this.root.ui.navigate('/game/live');
    }
  }

  /** Logged out. */
  reset(): void {
    this.forget();
    this.summary = null;
    this.summaryOpen = false;
    this.ended = false;
  }

  dispose(): void {
    this.stopTick();
    if (this.onlineTimer) clearTimeout(this.onlineTimer);
  }
}

/** An event's msg when it is a text to show (the server puts the code's name there otherwise). */
function shownText(msg: string): string {
  return /^[A-Z_]+$/.test(msg) ? '' : msg;
}

function numberOr(v: unknown): number | null {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

function nameOf(v: unknown): string {
  if (v && typeof v === 'object') {
    const o = v as { display_name?: unknown; displayName?: unknown; nickname?: unknown };
    for (const x of [o.displayName, o.display_name, o.nickname]) if (typeof x === 'string' && x) return x;
  }
  return '';
}
