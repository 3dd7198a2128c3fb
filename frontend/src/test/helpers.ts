import { vi } from 'vitest';
import type { BrowserEffects, PlayWindow } from '../lib/notify';
import { RootStore, SOCKET_OPEN_DELAY_MS } from '../stores/rootStore';
import type { LiveGameState, Profile, QueueRules } from '../api/types';
import type { RoomEventItem } from '../lib/room';
import type { ServerPush } from '../transport/types';
import type { ShownQualityReport } from '../stream/stats';
import { fail, FakeTransport } from './fakeTransport';

/** Lets pending promise chains run (the fake API awaits a few times per call). */
export async function settle(rounds = 30): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

export const PROFILE = { uid: 10001, nickname: '玩家10001', avatar: '' };

/** Browser effects that record what the stores asked for. */
export class RecordingEffects implements BrowserEffects {
  readonly fullscreenExits: number[] = [];
  permissionRequests = 0;
  readonly reminders: string[] = [];
  /** set by a test of the start's browser check; absent skips it */
  userAgent?: string;

  exitFullscreen(): void {
    this.fullscreenExits.push(Date.now());
  }

  requestNotificationPermission(): void {
    this.permissionRequests++;
  }

  readyReminder(sessionId: string): void {
    this.reminders.push(sessionId);
  }

  /** set to true to act as a browser that opens the play page in a new window */
  newWindows = false;
  /** what each opened play window did: the paths it went to and whether it was closed */
  readonly windows: { paths: string[]; closed: boolean }[] = [];
  /** this page is a play window the site opened (closePlayWindow closes it) */
  isPlayWindow = false;
  closedSelf = 0;

  openPlayWindow(): PlayWindow | null {
    if (!this.newWindows) return null;
    const w = { paths: [] as string[], closed: false };
    this.windows.push(w);
    return { go: (p) => void w.paths.push(p), close: () => void (w.closed = true) };
  }

  closePlayWindow(): boolean {
    if (!this.isPlayWindow) return false;
    this.closedSelf++;
    return true;
  }

  /** reports a play window handed to its opener */
  readonly sharedReports: ShownQualityReport[] = [];
  private reportListeners = new Set<(r: ShownQualityReport) => void>();

  shareQualityReport(report: ShownQualityReport): void {
    this.sharedReports.push(report);
  }

  onQualityReport(listener: (r: ShownQualityReport) => void): () => void {
    this.reportListeners.add(listener);
    return () => this.reportListeners.delete(listener);
  }

  /** a play window this page opened hands over a report */
  receiveReport(report: ShownQualityReport): void {
    for (const l of this.reportListeners) l(report);
  }
}

/** A root store on a fake transport; `loggedIn` answers the profile read, else 20119. */
/** What the server's queueRules answers (test data: the server is the source of the real one). */
export const QUEUE_RULES: QueueRules = {
  totalWeight: 2035,
  lanes: [
    { isFast: 1, name: '会员速进通道', who: '持有速进时长或使用速进卡的玩家', weight: 1000, ultimate: true, upsell: null },
    { isFast: 2, name: '天翼电竞宽带速进通道', who: '天翼电竞宽带会员', weight: 1000, ultimate: true, upsell: null },
    { isFast: 3, name: 'VVIP专属通道', who: 'VVIP会员', weight: 20, ultimate: false, upsell: 1 },
    { isFast: 4, name: 'VIP专属通道', who: 'VIP会员', weight: 10, ultimate: false, upsell: 3 },
    { isFast: 5, name: '夜间畅玩包专属通道', who: '夜间畅玩包用户', weight: 2, ultimate: false, upsell: 3 },
    { isFast: 6, name: '日间畅玩包专属通道', who: '日间畅玩包用户', weight: 2, ultimate: false, upsell: 3 },
    { isFast: 0, name: '普通队列', who: '其他玩家', weight: 1, ultimate: false, upsell: 3 },
  ],
};

export async function makeRoot(opts: { loggedIn?: boolean; profile?: Partial<Profile> } = {}) {
  const t = new FakeTransport();
  const effects = new RecordingEffects();
  let loggedIn = opts.loggedIn ?? false;
  t.api.on('GET', '/api/user/profile', () => {
    if (!loggedIn) fail(20119, '登录已失效，请重新登录');
    return { ...PROFILE, ...opts.profile };
  });
  t.api.on('POST', '/api/japi/yoo/game/floatBall', () => ({ hasGameOnline: false }));
  t.api.on('POST', '/api/japi/yoo/common/config/list', () => ({}));
  t.api.on('GET', '/api/japi/yoo/game/queueRules', () => QUEUE_RULES);
  const root = new RootStore(t, effects);
  const navigations: string[] = [];
  root.ui.setNavigator((p) => navigations.push(p));
  await root.init();
  await settle();
  // the start steps' chunk, which the first start loads in the product: loaded here, the tests'
  // microtask counts hold for the first start as for the next
  await root.game.loadSteps();
  return {
    t,
    root,
    effects,
    navigations,
    setLoggedIn(v: boolean) {
      loggedIn = v;
    },
  };
}

/** A logged-in root store whose socket is open (fake timers must be on). */
export async function loggedInRoot(opts: { profile?: Partial<Profile> } = {}) {
  const env = await makeRoot({ loggedIn: true, ...opts });
  await vi.advanceTimersByTimeAsync(SOCKET_OPEN_DELAY_MS);
  return { ...env, channel: env.t.channel! };
}

/** A live session in a given status, with sensible defaults. */
export function live(partial: Partial<LiveGameState> & { status: number }): LiveGameState {
  return {
    hasGameOnline: true,
    id: 101,
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
    requeues: 0,
    queDuration: 0,
    nodeId: 1,
    nodeName: '测试一区',
    serverTime: 0,
    ...partial,
  };
}

/** A ROOM_EVENTS push as the server sends it without merging: covering its events' offsets. */
export function roomBatch(ddRid: number, epoch: string, events: RoomEventItem[]): ServerPush {
  const offsets = events.map((e) => e.offset);
  return { kind: 'roomEvents', ddRid, epoch, first: Math.min(...offsets), last: Math.max(...offsets), events };
}

/** What the fake coupon/check needs of a product: its code, its prices, an upgrade's days. */
export interface PricedGoods {
  code: string;
  price: number;
  retail_price: number;
  up?: { up_days: number } | null;
}

/**
 * The server's coupon/check for the given products, as the facade answers it without a coupon:
 * the caller's unit price × the units (an upgrade's days whatever goods_num says), the retail
 * total and the savings, in fen; an unknown code is refused as the server refuses it.
 */
export function answerCouponCheck(t: FakeTransport, goods: readonly PricedGoods[]): void {
  t.api.on('GET', '/api/v3/payment/coupon/check', (q: { goods_code: string; goods_num: number }) => {
    const g = goods.find((x) => x.code === q.goods_code);
    if (!g) fail(20180, '商品不存在或已下架');
    const units = g.up?.up_days ?? q.goods_num;
    const pay = g.price * units;
    const retail = g.retail_price * units;
    return { use_coupons: [], discount_money: 0, month_price: 0, pay_money: pay, usable_num: 0, unit_price: g.price, retail_total: retail, savings: Math.max(0, retail - pay) };
  });
}
