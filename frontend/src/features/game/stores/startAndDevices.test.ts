// Issue 7, what a new user hit: the start goes on after a login asked by '开始游戏', a game on
// another device can be ended (over), and the play page opens in its own window.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginForm } from '../../auth/stores/loginForm';
import { securityCheckOf } from '../../auth/stores/securityCheck';
import { fail } from '../../../test/fakeTransport';
import { live, loggedInRoot, makeRoot, PROFILE, settle } from '../../../test/helpers';
import { GameStatus } from '../../../api/codes';

const T0 = new Date('2025-06-01T12:00:00Z').getTime();
const NODES = [{ id: 1, name: '测试一区', status: 1, pingUrl: '/api/node/1/ping' }];

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

async function guestWithLogin(giveGoods: unknown[] = []) {
  const env = await makeRoot({ loggedIn: false });
  env.t.api.on('POST', '/api/passport/login/sendcode', () => null);
  env.t.api.on('POST', '/api/passport/login', () => {
    env.setLoggedIn(true);
    return { uid: PROFILE.uid, nickname: PROFILE.nickname, is_new_user: giveGoods.length > 0, give_goods: giveGoods };
  });
  env.t.api.on('POST', '/api/japi/yoo/game/selectNode', () => NODES);
  env.t.probeResults.set('/api/node/1/ping', 20);
  return env;
}

describe('login from 开始游戏 (core-platform.md §4.4 step 2, §4.13)', () => {
  // a guest's 开始游戏 opens the login dialog; the login's success continues to the node dialog
  it('continues the start once logged in', async () => {
    const { root, t } = await guestWithLogin();
    await root.game.requestStart({ id: 1, name: '测试游戏' });
    expect(root.ui.loginOpen).toBe(true);
    expect(t.api.callsTo('/api/japi/yoo/game/selectNode')).toHaveLength(0);

    const form = new LoginForm(root.user, securityCheckOf(root));
    form.setPhone('13800000000');
    form.setCode('123456');
    expect(await form.submit()).toBe(true);
    await settle(60);
    expect(root.ui.loginOpen).toBe(false);
    expect(t.api.callsTo('/api/japi/yoo/game/selectNode')[0].body).toEqual({ gameId: 1 });
    expect(root.game.nodePicker).toMatchObject({ gameId: 1, gameName: '测试游戏' });
    root.dispose();
  });

  // with a registration gift the callback waits until the gift dialog is closed (§4.13)
  it('waits for the registration gift before continuing', async () => {
    const { root, t } = await guestWithLogin([{ name: '新人时长', face_value_txt: '60分钟' }]);
    await root.game.requestStart({ id: 1, name: '测试游戏' });
    const form = new LoginForm(root.user, securityCheckOf(root));
    form.setPhone('13800000000');
    form.setCode('123456');
    const submitted = form.submit();
    await settle(60);
    expect(root.playTime.gift).not.toBeNull();
    expect(t.api.callsTo('/api/japi/yoo/game/selectNode')).toHaveLength(0);
    root.playTime.closeRegisterGift();
    expect(await submitted).toBe(true);
    await settle(60);
    expect(root.game.nodePicker?.gameId).toBe(1);
    root.dispose();
  });

  // a login dialog closed without logging in drops the pending start; a later plain login does not start
  it('drops the pending start when the dialog is dismissed', async () => {
    const { root, t } = await guestWithLogin();
    await root.game.requestStart({ id: 1, name: '测试游戏' });
    root.ui.closeLogin();
    root.ui.openLogin();
    const form = new LoginForm(root.user, securityCheckOf(root));
    form.setPhone('13800000000');
    form.setCode('123456');
    expect(await form.submit()).toBe(true);
    await settle(60);
    expect(t.api.callsTo('/api/japi/yoo/game/selectNode')).toHaveLength(0);
    expect(root.game.nodePicker).toBeNull();
    root.dispose();
  });
});

