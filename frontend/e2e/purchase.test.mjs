// Browser tests of the purchase dialog (issue 10, commerce.md §2.5, §4.1–4.3) against the real
// yoo-server in dev mode, whose sandbox payment provider serves the pay page the QR encodes: a
// player buys play time by QR (the pay page opened in another browser, as a phone would), and a
// coin exchange without coins shows the recharge prompt of 20110.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertNoSidewaysScroll, assertTappable, configToml, newPlayer, newPlayerContext, settledTotal, withServer as withServerOf } from './helpers.mjs';

function shopConfig(dataDir) {
  return configToml({
    bind: '127.0.0.1:0',
    dataDir,
    nodes: [{ id: 1, name: '畅玩一区', machines: ['t1-01'] }],
  });
}

const withServer = (tag, body) => withServerOf(tag, shopConfig, body);

/** Minutes of a play-time text ('X小时Y分钟' or 'Y分钟'). */
function minutesOf(text) {
  const m = /(?:(\d+)小时)?(\d+)分钟/.exec(text);
  assert.ok(m, `a play time: ${text}`);
  return Number(m[1] ?? 0) * 60 + Number(m[2]);
}

test('time by QR: the sandbox pay page confirms, the dialog shows 支付成功 and the play time grows', { timeout: 90_000 }, async () => {
  await withServer('purchase-qr', async ({ base, browser, pages }) => {
    const PHONE = '13900000101';
    const { page } = await newPlayer(browser, base, PHONE);
    pages.player = page;

    // the user centre's play time, then its 购买时长
    await page.goto(`${base}/user`);
    const before = minutesOf(await page.getByTestId('profile-play-time').innerText());
    await page.getByTestId('profile-buy-time').click();
    const dialog = page.getByTestId('purchase-dialog');
    await dialog.waitFor();
    assert.match(await dialog.locator('.modal__title').innerText(), /^购买游戏时长$/);
    const cards = dialog.getByTestId('goods-card');
    await cards.first().waitFor();
    assert.ok((await cards.count()) >= 1 && (await cards.count()) <= 4, 'at most four products a view');

    // pick the second product when there is one, WeChat Pay, pay
    const card = (await cards.count()) > 1 ? cards.nth(1) : cards.first();
    await card.click();
    const title = (await card.locator('.goods-card__title').innerText()).trim();
    await dialog.getByTestId('pay-wechat').click();
    const total = await settledTotal(dialog);
    assert.match(total, /^¥\d+(\.\d{1,2})?$/);
    await dialog.getByTestId('purchase-pay').click();

    // the QR step: the chosen goods, the payable, the QR of the pay page
    await dialog.getByTestId('purchase-qr-step').waitFor();
    assert.equal(await dialog.getByTestId('purchase-chosen').innerText(), `已选商品：${title}`);
    assert.equal(await dialog.getByTestId('purchase-payable').innerText(), total);
    const qr = dialog.getByTestId('purchase-qr');
    await qr.locator('svg').waitFor();
    const payUrl = await qr.getAttribute('data-url');
    assert.ok(payUrl && payUrl.startsWith(base), `the QR encodes the sandbox pay page on this server: ${payUrl}`);

    // a phone opens the pay page (its own browser, no cookie): the QR says scanned
    const phone = await newPlayerContext(browser);
    const pay = await phone.newPage();
    pages.payPage = pay;
    await pay.goto(payUrl);
    await pay.getByRole('button', { name: '确认支付' }).waitFor();
    await dialog.locator('[data-testid="purchase-qr"][data-state="4"]').waitFor();
    assert.match(await dialog.getByTestId('purchase-qr-overlay').innerText(), /扫描成功\s*请在手机上支付/);

    // 确认支付: the sandbox calls the platform back, the long poll answers, the result shows
    await pay.getByRole('button', { name: '确认支付' }).click();
    await dialog.getByTestId('purchase-result').waitFor({ timeout: 20_000 });
    assert.match(await dialog.getByTestId('purchase-result').innerText(), /支付成功/);
    assert.equal(await dialog.getByTestId('purchase-result-line').innerText(), `您已成功购买 ${title}`);
    await dialog.getByTestId('purchase-done').click();
    await dialog.waitFor({ state: 'detached' });

    // the play time grew without a reload
    await page.waitForFunction(
      ([id, was]) => {
        const el = document.querySelector(`[data-testid="${id}"]`);
        if (!el) return false;
        const m = /(?:(\d+)小时)?(\d+)分钟/.exec(el.textContent ?? '');
        return m !== null && Number(m[1] ?? 0) * 60 + Number(m[2]) > was;
      },
      ['profile-play-time', before],
      { timeout: 10_000 },
    );
    const after = minutesOf(await page.getByTestId('profile-play-time').innerText());
    assert.ok(after > before, `play time ${before} → ${after}`);
    await phone.close();
  });
});

test('on a phone (390x844), coin exchange with no coins: the 20110 recharge prompt; 取消 reopens the dialog, 去充值 the coin purchase', { timeout: 60_000 }, async () => {
  await withServer('purchase-coins', async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000102', { contextOptions: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } });
    pages.player = page;
    await page.goto(`${base}/user`);
    assert.equal(await page.getByTestId('profile-balance').innerText(), '0');
    await page.getByTestId('profile-buy-time').click();
    const dialog = page.getByTestId('purchase-dialog');
    await dialog.getByTestId('goods-card').first().waitFor();
    // the dialog fits the phone: no sideways scroll, the products and the pay button within reach
    await assertNoSidewaysScroll(page, 'purchase dialog');
    await assertTappable(page, dialog.getByTestId('goods-card').first(), 'the first product');
    await dialog.getByTestId('pay-yunyoubi').click();
    assert.equal(await dialog.getByTestId('purchase-pay').innerText(), '立即兑换');
    await dialog.getByTestId('purchase-pay').scrollIntoViewIfNeeded();
    await assertTappable(page, dialog.getByTestId('purchase-pay'), 'the pay button');
    await dialog.getByTestId('purchase-pay').click();

    const text = page.getByTestId('message-box-text');
    await text.filter({ hasText: '您的云游币余额不足，请先充值' }).waitFor();
    assert.equal(await dialog.count(), 0, 'the pay dialog steps aside for the prompt');
    await page.getByTestId('message-box-cancel').click();
    await dialog.waitFor();
    assert.match(await dialog.locator('.modal__title').innerText(), /^购买游戏时长$/);

    await dialog.getByTestId('purchase-pay').click();
    await text.filter({ hasText: '您的云游币余额不足，请先充值' }).waitFor();
    await page.getByTestId('message-box-confirm').click();
    await dialog.locator('.modal__title').filter({ hasText: /^云游币充值$/ }).waitFor();
    assert.equal(await dialog.getByTestId('pay-yunyoubi').count(), 0, 'coins are not bought with coins');
    assert.equal(await page.getByTestId('profile-balance').innerText(), '0', 'nothing was charged');
  });
});
