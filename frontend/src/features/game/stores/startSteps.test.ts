// The start sequence's steps after the node dialog (core-platform.md §4.4 steps 9 and 10): the
// game tip with '当前游戏版本不再提醒' (§4.7, §2.14), then the start mode from game/info (an
// external game, a game played only together) and the refusals that agree with it (§8.2).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { live, loggedInRoot, settle } from '../../../test/helpers';
import { DISMISSED_TIPS_KEY, tipAd, tipHash, yoodoParts } from '../../../lib/gameTip';
import { GameStatus } from '../../../api/codes';
import type { GameInfo, GameTip } from '../../../api/types';
import { relayStartPath } from './startSteps';
import { HANG_READ_MS } from './gameStore';

const T0 = new Date('2025-06-01T12:00:00Z').getTime();
const NODES = [{ id: 1, name: '测试一区', status: 1, pingUrl: '/api/node/1/ping', pingIp: '', ip: '' }];
const TIP: GameTip = {
  tip: '夜间场景较暗，建议调高屏幕亮度。',
  tipExt: JSON.stringify({ id: 5, title: '排队加速卡 立即进入', target_title: '排队加速卡', image: '', target_type: 5, target_value: 'accelerate_card', need_login: true }),
  yoodo: '60',
  yoodoText: '时长不足时，可消耗%s悠豆/小时继续畅玩',
};

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
  localStorage.clear();
});
afterEach(() => vi.useRealTimers());

/** A logged-in player whose start reaches the node dialog; startTip answers `tip()`. */
async function starter(tip: () => GameTip | null = () => TIP) {
  const env = await loggedInRoot();
  const { t } = env;
  t.api.on('POST', '/api/japi/yoo/game/selectNode', () => NODES);
  t.api.on('GET', '/api/v3/user/authorize/pre-check', () => ({ auth_type: 0 }));
  t.api.on('POST', '/api/japi/yoo/game/startTip', () => tip());
  t.api.on('POST', '/api/japi/yoo/game/start', () => live({ status: GameStatus.QUEUE, sort: 1, gameId: 13 }));
  t.probeResults.set('/api/node/1/ping', 20);
  return env;
}

/** 开始游戏 on game 13, node 1 chosen; resolves when the start is done or waits on a dialog. */
async function startOnNode(root: Awaited<ReturnType<typeof starter>>['root']): Promise<{ done: Promise<void> }> {
  await vi.advanceTimersByTimeAsync(1000); // past the start's debounce
  await root.game.requestStart({ id: 13, name: '灯塔之夜' });
  await settle();
  root.game.selectNode(NODES[0]);
  let finished = false;
  const done = root.game.confirmNode().then(() => {
    finished = true;
  });
  // the tip's code loads on the first tip shown
  await vi.waitFor(() => expect(finished || root.game.steps?.gameTip !== null).toBe(true));
  return { done };
}

