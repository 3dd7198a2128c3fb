import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeApi, fail } from '../../../test/fakeTransport';
import { QR_RETRY_MS, QrLoginState } from '../../auth/stores/qrLogin';
import { QR_CERT_TEXT, QrCertificationStore } from './qrCertification';

const GENERATE = '/api/v3/qrcode/generate';
const POLL = '/api/v3/qrcode/polling';

function setup(answers: Array<() => unknown>) {
  const api = new FakeApi();
  let tickets = 0;
  api.on('GET', GENERATE, () => {
    tickets += 1;
    return { qrcode: `http://127.0.0.1/qrcode/certification?ticket=T${tickets}`, ticket: `T${tickets}`, order_no: '', expires_in: 300 };
  });
  let i = 0;
  // after the answers given, a poll waits (as the server's 25 s long poll does)
  api.on('POST', POLL, () => (i < answers.length ? answers[i++]() : new Promise(() => undefined)));
  return { api, store: new QrCertificationStore(api) };
}

// core-platform.md §2.15 in-car variant, §4.9: loading → scanned (polling on) → certified; the
// code's end or cancel stop and offer a refresh; any other error polls again after 10 s.
describe('QrCertificationStore', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('scanned, waiting, then certified', async () => {
    const { api, store } = setup([() => fail(20143, ''), () => fail(20142, ''), () => ({ success: true, idauth: {} })]);
    await store.load();
    await vi.waitFor(() => expect(store.certified).toBe(true));
    expect(api.callsTo(GENERATE)[0].body).toEqual({ action: 'idauth' });
    expect(api.callsTo(POLL).map((c) => c.body)).toEqual([{ ticket: 'T1' }, { ticket: 'T1' }, { ticket: 'T1' }]);
    expect(store.state).toBe(QrLoginState.SCAN_SUCCESS);
    expect(QR_CERT_TEXT[QrLoginState.SCAN_SUCCESS]).toBe('扫码成功，请在手机上完成认证');
  });

  it('expired: 二维码已过期, a click fetches a new code; cancelled: 二维码已取消', async () => {
    const { api, store } = setup([() => fail(20140, ''), () => fail(20141, '')]);
    await store.load();
    await vi.waitFor(() => expect(store.state).toBe(QrLoginState.TIMEOUT));
    expect(store.refreshable).toBe(true);
    store.refresh();
    await vi.waitFor(() => expect(store.state).toBe(QrLoginState.SCAN_CANCEL));
    expect(api.callsTo(GENERATE)).toHaveLength(2);
    expect(api.callsTo(POLL).at(-1)?.body).toEqual({ ticket: 'T2' });
  });

  it('another error polls again after 10 s, not before; stop ends the polling', async () => {
    const { api, store } = setup([() => fail(50000, 'busy'), () => fail(20142, ''), () => fail(50000, 'busy')]);
    await store.load();
    await vi.advanceTimersByTimeAsync(QR_RETRY_MS - 1);
    expect(api.callsTo(POLL)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(api.callsTo(POLL)).toHaveLength(3), { timeout: 50 });
    // the third failed too: stopped while it waits, no poll follows
    store.stop();
    await vi.advanceTimersByTimeAsync(QR_RETRY_MS * 3);
    expect(api.callsTo(POLL)).toHaveLength(3);
  });

  it('a code that cannot be had: 二维码加载失败', async () => {
    const api = new FakeApi();
    api.on('GET', GENERATE, () => fail(50000, 'busy'));
    const store = new QrCertificationStore(api);
    await store.load();
    expect(store.state).toBe(QrLoginState.LOAD_FAIL);
    expect(QR_CERT_TEXT[store.state]).toBe('二维码加载失败');
  });
});
