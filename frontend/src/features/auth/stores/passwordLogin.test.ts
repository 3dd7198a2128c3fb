import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { makeRoot, settle } from '../../../test/helpers';
import { encodePassword, isStrongPassword, safeCallbackUrl, validateConfirmPassword, validateNewPassword } from '../../../lib/password';
import { CHANGE_PASSWORD_PATH, PasswordLoginStore, WEAK_PASSWORD_PROMPT } from './passwordLogin';
import { CAPTCHA_CLOSED_WARNING, securityCheckOf } from './securityCheck';

const REGISTER = { gt: 'g', challenge: 'c1', new_captcha: true, success: 1, status: 'success', page_url: '/api/dev/captcha/page?challenge=c1' };
const RESULT = { uid: 10001, nickname: '玩家10001', is_new_user: false, give_goods: [] };

describe('password rules (core-platform.md §5.2)', () => {
  it('the strong pattern, the texts, the transform and the callback URL', () => {
    expect(isStrongPassword('abc123!@')).toBe(true);
    for (const weak of ['abcd1234', 'abc!1', 'abc123!@abc123!@x', 'abc 123!@', 'abc123-@']) expect(isStrongPassword(weak)).toBe(false);
    expect(validateNewPassword('')).toBe('登录密码不能为空');
    expect(validateNewPassword('abcd1234')).toBe('密码8-16位，需包含数字、字母和特殊字符');
    expect(validateConfirmPassword('', 'abc123!@')).toBe('确认登录密码不能为空');
    expect(validateConfirmPassword('abc123!#', 'abc123!@')).toBe('两次密码设置不一致');
    expect(validateConfirmPassword('abc123!@', 'abc123!@')).toBeNull();
    expect(encodePassword('abc123!@')).toBe('YWJjMTIzIUA=');
    expect(safeCallbackUrl('/game/detail/3?x=1')).toBe('/game/detail/3?x=1');
    for (const bad of [null, '', 'https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/login']) {
      expect(safeCallbackUrl(bad)).toBe('/');
    }
  });
});

