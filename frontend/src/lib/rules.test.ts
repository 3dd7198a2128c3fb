import { describe, expect, it } from 'vitest';
import { isOldBrowser } from './browserCheck';
import { gameAvailability, memberBadge, nodeStatusText } from './gameStatus';
import { formatHMS } from './time';
import { validateCode, validatePhone } from './validation';

describe('phone and code validation (core-platform.md §5.1)', () => {
  it.each([
    ['', '手机号不能为空'],
    ['   ', '手机号不能为空'],
    ['1380000000', '手机号格式不正确'],
    ['138000000001', '手机号格式不正确'],
    ['23800000000', '手机号格式不正确'],
    ['1380000000a', '手机号格式不正确'],
    ['13800000000', null],
  ])('phone %j -> %j', (phone, message) => {
    expect(validatePhone(phone)).toBe(message);
  });

  it('code is required', () => {
    expect(validateCode('')).toBe('验证码不能为空');
    expect(validateCode('123456')).toBeNull();
  });
});

describe('node status text (core-platform.md §4.8)', () => {
  const up = { status: 1 };
  it.each([
    [{ status: 0 }, { state: 'ok', ping: 20 } as const, 1, '维护中'],
    [{ status: 2 }, undefined, 1, '维护中'],
    [up, undefined, 1, '连接中'],
    [up, { state: 'probing' } as const, 1, '连接中'],
    [up, { state: 'ok', ping: 37 } as const, 1, '延迟37ms'],
    [up, { state: 'ok', ping: 37 } as const, 2, '延迟19ms'],
    [up, { state: 'ok', ping: 37 } as const, 0, '延迟37ms'],
    [up, { state: 'failed' } as const, 1, '超时'],
  ])('%j %j factor %d -> %s', (node, probe, factor, text) => {
    expect(nodeStatusText(node, probe, factor)).toBe(text);
  });
});

describe('catalogue card state (core-platform.md §9)', () => {
  it.each([
    [{ status: 0 }, true, '即将上架'],
    [{ status: 1 }, false, null],
    [{ status: 1, available: false }, true, '已下架'],
    [{ status: 2 }, true, '已下架'],
    [{ status: 10 }, true, '本端不支持'],
  ])('%j -> disabled %s, label %s', (game, disabled, label) => {
    expect(gameAvailability(game)).toEqual({ disabled, label });
  });

  it('hvip counts as VVIP', () => {
    expect(memberBadge('vip')).toBe('VIP');
    expect(memberBadge('hvip')).toBe('VVIP');
    expect(memberBadge(null)).toBeNull();
  });
});

describe('formats and checks', () => {
  it('formats online time as HH:MM:SS', () => {
    expect(formatHMS(0)).toBe('00:00:00');
    expect(formatHMS(3725.9)).toBe('01:02:05');
    expect(formatHMS(-3)).toBe('00:00:00');
  });

  it('detects MSIE and IE 11, not modern browsers', () => {
    expect(isOldBrowser('Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1)')).toBe(true);
    expect(isOldBrowser('Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko')).toBe(true);
    expect(isOldBrowser('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36')).toBe(false);
  });
});
