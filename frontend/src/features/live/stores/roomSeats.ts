// The room's seats and voice (social.md §4.6): the mike list and the host's seat queue, applying
// for and leaving a seat, the host's seat operations and locks, mike invitations.
import { makeAutoObservable, runInAction } from 'mobx';
import { MIKE_FULL, MIKE_IN_LIST, MikeAction, CONTROL_RECYCLABLE, RoomText } from '../../../lib/room';
import { answerInvite } from './roomRefusals';
import { RoomPaths, type ApplyControl, type MikeInfo, type MikeQueue, type RoomCore, type RoomDeps } from './roomTypes';

/** The seat side of the room the seats need: the control's apply state follows the mike list. */
export type SeatsRoom = RoomCore & {
  readonly control: RoomCore['control'] & { fromServer(apply: ApplyControl): void };
};

export class RoomSeats {
  mike: MikeInfo | null = null;
  /** the seat queue (first come first), read by the host */
  mikeQueueList: MikeQueue | null = null;
  private readonly deps: RoomDeps;
  private readonly room: SeatsRoom;

  constructor(deps: RoomDeps, room: SeatsRoom) {
    this.deps = deps;
    this.room = room;
    makeAutoObservable<RoomSeats, 'deps' | 'room'>(this, { deps: false, room: false });
  }

  get inMikeList(): boolean {
    return this.mike?.mikeSubStatus === MIKE_IN_LIST || (this.mike?.mikeList ?? []).some((s) => s.userId !== undefined && s.userId !== null && s.userId === this.room.uid);
  }

  get mikeFull(): boolean {
    return this.mike?.mikeStatus === MIKE_FULL;
  }

  /** §4.6: apply for a seat when not in the list and the list is not full. */
  get canApplySeat(): boolean {
    return !this.room.isHost && !this.inMikeList && !this.mikeFull;
  }

  /** §4.6: queue when not in the list, the list is full, mike is open and nothing is pending. */
  get canQueueSeat(): boolean {
    return !this.room.isHost && !this.inMikeList && this.mikeFull && this.mike?.isOpenMike !== false && this.mike?.isMikeReq !== true;
  }

  get controlRecyclable(): boolean {
    return this.mike?.controlStatus === CONTROL_RECYCLABLE;
  }

  async loadMike(): Promise<void> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return;
    try {
      const mike = await this.deps.api.post(RoomPaths.mikeList, { ddRid });
      runInAction(() => {
        if (this.room.ddRid !== ddRid) return;
        this.mike = mike;
        // the server's apply state (§4.7) wins over the local one, with its deadline
        this.room.control.fromServer(mike.applyControl);
      });
    } catch {
      // the next event refetches
    }
  }

  async loadMikeQueue(): Promise<void> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return;
    try {
      const q = await this.deps.api.post(RoomPaths.mikeReqList, { ddRid });
      runInAction(() => {
        if (this.room.ddRid === ddRid) this.mikeQueueList = q;
      });
    } catch {
      // kept as it was
    }
  }

  /** Apply for a seat (§4.6). */
  async mikeUp(): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.mikeUp, { ddRid, action: 1 }), () => void this.loadMike());
  }

  /** Queue for a seat when the list is full (§4.6). */
  async mikeQueue(): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.mikeReqAction, { ddRid, action: 1 }), () => void this.loadMike());
  }

  /** Leave the seat queue. */
  async mikeQueueCancel(): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.mikeReqAction, { ddRid, action: 2 }), () => void this.loadMike());
  }

  /** The host on a member's seat: 1 up, 3 down, 4 ban voice, 5 lift the ban. */
  async operateSeat(userId: number, action: 1 | 3 | 4 | 5): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.mikeOperate, { ddRid, userId, action }), () => void this.loadMike());
  }

  /** The host locks (or opens) one seat, 1..=7. */
  async lockSeat(seat: number, lock: boolean): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.mikeLock, { ddRid, seat, lock: lock ? 1 : 0 }), () => void this.loadMike());
  }

  async lockAllSeats(lock: boolean): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.mikeLockAll, { ddRid, lock: lock ? 1 : 0 }), () => void this.loadMike());
  }

  /** The host's queue operations: top, remove, switch two, clear. */
  async queueTop(userId: number): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.mikeReqTop, { ddRid, userId }), () => void this.loadMikeQueue());
  }

  async queueRemove(userId: number): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.mikeReqAction, { ddRid, action: 3, userId }), () => void this.loadMikeQueue());
  }

  async queueSwitch(userId: number, targetUserId: number): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.mikeReqSwitch, { ddRid, userId, targetUserId }), () => void this.loadMikeQueue());
  }

  async queueClear(): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.mikeReqClear, { ddRid }), () => void this.loadMikeQueue());
  }

  /** Leave the seat (action 3); control held goes with it. */
  async mikeDown(): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(
      () => this.deps.api.post(RoomPaths.mikeUpOrDown, { ddRid, action: MikeAction.DOWN }),
      () => {
        this.room.control.clearApply();
        void this.loadMike();
      },
    );
  }

  async inviteMike(userId: number): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.mikeInvite, { ddRid, userId }), () => this.deps.ui.success('邀请已发送'));
  }

  async mikeUpNotice(msg: string): Promise<void> {
    const stay = await this.deps.ui.confirm({ title: RoomText.MIKE_UP_TITLE, message: msg || '你已上麦', confirmText: '确定', cancelText: '下麦' });
    if (!stay) await this.mikeDown();
  }

  async answerMikeInvite(): Promise<void> {
    await answerInvite(this.deps, this.room, RoomText.MIKE_INVITE_TITLE, RoomText.MIKE_INVITE_TEXT, RoomPaths.mikeInviteAccept, RoomPaths.mikeInviteRefuse);
  }

  clear(): void {
    this.mike = null;
    this.mikeQueueList = null;
  }
}
