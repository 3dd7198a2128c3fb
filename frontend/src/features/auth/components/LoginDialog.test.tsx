import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StoreProvider } from '../../../kernel/storeContext';
import { fail } from '../../../test/fakeTransport';
import { makeRoot } from '../../../test/helpers';
import { CaptchaDialog } from './CaptchaDialog';
import { LoginDialog } from './LoginDialog';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const $ = (host: HTMLElement, id: string) => host.querySelector<HTMLElement>(`[data-testid="${id}"]`);

function type(input: HTMLElement | null, value: string) {
  const el = input as HTMLInputElement;
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('the login dialog with the account-and-password tab (core-platform.md §2.3, §4.13)', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('both tabs; the account tab logs in by password; 20125 opens the security check, closing it warns; 忘记密码 opens the forgot dialog', async () => {
    const { t, root: store } = await makeRoot({ loggedIn: false });
    t.api.on('POST', '/api/passport/password/login', () => fail(20125, '本次访问需要进行安全验证'));
    t.api.on('GET', '/api/passport/authorize/url', () => ({ url: 'about:blank' }));
    t.api.on('GET', '/api/passport/captcha/senseboot/register', () => ({
      gt: 'g',
      challenge: 'c1',
      new_captcha: true,
      success: 1,
      status: 'success',
      page_url: 'about:blank',
    }));
    const host = document.createElement('div');
    document.body.appendChild(host);
    const root = createRoot(host);
    act(() => store.ui.openLogin());
    act(() =>
      root.render(
        <StoreProvider store={store}>
          <MemoryRouter>
            <LoginDialog />
            <CaptchaDialog />
          </MemoryRouter>
        </StoreProvider>,
      ),
    );
    // the dialog opens on the messaging app's frame (core-platform.md §2.3's default type)
    await vi.waitFor(() => expect($(host, 'wechat-frame')).not.toBeNull());
    expect($(host, 'login-phone')).toBeNull();
    expect($(host, 'login-type-wechat')).toBeNull();
    act(() => $(host, 'login-type-phone')!.click());
    expect($(host, 'login-tab-phone')!.textContent).toBe('手机验证码登录');
    expect($(host, 'login-tab-account')!.textContent).toBe('账号密码登录');
    expect($(host, 'login-phone')).not.toBeNull();
    act(() => $(host, 'login-tab-account')!.click());
    expect($(host, 'login-phone')).toBeNull();
    expect($(host, 'login-type-phone')).toBeNull();
    type($(host, 'account-phone'), '13800000000');
    type($(host, 'account-password'), 'abc123!@');
    await act(async () => {
      $(host, 'account-submit')!.click();
    });
    await vi.waitFor(() => expect($(host, 'captcha-frame')).not.toBeNull());
    expect($(host, 'captcha-frame')!.getAttribute('src')).toBe('about:blank');
    act(() => $(host, 'captcha-dialog')!.querySelector<HTMLElement>('.modal__close')!.click());
    expect($(host, 'captcha-dialog')).toBeNull();
    expect(store.ui.toasts.map((x) => x.message)).toContain('本次访问需要进行安全验证');

    act(() => $(host, 'login-forgot')!.click());
    await vi.waitFor(() => expect($(host, 'password-dialog')).not.toBeNull());
    expect($(host, 'password-dialog')!.textContent).toContain('忘记密码');
    expect($(host, 'forget-next')!.textContent).toBe('下一步');
    act(() => root.unmount());
    store.dispose();
  });

  it('in a car: no phone entry and no tabs, even when asked for the phone type; the app QR is the phone scan (§2.3, §4.14)', async () => {
    const ua = vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0.0.0 Safari/537.36 Car-AliOS');
    const { t, root: store } = await makeRoot({ loggedIn: false });
    t.api.on('GET', '/api/passport/authorize/url', () => ({ url: 'about:blank' }));
    t.api.on('GET', '/api/user/v1/auth/login/qrcode', () => ({ qrcode: '/api/dev/app/qr-login/t', ticket: 't' }));
    // the long poll waits (nobody scans here)
    t.api.on('POST', '/api/user/v1/auth/login/qrcode', () => new Promise(() => undefined));
    const host = document.createElement('div');
    document.body.appendChild(host);
    const root = createRoot(host);
    act(() => store.ui.openLogin(undefined, 'phone'));
    act(() =>
      root.render(
        <StoreProvider store={store}>
          <MemoryRouter>
            <LoginDialog />
          </MemoryRouter>
        </StoreProvider>,
      ),
    );
    await vi.waitFor(() => expect($(host, 'wechat-frame')).not.toBeNull());
    for (const id of ['login-phone', 'login-tab-phone', 'login-tab-account', 'login-type-phone']) expect($(host, id), id).toBeNull();
    expect($(host, 'login-type-qq')).not.toBeNull();
    expect($(host, 'login-type-qrcode')!.textContent).toBe('手机扫码登录');
    act(() => $(host, 'login-type-qrcode')!.click());
    await vi.waitFor(() => expect($(host, 'qr-login')).not.toBeNull());
    expect($(host, 'login-type-phone')).toBeNull();
    expect($(host, 'login-type-wechat')).not.toBeNull();
    act(() => root.unmount());
    store.dispose();
    ua.mockRestore();
  });
});