describe('password login (core-platform.md §2.3, §4.13, §2.6)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('checks the fields first, sends the transformed password, and a strong one logs in without a prompt', async () => {
    const env = await makeRoot({ loggedIn: false });
    const { t, root } = env;
    const store = new PasswordLoginStore(root);
    expect(await store.submit()).toBe(false);
    expect([store.phoneError, store.passwordError]).toEqual(['手机号不能为空', '密码不能为空']);
    t.api.on('POST', '/api/passport/password/login', () => {
      env.setLoggedIn(true);
      return RESULT;
    });
    store.setPhone('138 0000 0000');
    store.setPassword('abc123!@');
    expect(await store.submit()).toBe(true);
    expect(t.api.callsTo('/api/passport/password/login')[0].body).toMatchObject({ user_name: '13800000000', password: 'YWJjMTIzIUA=' });
    expect(root.user.isLoggedIn).toBe(true);
    expect(root.ui.messageBoxes).toHaveLength(0);
    root.dispose();
  });

  it('a weak password gets the prompt, whose 立即前往 opens the change-password page', async () => {
    const env = await makeRoot({ loggedIn: false });
    env.t.api.on('POST', '/api/passport/password/login', () => {
      env.setLoggedIn(true);
      return RESULT;
    });
    const store = new PasswordLoginStore(env.root);
    store.setPhone('13800000000');
    store.setPassword('abcd1234');
    const done = store.submit();
    await vi.waitFor(() => expect(env.root.ui.messageBoxes).toHaveLength(1));
    const box = env.root.ui.messageBoxes[0];
    expect([box.title, box.message, box.confirmText, box.cancelText]).toEqual([
      WEAK_PASSWORD_PROMPT.title,
      WEAK_PASSWORD_PROMPT.message,
      '立即前往',
      '下次再说',
    ]);
    box.resolve(true);
    expect(await done).toBe(true);
    expect(env.navigations).toContain(CHANGE_PASSWORD_PATH);
    env.root.dispose();
  });

  it('20125 opens the security check; its result resubmits the login with it merged; 20128 reports and asks again', async () => {
    const env = await makeRoot({ loggedIn: false });
    const { t, root } = env;
    let answers = [() => fail(20125, '本次访问需要进行安全验证'), () => fail(20128, '安全验证失败，请重新验证')];
    t.api.on('POST', '/api/passport/password/login', () => {
      const next = answers.shift();
      if (next) return next();
      env.setLoggedIn(true);
      return RESULT;
    });
    t.api.on('GET', '/api/passport/captcha/senseboot/register', () => REGISTER);
    t.api.on('POST', '/api/v3/senseboot/report', () => null);
    const check = securityCheckOf(root);
    const store = new PasswordLoginStore(root);
    store.setPhone('13800000000');
    store.setPassword('abc123!@');
    const done = store.submit();
    await vi.waitFor(() => expect(check.captcha?.challenge).toBe('c1'));
    expect(store.serverError).toBeNull();

    // another site's message, or another challenge's, is not heard
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://evil.example', data: { type: 'yoo-captcha', challenge: 'c1', validate: 'v', seccode: 's' } }));
    window.dispatchEvent(new MessageEvent('message', { origin: window.location.origin, data: { type: 'yoo-captcha', challenge: 'c0', validate: 'v', seccode: 's' } }));
    await settle();
    expect(t.api.callsTo('/api/passport/password/login')).toHaveLength(1);

    window.dispatchEvent(new MessageEvent('message', { origin: window.location.origin, data: { type: 'yoo-captcha', challenge: 'c1', validate: 'v1', seccode: 'v1|jordan' } }));
    await vi.waitFor(() => expect(t.api.callsTo('/api/passport/password/login')).toHaveLength(2));
    expect(t.api.callsTo('/api/passport/password/login')[1].body).toMatchObject({
      user_name: '13800000000',
      geetest_challenge: 'c1',
      geetest_validate: 'v1',
      geetest_seccode: 'v1|jordan',
    });
    // 20128: reported, and a new check
    await vi.waitFor(() => expect(t.api.callsTo('/api/v3/senseboot/report')).toHaveLength(1));
    expect(t.api.callsTo('/api/v3/senseboot/report')[0].body).toMatchObject({ third_status: 1, type: 1 });
    await vi.waitFor(() => expect(check.captcha).not.toBeNull());
    check.solved({ geetest_challenge: 'c1', geetest_validate: 'v2', geetest_seccode: 'v2|jordan' });
    expect(await done).toBe(true);
    expect(t.api.callsTo('/api/passport/password/login')[2].body).toMatchObject({ geetest_validate: 'v2' });
    expect(root.user.isLoggedIn).toBe(true);
    answers = [];
    root.dispose();
  });

  it('closing the check unsolved warns and does not log in', async () => {
    const { t, root } = await makeRoot({ loggedIn: false });
    t.api.on('POST', '/api/passport/password/login', () => fail(20125, '本次访问需要进行安全验证'));
    t.api.on('GET', '/api/passport/captcha/senseboot/register', () => REGISTER);
    const check = securityCheckOf(root);
    const store = new PasswordLoginStore(root);
    store.setPhone('13800000000');
    store.setPassword('abc123!@');
    const done = store.submit();
    await vi.waitFor(() => expect(check.captcha).not.toBeNull());
    check.close();
    expect(await done).toBe(false);
    expect(check.captcha).toBeNull();
    expect(root.ui.toasts.map((x) => [x.type, x.message])).toContainEqual(['warning', CAPTCHA_CLOSED_WARNING]);
    expect(t.api.callsTo('/api/passport/password/login')).toHaveLength(1);
    root.dispose();
  });

  it("a wrong password shows the server's message", async () => {
    const { t, root } = await makeRoot({ loggedIn: false });
    t.api.on('POST', '/api/passport/password/login', () => fail(20120, '账号或密码错误'));
    const store = new PasswordLoginStore(root);
    store.setPhone('13800000000');
    store.setPassword('abc123!@');
    expect(await store.submit()).toBe(false);
    expect(store.serverError).toBe('账号或密码错误');
    root.dispose();
  });
});
