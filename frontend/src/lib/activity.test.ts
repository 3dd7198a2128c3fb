import { describe, expect, it } from 'vitest';
import { activityDisabled, activityStatus } from './activity';

// 2025-06-01 00:00:00 UTC+8
const JUNE_1 = 1_748_707_200_000;

describe('activity status (commerce.md §4.13)', () => {
  it('reads the times as Beijing time; a malformed one reads as ended', () => {
    expect(activityStatus('2025-06-01', '2025-06-08 00:00:00', JUNE_1)).toBe(1);
    expect(activityStatus('2025-06-01 00:00:00', '2025-06-08', JUNE_1 - 1)).toBe(0);
    expect(activityStatus('2025-02-30 00:00:00', '2025-06-08 00:00:00', JUNE_1)).toBe(2);
  });

  it('is 0 before the start, 1 until the end, 2 after', () => {
    const [s, e] = ['2025-06-01 00:00:00', '2025-06-08 00:00:00'];
    expect(activityStatus(s, e, JUNE_1 - 1)).toBe(0);
    expect(activityStatus(s, e, JUNE_1)).toBe(1);
    expect(activityStatus(s, e, JUNE_1 + 7 * 86_400_000 - 1)).toBe(1);
    expect(activityStatus(s, e, JUNE_1 + 7 * 86_400_000)).toBe(2);
    expect(activityStatus('x', e, JUNE_1)).toBe(2);
    expect(activityStatus(e, s, JUNE_1 + 86_400_000)).toBe(2);
    expect([0, 1, 2].map(activityDisabled)).toEqual([true, false, true]);
  });
});
