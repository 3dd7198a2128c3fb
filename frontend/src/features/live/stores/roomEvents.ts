// The room's event stream (social.md §4.8): ROOM_EVENTS frames applied in offset order (a copy
// dropped, a gap refetches and watches again), ROOM_RESET, and what each event does to the room's
// parts. The room store owns one; the root store hands it the socket's frames.
import { makeAutoObservable, runInAction } from 'mobx';
import { eventData } from '../../../api/codes';
import { RoomEventCode } from '../../../api/codes';
import { BarrageColor, eventIsFor, orderEvents, RoomText, stripNameExt, type RoomEventItem } from '../../../lib/room';
import type { RoomControl } from './roomControl';
import type { RoomMembers } from './roomMembers';
import type { RoomSeats } from './roomSeats';
import type { RoomTalk } from './roomTalk';
import { nameOf, REENTRY_MIN_MS, shownText, type RoomDeps, type RoomInfo } from './roomTypes';

/** The room as its events change it (RoomStore). */
export interface EventRoom {
  readonly ddRid: number | null;
  readonly ended: boolean;
  epoch: string | null;
  offset: number;
  readonly info: RoomInfo | null;
  readonly uid: number | null;
  readonly isHost: boolean;
  readonly seats: RoomSeats;
  readonly control: RoomControl;
  readonly talk: RoomTalk;
  readonly members: RoomMembers;
  enter(ddRid: number): Promise<void>;
  refetch(): Promise<void>;
  sendWatch(): void;
  loadInfo(): Promise<void>;
  followGame(): Promise<void>;
  roomEnded(): void;
  /** KICK_OUT: no watch, the error view with the event's text */
  kickedOut(code: number, message: string): void;
}

export class RoomEvents {
  private lastReentry = Number.NEGATIVE_INFINITY;
  private readonly deps: RoomDeps;
  private readonly room: EventRoom;

  constructor(deps: RoomDeps, room: EventRoom) {
    this.deps = deps;
    this.room = room;
    makeAutoObservable<RoomEvents, 'deps' | 'room' | 'lastReentry'>(this, { deps: false, room: false, lastReentry: false });
  }

  // ---------------------------------------------------------------- the event stream

  /** A ROOM_EVENTS frame: applied in offset order; a copy is dropped, a gap refetches. */
  applyEvents(ddRid: number, epoch: string, batch: { first: number; last: number; events: readonly RoomEventItem[] }): void {
    if (ddRid !== this.room.ddRid || this.room.ended) return;
    const { apply, gap, offset } = orderEvents({ epoch: this.room.epoch, offset: this.room.offset }, epoch, batch);
    if (gap) {
      void this.resync(epoch, null);
      return;
    }
    if (this.room.epoch === null) this.room.epoch = epoch;
    for (const e of apply) this.applyEvent(e);
    this.room.offset = offset;
  }

  /** A ROOM_RESET frame: the server cannot resume this client; refetch and watch from its position. */
  applyReset(ddRid: number, epoch: string, offset: number): void {
    if (ddRid !== this.room.ddRid || this.room.ended) return;
    if (epoch === '') {
      // the room refused the watch (the membership lapsed while the socket was away, or the
      // room is gone): enter again, at most once in a while, rather than watch in a loop
      const now = Date.now();
      if (now - this.lastReentry < REENTRY_MIN_MS) return;
      this.lastReentry = now;
      void this.room.enter(ddRid);
      return;
    }
    void this.resync(epoch, offset);
  }

  private async resync(epoch: string, offset: number | null): Promise<void> {
    if (offset !== null) {
      this.room.epoch = epoch;
      this.room.offset = offset;
    }
    await this.room.refetch();
    // a gap without a position: the info answer's position is where the refetched state stands
    runInAction(() => {
      if (offset === null && this.room.info) {
        this.room.epoch = this.room.info.epoch;
        this.room.offset = this.room.info.offset;
      }
    });
    this.room.sendWatch();
  }

