import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../../test/fakeTransport';
import { makeRoot } from '../../../test/helpers';
import { ForgotPasswordStore } from './forgotPassword';
import { LoginForm } from './loginForm';
import { CAPTCHA_CLOSED_WARNING, securityCheckOf } from './securityCheck';
import { ThirdPartyStore } from './thirdParty';

const REGISTER = { gt: 'g', challenge: 'c1', new_captcha: true, success: 1, status: 'success', page_url: '/api/dev/captcha/page?challenge=c1' };
const CHECK = { geetest_challenge: 'c1', geetest_validate: 'v1', geetest_seccode: 'v1|jordan' };

/** The challenge page's message of a solved check (same origin). */
function solvePage(): void {
  window.dispatchEvent(new MessageEvent('message', { origin: window.location.origin, data: { type: 'yoo-captcha', challenge: 'c1', validate: 'v1', seccode: 'v1|jordan' } }));
}

/** A send route that asks for the check until a request carries one. */
function checkedRoute(calls: { body: Record<string, unknown> }[]) {
  return (body: Record<string, unknown>) => {
    calls.push({ body });
    return body.geetest_validate ? null : fail(20125, '本次访问需要进行安全验证');
  };
}

describe('the security check on a code send (core-platform.md §8.1)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('20125 on the login code opens the check; solved, the code is sent again with its result merged in and the countdown starts', async () => {
    const { t, root } = await makeRoot({ loggedIn: false });
    const sent: { body: Record<string, unknown> }[] = [];
    t.api.on('POST', '/api/passport/login/sendcode', checkedRoute(sent));
    t.api.on('GET', '/api/passport/captcha/senseboot/register', () => REGISTER);
    const check = securityCheckOf(root);
    const form = new LoginForm(root.user, check);
    form.setPhone('13800000000');
    const done = form.sendCode();
    await vi.waitFor(() => expect(check.captcha?.challenge).toBe('c1'));
    expect(form.canSend).toBe(false);
    expect(root.user.codeCountdown).toBe(0);
    solvePage();
    expect(await done).toBe(true);
    expect(sent.map((c) => c.body)).toEqual([{ phone: '13800000000' }, { phone: '13800000000', ...CHECK }]);
    expect(check.captcha).toBeNull();
    expect(form.serverError).toBeNull();
    expect(form.sendLabel).toBe('60s后重新获取');
    root.dispose();
  });

  it('closing the check unsolved warns, sends nothing more and starts no countdown', async () => {
    const { t, root } = await makeRoot({ loggedIn: false });
    const sent: { body: Record<string, unknown> }[] = [];
    t.api.on('POST', '/api/passport/login/sendcode', checkedRoute(sent));
    t.api.on('GET', '/api/passport/captcha/senseboot/register', () => REGISTER);
    const check = securityCheckOf(root);
    const form = new LoginForm(root.user, check);
    form.setPhone('13800000000');
    const done = form.sendCode();
    await vi.waitFor(() => expect(check.captcha).not.toBeNull());
    check.close();
    expect(await done).toBe(false);
    expect(sent).toHaveLength(1);
    expect(root.ui.toasts.map((x) => [x.type, x.message])).toContainEqual(['warning', CAPTCHA_CLOSED_WARNING]);
    expect(form.canSend).toBe(true);
    root.dispose();
  });

  it('a bad result (20128) is the send error; other errors never open the check', async () => {
    const { t, root } = await makeRoot({ loggedIn: false });
    t.api.on('POST', '/api/passport/login/sendcode', () => fail(20128, '安全验证失败，请重新验证'));
    const form = new LoginForm(root.user, securityCheckOf(root));
    form.setPhone('13800000000');
    expect(await form.sendCode()).toBe(false);
    expect(form.serverError).toBe('安全验证失败，请重新验证');
    expect(t.api.callsTo('/api/passport/captcha/senseboot/register')).toHaveLength(0);
    root.dispose();
  });

  it("the forgot-password code and the phone bind's code go again with the check's result on their own routes", async () => {
    const { t, root } = await makeRoot({ loggedIn: false });
    const forgot: { body: Record<string, unknown> }[] = [];
    const bind: { body: Record<string, unknown> }[] = [];
    t.api.on('POST', '/api/passport/passwordForget/sendcode', checkedRoute(forgot));
    t.api.on('POST', '/api/passport/authorize/bind-phone/sendcode', checkedRoute(bind));
    t.api.on('GET', '/api/passport/captcha/senseboot/register', () => REGISTER);
    const check = securityCheckOf(root);

    const store = new ForgotPasswordStore(root, 'forget');
    store.setPhone('13800000000');
    const sent = store.sendCode();
    await vi.waitFor(() => expect(check.captcha).not.toBeNull());
    solvePage();
    expect(await sent).toBe(true);
    expect(forgot.map((c) => c.body)).toEqual([{ phone: '13800000000' }, { phone: '13800000000', ...CHECK }]);

    await vi.advanceTimersByTimeAsync(60_000);
    const third = new ThirdPartyStore(root);
    third.bindToken = 'tk';
    third.setPhone('13800000001');
    const bound = third.sendBindCode();
    await vi.waitFor(() => expect(check.captcha).not.toBeNull());
    solvePage();
    await bound;
    expect(bind.map((c) => c.body)).toMatchObject([
      { phone: '13800000001', token: 'tk' },
      { phone: '13800000001', token: 'tk', ...CHECK },
    ]);
    expect(third.error).toBeNull();
    root.dispose();
  });
});
