import { describe, expect, it, vi } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { makeRoot, settle } from '../../../test/helpers';
import { AccountCentreStore, type UcWindow } from './accountCentre';

const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const CAR = 'Mozilla/5.0 (Linux; Android 9) AppleWebKit/537.36 Car-AliOS Chrome/90.0 Safari/537.36';

/** A window that records where it went and whether it was closed. */
function fakeWindow() {
  const w = { location: { href: '' }, closed: false, opener: {} as unknown, close: () => void (w.closed = true) };
  return w;
}

async function env({ loggedIn = true, ua = DESKTOP, blocked = false } = {}) {
  const e = await makeRoot({ loggedIn });
  const windows: ReturnType<typeof fakeWindow>[] = [];
  const store = new AccountCentreStore(
    e.root,
    (): UcWindow | null => {
      if (blocked) return null;
      const w = fakeWindow();
      windows.push(w);
      return w;
    },
    () => ua,
  );
  return { ...e, store, windows };
}

const LOGIN = { url: '/api/dev/uc/agent-login?payload=abc&sign=00', payload: 'abc', sign: '00', target: 'INFO', expires_at: 1 };

describe('the account centre (core-platform.md §2.6, §7.2, §8.1)', () => {
  it('opens a window in the click, then sends it to the signed agent login', async () => {
    const { store, t, windows } = await env();
    let release: () => void = () => undefined;
    t.api.on('POST', '/api/user/v1/uc/login', () => new Promise((r) => (release = () => r(LOGIN))));
    const done = store.open('INFO');
    expect(windows).toHaveLength(1);
    expect(windows[0]!.opener).toBeNull();
    expect(windows[0]!.location.href).toBe('');
    await settle();
    expect(store.opening).toBe('INFO');
    // a second click while it opens opens nothing more
    await store.open('AVATAR');
    expect(windows).toHaveLength(1);
    expect(t.api.callsTo('/api/user/v1/uc/login')).toHaveLength(1);
    release();
    await done;
    expect(windows[0]!.location.href).toBe(LOGIN.url);
    expect(windows[0]!.closed).toBe(false);
    expect(store.opening).toBeNull();
    const body = t.api.callsTo('/api/user/v1/uc/login')[0]!.body as { redirect_url: string; target: string };
    expect(body.target).toBe('INFO');
    expect(body.redirect_url.startsWith('/')).toBe(true);
  });

  it('AVATAR by default', async () => {
    const { store, t } = await env();
    t.api.on('POST', '/api/user/v1/uc/login', () => LOGIN);
    await store.open();
    expect((t.api.callsTo('/api/user/v1/uc/login')[0]!.body as { target: string }).target).toBe('AVATAR');
  });

  it('on error the window opened beforehand is closed and the server message shown', async () => {
    const { root, store, t, windows } = await env();
    t.api.on('POST', '/api/user/v1/uc/login', () => fail(20270, '跳转地址不正确'));
    await store.open('HOME');
    expect(windows[0]!.closed).toBe(true);
    expect(windows[0]!.location.href).toBe('');
    expect(root.ui.toasts.some((x) => x.type === 'error' && x.message === '跳转地址不正确')).toBe(true);
    expect(store.opening).toBeNull();
  });

  it('a guest gets the login dialog and no window', async () => {
    const { root, store, t, windows } = await env({ loggedIn: false });
    await store.open('INFO');
    expect(root.ui.loginOpen).toBe(true);
    expect(windows).toHaveLength(0);
    expect(t.api.callsTo('/api/user/v1/uc/login')).toHaveLength(0);
  });

  it('in a car the car action dialog shows the address instead of a window', async () => {
    const { root, store, t, windows } = await env({ ua: CAR });
    t.api.on('POST', '/api/user/v1/uc/login', () => LOGIN);
    await store.open('AVATAR');
    expect(windows).toHaveLength(0);
    expect(root.ui.carAction?.url).toBe(new URL(LOGIN.url, window.location.origin).href);
  });

  it('the account centre window closed: the user is re-read once', async () => {
    vi.useFakeTimers();
    try {
      const { store, t, windows } = await env();
      t.api.on('POST', '/api/user/v1/uc/login', () => LOGIN);
      await store.open('AVATAR');
      const reads = t.api.callsTo('/api/user/profile').length;
      await vi.advanceTimersByTimeAsync(3000);
      expect(t.api.callsTo('/api/user/profile').length).toBe(reads);
      windows[0]!.close();
      await vi.advanceTimersByTimeAsync(1000);
      expect(t.api.callsTo('/api/user/profile').length).toBe(reads + 1);
      window.dispatchEvent(new Event('focus'));
      await vi.advanceTimersByTimeAsync(5000);
      expect(t.api.callsTo('/api/user/profile').length).toBe(reads + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('back from the account centre the user is re-read', async () => {
    const { store, t } = await env();
    t.api.on('POST', '/api/user/v1/uc/login', () => LOGIN);
    await store.open('INFO');
    const reads = t.api.callsTo('/api/user/profile').length;
    window.dispatchEvent(new Event('focus'));
    await settle();
    expect(t.api.callsTo('/api/user/profile').length).toBe(reads + 1);
    window.dispatchEvent(new Event('focus'));
    await settle();
    expect(t.api.callsTo('/api/user/profile').length).toBe(reads + 1);
  });
});
