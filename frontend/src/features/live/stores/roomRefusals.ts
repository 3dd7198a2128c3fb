// The room's refusals (social.md §4.5, §8): how each code refusing an entry is answered (the
// password prompt, a confirm that enters again with force, the minor's limits, the error view),
// how a refused room action is said (20007 asks to bind a phone), and the answer to an invitation.
import { runInAction } from 'mobx';
import type { UiStore } from '../../../kernel/uiStore';
import { RoomCode, RoomText } from '../../../lib/room';
import { ApiError, ErrorCode, errorMessage } from '../../../transport/apiError';
import type { AppServices } from '../../../kernel/services';
import type { EnterOptions } from './roomTypes';

/** The room an entry's refusal acts on (RoomStore). */
export interface EntryRoom {
  passwordPrompt: { ddRid: number; message: string | null } | null;
  setError(code: number, message: string): void;
  enter(ddRid: number, opts?: EnterOptions): Promise<void>;
}

/** Answers a refused entry into room `ddRid` (§4.5). */
export async function entryFailed(ui: UiStore, game: { refresh(): Promise<void> }, room: EntryRoom, ddRid: number, e: unknown, opts: EnterOptions): Promise<void> {
  if (!(e instanceof ApiError)) {
    room.setError(ErrorCode.NETWORK, errorMessage(e));
    return;
  }
  const remark = (e.data as { remark?: string } | null)?.remark;
  switch (e.code) {
    case RoomCode.PASSWORD:
      runInAction(() => (room.passwordPrompt = { ddRid, message: null }));
      return;
    case RoomCode.PASSWORD_ERROR:
      runInAction(() => (room.passwordPrompt = { ddRid, message: e.message || '房间密码错误' }));
      return;
    case RoomCode.CONFIRM_CONNECT:
    case RoomCode.CONFIRM_EXIT: {
      const ok = await ui.confirm({ title: '提示', message: e.message });
      if (!ok) {
        room.setError(e.code, e.message);
        return;
      }
      await room.enter(ddRid, { ...opts, force: true });
      return;
    }
    case RoomCode.CONFIRM_GAME_EXIT: {
      const ok = await ui.confirm({ title: '提示', message: e.message });
      if (!ok) {
        room.setError(e.code, e.message);
        return;
      }
      // the server force-cancels the running game; its play page closes on the end push
      await room.enter(ddRid, { ...opts, force: true });
      void game.refresh();
      return;
    }
    case RoomCode.USER_IS_MINOR:
    case RoomCode.USER_IS_MINOR_RELAY_LIMIT:
    case RoomCode.USER_IS_MINOR_CONTROL_LIMIT:
      room.setError(e.code, e.message);
      await ui.alert({ title: '温馨提示', message: e.message, detail: remark, confirmText: '好的' });
      return;
    case ErrorCode.NOT_LOGGED_IN:
      ui.openLogin(() => void room.enter(ddRid, opts));
      return;
    default:
      room.setError(e.code, e.message || (e.code === RoomCode.NOT_EXIST ? RoomText.NOT_EXIST : errorMessage(e)));
  }
}

/** Says why a room action failed. */
export async function actionFailed(ui: UiStore, e: unknown): Promise<void> {
  if (e instanceof ApiError && e.code === RoomCode.CHAT_NEEDS_PHONE) {
    await ui.alert({ title: '温馨提示', message: RoomText.BIND_PHONE, confirmText: '好的' });
  } else if (e instanceof ApiError && e.code === RoomCode.USER_IS_MINOR_CONTROL_LIMIT) {
    const remark = (e.data as { remark?: string } | null)?.remark;
    await ui.alert({ title: '温馨提示', message: e.message, detail: remark, confirmText: '好的' });
  } else {
    ui.error(errorMessage(e));
  }
}

/** A mike or control invitation (§4.8): asked, then accepted or refused on the server. */
export async function answerInvite(
  deps: Pick<AppServices, 'api' | 'ui'>,
  room: { readonly roomSerial: number | null },
  title: string,
  message: string,
  accept: '/api/japi/yoo/mike/invite/accept' | '/api/japi/yoo/control/invite/accept',
  refuse: '/api/japi/yoo/mike/invite/refuse' | '/api/japi/yoo/control/invite/refuse',
): Promise<void> {
  const ok = await deps.ui.confirm({ title, message, confirmText: '同意', cancelText: '拒绝' });
  const serial = room.roomSerial;
  if (serial === null) return;
  try {
    await deps.api.post(ok ? accept : refuse, { roomSerial: serial });
  } catch (e) {
    deps.ui.info(errorMessage(e));
  }
}
