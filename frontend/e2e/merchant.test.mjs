// Browser test of the merchant area (commerce.md §2.14, §2.5 bankResult, §4.4) against the real
// yoo-server in dev mode: a merchant fills the cart at tier prices, pays the coupon group by bank
// transfer, the tester marks the transfer received on the sandbox's page (a second browser), the
// dialog's payment poll sees it paid, the record shows one redeem key per coupon, and a second
// player redeems a key into a coupon (once: the same key again is refused).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, newPlayer, newPlayerContext, withServer as withServerOf } from './helpers.mjs';

function merchantConfig(dataDir) {
  return configToml({ bind: '127.0.0.1:0', dataDir, nodes: [{ id: 1, name: '测试一区', machines: [] }] });
}

const withServer = (tag, body) => withServerOf(tag, merchantConfig, body);

test('a coupon group paid by bank transfer on the sandbox page, its keys, and one redeemed by another player', { timeout: 120_000 }, async () => {
  await withServer('merchant', async ({ base, browser, pages }) => {
    const { ctx, page } = await newPlayer(browser, base, '13900000801');
    pages.merchant = page;
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });

    await page.goto(`${base}/coupon-group`);
    await page.getByTestId('cg-goods-1').waitFor();
    await page.getByTestId('cg-rules').filter({ hasText: '每个兑换码仅可兑换一次' }).waitFor();
    // tiers: 1–9 at 9.00, 10–99 at 8.00
    await page.getByTestId('cg-count-1').fill('3');
    assert.equal(await page.getByTestId('cg-total').innerText(), '¥27.00');
    await page.getByTestId('cg-count-1').fill('10');
    assert.equal(await page.getByTestId('cg-total').innerText(), '¥80.00');
    await page.getByTestId('cg-clear').click();
    assert.equal(await page.getByTestId('cg-total').innerText(), '¥0.00');
    await page.getByTestId('cg-buy').click();
    await page.getByTestId('toast-error').filter({ hasText: '商品列表为空' }).waitFor();
    await page.getByTestId('cg-count-1').fill('3');

    await page.getByTestId('cg-buy').click();
    const dialog = page.getByTestId('cg-dialog');
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /团购账号/);
    await dialog.getByRole('radio', { name: '对公转账' }).check();
    await dialog.getByRole('button', { name: '立即支付' }).click();
    await dialog.getByTestId('cg-bank').waitFor();
    assert.match(await dialog.innerText(), /对公转账说明/);
    assert.match(await dialog.getByTestId('cg-countdown').innerText(), /^请在(3天0小时0分钟|2天23小时59分钟)内完成转账$/);
    assert.equal(await dialog.getByTestId('cg-bank-amount').innerText(), '¥27.00');
    const orderNo = await dialog.getByTestId('cg-order-no').innerText();
    // a copyable item of the bank pay config
    await dialog.getByRole('button', { name: '复制' }).nth(1).click();
    await page.getByTestId('toast-success').filter({ hasText: '复制成功' }).waitFor();

    // the tester marks the transfer received on the sandbox's page
    const tester = await newPlayerContext(browser);
    const sandbox = await tester.newPage();
    pages.sandbox = sandbox;
    await sandbox.goto(`${base}/api/dev/pay/${orderNo}`);
    await sandbox.getByRole('button', { name: '确认已收到转账' }).click();
    await sandbox.getByText('支付成功').first().waitFor();

    // the dialog's poll (every 5 s) sees it paid
    await dialog.getByTestId('cg-result').waitFor({ timeout: 20_000 });
    await dialog.getByRole('link', { name: '查看兑换码' }).click();
    await page.getByTestId('cg-record').waitFor();
    await page.getByTestId('cg-key').nth(2).waitFor();
    assert.equal(await page.getByTestId('cg-key').count(), 3, 'one key per coupon');
    assert.equal(await page.getByTestId('cg-record-state').innerText(), '已完成');
    const key = (await page.getByTestId('cg-key').first().locator('code').innerText()).trim();
    assert.match(key, /^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);

    // another player redeems it, once
    const other = await newPlayer(browser, base, '13900000802');
    pages.other = other.page;
    await other.page.goto(`${base}/coupon-group`);
    await other.page.getByTestId('cg-open-redeem').click();
    await other.page.getByTestId('cg-redeem-key').fill(key.toLowerCase());
    await other.page.getByRole('button', { name: '立即兑换' }).click();
    await other.page.getByTestId('toast-success').filter({ hasText: '兑换成功：10元时长券' }).waitFor();
    await other.page.getByTestId('cg-open-redeem').click();
    await other.page.getByTestId('cg-redeem-key').fill(key);
    await other.page.getByRole('button', { name: '立即兑换' }).click();
    await other.page.getByTestId('toast-error').filter({ hasText: '兑换码已被使用' }).waitFor();

    // the merchant's record shows the key redeemed
    await page.reload();
    await page.getByTestId('cg-key').filter({ hasText: '已兑换' }).waitFor();
  });
});
