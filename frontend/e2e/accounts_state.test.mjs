// Who may stay signed in (core-platform.md §2.6, §4.10): an operator's ban reaches an open play
// page over the socket (AUTHORIZATION BAN): the forbidden alert with the reason and the end
// highlighted, the game ended and the player logged out in every window; the banned player's
// next login is refused with the same alert; once the ban is lifted the player logs in again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, loginByAppQr, newPlayer, newPlayerContext, openGameDetail, postJson, readSmsCode, startOnNode, withServer as withServerOf } from './helpers.mjs';

const PHONE = '13900000601';

function config(dataDir) {
  return configToml({
    bind: '127.0.0.1:0',
    dataDir,
    game: { connect_countdown_secs: 60, connect_delay_ms: 300, rank_refresh_ms: 200 },
    nodes: [{ id: 1, name: '畅玩一区', machines: ['k-01'] }],
  });
}

async function act(base, body) {
  const env = await postJson(`${base}/api/dev/account`, { cellphone: PHONE, ...body });
  assert.equal(env.code, 0, JSON.stringify(env));
  return env.data;
}

test('a ban closes an open play page: the forbidden alert, the game ended, logged out; the next login refused', { timeout: 100_000 }, async () => {
  await withServerOf('ban', config, async ({ base, browser, pages }) => {
    const { ctx, page } = await newPlayer(browser, base, PHONE);
    pages.main = page;
    await openGameDetail(page);
    await startOnNode(page, 1);
    const ready = page.getByTestId('ready-dialog');
    await ready.waitFor();
    const [play] = await Promise.all([ctx.waitForEvent('page'), ready.getByTestId('ready-enter').click()]);
    pages.play = play;
    // the play page's own socket is up (its first frame, the game state, has arrived): the ban
    // reaches an open page over it. The socket opens about 0.5 s after the page, so this is
    // listened for at once.
    const playConnected = new Promise((resolve) => play.on('websocket', (ws) => ws.once('framereceived', resolve)));
    await play.getByTestId('play-status').filter({ hasText: '游戏中' }).waitFor();
    await playConnected;

    const until = Date.now() + 3 * 86_400_000;
    const acted = await act(base, { action: 'ban', reason: '使用外挂', until });
    assert.ok(acted.logins_ended >= 1);
    assert.ok(acted.game_ended > 0, 'the running game is ended');

    // the play page is told: the forbidden alert with the reason and the end highlighted
    const box = play.getByTestId('message-box');
    await box.getByTestId('message-box-text').filter({ hasText: /^您的账号因使用外挂已被封禁，解封时间：\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/ }).waitFor();
    const highlighted = await box.locator('em').allInnerTexts();
    assert.equal(highlighted.length, 2);
    assert.equal(highlighted[0], '使用外挂');
    assert.match(highlighted[1], /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await box.getByTestId('message-box-confirm').filter({ hasText: '好的' }).click();
    assert.equal(await play.getByTestId('play-status').filter({ hasText: '游戏中' }).count(), 0, 'no longer playing');

    // the other window is logged out too
    await page.getByTestId('message-box').getByTestId('message-box-confirm').click();
    await page.getByTestId('header-login').waitFor();

    // the next login (a new window: this one's code countdown still runs) is refused with the
    // same alert
    const retry = await (await newPlayerContext(browser)).newPage();
    pages.retry = retry;
    await retry.goto(`${base}/`);
    await retry.getByTestId('header-login').click();
    const dialog = retry.getByTestId('login-dialog');
    await dialog.getByTestId('login-type-phone').click();
    await dialog.getByTestId('login-phone').fill(PHONE);
    await dialog.getByTestId('login-send-code').click();
    await dialog.getByTestId('login-send-code').filter({ hasText: /\d+s后重新获取/ }).waitFor();
    await dialog.getByTestId('login-code').fill(await readSmsCode(base, PHONE));
    await dialog.getByTestId('login-submit').click();
    await retry.getByTestId('message-box-text').filter({ hasText: '您的账号因使用外挂已被封禁' }).waitFor();
    await retry.getByTestId('message-box-confirm').click();
    assert.equal(await retry.getByTestId('header-nickname').count(), 0);

    // lifted: the login goes through
    await act(base, { action: 'restore' });
    const again = await newPlayer(browser, base, PHONE, { expectGift: false });
    pages.again = again.page;
    await again.page.getByTestId('header-nickname').waitFor();
  });
});

test('app-QR login: a second tab (the sandbox app) scans and confirms; the first is logged in', { timeout: 90_000 }, async () => {
  await withServerOf('qr-login', config, async ({ base, browser, pages }) => {
    // the app's account exists (registered on the phone)
    const phone = await newPlayer(browser, base, '13900000602');
    pages.phone = phone.page;

    // the app opens the code, scans (the browser shows 扫描成功) and confirms: logged in as the
    // app's account, the dialog closed
    const page = (pages.web = await (await newPlayerContext(browser)).newPage());
    await page.goto(`${base}/`);
    await page.getByTestId('header-login').click();
    const { url, app } = await loginByAppQr(page, browser, base, '13900000602', { pages });
    await page.getByTestId('header-nickname').filter({ hasText: '玩家0602' }).waitFor();

    // a spent code cannot log in again: reopening its page says so
    await app.goto(url);
    await app.getByText('登录失败').waitFor();
  });
});

async function wechatAuthorize(page, openid) {
  await page.getByTestId('header-login').click();
  const dialog = page.getByTestId('login-dialog');
  // the messaging app is the type the dialog opens on (core-platform.md §2.3)
  await dialog.getByTestId('wechat-login').waitFor();
  assert.equal(await dialog.getByTestId('login-type-wechat').count(), 0, 'no entry to the type on screen');
  const frame = page.frameLocator('[data-testid="wechat-frame"]');
  await frame.getByLabel('微信账号').fill(openid);
  await frame.getByRole('button', { name: '同意授权' }).click();
}

test('third-party login: the messaging app authorizes, the phone bind logs in; the next time goes straight in', { timeout: 90_000 }, async () => {
  await withServerOf('third-party', config, async ({ base, browser, pages }) => {
    const page = (pages.web = await (await newPlayerContext(browser)).newPage());
    await page.goto(`${base}/`);

    // cancelling the bind fails the login
    await wechatAuthorize(page, 'wx-e2e-cancel');
    let bind = page.getByTestId('phone-bind-dialog');
    await bind.waitFor();
    await bind.getByRole('button', { name: '关闭' }).click();
    await page.getByText('已取消手机绑定，登录失败').waitFor();
    assert.equal(await page.getByTestId('header-nickname').count(), 0);

    // an identity bound to no account: 手机绑定, the code, 完成 — logged in, a new account's gift
    await wechatAuthorize(page, 'wx-e2e');
    bind = page.getByTestId('phone-bind-dialog');
    assert.match(await bind.innerText(), /为保障您的账户安全，请绑定手机号[\s\S]*无法绑定？[\s\S]*问题反馈/);
    assert.equal(await bind.getByRole('link', { name: '无法绑定？' }).getAttribute('href'), '/service');
    await bind.getByTestId('bind-phone').fill('13900000603');
    await bind.getByTestId('bind-send-code').click();
    await bind.getByTestId('bind-send-code').filter({ hasText: /\d+s后重新获取/ }).waitFor();
    await bind.getByTestId('bind-code').fill(await readSmsCode(base, '13900000603'));
    await bind.getByTestId('bind-submit').click();
    await page.getByTestId('register-gift').getByTestId('register-gift-ok').click();
    await page.getByTestId('header-nickname').filter({ hasText: '玩家0603' }).waitFor();

    // another browser: the same WeChat account logs straight in, no bind
    const other = (pages.other = await (await newPlayerContext(browser)).newPage());
    await other.goto(`${base}/`);
    await wechatAuthorize(other, 'wx-e2e');
    await other.getByTestId('header-nickname').filter({ hasText: '玩家0603' }).waitFor();
    assert.equal(await other.getByTestId('phone-bind-dialog').count(), 0);

    // the service centre the bind dialog's links lead to: the configured customer service
    await other.goto(`${base}/service`);
    await other.getByTestId('service-page').filter({ hasText: '客服中心' }).waitFor();
    assert.match(await other.getByTestId('service-kf').getAttribute('href'), /^mailto:|^https?:/);
  });
});
