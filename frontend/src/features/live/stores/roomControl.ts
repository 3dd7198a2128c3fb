// The room's control handover (social.md §4.7): the apply-control state and its countdown, the
// host's request list, granting, inviting, recycling and returning control, the rotation, and
// the end of a controller's time (LIVE_OFFLINE). The 1 s tick also moves the rotation's clock.
import { makeAutoObservable, runInAction } from 'mobx';
import type { BodyOf } from '../../../api/types';
import { ApplyState, RoomText, secondsLeft, type ApplyStateCode } from '../../../lib/room';
import { answerInvite } from './roomRefusals';
import { RoomPaths, type ApplyControl, type ControlApplies, type RoomCore, type RoomDeps } from './roomTypes';

export class RoomControl {
  applyState: ApplyStateCode = ApplyState.NONE;
  /** ms (Date.now) at which the apply state goes back to 0: the server's `until` on this clock */
  applyUntil = 0;
  nowMs = Date.now();
  /** the host's control request list */
  requests: ControlApplies | null = null;
  private tickTimer: ReturnType<typeof setInterval> | null = null;
  private readonly deps: RoomDeps;
  private readonly room: RoomCore;

  constructor(deps: RoomDeps, room: RoomCore) {
    this.deps = deps;
    this.room = room;
    makeAutoObservable<RoomControl, 'deps' | 'room' | 'tickTimer'>(this, { deps: false, room: false, tickTimer: false });
  }

  /** Seconds left of the apply state's display (0 when none). */
  get applySecondsLeft(): number {
    return this.applyState === ApplyState.NONE ? 0 : secondsLeft(this.applyUntil, this.nowMs);
  }

  /** The rotation (beyond the spec): on, queue, my position (1-based, 0 = not queued), time left. */
  get rotation(): { on: boolean; position: number; queued: number; secondsLeft: number; turnSecs: number; current: number | null } {
    const r = this.room.info?.room.rotation;
    if (!r || !r.on) return { on: false, position: 0, queued: 0, secondsLeft: 0, turnSecs: r?.turnSecs ?? 0, current: null };
    const queue = r.queue ?? [];
    const index = this.room.uid === null ? -1 : queue.indexOf(this.room.uid);
    const left = typeof r.turnEndsAt === 'number' && r.turnEndsAt > 0 ? secondsLeft(r.turnEndsAt, this.nowMs + this.deps.game.skewMs) : 0;
    return { on: true, position: index + 1, queued: queue.length, secondsLeft: left, turnSecs: r.turnSecs, current: r.current ?? null };
  }

  // ---------------------------------------------------------------- apply-control countdown (§4.7)

  /** No apply state any more (control granted, taken back or left with the seat). */
  clearApply(): void {
    this.applyState = ApplyState.NONE;
    this.applyUntil = 0;
  }

  /**
   * The server's apply state (§4.7: the apply call's answer, the mike info's `applyControl`) wins
   * over the local one, with its deadline (server ms, moved onto this clock by the skew): how
   * long a state lasts is the server's configuration, not the browser's.
   */
  fromServer(a: ApplyControl | null | undefined): void {
    if (!a) return;
    const state = a.state === ApplyState.PENDING || a.state === ApplyState.DENIED ? a.state : ApplyState.NONE;
    this.nowMs = Date.now();
    this.applyState = state;
    this.applyUntil = state !== ApplyState.NONE && a.until ? a.until - this.deps.game.skewMs : 0;
  }

  /** The 1 s tick: the apply state expires, the rotation's time left moves. */
  tick(): void {
    this.nowMs = Date.now();
    if (this.applyState !== ApplyState.NONE && this.nowMs >= this.applyUntil) {
      this.applyState = ApplyState.NONE;
      this.applyUntil = 0;
    }
  }

  startTick(): void {
    if (this.tickTimer) return;
    this.tickTimer = setInterval(() => this.tick(), 1000);
  }

