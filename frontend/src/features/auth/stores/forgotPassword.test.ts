import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { makeRoot } from '../../../test/helpers';
import { AccountSecurityStore, ForgotPasswordStore, PASSWORD_CHANGED, PASSWORD_SET } from './forgotPassword';

describe('forgot / change / set password (core-platform.md §2.5)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('the code, 下一步 for the ticket, then the new password with its rules and the ticket', async () => {
    const { t, root } = await makeRoot({ loggedIn: false });
    t.api.on('POST', '/api/passport/passwordForget/sendcode', () => null);
    t.api.on('POST', '/api/password/forget/verify', (b) => (b.code === '123456' ? { ticket: 'tk' } : fail(20113, '验证码错误或已过期')));
    t.api.on('POST', '/api/password/forget/update', () => ({ first: false, message: PASSWORD_CHANGED }));
    const store = new ForgotPasswordStore(root, 'forget');
    expect(await store.next()).toBe(false);
    expect(store.phoneError).toBe('手机号不能为空');
    store.setPhone('13800000000');
    expect(await store.sendCode()).toBe(true);
    expect(t.api.callsTo('/api/passport/passwordForget/sendcode')[0].body).toEqual({ phone: '13800000000' });
    expect(root.user.codeCountdown).toBe(60);
    store.setCode('000000');
    expect(await store.next()).toBe(false);
    expect(store.serverError).toBe('验证码错误或已过期');
    store.setCode('123456');
    expect(await store.next()).toBe(true);
    expect(store.step).toBe(2);

    expect(await store.finish()).toBe(false);
    expect([store.passwordError, store.confirmError]).toEqual(['登录密码不能为空', '确认登录密码不能为空']);
    store.setPassword('abcd1234');
    store.setConfirm('abcd1234');
    expect(await store.finish()).toBe(false);
    expect(store.passwordError).toBe('密码8-16位，需包含数字、字母和特殊字符');
    store.setPassword('abc123!@');
    store.setConfirm('abc123!#');
    expect(await store.finish()).toBe(false);
    expect(store.confirmError).toBe('两次密码设置不一致');
    expect(t.api.callsTo('/api/password/forget/update')).toHaveLength(0);
    store.setConfirm('abc123!@');
    expect(await store.finish()).toBe(true);
    expect(t.api.callsTo('/api/password/forget/update')[0].body).toEqual({ cellphone: '13800000000', password: 'YWJjMTIzIUA=', ticket: 'tk' });
    expect(store.done).toBe(true);
    expect(root.ui.toasts.map((x) => x.message)).toContain(PASSWORD_CHANGED);
    expect(root.ui.loginOpen).toBe(true);
    root.dispose();
  });

  it("a replaced password logs this tab out; a first one keeps the login and says 设置成功; the server's refusal shows", async () => {
    const { t, root } = await makeRoot({ loggedIn: true });
    t.api.on('POST', '/api/password/forget/verify', () => ({ ticket: 'tk' }));
    let first = true;
    t.api.on('POST', '/api/password/forget/update', () => (first ? { first: true, message: PASSWORD_SET } : fail(20123, '验证已失效，请重新验证手机号')));
    const store = new ForgotPasswordStore(root, 'set');
    store.setPhone('13800000000');
    store.setCode('123456');
    await store.next();
    store.setPassword('abc123!@');
    store.setConfirm('abc123!@');
    expect(await store.finish()).toBe(true);
    expect(root.ui.toasts.map((x) => x.message)).toContain(PASSWORD_SET);
    expect(root.user.isLoggedIn).toBe(true);
    first = false;
    const again = new ForgotPasswordStore(root, 'change');
    again.setPhone('13800000000');
    again.setCode('123456');
    await again.next();
    again.setPassword('abc123!@');
    again.setConfirm('abc123!@');
    expect(await again.finish()).toBe(false);
    expect(again.serverError).toBe('验证已失效，请重新验证手机号');
    root.dispose();
  });

  it('the account page opens set mode without a password and change mode with one', async () => {
    const { t, root } = await makeRoot({ loggedIn: true });
    let password = false;
    t.api.on('GET', '/api/v3/user/binding/state', () => ({ phone: true, password }));
    const entry = new AccountSecurityStore(root);
    entry.open();
    expect(entry.mode).toBeNull();
    await entry.load();
    expect(entry.label).toBe('设置密码');
    entry.open();
    expect(entry.mode).toBe('set');
    password = true;
    entry.close();
    await vi.waitFor(() => expect(entry.label).toBe('修改密码'));
    entry.open();
    expect(entry.mode).toBe('change');
    root.dispose();
  });
});
