// The start's errors (core-platform.md §8.2): each code of a refused start gets its reaction
// (another device or game running, a room, short of time, a subscription or membership needed,
// a mobile game, a room mode that does not fit, ...). `StartSteps.handleStartError` runs it.
import { GameStatus } from '../../../api/codes';
import type { LiveGameState } from '../../../api/types';
import type { AppServices } from '../../../kernel/services';
import { ApiError, ErrorCode, errorMessage } from '../../../transport/apiError';
import { relayStartPath, type GameRoomAccess, type StartRequest } from './gameTypes';

/** What the start's errors act on. */
export type StartErrorDeps = Pick<AppServices, 'api' | 'ui' | 'openPurchase'> &
  Pick<GameRoomAccess, 'room'> & {
    game: {
      readonly live: LiveGameState | null;
      start(req: StartRequest): Promise<void>;
      refresh(): Promise<void>;
      exitSession(id: number | string): Promise<boolean>;
      offerMembership(message: string, detail?: string): Promise<void>;
    };
    playTime: { openUseUp(gameId?: number | null): void };
  };

/** The start steps' dialogs the errors open. */
export interface StartErrorSteps {
  showUnsupported(game: { id: number; name: string }): Promise<void>;
  leaveRoomToStart(): Promise<boolean>;
}

/** core-platform.md §8.2 start errors. */
export async function handleStartError(deps: StartErrorDeps, steps: StartErrorSteps, e: unknown, req: StartRequest): Promise<void> {
  const ui = deps.ui;
  const game = deps.game;
  if (!(e instanceof ApiError)) {
    ui.error(errorMessage(e));
    return;
  }
  if (e.code === ErrorCode.NOT_LOGGED_IN) {
    ui.openLogin(() => void game.start(req));
    return;
  }
  const data = (e.data ?? {}) as { id?: number | string; gameId?: number; gameName?: string; hasGameOnline?: boolean };
  if (data.hasGameOnline) await game.refresh();
  switch (e.code) {
    case ErrorCode.GAME_OTHER_CLIENT_ACTIVE: {
      const ok = await ui.confirm({ title: '提示', message: '您正在其他设备上运行当前游戏', detail: '请退出游戏后重新启动' });
      if (!ok || data.id === undefined) return;
      if (await game.exitSession(data.id)) ui.success('退出游戏成功');
      return;
    }
    case ErrorCode.GAME_OTHER_GAME_ACTIVE: {
      const name = data.gameName ?? game.live?.gameName ?? '';
      const ok = await ui.confirm({ title: '切换游戏', message: `当前正在运行《${name}》，是否退出并切换？` });
      if (!ok || data.id === undefined) return;
      if (await game.exitSession(data.id)) await game.start(req);
      return;
    }
    case ErrorCode.GAME_CURRENT_GAME_ACTIVE:
      ui.info(e.message || '当前游戏已在运行中');
      if (game.live?.status === GameStatus.QUEUE) ui.setQueueDialogLarge(true);
      return;
    case ErrorCode.GAME_RELAY_EXIST: {
      // social.md §8: the user is in a room; confirmed, the room is left and the start runs again
      const ok = await ui.confirm({ title: '提示', message: e.message || '当前正在房间中，是否退出房间并启动游戏？' });
      if (!ok) return;
      await deps.room?.exit();
      await game.start(req);
      return;
    }
    case ErrorCode.GAME_SHORT_OF_TIME:
      deps.playTime.openUseUp(req.gameId);
      return;
    case ErrorCode.GAME_NEED_SUBSCRIBE:
      await offerSubscription(deps, req.gameId, e.message || '该游戏需订阅后才能游玩');
      return;
    case ErrorCode.GAME_VIP_ONLY:
    case ErrorCode.GAME_VVIP_ONLY:
      await game.offerMembership(e.message || (e.code === ErrorCode.GAME_VIP_ONLY ? '该游戏为VIP会员专享' : '该游戏为VVIP会员专享'));
      return;
    case ErrorCode.USER_NOT_AUTH:
      // §8.2: certify in queue mode, then the same start
      if (await deps.ui.askCertification({ skippable: false, queue: true })) await game.start(req);
      return;
    case ErrorCode.USER_IS_MINOR: {
      const remark = (e.data as { remark?: string } | null)?.remark;
      await ui.alert({ title: '温馨提示', message: e.message, detail: remark, confirmText: '好的' });
      return;
    }
    case ErrorCode.GAME_UNSUPPORTED_CLIENT:
      await steps.showUnsupported({ id: req.gameId, name: req.gameName });
      return;
    case ErrorCode.GAME_RELAY_ONLY:
      ui.navigate(relayStartPath({ id: req.gameId, name: req.gameName }, 2));
      return;
    case ErrorCode.GAME_NOT_SUPPORT_RELAY:
      // §8.2: starting it leaves the room; confirmed, the game starts alone
      if (await steps.leaveRoomToStart()) await game.start({ gameId: req.gameId, gameName: req.gameName, nodeId: req.nodeId });
      return;
    default:
      ui.error(errorMessage(e));
  }
}

/**
 * The subscribe-required dialog (commerce.md §2.6): '该游戏需订阅{package}后才能游玩' with
 * '立即订阅', which opens the subscription purchase of the game's first package.
 */
async function offerSubscription(deps: StartErrorDeps, gameId: number, fallback: string): Promise<void> {
  let title: string | null;
  try {
    const list = await deps.api.get('/api/shop/goods/game-package', { game_id: gameId });
    title = list.data[0]?.title ?? null;
  } catch {
    title = null;
  }
  const ok = await deps.ui.confirm({
    title: '温馨提示',
    message: title ? `该游戏需订阅${title}后才能游玩` : fallback,
    confirmText: '立即订阅',
    cancelText: '取消',
  });
  if (ok) deps.openPurchase('subscription', { gameId });
}