  stopTick(): void {
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.tickTimer = null;
  }

  async loadRequests(): Promise<void> {
    const serial = this.room.roomSerial;
    if (serial === null) return;
    try {
      const requests = await this.deps.api.post(RoomPaths.controlApplyList, { roomSerial: serial });
      runInAction(() => (this.requests = requests));
    } catch {
      // kept as it was
    }
  }

  /** Apply for control (§4.7): the answer is the pending state and its deadline. */
  async applyControl(): Promise<boolean> {
    const serial = this.room.roomSerial;
    if (serial === null || this.applyState !== ApplyState.NONE) return false;
    return this.room.act(async () => {
      const a = await this.deps.api.post(RoomPaths.controlApply, { roomSerial: serial });
      this.fromServer(a);
    });
  }

  private afterControl(): void {
    void this.room.loadInfo();
    void this.room.seats.loadMike();
    if (this.room.isHost) void this.loadRequests();
  }

  /** The host grants (or denies) a request. */
  async assignControl(userId: number, agree = true): Promise<boolean> {
    const serial = this.room.roomSerial;
    if (serial === null) return false;
    // the actor of a control change is left out of its CONTROL_CHANGE: read the result here
    return this.room.act(() => this.deps.api.post(agree ? RoomPaths.controlAssign : RoomPaths.controlDeny, { roomSerial: serial, userId }), () => this.afterControl());
  }

  async inviteControl(userId: number): Promise<boolean> {
    const serial = this.room.roomSerial;
    if (serial === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.controlInvite, { roomSerial: serial, userId }), () => this.deps.ui.success('邀请已发送'));
  }

  /** The host takes control back (recycle). */
  async recycleControl(): Promise<boolean> {
    const serial = this.room.roomSerial;
    if (serial === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.controlRecycle, { roomSerial: serial }), () => this.afterControl());
  }

  /** A guest with control gives it back (remand). */
  async returnControl(): Promise<boolean> {
    const serial = this.room.roomSerial;
    const uid = this.room.uid;
    if (serial === null || uid === null) return false;
    return this.room.act(
      () => this.deps.api.post(RoomPaths.controlRemand, { roomSerial: serial, remandUserId: uid }),
      () => {
        this.clearApply();
        this.afterControl();
      },
    );
  }

  async setRotation(on: boolean, turnSecs?: number): Promise<boolean> {
    const serial = this.room.roomSerial;
    if (serial === null) return false;
    const body: BodyOf<typeof RoomPaths.rotation> = { roomSerial: serial, on: on ? 1 : 0 };
    if (turnSecs !== undefined) body.turnSecs = turnSecs;
    return this.room.act(async () => {
      const r = await this.deps.api.post(RoomPaths.rotation, body);
      runInAction(() => {
        if (this.room.info && r) this.room.info.room.rotation = r;
      });
    });
  }

  async answerControlInvite(): Promise<void> {
    await answerInvite(this.deps, this.room, RoomText.CONTROL_INVITE_TITLE, RoomText.CONTROL_INVITE_TEXT, RoomPaths.controlInviteAccept, RoomPaths.controlInviteRefuse);
  }

  /**
   * LIVE_OFFLINE (130134) on the live page: control and the keyboard are released (the page stops
   * sending input), the limit alert shows, then home. The frame carries no data (the server
   * declares none for it).
   */
  liveOffline(): void {
    this.clearApply();
    if (this.room.info) this.room.info.room.controller = this.room.hostUid ?? 0;
    this.deps.effects.exitFullscreen();
    void this.deps.ui.alert({ title: '温馨提示', message: '一起玩的操控时间已结束', confirmText: '好的' }).then(() => this.deps.ui.navigate('/'));
  }

  clear(): void {
    this.requests = null;
    this.applyState = ApplyState.NONE;
    this.applyUntil = 0;
    this.stopTick();
  }
}