describe('the game tip (core-platform.md §4.7, §2.14)', () => {
  // the tip shows before the start; 开始游戏 sends the start; the request named the game
  it('shows before the start, and 开始游戏 continues it', async () => {
    const { root, t } = await starter();
    const { done } = await startOnNode(root);
    expect(t.api.callsTo('/api/japi/yoo/game/startTip')[0].body).toEqual({ gameId: 13, afterAuthCheck: 1 });
    expect(root.game.steps?.gameTip).toMatchObject({ gameId: 13, tip: TIP, dontRemind: false });
    expect(t.api.callsTo('/api/japi/yoo/game/start')).toHaveLength(0);
    expect(root.game.floatVisible).toBe(false);
    root.game.steps!.answerTip(true);
    await done;
    expect(root.game.steps?.gameTip).toBeNull();
    expect(t.api.callsTo('/api/japi/yoo/game/start')[0].body).toMatchObject({ gameId: 13, nodeId: 1 });
    // not ticked: the next start shows it again
    const { done: again } = await startOnNode(root);
    expect(root.game.steps?.gameTip).not.toBeNull();
    root.game.steps!.answerTip(true);
    await again;
    root.dispose();
  });

  // closing the dialog ends the start: no start call
  it('closing it ends the start', async () => {
    const { root, t } = await starter();
    const { done } = await startOnNode(root);
    root.game.steps!.answerTip(false);
    await done;
    expect(t.api.callsTo('/api/japi/yoo/game/start')).toHaveLength(0);
    root.dispose();
  });

  // ticked, the same content is not shown again for that game; a changed tip shows again; another game's tip is its own
  it('当前游戏版本不再提醒 hides this content of this game only', async () => {
    let current: GameTip = TIP;
    const { root, t } = await starter(() => current);
    const { done: first } = await startOnNode(root);
    await root.game.steps!.setTipDontRemind(true);
    root.game.steps!.answerTip(true);
    await first;
    expect(JSON.parse(localStorage.getItem(DISMISSED_TIPS_KEY) ?? '{}')).toEqual({ 13: tipHash(TIP) });

    const { done: second } = await startOnNode(root);
    expect(root.game.steps?.gameTip).toBeNull();
    await second;
    expect(t.api.callsTo('/api/japi/yoo/game/start')).toHaveLength(2);

    current = { ...TIP, tip: '新版本：存档位置已变更。' };
    const { done: third } = await startOnNode(root);
    expect(root.game.steps?.gameTip?.tip.tip).toBe('新版本：存档位置已变更。');
    root.game.steps!.answerTip(false);
    await third;

    // unticked again before answering: shown next time
    current = TIP;
    localStorage.clear();
    const { done: fourth } = await startOnNode(root);
    await root.game.steps!.setTipDontRemind(true);
    await root.game.steps!.setTipDontRemind(false);
    root.game.steps!.answerTip(true);
    await fourth;
    expect(localStorage.getItem(DISMISSED_TIPS_KEY)).toBe('{}');
    root.dispose();
  });

  // no tip (null), an empty one, or a failed read: straight on to the start
  it('no tip goes straight on', async () => {
    for (const answer of [() => null, () => ({ ...TIP, tip: '' }), () => fail(130100, '游戏不存在')]) {
      const { root, t } = await starter(answer);
      const { done } = await startOnNode(root);
      expect(root.game.steps?.gameTip).toBeNull();
      await done;
      expect(t.api.callsTo('/api/japi/yoo/game/start')).toHaveLength(1);
      root.dispose();
    }
  });

  // a logout while the tip is open ends the waiting start
  it('a reset ends the waiting start', async () => {
    const { root, t } = await starter();
    const { done } = await startOnNode(root);
    root.game.reset();
    await done;
    expect(root.game.steps?.gameTip).toBeNull();
    expect(t.api.callsTo('/api/japi/yoo/game/start')).toHaveLength(0);
    root.dispose();
  });
});

describe('game tip content', () => {
  // the hash follows the content; the ad and the yoodo line are read from the answer
  it('hash, ad and yoodo line', () => {
    expect(tipHash(TIP)).toBe(tipHash({ ...TIP }));
    expect(tipHash(TIP)).not.toBe(tipHash({ ...TIP, yoodo: '61' }));
    expect(tipHash(TIP)).toMatch(/^[0-9a-f]{8}$/);
    expect(tipAd(TIP)?.target_title).toBe('排队加速卡');
    expect(tipAd({ ...TIP, tipExt: 'not json' })).toBeNull();
    expect(tipAd({ ...TIP, tipExt: null })).toBeNull();
    expect(yoodoParts(TIP)).toEqual({ before: '时长不足时，可消耗', amount: '60', after: '悠豆/小时继续畅玩' });
    expect(yoodoParts({ ...TIP, yoodo: null, yoodoText: null })).toBeNull();
  });
});

