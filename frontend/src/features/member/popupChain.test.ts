import { FakeApi } from '../../test/fakeTransport';
import type { CardNotice, MemberExpire, NoticeItem } from './popupChain';
import { CHAIN_KEY, cardPopup, claimDay, expiryPopup, lapsedDays, nearDays, parseExpireConfig, PopupChainStore } from './popupChain';
import type { MemberInfoView } from '../../api/types';

const DAY = 24 * 3600 * 1000;
// 2026-11-27 12:00 UTC+8
const NOW = Date.UTC(2026, 10, 27, 4, 0, 0);
const CONFIG: MemberExpire[] = [
  { expireType: 4, dayStep: [7, 3, 1, 0], message: '会员到期后特权将无法使用', privilegeHint: '续费会员，特权不中断' },
  { expireType: 8, dayStep: [1, 3, 7], message: '开通会员，立即恢复特权', privilegeHint: '重新开通' },
];
const INFO = '/api/v3/user/member/info';
const CONFIG_LIST = '/api/japi/yoo/common/config/list';
const NOTICE = '/api/v3/user/card/notice';

const view = (over: Partial<MemberInfoView['member_info']>, previous: MemberInfoView['previous_info'] = []): MemberInfoView => ({
  member_info: { using: null, items: [], near_expiration: false, join_at: null, ...over },
  previous_info: previous,
  systemTime: NOW,
});
const item = (id: number, over: Partial<NoticeItem> = {}): NoticeItem => ({
  id,
  card_type: 1,
  name: '120分钟付费时长卡',
  face_value_txt: '2小时',
  expires_at: NOW + 10 * DAY,
  near_expiration: false,
  ...over,
});

class MemoryStorage {
  data: Record<string, string> = {};
  getItem(k: string): string | null {
    return this.data[k] ?? null;
  }
  setItem(k: string, v: string): void {
    this.data[k] = v;
  }
}

describe('member expiry popup rules (commerce.md §4.7)', () => {
  it('counts near days with floor and lapsed days with ceil from the end of the expiry day (UTC+8)', () => {
    expect(nearDays(NOW + 3 * DAY, NOW)).toBe(3);
    expect(nearDays(NOW, NOW)).toBe(0);
    expect(lapsedDays(NOW - DAY, NOW)).toBe(1);
    expect(lapsedDays(NOW - 3 * DAY + 1000, NOW)).toBe(3);
  });

  it('type 4 when the membership in use ends on a day of dayStep and was not joined today', () => {
    const popup = expiryPopup(view({ using: 'vvip', items: [{ type: 'vvip', expired_at: NOW + 3 * DAY }], join_at: NOW - 30 * DAY }), CONFIG, NOW);
    expect(popup).toMatchObject({ expireType: 4, days: 3, title: '你的高级VVIP还剩3天', category: 'vvip', privilegeHint: '续费会员，特权不中断' });
    const today = expiryPopup(view({ using: 'vip', items: [{ type: 'vip', expired_at: NOW }], join_at: NOW - DAY }), CONFIG, NOW);
    expect(today?.title).toBe('你的标准VIP即将到期');
    expect(expiryPopup(view({ using: 'vip', items: [{ type: 'vip', expired_at: NOW + 3 * DAY }], join_at: NOW - 1000 }), CONFIG, NOW)).toBeNull();
    expect(expiryPopup(view({ using: 'vip', items: [{ type: 'vip', expired_at: NOW + 5 * DAY }], join_at: NOW - 9 * DAY }), CONFIG, NOW)).toBeNull();
  });

  it('type 8 when none is in use and the latest lapsed membership ended a day of dayStep ago', () => {
    const popup = expiryPopup(view({}, [{ type: 'vip', expired_at: NOW - DAY }]), CONFIG, NOW);
    expect(popup).toMatchObject({ expireType: 8, days: 1, title: '你的标准VIP已过期1天', category: 'vip' });
    expect(expiryPopup(view({}, [{ type: 'vip', expired_at: NOW - 5 * DAY }]), CONFIG, NOW)).toBeNull();
    expect(expiryPopup(view({}, [{ type: 'daily', expired_at: NOW - DAY }]), CONFIG, NOW)).toBeNull();
    expect(expiryPopup(view({}, []), CONFIG, NOW)).toBeNull();
    expect(expiryPopup(view({}, [{ type: 'vip', expired_at: NOW - DAY }]), [], NOW)).toBeNull();
  });

  it('reads the config from its JSON string; a malformed one is no config', () => {
    expect(parseExpireConfig(JSON.stringify(CONFIG))).toEqual(CONFIG);
    expect(parseExpireConfig('{')).toEqual([]);
    expect(parseExpireConfig(undefined)).toEqual([]);
    expect(parseExpireConfig('[{"expireType":4}]')).toEqual([]);
  });
});

