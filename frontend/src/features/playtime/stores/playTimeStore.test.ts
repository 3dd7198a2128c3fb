import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginForm } from '../../auth/stores/loginForm';
import { securityCheckOf } from '../../auth/stores/securityCheck';
import { fail } from '../../../test/fakeTransport';
import { live, loggedInRoot, makeRoot, PROFILE, settle } from '../../../test/helpers';
import { GameStatus } from '../../../api/codes';
import { TIME_UP_MESSAGE, TIME_UP_SECONDS } from './playTimeStore';

const T0 = new Date('2025-06-01T12:00:00Z').getTime();

describe('registration gift after login (commerce.md §2.9, §4.8)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  async function loginWith(giveGoods: unknown[]) {
    const env = await makeRoot({ loggedIn: false });
    env.t.api.on('POST', '/api/passport/login', () => {
      env.setLoggedIn(true);
      return { uid: PROFILE.uid, nickname: PROFILE.nickname, is_new_user: true, give_goods: giveGoods };
    });
    const form = new LoginForm(env.root.user, securityCheckOf(env.root));
    form.setPhone('13800000000');
    form.setCode('123456');
    return { ...env, form };
  }

  it('a non-empty give_goods shows the gift dialog as the login closes; the login continues after 开心收下', async () => {
    const { root, form } = await loginWith([{ name: '游戏时长', face_value_txt: '60分钟' }]);
    root.ui.openLogin();
    let finished = false;
    const done = form.submit().then((ok) => {
      finished = ok;
    });
    await settle(60);
    expect(root.ui.loginOpen).toBe(false);
    expect(root.user.isLoggedIn).toBe(true);
    expect(root.playTime.gift).toEqual([{ name: '游戏时长', face_value_txt: '60分钟' }]);
    expect(root.playTime.giftLayout).toBe('one');
    expect(root.game.floatVisible).toBe(false);
    expect(finished).toBe(false);
    root.playTime.closeRegisterGift();
    await done;
    expect(finished).toBe(true);
    expect(root.playTime.gift).toBeNull();
    root.dispose();
  });

  it('layouts two and three; an empty give_goods shows nothing and continues at once', async () => {
    const two = await loginWith([
      { name: '游戏时长', face_value_txt: '60分钟' },
      { name: '速进卡', face_value_txt: '1张' },
    ]);
    void two.form.submit();
    await settle(60);
    expect(two.root.playTime.giftLayout).toBe('two');
    two.root.dispose();

    const three = await loginWith([1, 2, 3].map((i) => ({ name: `礼物${i}`, face_value_txt: `${i}` })));
    void three.form.submit();
    await settle(60);
    expect(three.root.playTime.giftLayout).toBe('three');
    three.root.dispose();

    const none = await loginWith([]);
    expect(await none.form.submit()).toBe(true);
    expect(none.root.playTime.gift).toBeNull();
    none.root.dispose();
  });
});

describe('time-up dialog on the play page (core-platform.md §2.14, commerce.md §2.9)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  async function playing() {
    const env = await loggedInRoot();
    env.t.api.on('POST', '/api/japi/yoo/game/over', () => ({ roomSerial: null }));
    // still online when the notice comes (the re-read it causes says so)
    env.t.api.on('POST', '/api/japi/yoo/game/floatBall', () => live({ status: GameStatus.PLAYING, gameId: 1 }));
    env.channel.pushGameState(live({ status: GameStatus.PLAYING, gameId: 1 }));
    env.root.notice.setPlayPage(1);
    return env;
  }

  const timeUpPush = { kind: 'notification' as const, code: 130125, content: 'USER_TIME_END', data: '{"gameId":1}' };

  it('130125 opens it with a 60 s countdown; when the countdown ends the game is closed and the page goes home', async () => {
    const { root, channel, t, navigations } = await playing();
    channel.push(timeUpPush);
    expect(root.playTime.timeUp).toMatchObject({ gameId: 1, confirming: false });
    expect(root.playTime.timeUpSeconds).toBe(TIME_UP_SECONDS);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(root.playTime.timeUpSeconds).toBe(40);
    expect(navigations).toEqual([]);

    t.api.on('POST', '/api/japi/yoo/game/floatBall', () => ({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'over' }));
    await vi.advanceTimersByTimeAsync(40_000);
    await settle();
    expect(root.playTime.timeUp).toBeNull();
    expect(t.api.callsTo('/api/japi/yoo/game/over')[0].body).toEqual({ id: 101 });
    expect(navigations).toEqual(['/']);
    expect(root.ui.toasts.at(-1)).toMatchObject({ message: TIME_UP_MESSAGE });
    expect(root.ui.messageBoxes).toHaveLength(0); // no second '游戏已结束' for the same end
    root.dispose();
  });

  it('去充值 opens the yoodo purchase for the game; 放弃 asks 时长不足将退出游戏; 继续充值 goes back; 放弃 closes', async () => {
    const { root, channel, t, navigations } = await playing();
    channel.push(timeUpPush);
    t.api.on('GET', '/api/web/v1/section/goods', () => ({ section_key: 'shop_time_useup_yoodo', name: '', instruction: '', goods: [] }));
    root.playTime.recharge();
    await root.loadPurchase(); // the purchase code is a chunk of its own
    await settle(60);
    expect(t.api.callsTo('/api/web/v1/section/goods')[0].body).toEqual({ section_key: 'shop_time_useup_yoodo' });
    expect(root.playTime.timeUp).not.toBeNull();
    root.playTime.askAbandon();
    expect(root.playTime.timeUp?.confirming).toBe(true);
    root.playTime.keepRecharging();
    expect(root.playTime.timeUp?.confirming).toBe(false);
    root.playTime.askAbandon();
    await root.playTime.abandon();
    expect(t.api.callsTo('/api/japi/yoo/game/over')).toHaveLength(1);
    expect(navigations).toEqual(['/']);
    expect(root.ui.toasts.at(-1)).toMatchObject({ message: '您的游戏时长已用完，游戏页面即将关闭' });
    root.dispose();
  });

  it('the server already ended the session (time_up): no over call, the dialog still decides when to leave', async () => {
    const { root, channel, t, navigations } = await playing();
    channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'time_up' });
    expect(root.playTime.timeUp).not.toBeNull(); // the ended state alone opens it
    channel.push(timeUpPush); // and the notice does not open a second one
    expect(navigations).toEqual([]);
    await root.playTime.abandon();
    expect(t.api.callsTo('/api/japi/yoo/game/over')).toHaveLength(0);
    expect(navigations).toEqual(['/']);
    root.dispose();
  });

  it('off the play page 130125 and 130123 open the use-up prompt instead', async () => {
    const { root, channel } = await loggedInRoot();
    channel.push({ kind: 'notification', code: 130123, content: '', data: '{"left":8,"gameId":1}' });
    expect(root.playTime.useUp).toEqual({ gameId: 1 });
    expect(root.notice.barrage).toHaveLength(0);
    root.playTime.closeUseUp();
    channel.push(timeUpPush);
    expect(root.playTime.useUp).toEqual({ gameId: 1 });
    expect(root.playTime.timeUp).toBeNull();
    root.dispose();
  });
});

