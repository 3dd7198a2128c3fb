import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../transport/apiError';
import type { Api } from '../../../transport/types';
import { MemberStore } from './memberStore';

function store(get: (path: string, query?: unknown) => Promise<unknown>) {
  const fx = { toast: vi.fn(), refreshUser: vi.fn(() => Promise.resolve()) };
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
