import { makeAutoObservable, reaction, type IReactionDisposer } from 'mobx';
import { GameStatus } from '../../../api/codes';
import type { RoomStore } from './roomStore';
import { StreamSession, type StreamDeps } from '../../../stream/streamSession';
import { ApiError, ErrorCode } from '../../../transport/apiError';

/** What this store needs from the others (the root store provides it). */
export type RoomStreamDeps = { readonly room: Pick<RoomStore, 'inRoom' | 'gameStatus' | 'ddRid' | 'streamTicket' | 'hasControl'> | null };

/** The browser facilities of the stream (the real ones in the page, fakes in tests). */
export type RoomStreamEnv = Omit<StreamDeps, 'ticket' | 'isFinalRefusal'>;

/**
 * The room page's picture: the host's stream, watched with a viewer ticket from room/connection
 * while the room's relay is CONNECTING or PLAYING (GAME_INFO_CHANGE moves it). Input is sent
 * only while the room names this user controller; the game host drops anyone else's anyway.
 */
export class RoomStreamStore {
  session: StreamSession | null = null;
  private following: number | null = null;
  private readonly deps: RoomStreamDeps;
  private readonly env: RoomStreamEnv;
  private disposer: IReactionDisposer | null = null;

  constructor(deps: RoomStreamDeps, env: RoomStreamEnv) {
    this.deps = deps;
    this.env = env;
    makeAutoObservable<RoomStreamStore, 'following' | 'deps' | 'env' | 'disposer'>(this, { following: false, deps: false, env: false, disposer: false });
  }

  /** The room whose stream shows: the room this user is in, while its game runs. */
  get target(): number | null {
    const room = this.deps.room;
    if (!room) return null;
    const status = room.gameStatus;
    if (!room.inRoom || (status !== GameStatus.CONNECTING && status !== GameStatus.PLAYING)) return null;
    return room.ddRid;
  }

  start(): void {
    if (this.disposer) return;
    this.disposer = reaction(
      () => this.target,
      (ddRid) => this.follow(ddRid),
      { fireImmediately: true },
    );
  }

  private follow(ddRid: number | null): void {
    if (ddRid === this.following) return;
    this.session?.stop();
    this.session = null;
    this.following = ddRid;
    const room = this.deps.room;
    if (ddRid === null || !room) return;
    const session = new StreamSession(
      {
        ...this.env,
        ticket: () => room.streamTicket(),
        isFinalRefusal: (e) => e instanceof ApiError && e.code !== ErrorCode.NETWORK,
      },
      { allowInput: () => room.hasControl },
    );
    this.session = session;
    session.start();
  }

  dispose(): void {
    this.disposer?.();
    this.disposer = null;
    this.session?.stop();
    this.session = null;
    this.following = null;
  }
}
