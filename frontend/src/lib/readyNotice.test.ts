import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEDUP_WINDOW_MS,
  JITTER_MS,
  READY_NOTICE_BODY,
  READY_NOTICE_TITLE,
  ReadyNotifier,
  SETTLE_MS,
  type ClaimChannel,
  type ReadyClaim,
} from './readyNotice';

/**
 * One simulated browser: a shared localStorage whose writes reach other tabs after
 * `storageLagMs` (0 = at once), and a BroadcastChannel bus delivering after `channelLagMs`.
 */
function simulatedBrowser(opts: { storageLagMs?: number; channelLagMs?: number; noStorage?: boolean } = {}) {
  const shared = new Map<string, string>();
  const channels: { tab: string; channel: ClaimChannel }[] = [];
  const shown: { tab: string; title: string; body: string }[] = [];
  let permission = 'granted';

  function tab(tabId: string, random: () => number) {
    const own = new Map<string, string>();
    const storage = {
      getItem: (k: string) => own.get(k) ?? shared.get(k) ?? null,
      setItem: (k: string, v: string) => {
        own.set(k, v);
        const lag = opts.storageLagMs ?? 0;
        if (lag === 0) shared.set(k, v);
        else setTimeout(() => shared.set(k, v), lag);
        // other tabs read the shared value once it landed; this tab reads its own write
        setTimeout(() => own.delete(k), lag);
      },
    };
    const channel: ClaimChannel = {
      onmessage: null,
      postMessage(message: ReadyClaim) {
        for (const other of channels) {
          if (other.channel === channel) continue; // BroadcastChannel does not echo to its sender
          setTimeout(() => other.channel.onmessage?.({ data: structuredClone(message) }), opts.channelLagMs ?? 1);
        }
      },
      close() {},
    };
    channels.push({ tab: tabId, channel });
    return new ReadyNotifier({
      now: () => Date.now(),
      random,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      storage: opts.noStorage ? null : storage,
      channel,
      permission: () => permission,
      show: (title, body) => shown.push({ tab: tabId, title, body }),
      tabId,
    });
  }

  return {
    tab,
    shown,
    setPermission(p: string) {
      permission = p;
    },
  };
}

/** Lets every timer of one notify round (jitter, lags, settle) run. */
const ROUND_MS = JITTER_MS + SETTLE_MS + 100;

describe('ready notice de-duplication across tabs (core-platform.md §2.10)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-06-01T12:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('two tabs see the same READY: the tab whose jitter ends first notifies, the other stays silent', async () => {
    const browser = simulatedBrowser();
    const a = browser.tab('tab-a', () => 0.8);
    const b = browser.tab('tab-b', () => 0.1);
    const results = Promise.all([a.notify('sess-1'), b.notify('sess-1')]);
    await vi.advanceTimersByTimeAsync(ROUND_MS);
    expect(await results).toEqual([false, true]);
    expect(browser.shown).toEqual([{ tab: 'tab-b', title: READY_NOTICE_TITLE, body: READY_NOTICE_BODY }]);
    expect(READY_NOTICE_TITLE).toBe('登机提醒');
    expect(READY_NOTICE_BODY).toBe('游戏已准备就绪，请返回网站确认启动');
  });

  it('two tabs waking in the same millisecond before the storage write lands: one notifies', async () => {
    const browser = simulatedBrowser({ storageLagMs: 30, channelLagMs: 5 });
    const a = browser.tab('tab-a', () => 0.5);
    const b = browser.tab('tab-b', () => 0.5);
    const results = Promise.all([a.notify('sess-1'), b.notify('sess-1')]);
    await vi.advanceTimersByTimeAsync(ROUND_MS);
    expect((await results).filter(Boolean)).toHaveLength(1);
    expect(browser.shown).toHaveLength(1);
  });

  it('without localStorage the channel alone keeps it to one', async () => {
    const browser = simulatedBrowser({ noStorage: true, channelLagMs: 3 });
    const a = browser.tab('tab-a', () => 0.3);
    const b = browser.tab('tab-b', () => 0.3);
    await Promise.all([a.notify('sess-1'), b.notify('sess-1'), vi.advanceTimersByTimeAsync(ROUND_MS)]);
    expect(browser.shown).toHaveLength(1);
  });

  it('a repeat within 3 s in either tab is suppressed; after 3 s, or for another session, it notifies', async () => {
    const browser = simulatedBrowser();
    const a = browser.tab('tab-a', () => 0);
    const b = browser.tab('tab-b', () => 0);
    await Promise.all([a.notify('sess-1'), vi.advanceTimersByTimeAsync(ROUND_MS)]);
    await Promise.all([b.notify('sess-1'), a.notify('sess-1'), vi.advanceTimersByTimeAsync(ROUND_MS)]);
    expect(browser.shown).toHaveLength(1);
    await Promise.all([b.notify('sess-2'), vi.advanceTimersByTimeAsync(ROUND_MS)]);
    expect(browser.shown.map((s) => s.tab)).toEqual(['tab-a', 'tab-b']);
    await vi.advanceTimersByTimeAsync(DEDUP_WINDOW_MS);
    await Promise.all([b.notify('sess-1'), vi.advanceTimersByTimeAsync(ROUND_MS)]);
    expect(browser.shown).toHaveLength(3);
  });

  it('the same tab asked twice at once (a re-run effect) notifies once', async () => {
    const browser = simulatedBrowser();
    const a = browser.tab('tab-a', () => 0.2);
    await Promise.all([a.notify('sess-1'), a.notify('sess-1'), vi.advanceTimersByTimeAsync(ROUND_MS)]);
    expect(browser.shown).toHaveLength(1);
  });

  it('no notification without permission', async () => {
    const browser = simulatedBrowser();
    browser.setPermission('default');
    const a = browser.tab('tab-a', () => 0);
    expect(await a.notify('sess-1')).toBe(false);
    expect(browser.shown).toHaveLength(0);
  });
});