describe('start errors of play time and membership (core-platform.md §8.2)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  const start = { gameId: 1, gameName: '测试游戏', nodeId: 1 };

  it('130102 opens the use-up prompt', async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/start', () => fail(130102, '游戏时长不足，请补充时长'));
    await root.game.start(start);
    expect(root.playTime.useUp).toEqual({ gameId: 1 });
    root.dispose();
  });

  it('130126 is the subscription notice and 130128 the unsupported notice', async () => {
    const { root, t } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/start', () => fail(130126, '该游戏需订阅后才能游玩'));
    void root.game.start(start);
    await settle(60);
    expect(root.ui.messageBoxes[0]).toMatchObject({ message: '该游戏需订阅后才能游玩', confirmText: '立即订阅' });
    root.ui.messageBoxes[0].resolve(false);
    await vi.advanceTimersByTimeAsync(1000);
    t.api.on('POST', '/api/japi/yoo/game/start', () => fail(130128, '当前游戏暂不支持本端'));
    void root.game.start(start);
    await settle(60);
    // the unsupported game dialog (core-platform.md §2.14) with the QR code of the game's share
    // link; the site itself when the link cannot be read
    expect(root.game.steps?.unsupported).toEqual({ gameId: start.gameId, gameName: start.gameName, link: `${location.origin}/` });
    expect(root.ui.messageBoxes).toHaveLength(0);
    root.dispose();
  });

  it.each([
    [130464, '该游戏为VIP会员专享'],
    [130465, '该游戏为VVIP会员专享'],
  ])('%d is the membership confirm; 开通会员 goes to /user/member', async (code, message) => {
    const { root, t, navigations } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/start', () => fail(code, message));
    const done = root.game.start(start);
    await settle(60);
    expect(root.ui.messageBoxes[0]).toMatchObject({ message, confirmText: '开通会员' });
    root.ui.messageBoxes[0].resolve(true);
    await done;
    expect(navigations).toEqual(['/user/member']);
    root.dispose();
  });

  it('130466 on move: exit the other device first, offered membership; a member moves the game here', async () => {
    const { root, t, channel, navigations } = await loggedInRoot();
    channel.pushGameState(live({ status: GameStatus.PLAYING, clientType: 'other' }));
    t.api.on('POST', '/api/japi/yoo/game/move', () => fail(130466, '您的游戏正在其他设备运行，请先退出后再启动', { id: 101, needMember: true }));
    const done = root.game.moveHere();
    await settle(60);
    expect(root.ui.messageBoxes[0]).toMatchObject({ message: '请先退出其他设备上的游戏', confirmText: '开通会员' });
    root.ui.messageBoxes[0].resolve(true);
    await done;
    expect(navigations).toEqual(['/user/member']);

    t.api.on('POST', '/api/japi/yoo/game/move', () => live({ status: GameStatus.PLAYING, clientType: 'web' }));
    await root.game.moveHere();
    expect(root.game.isThisClient).toBe(true);
    root.dispose();
  });
});