describe('the start mode from game/info (core-platform.md §4.4 step 10)', () => {
  const info = (over: Partial<GameInfo>) =>
    ({ id: 13, name: '灯塔之夜', startMode: 0, supportModes: [2, 4], associatedType: 1, startUrl: '', ...over }) as GameInfo;

  // associatedType 2: the game's address opens instead of a start
  it('an external game opens at its startUrl', async () => {
    const { root, t } = await starter(() => null);
    t.api.on('POST', '/api/japi/yoo/game/info', () => info({ associatedType: 2, startUrl: 'https://h5.example.com/zhulin/' }));
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { done } = await startOnNode(root);
    await done;
    expect(t.api.callsTo('/api/japi/yoo/game/info')[0].body).toEqual({ gameId: 13, bannerWidth: 1920, bannerHeight: 1080 });
    expect(open).toHaveBeenCalledWith('https://h5.example.com/zhulin/', '_blank', 'noopener');
    expect(t.api.callsTo('/api/japi/yoo/game/start')).toHaveLength(0);
    root.dispose();
  });

  // startMode > 0: the live page's start-relay dialog with the game; a play-together start goes on
  it('a game played only together opens the start-relay dialog', async () => {
    const { root, t, navigations } = await starter(() => null);
    t.api.on('POST', '/api/japi/yoo/game/info', () => info({ startMode: 2, supportModes: [2] }));
    const { done } = await startOnNode(root);
    await done;
    expect(navigations.at(-1)).toBe(relayStartPath({ id: 13, name: '灯塔之夜' }, 2));
    expect(navigations.at(-1)).toBe('/game/live?relayGame=13&relayGameName=%E7%81%AF%E5%A1%94%E4%B9%8B%E5%A4%9C&relayMode=2');
    expect(t.api.callsTo('/api/japi/yoo/game/start')).toHaveLength(0);

    // the relay dialog's start: the room's own start goes through
    await vi.advanceTimersByTimeAsync(1000);
    await root.game.openNodePicker({ id: 13, name: '灯塔之夜' }, { isApplyRelay: 2, isUpdatePass: 0, isShow: 1 });
    root.game.selectNode(NODES[0]);
    await root.game.confirmNode();
    expect(t.api.callsTo('/api/japi/yoo/game/start')[0].body).toMatchObject({ gameId: 13, isApplyRelay: 2 });
    root.dispose();
  });

  // an ordinary game, or game/info unreadable: the start is sent
  it('an ordinary game starts', async () => {
    for (const answer of [() => info({}), () => fail(50000, '')]) {
      const { root, t } = await starter(() => null);
      t.api.on('POST', '/api/japi/yoo/game/info', answer);
      const { done } = await startOnNode(root);
      await done;
      expect(t.api.callsTo('/api/japi/yoo/game/start')).toHaveLength(1);
      root.dispose();
    }
  });
});

describe('start refusals of the start mode (core-platform.md §2.14, §8.2)', () => {
  // 130128: the unsupported game dialog with the share link (the site itself when it cannot be read)
  it('130128 shows the unsupported dialog with the share link', async () => {
    const { root, t } = await starter(() => null);
    t.api.on('POST', '/api/japi/yoo/game/start', () => fail(130128, '当前游戏暂不支持本端'));
    t.api.on('POST', '/api/japi/yoo/share/game/links', () => ({ links: 'http://127.0.0.1:8080/game/detail/13' }));
    const { done } = await startOnNode(root);
    await done;
    expect(t.api.callsTo('/api/japi/yoo/share/game/links')[0].body).toEqual({ gameId: 13 });
    expect(root.game.steps?.unsupported).toEqual({ gameId: 13, gameName: '灯塔之夜', link: 'http://127.0.0.1:8080/game/detail/13' });
    expect(root.game.floatVisible).toBe(false);
    root.game.steps!.closeUnsupported();
    expect(root.game.steps?.unsupported).toBeNull();

    t.api.on('POST', '/api/japi/yoo/share/game/links', () => fail(50000, ''));
    await root.game.steps!.showUnsupported({ id: 26, name: '掌上菜园' });
    expect(root.game.steps?.unsupported?.link).toBe(`${location.origin}/`);
    root.dispose();
  });

  // 130121 (a start alone of a game played only together): the start-relay dialog
  it('130121 opens the start-relay dialog', async () => {
    const { root, t, navigations } = await starter(() => null);
    t.api.on('POST', '/api/japi/yoo/game/start', () => fail(130121, '当前游戏仅支持一起玩，请先完善游戏的房间信息'));
    const { done } = await startOnNode(root);
    await done;
    expect(navigations.at(-1)).toBe(relayStartPath({ id: 13, name: '灯塔之夜' }, 2));
    root.dispose();
  });
});

