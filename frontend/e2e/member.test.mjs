// Browser test of memberships (commerce.md §2.2, §2.4, §2.9, §4.7) against the real yoo-server in
// dev mode: a player buys a VVIP membership through the sandbox pay page (opened in a second
// browser, as a phone would), the header button becomes 续费会员, the user centre shows the VVIP
// and its expiry, today's member play time is received (开心收下), and a game start queues in the
// VVIP lane. Node 1 has no machine, so the start queues.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, newPlayer, newPlayerContext, openGameDetail, startOnNode, withServer as withServerOf } from './helpers.mjs';

const QUEUE_NODE = 1;

function memberConfig(dataDir) {
  return configToml({
    bind: '127.0.0.1:0',
    dataDir,
    game: { rank_refresh_ms: 100 },
    nodes: [{ id: QUEUE_NODE, name: '排队一区', machines: [] }],
  });
}

const withServer = (tag, body) => withServerOf(tag, memberConfig, body);

test('VVIP by QR: 续费会员 in the header, the VVIP and its expiry in the user centre, the daily grant, the VVIP lane', { timeout: 120_000 }, async () => {
  await withServer('member', async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000301');
    pages.player = page;

    await page.goto(`${base}/user`);
    await page.getByTestId('header-member').filter({ hasText: /^开通会员$/ }).waitFor();
    await page.getByTestId('member-status').filter({ hasText: '您还不是会员，开通会员享受专属特权~' }).waitFor();
    assert.equal(await page.getByTestId('member-buy').innerText(), '开通会员');

    // the privilege comparison on /user/member/vvip, and its buy button
    await page.goto(`${base}/user/member/vvip`);
    await page.getByTestId('privilege-table').waitFor();
    assert.equal(await page.getByTestId('privilege-row').count(), 16);
    await page.getByTestId('member-buy-vvip').click();
    const dialog = page.getByTestId('purchase-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('purchase-tab-vvip').click();
    const cards = dialog.getByTestId('goods-card');
    await cards.first().waitFor();
    // a one-off VVIP (not the auto-renewing one)
    const card = cards.filter({ hasNotText: '连续' }).first();
    await card.click();
    await dialog.getByTestId('pay-wechat').click();
    await dialog.getByTestId('purchase-pay').click();
    await dialog.getByTestId('purchase-qr-step').waitFor();
    const qr = dialog.getByTestId('purchase-qr');
    await qr.locator('svg').waitFor();
    const payUrl = await qr.getAttribute('data-url');
    assert.ok(payUrl && payUrl.startsWith(base), `the QR encodes the sandbox pay page: ${payUrl}`);

    const phone = await newPlayerContext(browser);
    const pay = await phone.newPage();
    pages.payPage = pay;
    await pay.goto(payUrl);
    await pay.getByRole('button', { name: '确认支付' }).click();
    await dialog.getByTestId('purchase-result').waitFor({ timeout: 20_000 });
    assert.match(await dialog.getByTestId('purchase-result').innerText(), /支付成功/);
    await dialog.getByTestId('purchase-done').click();
    await dialog.waitFor({ state: 'detached' });
    await phone.close();

    // the header and the user centre follow without a reload
    await page.getByTestId('header-member').filter({ hasText: /^续费会员$/ }).waitFor({ timeout: 10_000 });
    await page.goto(`${base}/user`);
    const status = page.getByTestId('member-status');
    await status.filter({ hasText: /^高级VVIP \d{4}-\d{2}-\d{2} 到期/ }).waitFor();
    const day = /(\d{4}-\d{2}-\d{2})/.exec(await status.innerText())[1];
    const expected = new Date(Date.now() + 31 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
    const near = new Date(Date.now() + 30 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
    assert.ok(day === expected || day === near, `expires in 31 days: ${day}`);
    assert.equal(await page.getByTestId('member-buy').innerText(), '续费会员');
    await status.hover();
    await page.getByTestId('member-item').filter({ hasText: '高级VVIP' }).waitFor();

    // today's member play time: 2 h daily + 20 h monthly
    await page.getByTestId('member-receive').click();
    const grant = page.getByTestId('member-grant');
    await grant.waitFor();
    assert.match(await grant.locator('.modal__title').innerText(), /^高级VVIP每日专享$/);
    assert.equal(await grant.getByTestId('member-grant-hours').innerText(), '免费游戏时长 +22小时');
    assert.match(await grant.innerText(), /限当天使用，次日0点失效/);
    await grant.getByTestId('member-grant-ok').click();
    await grant.waitFor({ state: 'detached' });
    // a second receipt the same day is refused with the server's text
    await page.getByTestId('member-receive').click();
    await page.getByText('今日会员时长已领取，明天再来吧').first().waitFor();

    // a game start queues in the VVIP lane
    await openGameDetail(page);
    await startOnNode(page, QUEUE_NODE);
    await page.getByTestId('queue-dialog').waitFor();
    await page.getByTestId('queue-lane').filter({ hasText: /^VVIP专属通道$/ }).waitFor();
  });
});
