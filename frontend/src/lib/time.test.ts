import { describe, expect, it } from 'vitest';
import { beijingDayEnd, beijingMs, beijingDayStart, beijingTime, formatDate, formatDateTime, formatDateTimeSeconds, formatSlashDateTime, parseBeijing, formatPlayTime } from './time';

describe('play time (commerce.md §9, core-platform.md §9)', () => {
  // exactly one hour is '60分钟'; above it hours and minutes; minutes are rounded up, 60 rolls over
  it('shows one hour as 60分钟 and rounds minutes up', () => {
    expect(formatPlayTime(60)).toBe('60分钟');
    expect(formatPlayTime(59.2)).toBe('60分钟');
    expect(formatPlayTime(0)).toBe('0分钟');
    expect(formatPlayTime(1)).toBe('1分钟');
    expect(formatPlayTime(60.5)).toBe('1小时1分钟');
    expect(formatPlayTime(61)).toBe('1小时1分钟');
    expect(formatPlayTime(119.01)).toBe('2小时0分钟');
    expect(formatPlayTime(150)).toBe('2小时30分钟');
    expect(formatPlayTime(undefined)).toBe('0分钟');
    expect(formatPlayTime(-5)).toBe('0分钟');
  });
});

/** ms of a Beijing wall-clock time */
const beijing = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) => Date.UTC(y, mo - 1, d, h - 8, mi, s, ms);

describe('Beijing time (UTC+8, the server\'s business clock)', () => {
  it('reads the wall clock of an instant in Beijing, not in the browser\'s zone', () => {
    // 2026-11-27 17:30 UTC is already the 28th in Beijing
    expect(beijingTime(Date.UTC(2026, 10, 27, 17, 30, 5))).toEqual({ year: 2026, month: 11, day: 28, hour: 1, minute: 30, second: 5 });
    expect(beijingTime(Date.UTC(2025, 11, 31, 16, 0))).toMatchObject({ year: 2026, month: 1, day: 1, hour: 0 });
  });

  it('the instant of a Beijing wall-clock time', () => {
    expect(beijingMs(2026, 11, 28, 1, 30, 5)).toBe(Date.UTC(2026, 10, 27, 17, 30, 5));
    expect(beijingMs(2026, 1, 1)).toBe(Date.UTC(2025, 11, 31, 16, 0));
    expect(beijingTime(beijingMs(2024, 2, 29, 23, 59, 59))).toEqual({ year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59 });
  });

  it('the start and the end of the Beijing day', () => {
    const noon = beijing(2026, 11, 27, 12);
    expect(beijingDayStart(noon)).toBe(beijing(2026, 11, 27));
    expect(beijingDayEnd(noon)).toBe(beijing(2026, 11, 27, 23, 59, 59, 999));
    expect(new Date(beijingDayEnd(noon)).toISOString()).toBe('2026-11-27T15:59:59.999Z');
    // the day's own edges belong to it
    expect(beijingDayStart(beijing(2026, 11, 27))).toBe(beijing(2026, 11, 27));
    expect(beijingDayEnd(beijing(2026, 11, 27, 23, 59, 59, 999))).toBe(beijing(2026, 11, 27, 23, 59, 59, 999));
    expect(beijingDayStart(beijing(2026, 11, 28))).toBe(beijing(2026, 11, 28));
  });

  it('writes dates and times in Beijing time', () => {
    expect(formatDate(Date.UTC(2025, 5, 30, 16, 0))).toBe('2025-07-01');
    // card expiry as YYYY-MM-DD HH:mm
    expect(formatDateTime(Date.UTC(2025, 5, 30, 15, 59, 59))).toBe('2025-06-30 23:59');
    expect(formatDateTime(Date.UTC(2025, 11, 31, 16, 5))).toBe('2026-01-01 00:05');
    expect(formatDateTimeSeconds(beijing(2026, 11, 23, 23, 59, 59, 999))).toBe('2026-11-23 23:59:59');
    expect(formatDateTimeSeconds(beijing(2026, 1, 5, 9, 3, 4))).toBe('2026-01-05 09:03:04');
  });

  it('the zh-CN way (YYYY/M/D HH:mm:ss) is the browser\'s own Asia/Shanghai text', () => {
    for (const ms of [0, beijing(2026, 1, 5, 9, 3, 4), beijing(2026, 11, 27, 23, 59, 59), beijing(2026, 12, 31, 0, 0, 0)]) {
      expect(formatSlashDateTime(ms)).toBe(new Date(ms).toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai' }));
    }
    expect(formatSlashDateTime(beijing(2026, 1, 5, 9, 3, 4))).toBe('2026/1/5 09:03:04');
  });

  it('parses YYYY-MM-DD HH:mm:ss and YYYY-MM-DD as Beijing time; a malformed or unreal time is null', () => {
    const june1 = 1_748_707_200_000; // 2025-06-01 00:00:00 UTC+8
    expect(parseBeijing('2025-06-01 00:00:00')).toBe(june1);
    expect(parseBeijing('2025-06-01')).toBe(june1);
    expect(parseBeijing(' 2025-06-01 08:30:15 ')).toBe(june1 + (8 * 60 + 30) * 60_000 + 15_000);
    expect(parseBeijing('2025-02-30 00:00:00')).toBeNull();
    expect(parseBeijing('2025-13-01')).toBeNull();
    expect(parseBeijing('2025-06-01 24:00:00')).toBeNull();
    expect(parseBeijing('2025-06-01 12:60:00')).toBeNull();
    expect(parseBeijing('tomorrow')).toBeNull();
    // the text it writes reads back to the same second
    const t = beijing(2026, 2, 28, 23, 59, 59);
    expect(parseBeijing(formatDateTimeSeconds(t))).toBe(t);
  });
});
