// The browser check of a game start (core-platform.md §5.5) and in-car mode (§4.14), each in
// Chromium with the user agent that triggers it: an old Chromium and a Gecko browser are refused
// with the alert and never reach the node dialog, Chromium 71 is asked and '继续游戏' goes on; a
// car head unit logs in by the app QR (no phone entry, not even from /login or a page asking for
// the phone type), hides live rooms, the footer and the popovers, lays the page out at 1426px,
// logs out from the user card, and shows the car action dialog's QR code where a window would open.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, grant, newCarPlayer, newPlayer, newPlayerContext, openGameDetail, withServer as withServerOf } from './helpers.mjs';

const desktopChrome = (v) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36`;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
const CAR = `${desktopChrome(120)} LiBrowser/2.0`;

function config(dataDir) {
  return configToml({ bind: '127.0.0.1:0', dataDir, nodes: [{ id: 1, name: '畅玩一区', machines: ['b-01'] }] });
}

async function refused(page) {
  await openGameDetail(page);
  await page.getByTestId('start-game').click();
  const box = page.getByTestId('message-box');
  await box.getByTestId('message-box-text').filter({ hasText: '您当前浏览器版本较低，游戏无法运行' }).waitFor();
  assert.equal(await box.getByTestId('message-box-cancel').count(), 0, 'an alert: one button');
  await box.getByTestId('message-box-confirm').click();
  await box.waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('node-dialog').count(), 0, 'no start after the refusal');
}

test('the start refuses an old Chromium and Gecko, and asks Chromium 71 first', { timeout: 90_000 }, async () => {
  await withServerOf('browser-check', config, async ({ base, browser, pages }) => {
    const old = await newPlayer(browser, base, '13900000501', { contextOptions: { userAgent: desktopChrome(65) } });
    pages.old = old.page;
    await refused(old.page);

    const gecko = await newPlayer(browser, base, '13900000502', { contextOptions: { userAgent: FIREFOX } });
    pages.gecko = gecko.page;
    await refused(gecko.page);

    const warned = await newPlayer(browser, base, '13900000503', { contextOptions: { userAgent: desktopChrome(71) } });
    const page = (pages.warned = warned.page);
    await openGameDetail(page);
    await page.getByTestId('start-game').click();
    const box = page.getByTestId('message-box');
    await box.getByTestId('message-box-text').filter({ hasText: '您当前浏览器版本较低，可能会影响游戏体验' }).waitFor();
    await box.getByTestId('message-box-confirm').filter({ hasText: '继续游戏' }).click();
    await page.getByTestId('node-dialog').waitFor();
  });
});

test('in-car mode: the app-QR login without a phone entry, no live rooms, footer or popovers, a 1426px page, 退出 on the user card, the car action QR', { timeout: 90_000 }, async () => {
  await withServerOf('in-car', config, async ({ base, browser, pages }) => {
    // a desktop browser shows what the car hides
    const desk = await (await newPlayerContext(browser)).newPage();
    pages.desk = desk;
    await desk.goto(`${base}/`);
    await desk.locator('nav.nav').getByRole('link', { name: '一起玩', exact: true }).waitFor();
    assert.equal(await desk.locator('footer.footer').isVisible(), true);

    // a car logs in without the phone entry: by the app QR, labelled as a phone scan
    const { page } = await newCarPlayer(browser, base, '13900000504', { contextOptions: { userAgent: CAR, viewport: { width: 1280, height: 720 } }, pages });
    pages.car = page;
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('in-car')), true);
    assert.equal(await page.locator('nav.nav').getByRole('link', { name: '一起玩', exact: true }).isVisible(), false, 'live rooms are hidden');
    assert.equal(await page.locator('footer.footer').isVisible(), false, 'the footer is hidden');
    assert.equal(await page.locator('.app').evaluate((el) => el.getBoundingClientRect().width), 1426, 'the layout is 1426px wide');
    await page.getByTestId('header-user').click();
    assert.equal(await page.getByTestId('user-popover').isVisible(), false, 'popovers are off');

    // a link that would open a window shows the car action dialog with the address as a QR code
    await grant(base, { cellphone: '13900000504', kind: 'sub:19', days: 30 });
    await page.goto(`${base}/user/subscription`);
    await page.getByTestId('subscription-item').first().waitFor();
    const pagesBefore = page.context().pages().length;
    await page.getByTestId('subscription-zone-link').first().click();
    const car = page.getByTestId('car-action-dialog');
    await car.waitFor();
    assert.match(await car.innerText(), /订阅专区[\s\S]*请使用手机扫码打开/);
    assert.match(await car.locator('svg[data-text]').getAttribute('data-text'), new RegExp(`^${base}/subscription/\\d+$`));
    assert.equal(page.context().pages().length, pagesBefore, 'no window opened');
    await car.getByRole('button', { name: '关闭' }).click();
    await car.waitFor({ state: 'detached' });

    // the popover's 退出登录 is off: the user card logs out
    await page.goto(`${base}/user`);
    const logout = page.getByTestId('user-card-logout');
    assert.equal(await logout.innerText(), '退出');
    await logout.click();
    const box = page.getByTestId('message-box');
    await box.getByTestId('message-box-text').filter({ hasText: '确定要退出登录吗？' }).waitFor();
    await box.getByTestId('message-box-confirm').click();
    await page.getByTestId('header-login').waitFor();
    await page.waitForURL(`${base}/`);

    // no way back to a phone-code login: the login route, and a page that asks for the phone
    // type (the phone's certification page), open the dialog without the phone entry
    for (const [path, open] of [
      [`/login?callbackUrl=${encodeURIComponent('/user')}`, null],
      ['/qrcode/certification?ticket=0123456789abcdef0123456789abcdef', 'idauth-login'],
    ]) {
      await page.goto(`${base}${path}`);
      if (open) await page.getByTestId(open).click();
      const dialog = page.getByTestId('login-dialog');
      await dialog.getByTestId('wechat-frame').waitFor();
      for (const id of ['login-type-phone', 'login-tab-phone', 'login-phone']) assert.equal(await dialog.getByTestId(id).count(), 0, `${path}: no ${id}`);
      await dialog.getByTestId('login-type-qrcode').filter({ hasText: '手机扫码登录' }).waitFor();
      await dialog.getByRole('button', { name: '关闭' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
  });
});
