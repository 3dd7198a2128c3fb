import { makeAutoObservable, runInAction } from 'mobx';
import { GameStatus } from '../../../api/codes';
import type { DataOf } from '../../../api/types';
import { GAME_PICKER_SIZE, ROOM_LIST_PAGE_SIZE, RoomCode, RoomText, roomFormBody, validateRoomForm, type RoomForm } from '../../../lib/room';
import type { AppServices } from '../../../kernel/services';
import type { LiveGameState } from '../../../api/types';
import type { RelayParams } from '../../game/stores/gameTypes';
import type { RoomStore } from './roomStore';
import { RoomPaths } from './roomTypes';
import { ApiError, errorMessage } from '../../../transport/apiError';

/** What this store needs from the others (the root store provides it). */
export type LiveStoreDeps = Pick<AppServices, 'api' | 'ui' | 'user'> & {
  loadRoom(): Promise<Pick<RoomStore, 'enter'>>;
  /** the game a relay starts (the game feature's session and start flow) */
  game: {
    readonly live: LiveGameState | null;
    returnToGame(): void;
    openNodePicker(game: { id: number; name: string }, relay?: RelayParams): Promise<void>;
  };
};

export type RoomList = DataOf<typeof RoomPaths.list, 'post'>;
export type RoomParams = DataOf<typeof RoomPaths.params, 'post'>;
export type RelayCounts = DataOf<typeof RoomPaths.relayCount, 'post'>;

/** A game the picker offers. */
export interface PickerGame {
  id: number;
  name: string;
}

/** localStorage key prefix of the relay public-beta notice's read flag (per user id, §2.12). */
export const RELAY_NOTICE_KEY = 'yoo_relay_notice_';
export const RELAY_NOTICE_DELAY_MS = 1200;
export const RELAY_NOTICE_TEXT = '恭喜你获得一起玩公测资格，快去手机端创建房间吧~';

/** The open start-relay dialog (§2.12). */
export interface RelayDialog {
  form: RoomForm;
  params: RoomParams;
  /** the game is fixed (opened from a game) */
  gamePreset: PickerGame | null;
  /** why the dialog opened, shown above the form (a game played only together, §4.4 step 10) */
  notice: string | null;
  games: PickerGame[];
  keyword: string;
  error: string | null;
  submitting: boolean;
}

/**
 * The /game/live page: the public room list with heat, the relay count per game, and the
 * start-relay dialog's flow (§4.3): super admins refused, the relay check, the room params, the
 * form (§5), the create call, then the host's game started with the relay extra params and the
 * room entered.
 */
export class LiveStore {
  list: RoomList | null = null;
  page = 1;
  loading = false;
  counts: RelayCounts = {};
  dialog: RelayDialog | null = null;
  private readonly deps: LiveStoreDeps;

  constructor(deps: LiveStoreDeps) {
    this.deps = deps;
    makeAutoObservable<LiveStore, 'deps'>(this, { deps: false });
  }

  async loadList(page = 1): Promise<void> {
    this.loading = true;
    try {
      const list = await this.deps.api.post(RoomPaths.list, { page, size: ROOM_LIST_PAGE_SIZE });
      runInAction(() => {
        this.list = list;
        this.page = page;
      });
      const gameIds = [...new Set(list.rows.map((r) => r.game.id))];
      if (gameIds.length > 0) await this.loadCounts(gameIds);
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
    } finally {
      runInAction(() => (this.loading = false));
    }
  }

  async loadCounts(gameIds: number[]): Promise<void> {
    try {
      const counts = await this.deps.api.post(RoomPaths.relayCount, { gameIds });
      runInAction(() => (this.counts = counts));
    } catch (e) {
      this.deps.ui.error(errorMessage(e));
    }
  }

  countOf(gameId: number): number {
    return this.counts[String(gameId)] ?? 0;
  }

  // ---------------------------------------------------------------- start relay (§4.3)

  /**
   * 创建房间: checks, params, then the dialog. `only`: the game is played only together
   * (core-platform.md §4.4 step 10): the dialog says so and starts in that room mode.
   */
  async openRelay(preset: PickerGame | null = null, only: { mode: number } | null = null): Promise<void> {
    const { user, ui } = this.deps;
    if (!user.isLoggedIn) {
      ui.openLogin(() => void this.openRelay(preset, only));
      return;
    }
    if (user.profile?.status === 3) {
      ui.error(RoomText.SUPER_ADMIN);
      return;
    }
    try {
      await this.deps.api.post(RoomPaths.relayCheck, {});
    } catch (e) {
      if (e instanceof ApiError && e.code === RoomCode.USER_NOT_RELAY) {
        await ui.alert({ title: '温馨提示', message: e.message, confirmText: '好的' });
      } else {
        ui.error(errorMessage(e));
      }
      return;
    }
    this.scheduleRelayNotice();
    let params: RoomParams;
    try {
      params = await this.deps.api.post(RoomPaths.params, {});
    } catch (e) {
      ui.error(errorMessage(e));
      return;
    }
    const modes = params.roomModes ?? [];
    const mode = only && modes.some((m) => m.mode === only.mode) ? only.mode : (modes[0]?.mode ?? null);
    runInAction(() => {
      this.dialog = {
        form: {
          roomName: params.roomName ?? '',
          mode,
          gameId: preset?.id ?? null,
          password: decodePassword(params.password),
          isShow: true,
        },
        params,
        gamePreset: preset,
        notice: only ? RoomText.ONLY_TOGETHER : null,
        games: [],
        keyword: '',
        error: null,
        submitting: false,
      };
    });
    if (!preset) await this.searchGames('');
  }

