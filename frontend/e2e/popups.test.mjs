// Browser test of the system popup chain and the membership upgrade (commerce.md §2.4, §2.5,
// §2.8, §4.7) against the real yoo-server in dev mode: a new player sees no card notice (the
// registration gift told them); holdings received later are told once at the next login, whose
// '去背包查看' opens /user/card/card; a VIP with days left sees the upgrade banner in the user
// centre, buys the upgrade through the sandbox pay page (opened in a second browser, as a phone
// would) and holds VVIP for the same days; the banner goes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, grant, login, newPlayer, newPlayerContext, settledTotal, withServer as withServerOf } from './helpers.mjs';

const withServer = (tag, body) =>
  withServerOf(tag, (dataDir) => configToml({ bind: '127.0.0.1:0', dataDir, nodes: [{ id: 1, name: '排队一区', machines: [] }] }), body);

const PHONE = '13900000811';

test('the card notice after a login, and the VIP → VVIP upgrade paid on the sandbox page', { timeout: 120_000 }, async () => {
  await withServer('popups', async ({ base, browser, pages }) => {
    const { page, ctx } = await newPlayer(browser, base, PHONE);
    pages.player = page;
    // a new player: the chain reads the notice (type=1) 1 s after the login; the welcome coupons
    // were the registration gift, so nothing is told
    const read = await page.waitForResponse((r) => r.url().includes('/api/v3/user/card/notice'), { timeout: 10_000 });
    assert.match(read.url(), /type=1/);
    assert.deepEqual((await read.json()).data.newest_list, []);
    assert.equal(await page.getByTestId('card-notice').count(), 0, 'no card notice for a new player');

    await grant(base, { cellphone: PHONE, kind: 'time_card', minutes: 120, days: 7 });
    await grant(base, { cellphone: PHONE, kind: 'vip', days: 3 });
    await ctx.close();

    // the next login (another browser): the card received since is told, once
    const ctx2 = await newPlayerContext(browser);
    const page2 = await ctx2.newPage();
    pages.player = page2;
    await page2.goto(base);
    await login(page2, base, PHONE);
    const notice = page2.getByTestId('card-notice');
    await notice.waitFor({ timeout: 10_000 });
    assert.match(await notice.innerText(), /恭喜获得[\s\S]*120分钟付费时长卡[\s\S]*2小时[\s\S]*请注意有效期/);
    // the VIP was joined today: no expiry popup, though it ends in 3 days
    assert.equal(await page2.getByTestId('member-expire').count(), 0);
    await notice.getByTestId('card-notice-view').click();
    await page2.waitForURL(/\/user\/card\/card$/);
    await page2.getByText('120分钟付费时长卡').first().waitFor();
    assert.equal(await page2.getByTestId('backpack-tab-card').getAttribute('aria-selected'), 'true');
    await page2.getByTestId('backpack-tab-coupon').click();
    await page2.waitForURL(/\/user\/card\/coupon$/);

    // the upgrade banner, its detail and the payment
    await page2.goto(`${base}/user`);
    const banner = page2.getByTestId('member-upgrade');
    await banner.waitFor();
    assert.match(await banner.innerText(), /剩余3天VIP可升级为VVIP/);
    await banner.click();
    const dialog = page2.getByTestId('purchase-dialog');
    await dialog.waitFor();
    const up = dialog.getByTestId('purchase-upgrade');
    await up.waitFor();
    assert.match(await up.innerText(), /标准VIP剩余3天[\s\S]*可享0\.65元\/天升级高级VVIP/);
    assert.match(await settledTotal(dialog), /1\.95/);
    await dialog.getByTestId('pay-wechat').click();
    await dialog.getByTestId('purchase-pay').click();
    const agree = page2.getByRole('button', { name: '同意并支付' });
    if (await agree.count()) await agree.click();
    await dialog.getByTestId('purchase-qr-step').waitFor();
    const qr = dialog.getByTestId('purchase-qr');
    await qr.locator('svg').waitFor();
    const payUrl = await qr.getAttribute('data-url');
    assert.ok(payUrl && payUrl.startsWith(base), `the QR encodes the sandbox pay page: ${payUrl}`);
    const phone = await newPlayerContext(browser);
    const pay = await phone.newPage();
    pages.payPage = pay;
    await pay.goto(payUrl);
    assert.match(await pay.locator('body').innerText(), /1\.95/);
    await pay.getByRole('button', { name: '确认支付' }).click();
    await dialog.getByTestId('purchase-result').waitFor({ timeout: 20_000 });
    await dialog.getByTestId('purchase-done').click();
    await dialog.waitFor({ state: 'detached' });
    await phone.close();

    // VVIP for the same days (so it too ends within 3 days); nothing left to upgrade
    await page2.reload();
    await page2.getByTestId('member-status').filter({ hasText: /^高级VVIP 3天后 即将到期/ }).waitFor({ timeout: 10_000 });
    await page2.getByTestId('header-member').filter({ hasText: /^续费会员$/ }).waitFor();
    assert.equal(await page2.getByTestId('member-upgrade').count(), 0);
    await ctx2.close();
  });
});

test('auto-renewal: the renewing VIP paid and signed on the sandbox page, listed on the member page, cancelled', { timeout: 120_000 }, async () => {
  await withServer('renewal', async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000812');
    pages.player = page;
    await page.goto(`${base}/user/member/vip`);
    await page.getByTestId('member-buy-vip').click();
    const dialog = page.getByTestId('purchase-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('goods-card').filter({ hasText: '连续' }).first().click();
    await dialog.getByTestId('purchase-renewal').filter({ hasText: /首月仅15元，到期自动续费25元\/月，可随时取消/ }).waitFor();
    assert.equal(await dialog.getByTestId('pay-wechat').count(), 0, 'a renewal is paid by Alipay only');
    await dialog.getByTestId('pay-alipay').click();
    await dialog.getByTestId('purchase-pay').click();
    // the agreements must be accepted first (commerce.md §5)
    await page.getByRole('button', { name: '同意并支付' }).click();
    const qr = dialog.getByTestId('purchase-qr');
    await qr.locator('svg').waitFor();
    const payUrl = await qr.getAttribute('data-url');
    const phone = await newPlayerContext(browser);
    const pay = await phone.newPage();
    pages.payPage = pay;
    await pay.goto(payUrl);
    assert.match(await pay.locator('body').innerText(), /支付即同意签约自动续费（协议号：AG\d+），可随时取消/);
    await pay.getByRole('button', { name: '确认支付' }).click();
    await dialog.getByTestId('purchase-result').waitFor({ timeout: 20_000 });
    await dialog.getByTestId('purchase-done').click();
    await phone.close();

    const item = page.getByTestId('agreement');
    await page.reload();
    await item.waitFor();
    assert.match(await item.innerText(), /VIP连续包月[\s\S]*自动续费中 · 下次扣费 \d{4}-\d{2}-\d{2} · ¥25\/期/);
    await item.getByTestId('agreement-cancel').click();
    const box = page.getByTestId('message-box');
    assert.match(await box.innerText(), /确定取消「VIP连续包月」的自动续费吗/);
    await box.getByTestId('message-box-confirm').click();
    await page.getByTestId('agreements').waitFor({ state: 'detached' });
    // the VIP bought stays
    await page.getByTestId('header-member').filter({ hasText: /^续费会员$/ }).waitFor();
  });
});
