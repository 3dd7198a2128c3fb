import { RootStore } from '../stores/rootStore';
import type { LiveGameState } from '../stores/models';
import { fail, FakeTransport } from './fakeTransport';

/** Lets pending promise chains run (the fake API awaits a few times per call). */
export async function settle(rounds = 30): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

export const PROFILE = { uid: 10001, nickname: '玩家10001', avatar: '' };

/** A root store on a fake transport; `loggedIn` answers the profile read, else 20119. */
export async function makeRoot(opts: { loggedIn?: boolean } = {}) {
  const t = new FakeTransport();
  let loggedIn = opts.loggedIn ?? false;
  t.api.on('GET', '/api/user/profile', () => {
    if (!loggedIn) fail(20119, '登录已失效，请重新登录');
    return PROFILE;
  });
  t.api.on('POST', '/api/japi/yoo/game/floatBall', () => ({ hasGameOnline: false }));
  t.api.on('POST', '/api/japi/yoo/common/config/list', () => ({}));
  const root = new RootStore(t);
  const navigations: string[] = [];
  root.ui.setNavigator((p) => navigations.push(p));
  await root.init();
  await settle();
  return {
    t,
    root,
    navigations,
    setLoggedIn(v: boolean) {
      loggedIn = v;
    },
  };
}

/** A live session in a given status, with sensible defaults. */
export function live(partial: Partial<LiveGameState> & { status: number }): LiveGameState {
  return {
    hasGameOnline: true,
    id: 'sess-1',
    gameId: 1,
    gameName: '测试游戏',
    gameLogo: '',
    clientType: 'web',
    ballStatus: 1,
    gameMode: 0,
    connectCountdown: 0,
    responseTime: 0,
    onlineDuration: 0,
    isFast: 0,
    sort: 0,
    queDuration: 0,
    nodeId: 1,
    nodeName: '测试一区',
    ...partial,
  };
}