  /**
   * The relay public-beta notice (§2.12): once per user, 1.2 s after a passed check; the read
   * flag is kept in localStorage by user id.
   */
  private scheduleRelayNotice(): void {
    const uid = this.deps.user.profile?.uid;
    if (uid === undefined) return;
    const key = `${RELAY_NOTICE_KEY}${uid}`;
    let storage: Storage | null = null;
    try {
      storage = window.localStorage;
    } catch {
      return;
    }
    if (storage.getItem(key) === '1') return;
    setTimeout(() => {
      try {
        storage.setItem(key, '1');
      } catch {
        // private mode: shown again next time
      }
      void this.deps.ui.alert({ title: '温馨提示', message: RELAY_NOTICE_TEXT, confirmText: '好的' });
    }, RELAY_NOTICE_DELAY_MS);
  }

  /** The game picker's remote search (recent games first is the server's order). */
  async searchGames(keyword: string): Promise<void> {
    if (!this.dialog) return;
    this.dialog.keyword = keyword;
    try {
      const res = await this.deps.api.get('/api/web/v1/game/list', { page: 1, page_size: GAME_PICKER_SIZE, keyword: keyword.trim(), played_first: 'true' });
      runInAction(() => {
        const d = this.dialog;
        if (!d || d.keyword !== keyword) return;
        d.games = res.data.map((g) => ({ id: g.id, name: g.name }));
        // the first game is chosen when the current one is not in the list
        if (!d.gamePreset && !d.games.some((g) => g.id === d.form.gameId)) d.form.gameId = d.games[0]?.id ?? null;
      });
    } catch {
      // the list stays as it was
    }
  }

  setForm(patch: Partial<RoomForm>): void {
    if (!this.dialog) return;
    Object.assign(this.dialog.form, patch);
    this.dialog.error = null;
  }

  closeRelay(): void {
    this.dialog = null;
  }

  /** The form's submit (counts as agreeing to the live agreement). */
  async submitRelay(): Promise<void> {
    const d = this.dialog;
    if (!d || d.submitting) return;
    const bad = validateRoomForm(d.form, d.gamePreset !== null);
    if (bad) {
      d.error = bad;
      return;
    }
    d.submitting = true;
    const form = { ...d.form };
    const game = d.gamePreset ?? d.games.find((g) => g.id === form.gameId) ?? { id: form.gameId ?? 0, name: '' };
    let created: DataOf<typeof RoomPaths.relay, 'post'>;
    try {
      created = await this.deps.api.post(RoomPaths.relay, { ...roomFormBody(form), authType: 2 });
    } catch (e) {
      runInAction(() => d && (d.submitting = false));
      if (e instanceof ApiError && e.code === RoomCode.ROOM_NOT_EDITABLE) {
        // the name is refused: back to the server's default, submitted again
        this.deps.ui.info(e.message);
        this.setForm({ roomName: d.params.roomName ?? '' });
        if (form.roomName !== (d.params.roomName ?? '')) await this.submitRelay();
        return;
      }
      const open = e instanceof ApiError && e.code === RoomCode.GAME_RELAY_EXIST ? Number((e.data as { ddRid?: unknown } | null)?.ddRid) : 0;
      if (Number.isInteger(open) && open > 0) {
        // the caller hosts an open room already: to it (its 结束直播 ends it)
        runInAction(() => (this.dialog = null));
        this.deps.ui.info((e as ApiError).message);
        this.deps.ui.navigate(`/game/live/${open}`);
        return;
      }
      runInAction(() => d && (d.error = errorMessage(e)));
      return;
    }
    runInAction(() => (this.dialog = null));
    const relay = {
      isApplyRelay: form.mode ?? 2,
      isUpdatePass: form.password ? 1 : 0,
      isShow: form.isShow ? 1 : 0,
      ...(form.password ? { roomPassword: roomFormBody(form).password } : {}),
    };
    // the host enters the room at once; the game follows
    await (await this.deps.loadRoom()).enter(created.ddRid);
    this.deps.ui.navigate(`/game/live/${created.ddRid}`);
    const live = this.deps.game.live;
    if (live && live.gameId === game.id && live.status === GameStatus.QUEUE) {
      this.deps.ui.setQueueDialogLarge(true);
    } else if (live && live.gameId === game.id && (live.status === GameStatus.CONNECTING || live.status === GameStatus.PLAYING)) {
      this.deps.game.returnToGame();
    } else {
      await this.deps.game.openNodePicker(game, relay);
    }
  }
}

function decodePassword(b64: string | null | undefined): string {
  if (!b64) return '';
  try {
    const p = atob(b64);
    return /^\d{4}$/.test(p) ? p : '';
  } catch {
    return '';
  }
}