describe('a game on another device (core-platform.md §4.5, §8.2)', () => {
  // 退出游戏 on the float of another device's game confirms, then ends it with over (whatever its status)
  it('is ended with over from the float, with 退出游戏成功', async () => {
    const { root, t, channel } = await loggedInRoot();
    let ended = false;
    t.api.on('POST', '/api/japi/yoo/game/over', () => {
      ended = true;
      return { roomSerial: null };
    });
    t.api.on('POST', '/api/japi/yoo/game/floatBall', () => (ended ? { hasGameOnline: false } : live({ status: GameStatus.QUEUE, clientType: 'other', id: 901 })));
    channel.pushGameState(live({ status: GameStatus.QUEUE, sort: 4, clientType: 'other', id: 901 }));
    expect(root.game.isThisClient).toBe(false);
    expect(root.game.floatVisible).toBe(true);
    // the session's actions are their own chunk, loaded when the session appears
    await root.game.loadActions();

    const done = root.game.endOnOtherDevice();
    await settle();
    expect(root.ui.messageBoxes[0]).toMatchObject({
      title: '退出游戏',
      message: '您正在其他设备上运行当前游戏',
      confirmText: '立即退出',
      cancelText: '再玩一会',
    });
    root.ui.messageBoxes[0].resolve(true);
    await done;
    expect(t.api.callsTo('/api/japi/yoo/game/over').map((c) => c.body)).toEqual([{ id: 901 }]);
    expect(t.api.callsTo('/api/japi/yoo/game/cancelQue')).toHaveLength(0);
    expect(root.ui.toasts.map((x) => x.message)).toContain('退出游戏成功');
    expect(root.game.hasGameOnline).toBe(false);
    root.dispose();
  });

  // 再玩一会 leaves the other device's game running
  it('is left alone when the confirm is declined', async () => {
    const { root, t, channel } = await loggedInRoot();
    channel.pushGameState(live({ status: GameStatus.PLAYING, clientType: 'other' }));
    const done = root.game.endOnOtherDevice();
    await settle();
    root.ui.messageBoxes[0].resolve(false);
    await done;
    expect(t.api.callsTo('/api/japi/yoo/game/over')).toHaveLength(0);
    expect(root.game.hasGameOnline).toBe(true);
    root.dispose();
  });

  // 130115 on a start: the READY game of another device is force-cancelled with over, not cancelConfirm
  it('130115 force-cancels a known session of another device with over', async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/floatBall', () => live({ status: GameStatus.READY, clientType: 'other', id: 902 }));
    t.api.on('POST', '/api/japi/yoo/game/start', () => fail(130115, '您正在其他设备上运行当前游戏', { id: 902, gameId: 1, hasGameOnline: true }));
    t.api.on('POST', '/api/japi/yoo/game/over', () => ({ roomSerial: null }));
    const done = root.game.start({ gameId: 1, gameName: '测试游戏', nodeId: 1 });
    await settle(60);
    expect(root.ui.messageBoxes[0]).toMatchObject({ message: '您正在其他设备上运行当前游戏', detail: '请退出游戏后重新启动' });
    root.ui.messageBoxes[0].resolve(true);
    await done;
    expect(t.api.callsTo('/api/japi/yoo/game/over').map((c) => c.body)).toEqual([{ id: 902 }]);
    expect(t.api.callsTo('/api/japi/yoo/game/cancelConfirm')).toHaveLength(0);
    expect(root.ui.toasts.map((x) => x.message)).toContain('退出游戏成功');
    root.dispose();
  });
});

describe('the play page window (core-platform.md §2.1)', () => {
  // 进入游戏 opens the window before the confirm call and sends it to the play page after
  it('opens the play page in a new window', async () => {
    const { root, t, channel, effects, navigations } = await loggedInRoot();
    effects.newWindows = true;
    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 30, responseTime: Date.now() }));
    t.api.on('POST', '/api/japi/yoo/game/confirmConnect', () => {
      expect(effects.windows).toHaveLength(1); // opened before the answer: the click's permission
      return live({ status: GameStatus.CONNECTING });
    });
    await root.game.confirmConnect();
    expect(effects.windows[0]).toEqual({ paths: ['/game/play?gameId=1'], closed: false });
    expect(navigations).toEqual([]);

    // 返回游戏 reuses a window too
    root.game.returnToGame();
    expect(effects.windows[1].paths).toEqual(['/game/play?gameId=1']);
    root.dispose();
  });

  // a refused confirm closes the window it opened
  it('closes the window when the confirm fails', async () => {
    const { root, t, channel, effects } = await loggedInRoot();
    effects.newWindows = true;
    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 30, responseTime: Date.now() }));
    t.api.on('POST', '/api/japi/yoo/game/confirmConnect', () => fail(130119, '当前状态无法进行该操作'));
    await root.game.confirmConnect();
    expect(effects.windows[0]).toEqual({ paths: [], closed: true });
    root.dispose();
  });

  // without a new window (the setting, in-car mode, a blocked popup) the play page opens here
  it('falls back to this window', async () => {
    const { root, t, channel, navigations } = await loggedInRoot();
    channel.pushGameState(live({ status: GameStatus.READY, connectCountdown: 30, responseTime: Date.now() }));
    t.api.on('POST', '/api/japi/yoo/game/confirmConnect', () => live({ status: GameStatus.CONNECTING }));
    await root.game.confirmConnect();
    expect(navigations).toEqual(['/game/play?gameId=1']);
    root.dispose();
  });

  // a play window whose game the server ended closes itself instead of going home
  it('a play window closes itself when the game ends', async () => {
    const { root, channel, effects, navigations } = await loggedInRoot();
    effects.isPlayWindow = true;
    channel.pushGameState(live({ status: GameStatus.PLAYING }));
    root.notice.setPlayPage(1);
    root.notice.closePlayPage('游戏已结束', 'info');
    expect(effects.closedSelf).toBe(1);
    expect(navigations).toEqual([]);
    root.dispose();
  });
});
