import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginForm } from './loginForm';
import { securityCheckOf } from './securityCheck';
import { fail } from '../../../test/fakeTransport';
import { makeRoot, PROFILE, settle } from '../../../test/helpers';
import { SOCKET_OPEN_DELAY_MS } from '../../../stores/rootStore';

describe('start-up and login', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a 20119 profile read means guest: no status read and no socket', async () => {
    const { t, root } = await makeRoot({ loggedIn: false });
    expect(root.user.ready).toBe(true);
    expect(root.user.isLoggedIn).toBe(false);
    await vi.advanceTimersByTimeAsync(SOCKET_OPEN_DELAY_MS * 2);
    expect(t.api.callsTo('/api/japi/yoo/game/floatBall')).toHaveLength(0);
    expect(t.channels).toHaveLength(0);
    root.dispose();
  });

  it('a logged-in start-up reads floatBall and opens the socket 500 ms later', async () => {
    const { t, root } = await makeRoot({ loggedIn: true });
    expect(root.user.profile).toEqual(PROFILE);
    expect(t.api.callsTo('/api/japi/yoo/game/floatBall')).toHaveLength(1);
    expect(t.channels).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(SOCKET_OPEN_DELAY_MS);
    expect(t.channel?.isOpen).toBe(true);
    root.dispose();
  });

  it('phone-code login: send code, 60 s countdown, login with device_no, profile, socket, dialog closed', async () => {
    const { t, root, setLoggedIn } = await makeRoot({ loggedIn: false });
    t.api.on('POST', '/api/passport/login/sendcode', () => null);
    t.api.on('POST', '/api/passport/login', (body) => {
      if (body.code !== '123456') fail(20113, '验证码错误或已过期');
      setLoggedIn(true);
      return { uid: PROFILE.uid, nickname: PROFILE.nickname, is_new_user: false, give_goods: [] };
    });
    root.ui.openLogin();
    const form = new LoginForm(root.user, securityCheckOf(root));
    form.setPhone('138-0000-0000x');
    expect(form.phone).toBe('13800000000');
    expect(form.sendLabel).toBe('获取验证码');

    await form.sendCode();
    expect(t.api.callsTo('/api/passport/login/sendcode')[0].body).toEqual({ phone: '13800000000' });
    expect(form.sendLabel).toBe('60s后重新获取');
    expect(form.canSend).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(form.sendLabel).toBe('59s后重新获取');

    form.setCode('000000');
    expect(await form.submit()).toBe(false);
    expect(form.serverError).toBe('验证码错误或已过期');
    expect(root.user.isLoggedIn).toBe(false);

    form.setCode('123456');
    expect(await form.submit()).toBe(true);
    expect(t.api.callsTo('/api/passport/login')[1].body).toEqual({
      cellphone: '13800000000',
      code: '123456',
      device_no: 'device-test-1',
    });
    expect(root.user.profile?.nickname).toBe(PROFILE.nickname);
    expect(root.ui.loginOpen).toBe(false);
    // the login-success flags wait for the popup chain, which takes them once (commerce.md §4.7)
    expect(root.user.justLoggedIn).toEqual({ uid: PROFILE.uid, isNew: false });
    expect(root.user.takeLoginFlags()).toEqual({ uid: PROFILE.uid, isNew: false });
    expect(root.user.takeLoginFlags()).toBeNull();
    await settle();
    expect(t.api.callsTo('/api/japi/yoo/game/floatBall')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(SOCKET_OPEN_DELAY_MS);
    expect(t.channel?.isOpen).toBe(true);

    await vi.advanceTimersByTimeAsync(59_000);
    expect(form.sendLabel).toBe('获取验证码');
    root.dispose();
  });

  it('shows the field messages of §5.1 and never calls the server for an invalid form', async () => {
    const { t, root } = await makeRoot();
    const form = new LoginForm(root.user, securityCheckOf(root));
    await form.sendCode();
    expect(form.phoneError).toBe('手机号不能为空');
    form.setPhone('2380000000');
    await form.submit();
    expect(form.phoneError).toBe('手机号格式不正确');
    form.setPhone('13800000000');
    await form.submit();
    expect(form.phoneError).toBeNull();
    expect(form.codeError).toBe('验证码不能为空');
    expect(t.api.callsTo('/api/passport/login')).toHaveLength(0);
    expect(t.api.callsTo('/api/passport/login/sendcode')).toHaveLength(0);
    root.dispose();
  });

  it('a 20114 on sendcode shows the server message and counts down retry_after', async () => {
    const { t, root } = await makeRoot();
    t.api.on('POST', '/api/passport/login/sendcode', () => fail(20114, '验证码发送过于频繁，请稍后再试', { retry_after: 42 }));
    const form = new LoginForm(root.user, securityCheckOf(root));
    form.setPhone('13800000000');
    await form.sendCode();
    expect(form.serverError).toBe('验证码发送过于频繁，请稍后再试');
    expect(form.sendLabel).toBe('42s后重新获取');
    root.dispose();
  });

  it('a 20119 on any call clears the user locally and closes the socket', async () => {
    const { t, root } = await makeRoot({ loggedIn: true });
    await vi.advanceTimersByTimeAsync(SOCKET_OPEN_DELAY_MS);
    t.api.on('GET', '/api/web/v1/game/list', () => fail(20119, '登录已失效，请重新登录'));
    await root.catalogue.loadPage(1, '');
    expect(root.user.isLoggedIn).toBe(false);
    expect(t.channel?.isOpen).toBe(false);
    root.dispose();
  });

  it('AUTHORIZATION KICK_OUT logs out locally and explains why', async () => {
    const { t, root } = await makeRoot({ loggedIn: true });
    await vi.advanceTimersByTimeAsync(SOCKET_OPEN_DELAY_MS);
    t.channel!.push({ kind: 'authorization', status: 'KICK_OUT', value: '' });
    expect(root.user.isLoggedIn).toBe(false);
    expect(t.channel!.isOpen).toBe(false);
    expect(root.ui.messageBoxes[0].message).toContain('其他设备登录');
    root.dispose();
  });

  it('AUTHORIZATION BAN: the forbidden alert from the ban data; a ban with its own status keeps the login', async () => {
    const ban = (status: number) => JSON.stringify({ status, template: '您的账号因${reason}已被封禁，解封时间：${until}', values: { reason: '使用外挂', until: '2026-12-01 08:00' } });
    const { t, root } = await makeRoot({ loggedIn: true });
    await vi.advanceTimersByTimeAsync(SOCKET_OPEN_DELAY_MS);
    t.channel!.push({ kind: 'authorization', status: 'BAN', value: ban(1) });
    await vi.waitFor(() => expect(root.ui.messageBoxes).toHaveLength(1));
    expect(root.user.isLoggedIn).toBe(true);
    root.ui.messageBoxes[0].resolve(true);
    t.channel!.push({ kind: 'authorization', status: 'BAN', value: ban(0) });
    await vi.waitFor(() => expect(root.ui.messageBoxes).toHaveLength(1));
    expect(root.user.isLoggedIn).toBe(false);
    expect(root.ui.messageBoxes[0]).toMatchObject({
      title: '温馨提示',
      message: '您的账号因使用外挂已被封禁，解封时间：2026-12-01 08:00',
      highlights: ['使用外挂', '2026-12-01 08:00'],
      confirmText: '好的',
    });
    root.dispose();
  });

  it('a call answered 20101 (the login ended by a ban that holds) logs out with the forbidden alert, once', async () => {
    const { t, root } = await makeRoot({ loggedIn: true });
    await vi.advanceTimersByTimeAsync(SOCKET_OPEN_DELAY_MS);
    t.api.on('GET', '/api/web/v1/game/list', () =>
      fail(20101, '账号已被封禁', { template: '您的账号因${reason}已被封禁，解封时间：${until}', values: { reason: '使用外挂', until: '2026-12-01 08:00' } }),
    );
    await root.catalogue.loadPage(1, '');
    expect(root.user.isLoggedIn).toBe(false);
    expect(t.channel?.isOpen).toBe(false);
    await vi.waitFor(() => expect(root.ui.messageBoxes).toHaveLength(1));
    expect(root.ui.messageBoxes[0]).toMatchObject({ message: '您的账号因使用外挂已被封禁，解封时间：2026-12-01 08:00', highlights: ['使用外挂', '2026-12-01 08:00'] });
    // the socket's own frame, had it come after, says nothing more
    t.channel!.push({ kind: 'authorization', status: 'BAN', value: JSON.stringify({ status: 0, template: 'x', values: {} }) });
    await vi.advanceTimersByTimeAsync(10);
    expect(root.ui.messageBoxes).toHaveLength(1);
    root.dispose();
  });

  it('a login refused with 20101 shows the forbidden alert filled from its data', async () => {
    const { t, root } = await makeRoot({ loggedIn: false });
    t.api.on('POST', '/api/passport/login', () =>
      fail(20101, '账号已被冻结', { template: '您的账号因${reason}已被冻结，如有疑问请联系客服', values: { reason: '账号存在风险' } }),
    );
    await expect(root.user.login('13800000000', '123456')).rejects.toMatchObject({ code: 20101 });
    await vi.waitFor(() => expect(root.ui.messageBoxes).toHaveLength(1));
    expect(root.ui.messageBoxes[0]).toMatchObject({ message: '您的账号因账号存在风险已被冻结，如有疑问请联系客服', highlights: ['账号存在风险'], confirmText: '好的' });
    expect(root.user.isLoggedIn).toBe(false);
    root.dispose();
  });

  it('logout confirm without a game: 确定要退出登录吗？ then POST logout, clear, go to /', async () => {
    const { t, root, navigations } = await makeRoot({ loggedIn: true });
    t.api.on('POST', '/api/user/logout', () => null);
    const done = root.logout();
    await settle();
    expect(root.ui.messageBoxes[0]).toMatchObject({ message: '确定要退出登录吗？', confirmText: '确定', cancelText: '取消' });
    root.ui.messageBoxes[0].resolve(true);
    await done;
    expect(typeof (t.api.callsTo('/api/user/logout')[0].body as { r: number }).r).toBe('number');
    expect(root.user.isLoggedIn).toBe(false);
    expect(navigations).toEqual(['/']);
    root.dispose();
  });
});
