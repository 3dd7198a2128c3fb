import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../transport/apiError';
import type { Api } from '../../../transport/types';
import { MemberStore } from './memberStore';

function store(get: (path: string, query?: unknown) => Promise<unknown>) {
  const fx = { toast: vi.fn(), refreshUser: vi.fn(() => Promise.resolve()), openDetail: vi.fn() };
  return { s: new MemberStore({ get } as unknown as Api, fx), fx };
}

// commerce.md §2.9 / §4.8 "Member grant": received on asking, hours = round(min/60) >= 1, the
// user re-read; a refusal shows the server's text and no dialog.
describe('MemberStore.receive', () => {
  it('shows the daily grant dialog and re-reads the user', async () => {
    const get = vi.fn(() => Promise.resolve({ play_time: 1320, expires_at: 0, grants: [] }));
    const { s, fx } = store(get);
    await s.receive('vvip');
    expect(get).toHaveBeenCalledWith('/api/member/playtime/receive', { type: 'vvip' });
    expect(s.grant).toEqual({ title: '高级VVIP每日专享', hours: 22, note: '限当天使用，次日0点失效' });
    expect(fx.refreshUser).toHaveBeenCalledOnce();
    s.closeGrant();
    expect(s.grant).toBeNull();
  });

  it('a refusal toasts the server message', async () => {
    const { s, fx } = store(() => Promise.reject(new ApiError(20230, '今日会员时长已领取，明天再来吧', null)));
    await s.receive('vip');
    expect(s.grant).toBeNull();
    expect(fx.toast).toHaveBeenCalledWith('error', '今日会员时长已领取，明天再来吧');
    expect(fx.refreshUser).not.toHaveBeenCalled();
  });
});

// commerce.md §2.4 "Upgrade banner": fetches the upgrade goods by its code with good_id 0 and
// opens the purchase detail; a refusal toasts and re-reads the member info (the banner goes).
describe('MemberStore.openUpgrade', () => {
  const INFO = {
    member_info: { using: 'vip', items: [], near_expiration: false, join_at: 0 },
    previous_info: [],
    systemTime: 0,
    upgrade: { code: 'vip2vvip', up_days: 10 },
  };
  it('opens the detail on the upgrade goods', async () => {
    const goods = { id: 201, code: 'vip2vvip', up: { up_from: 'vip', up_to: 'vvip', up_days: 10, unit_price: 65 } };
    const get = vi.fn((path: string) => Promise.resolve(path === '/api/v3/user/member/info' ? INFO : goods));
    const { s, fx } = store(get);
    await s.openUpgrade();
    expect(get).not.toHaveBeenCalled();
    await s.loadInfo();
    await s.openUpgrade();
    expect(get).toHaveBeenLastCalledWith('/api/v3/shop/goods/item', { goods_code: 'vip2vvip', good_id: 0 });
    expect(fx.openDetail).toHaveBeenCalledWith(goods);
  });

  it('a refusal toasts and re-reads the member info', async () => {
    let reads = 0;
    const get = vi.fn((path: string) => {
      if (path === '/api/v3/user/member/info') {
        reads += 1;
        return Promise.resolve(reads === 1 ? INFO : { ...INFO, upgrade: null });
      }
      return Promise.reject(new ApiError(20187, '仅VIP会员可补差价升级为VVIP', null));
    });
    const { s, fx } = store(get);
    await s.loadInfo();
    await s.openUpgrade();
    expect(fx.toast).toHaveBeenCalledWith('error', '仅VIP会员可补差价升级为VVIP');
    expect(fx.openDetail).not.toHaveBeenCalled();
    expect(s.info?.upgrade).toBeNull();
  });
});
