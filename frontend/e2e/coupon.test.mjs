// Browser test of coupons at checkout (commerce.md §2.5 item 7, §4.5, §4.6, §2.13) against the
// real yoo-server in dev mode: a new player holds the welcome coupons, opens the purchase dialog,
// sees 'N张可用', a coupon for other goods disabled with its reason, applies a coupon and sees
// '已优惠X元' and the lower total, pays through the sandbox's pay page, and finds the coupon used
// in the backpack.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, newPlayer, newPlayerContext, settledTotal, withServer as withServerOf } from './helpers.mjs';

function shopConfig(dataDir) {
  return configToml({
    bind: '127.0.0.1:0',
    dataDir,
    nodes: [{ id: 1, name: '畅玩一区', machines: ['t1-01'] }],
  });
}

const withServer = (tag, body) => withServerOf(tag, shopConfig, body);

/** Fen of a total text ('¥10' or '¥9.5'). */
function fenOf(text) {
  const m = /¥\s*(\d+(?:\.\d{1,2})?)/.exec(text);
  assert.ok(m, `an amount: ${text}`);
  return Math.round(Number(m[1]) * 100);
}

test('a coupon applied at checkout lowers the total, is paid through the sandbox and shows used in the backpack', { timeout: 120_000 }, async () => {
  await withServer('coupon', async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000301');
    pages.player = page;

    await page.goto(`${base}/user`);
    await page.getByTestId('profile-buy-time').click();
    const dialog = page.getByTestId('purchase-dialog');
    const cards = dialog.getByTestId('goods-card');
    await cards.nth(1).waitFor();
    // 畅玩时长10小时: ¥10, both time coupons fit
    await cards.nth(1).click();
    await dialog.getByTestId('pay-wechat').click();
    const row = dialog.getByTestId('coupon-row');
    await row.filter({ hasText: '2张可用' }).waitFor();
    const total = dialog.getByTestId('purchase-total');
    const before = fenOf(await settledTotal(dialog));
    assert.equal(before, 1000);

    // the picker: none chosen, the member coupon disabled with its reason
    await row.click();
    const picker = dialog.getByTestId('coupon-picker');
    await picker.waitFor();
    assert.equal(await picker.getByRole('option', { name: '未使用优惠券' }).getAttribute('aria-selected'), 'true');
    const member = picker.getByRole('option', { name: /会员满减券/ });
    assert.equal(await member.getAttribute('aria-disabled'), 'true');
    assert.match(await member.innerText(), /商品不可用/);
    await member.click({ force: true });
    assert.equal(await picker.count(), 1, 'a disabled coupon cannot be chosen');

    // choose the 5-yuan coupon: 已优惠5元, the total drops by it
    await picker.getByRole('option', { name: /时长满减券/ }).click();
    await row.filter({ hasText: '已优惠5元' }).waitFor();
    await total.filter({ hasText: '¥5' }).waitFor();
    assert.equal(fenOf(await settledTotal(dialog)), 500);
    assert.match(await dialog.locator('.purchase__saved').innerText(), /已为你节省¥5/);

    // choosing it again clears it; choose it once more
    await row.click();
    await picker.getByRole('option', { name: /时长满减券/ }).click();
    await row.filter({ hasText: '2张可用' }).waitFor();
    await total.filter({ hasText: '¥10' }).waitFor();
    await row.click();
    await picker.getByRole('option', { name: /时长满减券/ }).click();
    await row.filter({ hasText: '已优惠5元' }).waitFor();

    // pay: the QR step asks for the lower amount; the sandbox page confirms
    await dialog.getByTestId('purchase-pay').click();
    await dialog.getByTestId('purchase-qr-step').waitFor();
    assert.equal(fenOf(await dialog.getByTestId('purchase-payable').innerText()), 500);
    const qr = dialog.getByTestId('purchase-qr');
    await qr.locator('svg').waitFor();
    const payUrl = await qr.getAttribute('data-url');
    const phone = await newPlayerContext(browser);
    const pay = await phone.newPage();
    pages.payPage = pay;
    await pay.goto(payUrl);
    await pay.getByText('需支付 ¥5.00').waitFor();
    await pay.getByRole('button', { name: '确认支付' }).click();
    await dialog.getByTestId('purchase-result').waitFor({ timeout: 20_000 });
    await dialog.getByTestId('purchase-done').click();
    await dialog.waitFor({ state: 'detached' });
    await phone.close();

    // the backpack: one coupon fewer unused, the used one under 已使用
    await page.goto(`${base}/user/card`);
    await page.getByTestId('backpack-tab-coupon').click();
    await page.getByTestId('backpack-tab-coupon').filter({ hasText: '(2)' }).waitFor();
    await page.getByTestId('backpack-filter-1').click();
    // the list of the 已使用 filter: the unused coupons leave it
    const used = page.locator('.coupon-card').filter({ hasText: /使用$/ });
    await used.first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.coupon-card').length === 1, null, { timeout: 10_000 });
    assert.equal(await used.count(), 1);
    assert.match(await used.first().innerText(), /时长满减券/);
    assert.match(await used.first().innerText(), /已于\d{4}-\d{2}-\d{2} \d{2}:\d{2}使用/);
    assert.match(await used.first().innerText(), /满10元可用/);

    // the coupon row of a new purchase no longer offers it
    await page.goto(`${base}/user`);
    await page.getByTestId('profile-buy-time').click();
    await dialog.getByTestId('goods-card').nth(1).click();
    await dialog.getByTestId('coupon-row').filter({ hasText: '1张可用' }).waitFor();
  });
});
