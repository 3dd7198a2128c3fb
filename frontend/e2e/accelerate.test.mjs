// Browser test of the queue's acceleration (commerce.md §2.10, §4.9) against the real yoo-server
// in dev mode: a player queued behind two others buys the acceleration card in the queue
// dialog ('立即加速'), pays on the sandbox's pay page (as a phone would), and sees the rank move
// to first on the fast-entry lane without a reload; the others see theirs grow.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, newPlayer, newPlayerContext, openGameDetail, startOnNode, settledTotal, withServer as withServerOf } from './helpers.mjs';

const QUEUE_NODE = 1;

function queueConfig(dataDir) {
  return configToml({
    bind: '127.0.0.1:0',
    dataDir,
    game: { connect_countdown_secs: 30, connect_delay_ms: 300, rank_refresh_ms: 100 },
    nodes: [{ id: QUEUE_NODE, name: '排队一区', machines: [] }],
  });
}

const rankText = (n) => `排队中，当前第 ${n} 位`;

// ~30 s alone; beside the two heaviest files of the suite it once took more than 110 s
test('a queued player buys the acceleration by QR and moves to rank 1 on the fast lane', { timeout: 180_000 }, async () => {
  await withServerOf('accelerate', queueConfig, async ({ base, browser, pages }) => {
    // two players queue first on the machineless node
    const ahead = [];
    for (const [i, phone] of ['13900000201', '13900000202'].entries()) {
      const { page } = await newPlayer(browser, base, phone);
      pages[`ahead${i}`] = page;
      await openGameDetail(page);
      await startOnNode(page, QUEUE_NODE);
      await page.getByTestId('queue-rank').filter({ hasText: rankText(i + 1) }).waitFor();
      ahead.push(page);
    }

    // the third: rank 3 on the normal lane, the upsell's 立即加速
    const { page: p } = await newPlayer(browser, base, '13900000203');
    pages.buyer = p;
    await openGameDetail(p);
    await startOnNode(p, QUEUE_NODE);
    await p.getByTestId('queue-rank').filter({ hasText: rankText(3) }).waitFor();
    await p.getByTestId('queue-lane').filter({ hasText: /^普通队列$/ }).waitFor();
    await p.evaluate(() => {
      window.__yooNoReload = true;
    });
    await p.getByTestId('upsell-accelerate').click();
    const dialog = p.getByTestId('purchase-dialog');
    const card = dialog.getByTestId('goods-card').filter({ hasText: '排队加速卡' });
    await card.waitFor();
    await card.click();
    await dialog.getByTestId('pay-wechat').click();
    assert.match(await settledTotal(dialog), /^¥2(\.00?)?$/);
    await dialog.getByTestId('purchase-pay').click();
    const qr = dialog.getByTestId('purchase-qr');
    await qr.locator('svg').waitFor();
    const payUrl = await qr.getAttribute('data-url');
    assert.ok(payUrl && payUrl.startsWith(base), `the sandbox pay page: ${payUrl}`);
    assert.equal(await p.getByTestId('queue-rank').innerText(), rankText(3), 'nothing moves before the payment');

    // the phone pays; the notice fulfils the order, and the card is used on the queued session
    const phone = await newPlayerContext(browser);
    const pay = await phone.newPage();
    pages.payPage = pay;
    await pay.goto(payUrl);
    await pay.getByRole('button', { name: '确认支付' }).click();
    await dialog.getByTestId('purchase-result').waitFor({ timeout: 20_000 });
    assert.match(await dialog.getByTestId('purchase-result').innerText(), /支付成功/);
    await dialog.getByTestId('purchase-done').click();
    await dialog.waitFor({ state: 'detached' });

    // the pushed rank follows: first, on the fast-entry lane, and the upsell gives way
    await p.getByTestId('queue-rank').filter({ hasText: rankText(1) }).waitFor({ timeout: 10_000 });
    await p.getByTestId('lane-card').and(p.locator('[data-kind="fast"]')).waitFor();
    assert.equal(await p.getByTestId('upsell-accelerate').count(), 0);
    assert.equal(await p.evaluate(() => window.__yooNoReload), true, 'no reload');
    // the two ahead moved back one each
    await ahead[0].getByTestId('queue-rank').filter({ hasText: rankText(2) }).waitFor();
    await ahead[1].getByTestId('queue-rank').filter({ hasText: rankText(3) }).waitFor();
  });
});
