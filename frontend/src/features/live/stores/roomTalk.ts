// The room's chat and barrage (§3 Barrage item, our chat): the chat list and the barrage overlay's
// lines (both capped), the barrage switch, and sending a message (it comes back on the stream).
import { makeAutoObservable } from 'mobx';
import type { BodyOf } from '../../../api/types';
import { BARRAGE_MAX, BarrageColor, type RoomEventItem } from '../../../lib/room';
import { RoomPaths, type BarrageEntry, type ChatEntry, type RoomCore, type RoomDeps } from './roomTypes';

export class RoomTalk {
  barrage: BarrageEntry[] = [];
  chat: ChatEntry[] = [];
  barrageOn = true;
  private nextKey = 1;
  private readonly deps: RoomDeps;
  private readonly room: RoomCore;

  constructor(deps: RoomDeps, room: RoomCore) {
    this.deps = deps;
    this.room = room;
    makeAutoObservable<RoomTalk, 'deps' | 'room' | 'nextKey'>(this, { deps: false, room: false, nextKey: false });
  }

  addChat(e: RoomEventItem, c: Omit<ChatEntry, 'key' | 'offset' | 'own' | 'faceId'> & { faceId?: number | null }): void {
    this.chat.push({ key: this.nextKey++, offset: e.offset, own: c.userId !== null && c.userId === this.room.uid, faceId: c.faceId ?? null, ...c });
    if (this.chat.length > BARRAGE_MAX) this.chat.splice(0, this.chat.length - BARRAGE_MAX);
  }

  addBarrage(text: string, color: string, own = false, notice = false): void {
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

  setBarrageOn(on: boolean): void {
    this.barrageOn = on;
  }

  /** A notice line in the barrage (e.g. 130133 in a room). */
  noticeBarrage(text: string): void {
    this.addBarrage(text, BarrageColor.DEFAULT, false, true);
  }

  /** Chat (needs a bound phone: 20007 prompts to bind one). The message comes back on the stream. */
  async sendChat(text: string, faceId: number | null = null): Promise<boolean> {
    const ddRid = this.room.ddRid;
    const t = text.trim();
    if (ddRid === null || (!t && faceId === null)) return false;
    const body: BodyOf<typeof RoomPaths.chatSend> = { ddRid, text: t };
    if (faceId !== null) body.faceId = faceId;
    return this.room.act(() => this.deps.api.post(RoomPaths.chatSend, body));
  }

  clear(): void {
    this.barrage = [];
    this.chat = [];
  }
}