  /** One event of §4.8 (plus our chat), already known to be next in order; its data typed by its code. */
  private applyEvent(e: RoomEventItem): void {
    if (!eventIsFor(e, this.room.uid)) return;
    const ui = this.deps.ui;
    const msg = shownText(e.msg);
    const C = RoomEventCode;
    switch (e.code) {
      case C.ROOM_INFO_CHANGE: {
        // the host refetches; others apply the data directly (§4.8)
        const d = eventData(C.ROOM_INFO_CHANGE, e.data);
        if (this.room.isHost || !this.room.info || !d) {
          void this.room.loadInfo();
          return;
        }
        const room = this.room.info.room;
        room.roomName = d.roomName;
        room.mode = d.mode;
        room.isShow = d.isShow;
        room.hasPassword = d.hasPassword;
        return;
      }
      case C.GAME_INFO_CHANGE: {
        const d = eventData(C.GAME_INFO_CHANGE, e.data);
        if (this.room.info && d) this.room.info.room.gameStatus = d.status;
        void this.room.followGame();
        return;
      }
      case C.ROTATION_CHANGE: {
        const rotation = eventData(C.ROTATION_CHANGE, e.data);
        if (this.room.info && rotation) this.room.info.room.rotation = rotation;
        else void this.room.loadInfo();
        return;
      }
      case C.ROOM_END:
        this.room.roomEnded();
        return;
      case C.MIKE_INFO_CHANGE:
        void this.room.seats.loadMike();
        if (this.room.isHost) void this.room.seats.loadMikeQueue();
        return;
      case C.CONTROL_CHANGE: {
        const d = eventData(C.CONTROL_CHANGE, e.data);
        if (this.room.info && d) this.room.info.room.controller = d.controller;
        void this.room.seats.loadMike();
        if (this.room.isHost) void this.room.control.loadRequests();
        return;
      }
      case C.ROOM_ENTER: {
        // a busy room's batch carries its entries as one event: `count` entered
        const d = eventData(C.ROOM_ENTER, e.data);
        const nickname = d?.nickname ?? '';
        const count = d && d.count > 1 ? d.count : 1;
        const text = count > 1 ? `${nickname} 等${count}人进入房间` : `${nickname} 进入房间`;
        this.room.members.scheduleOnlineReload();
        this.room.talk.addChat(e, { kind: 'enter', nickname, text, userId: d?.userId ?? null });
        this.room.talk.addBarrage(text, BarrageColor.ENTER);
        return;
      }
      case C.ROOM_LEAVE:
        this.room.members.scheduleOnlineReload();
        return;
      case C.GIFT_MESSAGE: {
        const d = eventData(C.GIFT_MESSAGE, e.data);
        const giver = nameOf(d?.giver);
        const receiver = nameOf(d?.receiver);
        const num = d && d.giftNum > 0 ? d.giftNum : 1;
        const text = `${giver} 送给 ${receiver} 礼物 x${num}`;
        this.room.talk.addChat(e, { kind: 'gift', nickname: giver, text, userId: null });
        this.room.talk.addBarrage(text, BarrageColor.GIFT_NAME);
        return;
      }
      case C.MIKE_QUEUE_TOP:
      case C.MIKE_QUEUE_CANCEL:
      case C.MIKE_BLOCK:
      case C.MIKE_DOWN:
      case C.CHAT_BLOCK:
        void this.room.seats.loadMike();
        this.room.members.scheduleOnlineReload();
        if (msg) ui.info(msg);
        return;
      case C.MIKE_DOWN_AND_CONTROL_OFF:
        void this.room.seats.loadMike();
        void this.room.loadInfo();
        this.room.members.scheduleOnlineReload();
        this.room.control.clearApply();
        if (msg) ui.info(msg);
        return;
      case C.MIKE_QUEUE_REMOVE:
        void this.room.seats.loadMike();
        this.room.members.scheduleOnlineReload();
        ui.info(RoomText.QUEUE_REMOVED);
        return;
      case C.MIKE_UP:
        this.room.members.scheduleOnlineReload();
        void this.room.seats.loadMike();
        void this.room.seats.mikeUpNotice(msg);
        return;
      case C.MIKE_UP_INVITE:
        void this.room.seats.answerMikeInvite();
        return;
      case C.INVITE_DENY:
        if (msg) ui.info(msg);
        return;
      case C.CONTROL_REQUEST: {
        if (!this.room.isHost) return;
        void this.room.control.loadRequests();
        const nickname = eventData(C.CONTROL_REQUEST, e.data)?.nickname ?? '';
        this.room.talk.addBarrage(`${nickname} 申请控制权`, BarrageColor.CONTROL_REQUEST);
        return;
      }
      case C.CONTROL_ON:
        this.room.control.clearApply();
        void this.room.loadInfo();
        void this.room.seats.loadMike();
        if (msg) ui.success(msg);
        return;
      case C.CONTROL_DENY:
        // the mike info carries the denied state and how long it lasts (§4.7)
        void this.room.seats.loadMike();
        if (e.desc || msg) ui.info(e.desc || msg);
        return;
      case C.CONTROL_RETURN: {
        const d = eventData(C.CONTROL_RETURN, e.data);
        void this.room.loadInfo();
        void this.room.seats.loadMike();
        if (d?.controlType !== 'MAIN') ui.info(`${d?.nickname ?? ''} 已归还控制权`);
        return;
      }
      case C.CONTROL_OFF:
        this.room.control.clearApply();
        void this.room.loadInfo();
        void this.room.seats.loadMike();
        ui.info(RoomText.CONTROL_OFF);
        return;
      case C.CONTROL_ON_INVITE:
        void this.room.control.answerControlInvite();
        return;
      case C.KICK_OUT:
      case C.KICK_OUT_:
        this.room.kickedOut(e.code, msg || '你已被移出该房间');
        return;
      case C.CHAT: {
        const d = eventData(C.CHAT, e.data);
        const text = d ? stripNameExt(d.text) : '';
        const userId = d?.userId ?? null;
        const own = userId !== null && userId === this.room.uid;
        this.room.talk.addChat(e, { kind: 'text', nickname: d?.nickname ?? '', text, userId, faceId: d?.faceId ?? null });
        if (text) this.room.talk.addBarrage(text, BarrageColor.DEFAULT, own);
        return;
      }
      default:
      // MIKE_BLOCK_TMP, BLOCK, UNBLOCK, WELCOME_MESSAGE_CHANGE: handling not shown in §4.8
    }
  }
}
