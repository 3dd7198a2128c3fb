import { makeAutoObservable, runInAction } from 'mobx';
import { GameStatus } from '../../../api/codes';
import type { BodyOf } from '../../../api/types';
import { encodePassword, RoomCode, RoomLoad, RoomText, roomFormBody, type RoomEventItem, type RoomForm, type RoomLoadState } from '../../../lib/room';
import { ApiError, errorMessage } from '../../../transport/apiError';
import { RoomControl } from './roomControl';
import { RoomEvents } from './roomEvents';
import { actionFailed, entryFailed } from './roomRefusals';
import { RoomMembers } from './roomMembers';
import { RoomSeats } from './roomSeats';
import { RoomTalk } from './roomTalk';
import {
  RoomPaths,
  type EnterOptions,
  type LiveDetail,
  type RoomConnection,
  type RoomDeps,
  type RoomEntry,
  type RoomInfo,
  type RoomWatcher,
} from './roomTypes';

export * from './roomTypes';

/**
 * The room this client is in (a user is in at most one room per device): entry with every
 * outcome of §4.5, the room's state (info, mike seats, online list, control requests, barrage and
 * chat), its event stream applied in offset order (duplicates dropped, a gap or ROOM_RESET makes
 * it refetch and watch again), the apply-control countdown of §4.7, and every room action. The
 * room page, the room float and the game float read it; components never call the server.
 *
 * Its parts: `seats` (the mike list and seat actions, roomSeats.ts), `control` (the control
 * handover and its countdown, the rotation, roomControl.ts), `talk` (chat and barrage,
 * roomTalk.ts), `members` (the online list, moderation, roomMembers.ts) and the event stream
 * (roomEvents.ts); this store keeps the room's lifecycle: entry, reads, exit, the summary.
 */
export class RoomStore {
  ddRid: number | null = null;
  load: RoomLoadState = RoomLoad.LOADING;
  /** the stored error of the ERROR view (§4.2) */
  error: { code: number; message: string } | null = null;
  info: RoomInfo | null = null;
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
  readonly seats: RoomSeats;
  readonly control: RoomControl;
  readonly talk: RoomTalk;
  readonly members: RoomMembers;
  private readonly events: RoomEvents;
  private refetching: Promise<void> | null = null;
  private watcher: RoomWatcher | null = null;
  private readonly deps: RoomDeps;

  constructor(deps: RoomDeps) {
    this.deps = deps;
    this.seats = new RoomSeats(deps, this);
    this.control = new RoomControl(deps, this);
    this.talk = new RoomTalk(deps, this);
    this.members = new RoomMembers(deps, this);
    this.events = new RoomEvents(deps, this);
    makeAutoObservable<RoomStore, 'deps' | 'events' | 'refetching' | 'watcher'>(this, {
      deps: false,
      seats: false,
      control: false,
      talk: false,
      members: false,
      events: false,
      refetching: false,
      watcher: false,
    });
  }

  // ---------------------------------------------------------------- derived

  // ---------------------------------------------------------------- derived

