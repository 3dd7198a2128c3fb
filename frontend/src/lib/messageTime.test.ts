import { describe, expect, it } from 'vitest';
import { cardAction, messageTime } from './messageTime';

import { beijingMs as beijing } from './time';

describe('messageTime (social.md §2.9)', () => {
  const now = beijing(2026, 11, 27, 20, 30);
  it.each([
    ['2026-11-27 09:05:33', '09:05'],
    ['2026-11-27 00:00:00', '00:00'],
    ['2026-11-26 23:59:59', '11-26 23:59'],
    ['2026-01-01 08:00:00', '01-01 08:00'],
    ['2025-12-31 23:59:59', '2025-12-31 23:59'],
    ['not a time', 'not a time'],
  ])('%s reads %s', (sent, shown) => {
    expect(messageTime(sent, now)).toBe(shown);
  });

  it('takes the day in Beijing time, not the browser zone', () => {
    // 2026-11-28 01:00 in Beijing is still the 27th in UTC
    const early = beijing(2026, 11, 28, 1, 0);
    expect(messageTime('2026-11-28 00:30:00', early)).toBe('00:30');
    expect(messageTime('2026-11-27 23:30:00', early)).toBe('11-27 23:30');
  });
});

describe('cardAction', () => {
  it.each([
    ['{"goods_type":"time_card","auto_activate":0}', 'backpack'],
    ['{"goods_type":"time_card","auto_activate":2}', 'backpack'],
    ['{"goods_type":"time_card","auto_activate":"1"}', 'shop'],
    ['{"goods_type":"time_card"}', null],
    ['{"auto_activate":5}', null],
    ['', null],
    ['{', null],
  ])('%s → %s', (param, action) => {
    expect(cardAction(param)).toBe(action);
  });
});
