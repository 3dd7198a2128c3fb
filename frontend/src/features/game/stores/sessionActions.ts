// The session's actions (core-platform.md §4.3, §4.5): '进入游戏' (confirm, then the play page
// in its window, with the confirm answer's stream ticket), '返回游戏', give up, leave the queue,
// end a session by the call its status needs, end or move a game of another device. GameStore
// owns one and delegates.
import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError, ErrorCode, errorMessage } from '../../../transport/apiError';
import type { PlayWindow } from '../../../lib/notify';
import type { GameState, LiveGameState } from '../../../api/types';
import type { StreamGrant } from '../../../stream/streamSession';
import type { AppServices } from '../../../kernel/services';
import { CONFIRM_GRANT_MS, exitPathFor, GamePaths, key, type ExitPath, type GameRoomAccess } from './gameTypes';

/** What the actions need: the server, the session they act on, and the room (a relay's end). */
export type SessionActionsDeps = Pick<AppServices, 'api' | 'ui' | 'effects'> &
  GameRoomAccess & {
    game: {
      readonly live: LiveGameState | null;
      readonly isThisClient: boolean;
      applyServerEvent(next: GameState | null | undefined): void;
      refresh(): Promise<void>;
      /** this client asked for the session's end: no alert for it */
      markDeliberate(id: number | string): void;
      offerMembership(message: string, detail?: string): Promise<void>;
      /** the play page of `gameId`, in the window the click opened (or this one) */
      showPlayPage(gameId: number, win: PlayWindow | null): void;
      /** opening the play page failed: nothing is opening any more */
      playPageSettled(): void;
    };
  };

export class SessionActions {
  /** the stream ticket of the last confirm answer, for the play page of this window */
  private confirmGrant: { sessionId: string; grant: StreamGrant; at: number } | null = null;
  private readonly deps: SessionActionsDeps;

  constructor(deps: SessionActionsDeps) {
    this.deps = deps;
    makeAutoObservable<SessionActions, 'deps' | 'confirmGrant'>(this, { deps: false, confirmGrant: false });
  }

  // ---------------------------------------------------------------- session actions

  /**
   * Ends a session by id with the call its status needs (cancelQue in QUEUE, cancelConfirm in
   * READY/CONNECTING, over otherwise), then re-reads the status. True when it ended.
   */
  async exitSession(id: number | string): Promise<boolean> {
    const live = this.deps.game.live;
    const known = live && key(live.id) === key(id) ? live : null;
    const status = known?.status;
    // a game of another device is ended with over whatever its status (core-platform.md §4.5);
    // for an unknown session: over first, then the others
    const order: ExitPath[] =
      status === undefined ? [GamePaths.over, GamePaths.cancelQue, GamePaths.cancelConfirm] : !this.deps.game.isThisClient ? [GamePaths.over] : [exitPathFor(status)];
    this.deps.game.markDeliberate(key(id));
    let ended = false;
    let lastError: unknown = null;
    for (const path of order) {
      try {
        const answer: unknown = await this.deps.api.post(path, { id });
        ended = true;
        // the over of a relay session from PLAYING names the room's live (social.md §2.15)
        const serial = answer && typeof answer === 'object' ? (answer as { roomSerial?: unknown }).roomSerial : undefined;
        if (typeof serial === 'number' && serial > 0) void this.deps.loadRoom().then((room) => room.liveEnded(serial));
        break;
      } catch (e) {
        lastError = e;
        if (e instanceof ApiError && e.code === ErrorCode.GAME_SESSION_GONE) {
          ended = true; // already over
          break;
        }
        if (!(e instanceof ApiError && e.code === ErrorCode.GAME_BAD_STATE)) break;
      }
    }
    if (!ended) this.deps.ui.error(errorMessage(lastError));
    await this.deps.game.refresh();
    return ended;
  }

  /** Ends this client's current session, whatever its status. */
  async exitCurrent(): Promise<boolean> {
    const l = this.deps.game.live;
    if (!l) return true;
    return this.exitSession(l.id);
  }

  /**
   * '进入游戏': confirm the connection, then the play page, in a new window by default
   * (core-platform.md §2.1, §4.3). The window opens from the click, before the call; a failed
   * confirm closes it again.
   */
  async confirmConnect(l: LiveGameState, win: PlayWindow | null): Promise<void> {
    try {
      const s = await this.deps.api.post(GamePaths.confirmConnect, { id: l.id });
      runInAction(() => {
        if (s) this.deps.game.applyServerEvent(s);
      });
      // watch while you wait: entering one's own game leaves the room being watched
      const room = this.deps.room;
      if (room && room.inRoom && !room.isHost) room.forget();
      if (s?.streamUrl && s.ticket) {
        this.confirmGrant = { sessionId: key(l.id), grant: { streamUrl: s.streamUrl, ticket: s.ticket }, at: Date.now() };
      }
      this.deps.game.showPlayPage(l.gameId, win);
    } catch (e) {
      win?.close();
      this.deps.game.playPageSettled();
      this.deps.ui.error(errorMessage(e));
      await this.deps.game.refresh();
    }
  }

  /**
   * '退出游戏' of a game running on another device (core-platform.md §4.5, §2.9): confirmed, it
   * ends that game with over, so it stops using play time; '退出游戏成功'.
   */
  async endOnOtherDevice(): Promise<void> {
    const l = this.deps.game.live;
    if (!l || this.deps.game.isThisClient) return;
    const ok = await this.deps.ui.confirm({
      title: '退出游戏',
      message: '您正在其他设备上运行当前游戏',
      detail: '确定要退出游戏吗？',
      confirmText: '立即退出',
      cancelText: '再玩一会',
    });
    if (!ok) return;
    if (await this.exitSession(l.id)) this.deps.ui.success('退出游戏成功');
  }

  /** '放弃': cancel the confirmation and hide the dialog. */
  async giveUp(): Promise<void> {
    const l = this.deps.game.live;
    if (!l) return;
    this.deps.ui.dismissReady(key(l.id));
    this.deps.game.markDeliberate(key(l.id));
    try {
      await this.deps.api.post(GamePaths.cancelConfirm, { id: l.id });
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
    }
    await this.deps.game.refresh();
  }

  /** '退出排队' confirmed in the queue dialog. */
  async cancelQueue(): Promise<void> {
    const l = this.deps.game.live;
    if (!l) return;
    await this.exitSession(l.id);
  }

  /**
   * Moves the session of another device to this one (core-platform.md §4.5): members with the
   * cross_screen privilege; others get 130466 and are told to exit it first, with membership.
   */
  async moveHere(): Promise<void> {
    try {
      const s = await this.deps.api.post(GamePaths.move, {});
      runInAction(() => {
        if (s) this.deps.game.applyServerEvent(s);
      });
    } catch (e) {
      if (e instanceof ApiError && e.code === ErrorCode.GAME_MOVE_NEEDS_MEMBER) {
        await this.deps.game.offerMembership('请先退出其他设备上的游戏', '开通会员即可将游戏转移到本设备继续');
        return;
      }
      this.deps.ui.error(errorMessage(e));
      await this.deps.game.refresh();
    }
  }

  /** The confirm answer's stream ticket for a session, once, while it is fresh. */
  takeStreamGrant(sessionId: string): StreamGrant | null {
    const g = this.confirmGrant;
    if (!g || g.sessionId !== sessionId) return null;
    this.confirmGrant = null;
    return Date.now() - g.at <= CONFIRM_GRANT_MS ? g.grant : null;
  }

  /** Logged out: a kept ticket goes. */
  reset(): void {
    this.confirmGrant = null;
  }
}
