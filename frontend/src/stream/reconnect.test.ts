import { afterEach, beforeEach, vi } from 'vitest';
import { MAX_RECONNECT_ATTEMPTS, ReconnectPolicy, RECONNECT_DELAYS_MS } from './reconnect';

describe('ReconnectPolicy', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('retries after 250 ms, then backs off to 4 s, and gives up after the last attempt', () => {
    const run = vi.fn();
    const p = new ReconnectPolicy(run);
    const seen: number[] = [];
    for (let i = 0; i < MAX_RECONNECT_ATTEMPTS; i++) {
      expect(p.schedule()).toBe(true);
      const delay = RECONNECT_DELAYS_MS[Math.min(i, RECONNECT_DELAYS_MS.length - 1)];
      vi.advanceTimersByTime(delay - 1);
      expect(run).toHaveBeenCalledTimes(i);
      vi.advanceTimersByTime(1);
      expect(run).toHaveBeenCalledTimes(i + 1);
      seen.push(delay);
    }
    expect(seen.slice(0, 5)).toEqual([250, 1000, 2000, 4000, 4000]);
    expect(p.exhausted).toBe(true);
    expect(p.schedule()).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(run).toHaveBeenCalledTimes(MAX_RECONNECT_ATTEMPTS);
  });

  it('a second drop while a retry waits schedules nothing more', () => {
    const run = vi.fn();
    const p = new ReconnectPolicy(run);
    p.schedule();
    p.schedule();
    expect(p.pending).toBe(true);
    vi.advanceTimersByTime(10_000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(p.attempts).toBe(1);
  });

  it('success starts the delays over; restart runs at once; cancel stops a waiting retry', () => {
    const run = vi.fn();
    const p = new ReconnectPolicy(run, { delaysMs: [100, 1000], maxAttempts: 2 });
    p.schedule();
    vi.advanceTimersByTime(100);
    p.schedule();
    expect(p.nextDelayMs()).toBe(1000);
    vi.advanceTimersByTime(1000);
    expect(p.schedule()).toBe(false);
    p.succeeded();
    expect(p.nextDelayMs()).toBe(100);
    p.schedule();
    p.cancel();
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(2);
    p.restart();
    expect(run).toHaveBeenCalledTimes(3);
    expect(p.attempts).toBe(0);
  });
});
