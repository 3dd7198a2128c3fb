import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LAZY_RETRY_MS, LazyPushChannel } from './lazyChannel';
import type { PushChannel } from './types';

class FakeChannel implements PushChannel {
  isOpen = false;
  opens = 0;
  open(): void {
    this.opens++;
    this.isOpen = true;
  }
  close(): void {
    this.isOpen = false;
  }
  readonly watches: string[] = [];
  watchRoom(ddRid: number, epoch: string, afterOffset: number): void {
    this.watches.push(`${ddRid}:${epoch}:${afterOffset}`);
  }
  unwatchRoom(ddRid: number): void {
    this.watches.push(`-${ddRid}`);
  }
}

describe('LazyPushChannel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  // the socket's code is loaded on the first open, once, and the channel then opens
  it('loads on the first open only and opens the loaded channel', async () => {
    const inner = new FakeChannel();
    const load = vi.fn(async () => inner);
    const ch = new LazyPushChannel(load);
    expect(load).not.toHaveBeenCalled();
    ch.open();
    ch.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
    expect(inner.opens).toBe(1);
    expect(ch.isOpen).toBe(true);
    ch.close();
    expect(ch.isOpen).toBe(false);
    ch.open();
    expect(inner.opens).toBe(2);
    expect(load).toHaveBeenCalledTimes(1);
  });

  // a close asked while the code loads wins: the loaded channel stays closed
  it('keeps a close asked during the load', async () => {
    const inner = new FakeChannel();
    const ch = new LazyPushChannel(async () => inner);
    ch.open();
    ch.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(inner.opens).toBe(0);
    expect(ch.isOpen).toBe(false);
  });

  // a failed load is retried after 5 s while the channel is wanted, and not after a close
  it('retries a failed load after 5 s while wanted', async () => {
    const inner = new FakeChannel();
    let fail = true;
    const load = vi.fn(async () => {
      if (fail) throw new Error('chunk failed');
      return inner;
    });
    const ch = new LazyPushChannel(load);
    ch.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
    fail = false;
    await vi.advanceTimersByTimeAsync(LAZY_RETRY_MS - 1);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    expect(inner.isOpen).toBe(true);

    const other = new LazyPushChannel(async () => {
      throw new Error('down');
    });
    const spy = vi.spyOn(other as unknown as { startLoad(): void }, 'startLoad');
    other.open();
    await vi.advanceTimersByTimeAsync(0);
    other.close();
    await vi.advanceTimersByTimeAsync(LAZY_RETRY_MS * 3);
    expect(spy).toHaveBeenCalledTimes(1);
  });
});
