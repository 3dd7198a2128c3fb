import { describe, expect, it } from 'vitest';
import { daysSinceExpiry, daysToExpiry, grantHours, memberButton, memberStatus } from './member';

// The header member button of commerce.md §2.2, one user a row: label, action, category, style.
describe('memberButton', () => {
  it.each([
    [false, null, '立即登录', 'login', 'vip', 'vip'],
    [true, null, '开通会员', 'buy', 'vip', 'vip'],
    [true, 'vip', '续费会员', 'buy', 'vip', 'vip'],
    [true, 'vvip', '续费会员', 'buy', 'vvip', 'vvip'],
    [true, 'hvip', '续费会员', 'buy', 'vvip', 'vvip'],
    [true, 'tyvip', '查看', 'carrier', 'vip', 'vvip'],
    [true, 'tyschvip', '查看', 'carrier', 'vip', 'vip'],
  ] as const)('logged in %s, using %s: %s', (loggedIn, using, label, action, category, style) => {
    expect(memberButton(loggedIn, using)).toEqual({ label, action, category, style });
  });
});

const DAY = 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 10, 22, 4, 0, 0); // 12:00 UTC+8

describe('membership days and status (commerce.md §2.4, §4.7)', () => {
  it('days to expiry round up, days since expiry round down', () => {
    expect(daysToExpiry(NOW, NOW)).toBe(0);
    expect(daysToExpiry(NOW + 1, NOW)).toBe(1);
    expect(daysToExpiry(NOW + DAY + 1, NOW)).toBe(2);
    expect(daysSinceExpiry(NOW - DAY + 1, NOW)).toBe(0);
    expect(daysSinceExpiry(NOW - 2 * DAY, NOW)).toBe(2);
  });

  it('the status line by priority', () => {
    const none = { using: null, items: [], near_expiration: false };
    expect(memberStatus(none, [], NOW)).toEqual({ kind: 'none', text: '您还不是会员，开通会员享受专属特权~' });
    expect(memberStatus(none, [{ type: 'vip', expired_at: NOW - 3 * DAY }], NOW).text).toBe('你的标准VIP已过期 3 天');
    // expired less than a day ago: not yet 'expired'
    expect(memberStatus(none, [{ type: 'vip', expired_at: NOW - 1000 }], NOW).kind).toBe('none');
    const near = (at: number) => ({ using: 'vvip', items: [{ type: 'vvip', expired_at: at }], near_expiration: true });
    expect(memberStatus(near(NOW), [], NOW).text).toBe('高级VVIP 今天 即将到期');
    expect(memberStatus(near(NOW + DAY + 5), [], NOW).text).toBe('高级VVIP 2天后 即将到期');
    const active = { using: 'vvip', items: [{ type: 'vvip', expired_at: Date.UTC(2026, 11, 23, 4) }], near_expiration: false };
    expect(memberStatus(active, [{ type: 'vip', expired_at: NOW - 9 * DAY }], NOW)).toEqual({ kind: 'active', text: '高级VVIP 2026-12-23 到期' });
  });

  it('grant hours are round(min/60), at least 1', () => {
    expect(grantHours(60)).toBe(1);
    expect(grantHours(20)).toBe(1);
    expect(grantHours(1320)).toBe(22);
    expect(grantHours(89)).toBe(1);
    expect(grantHours(90)).toBe(2);
  });
});
