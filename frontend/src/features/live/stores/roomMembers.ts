// The room's members (social.md §7 Moderation): the online list and its pages, the host's kick,
// chat ban and the report, and the user's blacklist.
import { makeAutoObservable, runInAction } from 'mobx';
import { BLACKLIST_PAGE_SIZE, ONLINE_PAGE_SIZE } from '../../../lib/room';
import { errorMessage } from '../../../transport/apiError';
import { ONLINE_RELOAD_MS, RoomPaths, type BlackPage, type RoomCore, type RoomDeps, type RoomUserPage } from './roomTypes';

export class RoomMembers {
  online: RoomUserPage | null = null;
  onlinePage = 1;
  blacklist: BlackPage | null = null;
  private onlineTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly deps: RoomDeps;
  private readonly room: RoomCore;

  constructor(deps: RoomDeps, room: RoomCore) {
    this.deps = deps;
    this.room = room;
    makeAutoObservable<RoomMembers, 'deps' | 'room' | 'onlineTimer'>(this, { deps: false, room: false, onlineTimer: false });
  }

  get onlineCount(): number {
    return this.online?.totalRows ?? 0;
  }

  async loadOnline(page = this.onlinePage): Promise<void> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return;
    try {
      const online = await this.deps.api.post(RoomPaths.userList, { ddRid, page, size: ONLINE_PAGE_SIZE });
      runInAction(() => {
        if (this.room.ddRid !== ddRid) return;
        this.online = online;
        this.onlinePage = page;
      });
    } catch {
      // kept as it was
    }
  }

  scheduleOnlineReload(): void {
    if (this.onlineTimer) return;
    this.onlineTimer = setTimeout(() => {
      this.onlineTimer = null;
      void this.loadOnline();
    }, ONLINE_RELOAD_MS);
  }

  async kick(userId: number): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.kick, { ddRid, userId }), () => this.scheduleOnlineReload());
  }

  async banChat(userId: number, ban: boolean): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(
      () => this.deps.api.post(RoomPaths.banMessage, { ddRid, userId, ban: ban ? 1 : 0 }),
      () => {
        this.deps.ui.success(ban ? '已禁言' : '已解除禁言');
        // the online list says who is banned: the button turns into its undo
        void this.loadOnline();
      },
    );
  }

  async report(userId: number, reason: number, text: string): Promise<boolean> {
    const ddRid = this.room.ddRid;
    if (ddRid === null) return false;
    return this.room.act(() => this.deps.api.post(RoomPaths.report, { ddRid, userId, reason, text }), () => this.deps.ui.success('举报成功'));
  }

  /** The blacklist dialog: page 1 replaces the list, later pages append (§7 Moderation). */
  async loadBlacklist(page = 1): Promise<void> {
    try {
      const res = await this.deps.api.post(RoomPaths.blackList, { page, size: BLACKLIST_PAGE_SIZE });
      runInAction(() => {
        if (page === 1 || !this.blacklist) this.blacklist = res;
        else this.blacklist = { ...res, rows: [...this.blacklist.rows, ...res.rows] };
      });
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
    }
  }

  async blacklistAdd(userId: number): Promise<boolean> {
    return this.room.act(() => this.deps.api.post(RoomPaths.blackAdd, { userId }), () => void this.loadBlacklist(1));
  }

  async blacklistDel(userId: number): Promise<boolean> {
    return this.room.act(() => this.deps.api.post(RoomPaths.blackDel, { userId }), () => void this.loadBlacklist(1));
  }

  clear(): void {
    this.online = null;
    this.blacklist = null;
    if (this.onlineTimer) clearTimeout(this.onlineTimer);
    this.onlineTimer = null;
  }
}