describe('card notices (commerce.md §2.8)', () => {
  it('near-expiry coupons first, else the newest gifts, else nothing', () => {
    const notice = (newest: NoticeItem[], near: NoticeItem[]): CardNotice => ({ newest_list: newest, near_exp_list: near, ts: 0 });
    expect(cardPopup(notice([item(1)], [item(2, { card_type: 3, near_expiration: true }), item(3, { card_type: 3, near_expiration: true })]))).toEqual({ kind: 'coupons', count: 2 });
    expect(cardPopup(notice([item(1)], [item(4, { near_expiration: true })]))).toEqual({ kind: 'gifts', items: [item(1)] });
    expect(cardPopup(notice([], []))).toBeNull();
  });
});

describe('PopupChainStore', () => {
  const setup = () => {
    const api = new FakeApi();
    const storage = new MemoryStorage();
    const chain = new PopupChainStore(api, { storage, now: () => NOW });
    api.on('POST', CONFIG_LIST, () => ({ member_expire: JSON.stringify(CONFIG), sys_time: String(NOW) }));
    api.on('GET', NOTICE, () => ({ newest_list: [item(1)], near_exp_list: [], ts: 0 }));
    return { api, storage, chain };
  };

  it('runs once per day per user; the close X ends the chain, the button goes on to the card notices', async () => {
    const { api, storage, chain } = setup();
    api.on('GET', INFO, () => view({}, [{ type: 'vip', expired_at: NOW - DAY }]));
    expect(await chain.run(7, false)).toBe(true);
    expect(chain.expiry?.expireType).toBe(8);
    expect(api.callsTo(NOTICE)).toHaveLength(0);
    await chain.closeExpiry(true);
    expect(chain.expiry).toBeNull();
    expect(api.callsTo(NOTICE)).toHaveLength(0);
    expect(await chain.run(7, false)).toBe(false);
    expect(JSON.parse(storage.data[CHAIN_KEY])).toEqual({ 7: '2026-11-27' });

    expect(await chain.run(8, false)).toBe(true);
    await chain.closeExpiry(false);
    expect(api.callsTo(NOTICE)).toHaveLength(1);
    expect(chain.cards).toEqual({ kind: 'gifts', items: [item(1)] });
    chain.closeCards();
    expect(chain.cards).toBeNull();
  });

  it('without an expiry popup goes straight to the notices, type=1 for a new user; a failed read shows nothing', async () => {
    const { api, chain } = setup();
    api.on('GET', INFO, () => view({ using: 'vip', items: [{ type: 'vip', expired_at: NOW + 20 * DAY }], join_at: NOW - DAY }));
    await chain.run(9, true);
    expect(chain.expiry).toBeNull();
    expect(api.callsTo(NOTICE)[0].body).toEqual({ type: '1' });
    expect(chain.cards?.kind).toBe('gifts');

    const failing = new FakeApi();
    const quiet = new PopupChainStore(failing, { storage: null, now: () => NOW });
    expect(await quiet.run(9, false)).toBe(true);
    expect(quiet.expiry).toBeNull();
    expect(quiet.cards).toBeNull();
  });

  it('a new day runs it again', () => {
    const storage = new MemoryStorage();
    expect(claimDay(storage, 1, '2026-11-27')).toBe(true);
    expect(claimDay(storage, 1, '2026-11-27')).toBe(false);
    expect(claimDay(storage, 1, '2026-11-28')).toBe(true);
    storage.data[CHAIN_KEY] = 'not json';
    expect(claimDay(storage, 1, '2026-11-28')).toBe(true);
  });
});
