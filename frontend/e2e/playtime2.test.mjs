// A browser test of exclusive play time (commerce.md §2.1, §2.13, §4.12) against the real
// yoo-server in dev mode: a player given an exclusive card of game category 1 sees it in the
// backpack with its minutes left and no '使用' (it is not turned into balance); its '可用游戏'
// opens /game/section?game_category_id=1&section_name=可用游戏, which lists the games of that
// category (1 and 3) and not those of another (2 and 4).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, grant, newPlayer, withServer as withServerOf } from './helpers.mjs';

function config(dataDir) {
  return configToml({
    bind: '127.0.0.1:0',
    dataDir,
    nodes: [{ id: 1, name: '畅玩一区', machines: ['t1-01'] }],
  });
}

test('an exclusive card links to the games of its category only', { timeout: 90_000 }, async () => {
  await withServerOf('playtime2', config, async ({ base, browser, pages }) => {
    const PHONE = '13900000701';
    const { page } = await newPlayer(browser, base, PHONE);
    pages.player = page;
    await grant(base, { cellphone: PHONE, kind: 'exclusive_time_card', minutes: 90, days: 7, game_category_id: 1 });

    await page.goto(`${base}/user/card`);
    await page.getByTestId('backpack-page').waitFor();
    const item = page.locator('[data-testid^="backpack-card-"]');
    await item.first().waitFor();
    assert.equal(await item.count(), 1);
    const text = await item.first().innerText();
    assert.match(text, /90分钟专属时长/);
    await page.locator('[data-testid^="backpack-exclusive-"]').filter({ hasText: '剩余90分钟专属时长，仅限可用游戏使用' }).waitFor();
    assert.equal(await item.first().getByRole('button', { name: '使用' }).count(), 0, 'an exclusive card is not used from the backpack');

    await item.first().getByRole('link', { name: '可用游戏' }).click();
    await page.getByTestId('game-section-page').waitFor();
    assert.match(page.url(), /\/game\/section\?game_category_id=1&section_name=/);
    assert.match(await page.locator('.page__title').innerText(), /可用游戏/);
    await page.getByTestId('game-card-1').waitFor();
    assert.equal(await page.getByTestId('game-card-3').count(), 1, 'the other game of the category');
    assert.equal(await page.getByTestId('game-card-2').count(), 0, 'a game of another category is not usable');
    assert.equal(await page.getByTestId('game-card-4').count(), 0, 'a game of another category is not usable');
  });
});

test('the bills have a 直播记录 tab read from the server', { timeout: 90_000 }, async () => {
  await withServerOf('playtime2-live', config, async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000702');
    pages.player = page;
    const answered = page.waitForResponse((r) => r.url().includes('/api/v3/user/bill/live'));
    await page.goto(`${base}/user/bill`);
    await page.getByTestId('bill-page').waitFor();
    await page.getByTestId('bill-tab-live').click();
    const res = await answered;
    const body = await res.json();
    assert.equal(body.code, 0);
    assert.equal(body.data.total, 0, 'a new player has hosted no room');
    assert.match(page.url(), /\/user\/bill\/liveRecord$/);
    await page.getByTestId('live-record-empty').filter({ hasText: '暂无直播记录' }).waitFor();
    assert.match(await page.getByTestId('bill-tab-live').getAttribute('class'), /package__tab--on/);

    // the user centre's card panel: the package entry and the 礼包 / 优惠券 counts
    await page.goto(`${base}/user`);
    await page.getByTestId('card-panel').waitFor();
    assert.equal(await page.getByTestId('card-panel-package').getAttribute('href'), '/user/package');
    await page.getByTestId('card-panel-gift').filter({ hasText: /礼包 \d+/ }).waitFor();
    await page.getByTestId('card-panel-coupon').filter({ hasText: /优惠券 \d+/ }).waitFor();
  });
});

test("an activity SKU's 立即购买 opens the purchase dialog on that SKU", { timeout: 90_000 }, async () => {
  await withServerOf('playtime2-sku', config, async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000703');
    pages.player = page;
    await page.goto(`${base}/activity/coupon?activity_id=1`);
    const buy = page.locator('[data-testid^="activity-buy-"]');
    await buy.first().waitFor();
    const code = (await buy.first().getAttribute('data-testid')).slice('activity-buy-'.length);
    const item = page.waitForResponse((r) => r.url().includes('/api/v3/shop/goods/item') && r.url().includes(encodeURIComponent(code)));
    await buy.first().click();
    assert.equal((await (await item).json()).code, 0);
    await page.getByTestId('purchase-dialog').waitFor();
  });
});
