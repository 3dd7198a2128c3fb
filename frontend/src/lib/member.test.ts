import { describe, expect, it } from 'vitest';
import { memberButton } from './member';

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
