import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { makeRoot, settle } from '../../../test/helpers';
import { ThirdPartyStore } from './thirdParty';

describe('third-party login (core-platform.md §2.3, §2.4, §4.13)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("only this site's callback page is heard; 20108 opens the bind; closing it fails the login", async () => {
    const { t, root } = await makeRoot({ loggedIn: false });
    t.api.on('POST', '/api/auth/authorize/token/login', () => fail(20108, '为保障您的账户安全，请绑定手机号'));
    const store = new ThirdPartyStore(root);
    const stop = store.listen();
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://evil.example', data: { type: 'yoo-oauth', token: 't' } }));
    window.dispatchEvent(new MessageEvent('message', { origin: window.location.origin, data: { type: 'other', token: 't' } }));
    await settle();
    expect(t.api.callsTo('/api/auth/authorize/token/login')).toHaveLength(0);

    window.dispatchEvent(new MessageEvent('message', { origin: window.location.origin, data: { type: 'yoo-oauth', token: 'tok' } }));
    await vi.waitFor(() => expect(store.bindToken).toBe('tok'));
    expect(t.api.callsTo('/api/auth/authorize/token/login')[0].body).toMatchObject({ token: 'tok' });

    root.ui.openLogin();
    store.cancelBind();
    expect(store.bindToken).toBeNull();
    expect(root.ui.loginOpen).toBe(false);
    expect(root.ui.toasts.map((x) => x.message)).toContain('已取消手机绑定，登录失败');
    stop();
    root.dispose();
  });

  it('the bind checks the phone and code before it asks the server', async () => {
    const { t, root } = await makeRoot({ loggedIn: false });
    const store = new ThirdPartyStore(root);
    store.bindToken = 'tok';
    await store.bindLogin();
    expect(store.error).toBe('手机号不能为空');
    store.setPhone('138-0000-0000x');
    expect(store.phone).toBe('13800000000');
    await store.bindLogin();
    expect(store.error).toBe('验证码不能为空');
    expect(t.api.callsTo('/api/passport/authorize/token/bind-phone/login')).toHaveLength(0);
    root.dispose();
  });
});
