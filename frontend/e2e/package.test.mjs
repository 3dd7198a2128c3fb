// Browser test of the daily and night packages (commerce.md §2.7) against the real yoo-server in
// dev mode: a player with no package sees 立即开通 and no purchase records, buys the daily
// package by QR on the sandbox's pay page, and sees it active (立即续费, its expiry) with its
// purchase record, also in the bill.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, newPlayer, newPlayerContext, startOnNode, withServer as withServerOf } from './helpers.mjs';

function shopConfig(dataDir) {
  return configToml({ bind: '127.0.0.1:0', dataDir, nodes: [{ id: 1, name: '畅玩一区', machines: ['t1-01'] }] });
}

test('the daily package: activate by QR, then renew, with its record', { timeout: 90_000 }, async () => {
  await withServerOf('package', shopConfig, async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000301');
    pages.player = page;
    await page.goto(`${base}/user/package`);
    const card = page.getByTestId('package-card-daily');
    await card.getByTestId('package-buy').filter({ hasText: '立即开通' }).waitFor();
    assert.equal(await card.getByTestId('package-expiry').count(), 0, 'never bought: no expiry');
    assert.match(await card.getByTestId('package-price').innerText(), /^¥6\/1天\s*会员价 ¥5$/);
    assert.equal(await page.getByTestId('package-privileges').locator('li').count(), 3);
    assert.match(await page.getByTestId('package-rules').innerText(), /08:00–24:00/);
    await page.getByTestId('package-records-toggle').click();
    await page.getByTestId('package-records').filter({ hasText: '暂无购买记录' }).waitFor();
    await page.getByTestId('package-records-toggle').click();

    // the night package has its own card and rules
    await page.getByTestId('package-tab-night').click();
    await page.getByTestId('package-card-night').getByTestId('package-price').filter({ hasText: /^¥5\/1天$/ }).waitFor();
    await page.getByTestId('package-tab-daily').click();

    // 立即开通: the purchase dialog on the package's SKU, paid by QR on the sandbox's page
    await card.getByTestId('package-buy').click();
    const dialog = page.getByTestId('purchase-dialog');
    await dialog.getByTestId('pay-wechat').click();
    await dialog.getByTestId('purchase-pay').click();
    const qr = dialog.getByTestId('purchase-qr');
    await qr.locator('svg').waitFor();
    const payUrl = await qr.getAttribute('data-url');
    const phone = await newPlayerContext(browser);
    const pay = await phone.newPage();
    pages.payPage = pay;
    await pay.goto(payUrl);
    await pay.getByRole('button', { name: '确认支付' }).click();
    await dialog.getByTestId('purchase-result').waitFor({ timeout: 20_000 });
    await dialog.getByTestId('purchase-done').click();
    await dialog.waitFor({ state: 'detached' });

    // active now: 立即续费 and its expiry; the record lists the order
    await card.getByTestId('package-buy').filter({ hasText: '立即续费' }).waitFor({ timeout: 10_000 });
    assert.match(await card.getByTestId('package-expiry').innerText(), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} 到期$/);
    assert.match(await card.getByTestId('package-played').innerText(), /^累计畅玩 0小时0分钟$/);
    await page.getByTestId('package-records-toggle').click();
    const record = page.getByTestId('package-record');
    await record.first().waitFor();
    assert.match(await record.first().innerText(), /日卡畅玩1天[\s\S]*¥6/);

    // the bill lists the order too, paid
    await page.goto(`${base}/user/bill`);
    const bill = page.getByTestId('bill-record');
    await bill.first().waitFor();
    assert.match(await bill.first().innerText(), /日卡畅玩1天[\s\S]*¥6[\s\S]*已支付/);
    await page.getByTestId('bill-tab-game').click();
    await page.getByTestId('history-page').waitFor();
  });
});

test('a subscription game: 130126 asks to subscribe, the durations are bought by QR, then the game starts', { timeout: 90_000 }, async () => {
  await withServerOf('subscribe', shopConfig, async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000302');
    pages.player = page;
    await page.goto(`${base}/game/detail/19`);
    await page.getByTestId('game-detail').waitFor();
    await startOnNode(page, 1);
    const box = page.getByTestId('message-box');
    await box.getByTestId('message-box-text').filter({ hasText: '该游戏需订阅沙海商队订阅包后才能游玩' }).waitFor();
    await box.getByTestId('message-box-confirm').filter({ hasText: '立即订阅' }).click();

    // the package's durations (1, 3 and 12 months), the first chosen; paid by QR
    const dialog = page.getByTestId('purchase-dialog');
    const cards = dialog.getByTestId('goods-card');
    await cards.first().waitFor();
    assert.equal(await cards.count(), 3);
    assert.match(await cards.first().innerText(), /沙海商队订阅包·1个月/);
    await dialog.getByTestId('pay-wechat').click();
    await dialog.getByTestId('purchase-pay').click();
    const qr = dialog.getByTestId('purchase-qr');
    await qr.locator('svg').waitFor();
    const pay = await (await newPlayerContext(browser)).newPage();
    pages.payPage = pay;
    await pay.goto(await qr.getAttribute('data-url'));
    await pay.getByRole('button', { name: '确认支付' }).click();
    await dialog.getByTestId('purchase-result').waitFor({ timeout: 20_000 });
    await dialog.getByTestId('purchase-done').click();
    await dialog.waitFor({ state: 'detached' });

    // subscribed: the game starts (the node's machine is free: the ready dialog)
    await startOnNode(page, 1);
    await page.getByTestId('ready-dialog').waitFor({ timeout: 15_000 });

    // the subscription page and the package's zone
    await page.goto(`${base}/user/subscription`);
    await page.getByTestId('subscription-item').filter({ hasText: /沙海商队订阅包[\s\S]*到期/ }).waitFor();
    await page.goto(`${base}/subscription/401`);
    await page.getByTestId('subscription-zone').waitFor();
    assert.equal(await page.getByTestId('zone-speci').count(), 3);
  });
});
