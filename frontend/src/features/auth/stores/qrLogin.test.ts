import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { makeRoot, settle } from '../../../test/helpers';
import { QR_RETRY_MS, QrLoginState, QrLoginStore } from './qrLogin';

/** Answers the poll with each given code in turn (0: logged in), then keeps the last. */
function answers(codes: number[]) {
  let i = 0;
  return () => {
    const c = codes[Math.min(i++, codes.length - 1)];
    if (c === 0) return { uid: 10001, nickname: '玩家10001', is_new_user: false, give_goods: [] };
    return fail(c, `code ${c}`);
  };
}

describe('app-QR login (core-platform.md §4.12)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waiting, scanned, then logged in like any login; the dialog closes', async () => {
    const env = await makeRoot({ loggedIn: false });
    const { t, root } = env;
    t.api.on('GET', '/api/user/v1/auth/login/qrcode', () => ({ qrcode: '/api/dev/app/qr-login/abc', ticket: 'abc' }));
    t.api.on('POST', '/api/user/v1/auth/login/qrcode', answers([20142, 20143, 20142, 0]));
    root.ui.openLogin();
    const qr = new QrLoginStore(root);
    const seen: number[] = [];
    const done = qr.load();
    await done;
    seen.push(qr.state);
    expect(qr.url).toBe(`${window.location.origin}/api/dev/app/qr-login/abc`);
    env.setLoggedIn(true);
    await vi.waitFor(() => expect(root.user.isLoggedIn).toBe(true));
    expect(seen).toEqual([QrLoginState.LOAD_SUCCESS]);
    expect(qr.state).toBe(QrLoginState.SCAN_SUCCESS);
    expect(root.ui.loginOpen).toBe(false);
    const polls = t.api.callsTo('/api/user/v1/auth/login/qrcode').filter((c) => c.method === 'POST');
    expect(polls).toHaveLength(4);
    expect(polls[0].body).toMatchObject({ ticket: 'abc' });
    root.dispose();
  });

  it('expired and cancelled codes stop and can be refreshed; other errors retry after 10 s', async () => {
    const { t, root } = await makeRoot({ loggedIn: false });
    let n = 0;
    t.api.on('GET', '/api/user/v1/auth/login/qrcode', () => ({ qrcode: `/q/${++n}`, ticket: `t${n}` }));
    t.api.on('POST', '/api/user/v1/auth/login/qrcode', answers([20140]));
    const qr = new QrLoginStore(root);
    await qr.load();
    await settle();
    expect(qr.state).toBe(QrLoginState.TIMEOUT);
    expect(qr.refreshable).toBe(true);

    t.api.on('POST', '/api/user/v1/auth/login/qrcode', answers([50000, 20141]));
    qr.refresh();
    await settle();
    expect(qr.url).toContain('/q/2');
    expect(qr.state).toBe(QrLoginState.LOAD_SUCCESS);
    await vi.advanceTimersByTimeAsync(QR_RETRY_MS - 1);
    expect(t.api.callsTo('/api/user/v1/auth/login/qrcode').filter((c) => c.method === 'POST')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(qr.state).toBe(QrLoginState.SCAN_CANCEL);

    // a failed fetch of the code
    t.api.on('GET', '/api/user/v1/auth/login/qrcode', () => fail(50000, 'busy'));
    qr.refresh();
    await settle();
    expect(qr.state).toBe(QrLoginState.LOAD_FAIL);
    // stopped: nothing more is asked
    qr.stop();
    root.dispose();
  });
});
