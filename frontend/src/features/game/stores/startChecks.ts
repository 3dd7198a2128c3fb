// The start's checks before the node dialog (core-platform.md §4.4 steps 3–7): the browser, the
// certification pre-check, and the room the user is in. `StartSteps` runs them for the start flow.
import { AuthType } from '../../../api/codes';
import type { AppServices } from '../../../kernel/services';
import type { GameRoomAccess, RelayParams } from './gameTypes';

/** What the checks read and ask. */
export type StartCheckDeps = Pick<AppServices, 'api' | 'ui' | 'effects'> &
  Pick<GameRoomAccess, 'room'> & {
    game: { openNodePicker(game: { id: number; name: string }, relay?: RelayParams): Promise<void> };
  };

/** The start steps' answers the room check uses. */
export interface RoomSwitchSteps {
  playedInMode(gameId: number, mode: number): Promise<boolean>;
  leaveRoomToStart(): Promise<boolean>;
}


/**
 * core-platform.md §4.4 step 5, §4.9: the certification pre-check. PASS goes on; CONFIRM shows
 * the certification dialog with '下次再说' and goes on however it closes; DENY goes on only
 * once certified (a closed dialog ends the start silently).
 */
export async function certificationAllowsStart(deps: StartCheckDeps): Promise<boolean> {
  let authType: number;
  try {
    authType = (await deps.api.get('/api/v3/user/authorize/pre-check', { after_auth_check: 1 })).auth_type;
  } catch {
    return true; // the start's own answer (20150) asks again
  }
  if (authType === AuthType.PASS) return true;
  const certified = await deps.ui.askCertification({ skippable: authType === AuthType.CONFIRM });
  return certified || authType === AuthType.CONFIRM;
}

/**
 * core-platform.md §4.4 step 3, §5.5: a browser the game cannot run in gets the alert and the
 * start ends; one it may run badly in asks first ('继续游戏' goes on).
 */
export async function browserAllowsStart(deps: StartCheckDeps): Promise<boolean> {
  const ua = deps.effects.userAgent;
  if (ua === undefined) return true;
  const { browserVerdict, WARN_CONTINUE } = await import('../../../lib/browserVerdict');
  const v = browserVerdict(ua);
  if (v.kind === 'block') {
    await deps.ui.alert({ title: '温馨提示', message: v.message, confirmText: '好的' });
    return false;
  }
  if (v.kind === 'warn') return deps.ui.confirm({ title: '温馨提示', message: v.message, confirmText: WARN_CONTINUE });
  return true;
}

/**
 * social.md §2.16 / §4.3: a relay host starting another game is asked whether everyone
 * switches ('立即切换': the room's game changes and the new game is its relay) or the host plays
 * alone ('自己玩': the room is exited first). A guest holding control confirms leaving the room.
 * False when the start does not go on here.
 */
export async function confirmRoomSwitch(deps: StartCheckDeps, steps: RoomSwitchSteps, game: { id: number; name: string }): Promise<boolean> {
  const room = deps.room;
  const current = room?.info?.game;
  if (!room || !room.inRoom || !current || current.id === game.id) return true;
  if (room.isHost) {
    // the user owns a relay (§4.4 step 10): a game that cannot be played in the room's mode
    // is started alone, once the host agrees to leave the room
    const mode = room.info?.room?.mode;
    if (mode !== undefined && !(await steps.playedInMode(game.id, mode))) return steps.leaveRoomToStart();
    const together = await deps.ui.confirm({
      title: '切换游戏',
      message: `大家正在一起玩《${current.name}》，是否一起切换到新游戏？`,
      confirmText: '立即切换',
      cancelText: '自己玩',
    });
    const info = room.info?.room;
    if (together && info) {
      // the new game's session, started with the relay params, becomes the room's relay
      await deps.game.openNodePicker(game, { isApplyRelay: info.mode, isUpdatePass: 0, isShow: info.isShow });
      return false;
    }
    await room.exit();
    return true;
  }
  if (room.hasControl) {
    const ok = await deps.ui.confirm({ title: '切换游戏', message: '启动新游戏将退出当前房间，是否继续？' });
    if (!ok) return false;
    await room.exit();
  }
  return true;
}