  get uid(): number | null {
    return this.deps.user.profile?.uid ?? null;
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

  // ---------------------------------------------------------------- wiring

  /** The socket side (RootStore sets it when the channel exists, null when it goes). */
  setWatcher(watcher: RoomWatcher | null): void {
    this.watcher = watcher;
  }

  /** The socket (re)opened: watch the room again from where this client stands. */
  onChannelOpen(): void {
    this.sendWatch();
  }

  sendWatch(): void {
    if (this.ddRid === null || this.epoch === null || this.ended) return;
    this.watcher?.watch(this.ddRid, this.epoch, this.offset);
  }

  // ---------------------------------------------------------------- entry (§4.5)

  /**
   * Logs into room `ddRid`; each refusal of §4.5 gets its reaction. On success the room's state
   * is read and the event stream watched from the position in the answer.
   */
  async enter(ddRid: number, opts: EnterOptions = {}): Promise<void> {
    if (!this.deps.user.isLoggedIn) {
      this.deps.ui.openLogin(() => void this.enter(ddRid, opts));
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
      entry = await this.deps.api.post(RoomPaths.loginRelayRoom, body);
    } catch (e) {
      if (opts.silent) {
        runInAction(() => this.forget());
        return;
      }
      await entryFailed(this.deps.ui, this.deps.game, this, ddRid, e, opts);
      return;
    }
    runInAction(() => {
      this.passwordPrompt = null;
      this.epoch = entry.epoch;
      this.offset = entry.offset;
      this.talk.clear();
    });
    await this.refetch();
    runInAction(() => {
      if (this.ddRid === ddRid && !this.ended) this.load = RoomLoad.SUCCESS;
    });
    this.control.startTick();
    this.sendWatch();
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

  setError(code: number, message: string): void {
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
      const exited = await this.deps.api.post(RoomPaths.exit, {});
      if (exited?.roomSerial) serial = exited.roomSerial;
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
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
    this.epoch = null;
    this.offset = 0;
    this.connection = null;
    this.passwordPrompt = null;
    this.load = RoomLoad.LOADING;
    this.error = null;
    this.seats.clear();
    this.control.clear();
    this.talk.clear();
    this.members.clear();
  }

  // ---------------------------------------------------------------- reads

  /** Room info, mike info, online list (and the host's request list), in parallel. */
  async refetch(): Promise<void> {
    if (this.refetching) return this.refetching;
    const p = Promise.all([this.loadInfo(), this.seats.loadMike(), this.members.loadOnline(1)]).then(() => undefined);
    this.refetching = p;
    try {
      await p;
    } finally {
      this.refetching = null;
    }
    if (this.isHost) await Promise.all([this.control.loadRequests(), this.seats.loadMikeQueue()]);
  }

  async loadInfo(): Promise<void> {
    const ddRid = this.ddRid;
    if (ddRid === null) return;
    try {
      const info = await this.deps.api.post(RoomPaths.info, { ddRid });
      runInAction(() => {
        if (this.ddRid === ddRid) this.info = info;
      });
      await this.followGame();
    } catch (e) {
      if (e instanceof ApiError && e.code === RoomCode.NOT_EXIST) this.roomEnded();
    }
  }

  /** §4.5 last rule: while the relay is CONNECTING or PLAYING, the stream's connect info. */
  async followGame(): Promise<void> {
    const ddRid = this.ddRid;
    const status = this.gameStatus;
    if (ddRid === null) return;
    if (status !== GameStatus.CONNECTING && status !== GameStatus.PLAYING) {
      runInAction(() => (this.connection = null));
      return;
    }
    if (this.connection?.streamUrl) return;
    try {
      const c = await this.deps.api.post(RoomPaths.connection, { ddRid });
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
    const c = await this.deps.api.post(RoomPaths.connection, { ddRid });
    if (!c.streamUrl || !c.ticket) throw new ApiError(RoomCode.NOT_EXIST, '暂无游戏画面', null);
    return { streamUrl: c.streamUrl, ticket: c.ticket };
  }

  /** USER_RELAY_END (130447), or the stream's last event: the room is over; everyone gets the summary. */
  roomEnded(): void {
    if (this.ended || this.ddRid === null) return;
    const serial = this.roomSerial;
    if (this.ddRid !== null) this.watcher?.unwatch(this.ddRid);
    this.ended = true;
    this.connection = null;
    this.control.stopTick();
    this.deps.effects.exitFullscreen();
    if (serial !== null) void this.openSummary(serial);
  }

  // ---------------------------------------------------------------- actions

  async act(fn: () => Promise<unknown>, after?: () => void): Promise<boolean> {
    this.busy = true;
    try {
      await fn();
      runInAction(() => after?.());
      return true;
    } catch (e) {
      await actionFailed(this.deps.ui, e);
      return false;
    } finally {
      runInAction(() => (this.busy = false));
    }
  }

  /** Room settings: the room form (§2.14 settings) of the room this user hosts. */
  async edit(form: RoomForm): Promise<boolean> {
    if (this.ddRid === null) return false;
    return this.act(() => this.deps.api.post(RoomPaths.edit, roomFormBody(form)), () => void this.loadInfo());
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
      const detail = await this.deps.api.post(RoomPaths.liveDetail, { roomSerial });
      runInAction(() => {
        this.summary = detail;
        this.summaryOpen = true;
      });
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
    }
  }

  closeSummary(): void {
    this.summaryOpen = false;
    if (this.ended) {
      this.forget();
      this.ended = false;
      this.deps.ui.navigate('/game/live');
    }
  }

  /** KICK_OUT (§4.8): no watch, the error view with the event's text. */
  kickedOut(code: number, message: string): void {
    if (this.ddRid !== null) this.watcher?.unwatch(this.ddRid);
    this.setError(code, message);
    this.control.stopTick();
  }

  // ---------------------------------------------------------------- the event stream (roomEvents.ts)

  applyEvents(ddRid: number, epoch: string, batch: { first: number; last: number; events: readonly RoomEventItem[] }): void {
    this.events.applyEvents(ddRid, epoch, batch);
  }

  applyReset(ddRid: number, epoch: string, offset: number): void {
    this.events.applyReset(ddRid, epoch, offset);
  }

  // ---------------------------------------------------------------- the end

  /** Logged out. */
  reset(): void {
    this.forget();
    this.summary = null;
    this.summaryOpen = false;
    this.ended = false;
  }

  dispose(): void {
    this.control.stopTick();
    this.members.clear();
  }
}
