import { describe, expect, it } from 'vitest';
import { formatPlayTime } from './time';

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