describe('hanging (core-platform.md §3.3 "Game duration", §4.11 GAME_HANG_END)', () => {
  // PLAYING here: gameDuration of the session is read every HANG_READ_MS; a hanging answer shows its minutes
  it('reads the hanging state while the game plays, and on 130140', async () => {
    const { root, t, channel } = await loggedInRoot();
    let answer = { hook: 0, onHookDuration: 0, responseTime: T0 };
    t.api.on('POST', '/api/japi/yoo/game/gameDuration', () => answer);
    channel.pushGameState(live({ status: GameStatus.CONNECTING }));
    await settle();
    expect(t.api.callsTo('/api/japi/yoo/game/gameDuration')).toHaveLength(0);
    channel.pushGameState(live({ status: GameStatus.PLAYING }));
    await settle();
    // not at the start of play (a session hangs only after minutes without input)
    expect(t.api.callsTo('/api/japi/yoo/game/gameDuration')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(HANG_READ_MS);
    expect(t.api.callsTo('/api/japi/yoo/game/gameDuration').map((c) => c.body)).toEqual([{ id: 101 }]);
    expect(root.game.steps?.hanging).toBeNull();

    answer = { hook: 1, onHookDuration: 75, responseTime: T0 };
    channel.push({ kind: 'notification', code: 130140, content: '您已长时间未操作', data: '' });
    await settle();
    expect(root.ui.toasts.map((x) => x.message)).toContain('您已长时间未操作');
    expect(t.api.callsTo('/api/japi/yoo/game/gameDuration')).toHaveLength(2);
    expect(root.game.steps?.hanging).toMatchObject({ sessionId: '101', hook: true, minutes: 75 });

    // the game ended: no answer is shown, and no more reads
    channel.pushGameState({ hasGameOnline: false, id: 101, gameId: 1, endReason: 'over' });
    expect(root.game.steps?.hanging).toBeNull();
    await vi.advanceTimersByTimeAsync(HANG_READ_MS * 2);
    expect(t.api.callsTo('/api/japi/yoo/game/gameDuration')).toHaveLength(2);
    root.dispose();
  });

  // another device's session is not asked about
  it('asks only for this client\'s session', async () => {
    const { t, channel, root } = await loggedInRoot();
    t.api.on('POST', '/api/japi/yoo/game/gameDuration', () => ({ hook: 1, onHookDuration: 3, responseTime: T0 }));
    channel.pushGameState(live({ status: GameStatus.PLAYING, clientType: 'other' }));
    await settle();
    await vi.advanceTimersByTimeAsync(HANG_READ_MS);
    await root.game.refreshDuration();
    expect(t.api.callsTo('/api/japi/yoo/game/gameDuration')).toHaveLength(0);
    root.dispose();
  });
});

describe('the first-play game start guide (core-platform.md §2.14, §4.4)', () => {
  const GAMES = Array.from({ length: 9 }, (_, i) => ({ id: i + 1, name: `游戏${i + 1}`, image: '', image_vertical: '', image_square: '', logo: '', status: 1, deleted: false, available: true, collected: false, member_type: null, instant_play: false }));

  /** A player whose common config turns the guide on (latency capped at 200 ms). */
  async function guided(opts: { list?: () => unknown } = {}) {
    const env = await starter(() => null);
    const { t } = env;
    t.api.on('POST', '/api/japi/yoo/common/config/list', () => ({ show_game_start_guide: '1', game_start_guide_max_delay: '200' }));
    t.api.on('GET', '/api/web/v1/game/list', opts.list ?? (() => ({ data: GAMES, total: GAMES.length })));
    t.api.on('POST', '/api/japi/yoo/game/node', () => [
      { id: 1, name: '测试一区', status: 1, pingUrl: '/api/node/1/ping', pingIp: '', ip: '' },
      { id: 2, name: '测试二区', status: 1, pingUrl: '/api/node/2/ping', pingIp: '', ip: '' },
      { id: 3, name: '维护区', status: 0, pingUrl: '/api/node/3/ping', pingIp: '', ip: '' },
    ]);
    t.probeResults.set('/api/node/1/ping', 240);
    t.probeResults.set('/api/node/2/ping', 35);
    return env;
  }

  // before certification: 7 games, the best latency; 下一步 only after the ~4.5 s animation; then the start goes on and the guide is not shown again
  it('shows before certification, and 下一步 continues after the animation', async () => {
    const { root, t } = await guided();
    const starting = root.game.requestStart({ id: 13, name: '灯塔之夜' });
    await vi.waitFor(() => expect(root.game.steps?.startGuide?.measuring).toBe(false));
    expect(root.game.steps?.startGuide?.games.map((g) => g.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(t.api.callsTo('/api/web/v1/game/list')[0].body).toEqual({ page: 1, page_size: 7 });
    expect(root.game.steps?.startGuide?.latency).toBe(35);
    expect(t.api.callsTo('/api/v3/user/authorize/pre-check')).toHaveLength(0);
    root.game.steps!.answerStartGuide(true);
    expect(root.game.steps?.startGuide).not.toBeNull(); // not before the animation is over
    await vi.advanceTimersByTimeAsync(4500);
    expect(root.game.steps?.startGuide?.ready).toBe(true);
    root.game.steps!.answerStartGuide(true);
    await starting;
    expect(t.api.callsTo('/api/v3/user/authorize/pre-check')).toHaveLength(1);
    expect(root.game.nodePicker?.gameId).toBe(13);
    await vi.waitFor(() => expect(localStorage.getItem('yoo_game_start_guide_displayed')).toBe('1'));

    root.game.closeNodePicker();
    await vi.advanceTimersByTimeAsync(1000);
    await root.game.requestStart({ id: 13, name: '灯塔之夜' });
    expect(root.game.steps?.startGuide).toBeNull();
    expect(root.game.nodePicker?.gameId).toBe(13);
    expect(t.api.callsTo('/api/web/v1/game/list')).toHaveLength(1);
    root.dispose();
  });

  // closing the guide ends the start and marks it shown
  it('closing it ends the start', async () => {
    const { root, t } = await guided();
    const starting = root.game.requestStart({ id: 13, name: '灯塔之夜' });
    await vi.waitFor(() => expect(root.game.steps?.startGuide).not.toBeNull());
    root.game.steps!.answerStartGuide(false);
    await starting;
    expect(root.game.nodePicker).toBeNull();
    expect(t.api.callsTo('/api/v3/user/authorize/pre-check')).toHaveLength(0);
    await vi.waitFor(() => expect(localStorage.getItem('yoo_game_start_guide_displayed')).toBe('1'));
    root.dispose();
  });

  // a failure to read what it shows skips straight to the start (and it may show next time)
  it('a failure skips it', async () => {
    const { root } = await guided({ list: () => fail(50000, '') });
    await root.game.requestStart({ id: 13, name: '灯塔之夜' });
    expect(root.game.steps?.startGuide).toBeNull();
    expect(root.game.nodePicker?.gameId).toBe(13);
    expect(localStorage.getItem('yoo_game_start_guide_displayed')).toBeNull();
    root.dispose();
  });

  // in-car mode skips it (§4.14); so does a config without it
  it('is skipped in a car and when not configured', async () => {
    const { root, effects } = await guided();
    effects.userAgent = 'Mozilla/5.0 (X11; Linux) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 LiBrowser/1.0';
    await root.game.requestStart({ id: 13, name: '灯塔之夜' });
    expect(root.game.steps?.startGuide).toBeNull();
    expect(root.game.nodePicker?.gameId).toBe(13);
    root.dispose();

    const plain = await starter(() => null);
    await plain.root.game.requestStart({ id: 13, name: '灯塔之夜' });
    expect(plain.root.game.steps?.startGuide).toBeNull();
    expect(plain.t.api.callsTo('/api/web/v1/game/list')).toHaveLength(0);
    plain.root.dispose();
  });
});

describe('start guide latency (core-platform.md §4.8)', () => {
  // the smallest positive ping, capped by game_start_guide_max_delay
  it('is the best positive ping, capped', async () => {
    const { guideLatency } = await import('../../../lib/startGuide');
    expect(guideLatency([240, 35, null, 0], 200)).toBe(35);
    expect(guideLatency([240, 310], 200)).toBe(200);
    expect(guideLatency([240.4], 0)).toBe(240);
    expect(guideLatency([null, 0], 200)).toBeNull();
  });
});
