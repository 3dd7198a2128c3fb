import type { LotteryInfo } from '../../../api/types';
import { FakeApi, fail } from '../../../test/fakeTransport';
import { LOTTERY_ID, LotteryStore } from './lotteryStore';

const LIST = '/api/japi/social/lottery/list';
const CHANCE = '/api/japi/social/lottery/chance';
const RECORD = '/api/japi/social/lottery/record';
// 2026-11-23 12:00 UTC+8
const NOW = Date.UTC(2026, 10, 23, 4);

const lottery = (over: Partial<LotteryInfo> = {}): LotteryInfo => ({
  id: LOTTERY_ID,
  title: '幸运大转盘',
  status: 1,
  startTime: '2024-01-01 00:00:00',
  endTime: '2100-01-01 00:00:00',
  sys_time: NOW,
  dailyChances: 3,
  chances: 3,
  lotteryItemList: [
    { id: 101, name: '60分钟游戏时长', image: '', grant: { kind: 'play_time', amount: 60 } },
    { id: 104, name: '谢谢参与', image: '', grant: null },
  ],
  ...over,
});

function setup(loggedIn = true) {
  const api = new FakeApi();
  const toasts: [string, string][] = [];
  let logins = 0;
  let refreshed = 0;
  const store = new LotteryStore(api, {
    toast: (t, m) => toasts.push([t, m]),
    login: () => (logins += 1),
    isLoggedIn: () => loggedIn,
    refreshUser: () => Promise.resolve((refreshed += 1)),
  });
  api.on('POST', LIST, () => lottery());
  api.on('POST', RECORD, () => ({ rows: [], pageSize: 20, totalRows: 0 }));
  return { api, store, toasts, logins: () => logins, refreshed: () => refreshed };
}

const noWait = () => Promise.resolve();

describe('LotteryStore', () => {
  it('draws: lands on the prize, opens the dialog, spends a chance and reloads the records', async () => {
    const { api, store, refreshed } = setup();
    api.on('POST', CHANCE, () => ({ recordId: 7, lotteryItemId: 101, name: '60分钟游戏时长', won: true, chances: 2 }));
    await store.load();
    await store.draw(noWait);
    expect(api.callsTo(CHANCE)[0].body).toEqual({ id: LOTTERY_ID });
    expect(store.active).toBe(0);
    expect(store.result?.name).toBe('60分钟游戏时长');
    expect(store.chances).toBe(2);
    expect(store.spinning).toBe(false);
    expect(refreshed()).toBe(1);
    expect(api.callsTo(RECORD).length).toBe(1);
    store.closeResult();
    expect(store.result).toBeNull();
  });

  it('a refusal shows its message and reloads the chances', async () => {
    const { api, store, toasts } = setup();
    api.on('POST', CHANCE, () => fail(20461, '今日抽奖次数已用完，明天再来吧'));
    await store.load();
    await store.draw(noWait);
    expect(toasts).toEqual([['error', '今日抽奖次数已用完，明天再来吧']]);
    expect(store.result).toBeNull();
    expect(api.callsTo(LIST).length).toBe(2);
  });

  it('a guest is asked to log in; an activity not running cannot be drawn', async () => {
    const guest = setup(false);
    await guest.store.draw(noWait);
    await guest.store.loadRecords(1);
    expect(guest.logins()).toBe(2);
    expect(guest.api.callsTo(CHANCE).length).toBe(0);

    const { api, store } = setup();
    api.on('POST', LIST, () => lottery({ endTime: '2026-11-23 11:59:59' }));
    await store.load();
    expect(store.status).toBe(2);
    expect(store.canDraw).toBe(false);
    await store.draw(noWait);
    expect(api.callsTo(CHANCE).length).toBe(0);
  });
});
