// Browser tests of the activities and the ad-click actions (commerce.md §2.15, §2.16) against the
// real yoo-server in dev mode: a page URL's target_type/target_value opens the purchase dialog
// about 1 s after the page opens (coin recharge, a section by JSON with the recharge-gift tooltip
// on the coin pay method, the daily-package deep link); a player draws on the lottery's rotary
// and sees the prize in the winning dialog and in the records; a friend registers from an invite
// landing page and the inviter's page counts them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, loginInDialog, newPlayer, newPlayerContext, withServer as withServerOf } from './helpers.mjs';

function activityConfig(dataDir) {
  return configToml({
    bind: '127.0.0.1:0',
    dataDir,
    nodes: [{ id: 1, name: '畅玩一区', machines: ['t1-01'] }],
  });
}

const withServer = (tag, body) => withServerOf(tag, activityConfig, body);

test('a URL action opens the purchase dialog after about 1 s', { timeout: 90_000 }, async () => {
  await withServer('activity-url', async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000301');
    pages.player = page;
    const dialog = page.getByTestId('purchase-dialog');

    // target_type 3 buyCoin on the home page
    const t0 = Date.now();
    await page.goto(`${base}/?target_type=3&target_value=buyCoin`);
    await page.getByTestId('header-nickname').waitFor();
    const early = await dialog.count();
    await dialog.waitFor();
    const waited = Date.now() - t0;
    assert.equal(early, 0, 'the dialog is not there at once');
    assert.ok(waited >= 900, `the action waits about 1 s: ${waited} ms`);
    assert.match(await dialog.locator('.modal__title').innerText(), /^云游币充值$/);
    await dialog.getByTestId('goods-card').first().waitFor();
    assert.ok(!page.url().includes('target_type'), `the action's parameters are dropped: ${page.url()}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // target_type 4: a section by JSON; the coin pay method shows the recharge-gift tooltip
    const value = encodeURIComponent(JSON.stringify({ type: 'goods', section_key: 'shop_card_time' }));
    await page.goto(`${base}/?target_type=4&target_value=${value}`);
    await dialog.waitFor();
    assert.match(await dialog.locator('.modal__title').innerText(), /^购买游戏时长$/);
    const tip = dialog.getByTestId('recharge-give-tip');
    await tip.waitFor();
    assert.match(await tip.innerText(), /充值云游币享好礼[\s\S]*去充值/);
    await tip.getByRole('button', { name: '去充值' }).click();
    await dialog.locator('.modal__title', { hasText: '云游币充值' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // the daily-package deep link lists the section shop_card_day
    await page.goto(`${base}/user/member/vip?target_type=3&target_value=buyDailyPackage`);
    await dialog.waitFor();
    await dialog.getByTestId('goods-card').first().waitFor();
    assert.match(await dialog.locator('.modal__title').innerText(), /^购买日间畅玩包$/);
    assert.match(await dialog.innerText(), /日卡畅玩1天/);
  });
});

test('a draw on /land/lottery shows the prize and the record', { timeout: 90_000 }, async () => {
  await withServer('activity-lottery', async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000302');
    pages.player = page;
    await page.goto(`${base}/land/lottery`);
    await page.getByTestId('lottery-page').waitFor();
    const chances = page.getByTestId('lottery-chances');
    await chances.filter({ hasText: '今日剩余 3 次' }).waitFor();
    const names = (await page.locator('.lottery__cell').allInnerTexts()).map((s) => s.trim());
    assert.ok(names.length >= 6, `the rotary's prizes: ${names}`);

    await page.getByTestId('lottery-draw').click();
    const result = page.getByTestId('lottery-result');
    await result.waitFor();
    const prize = await result.getByTestId('lottery-prize').innerText();
    const won = names.find((n) => prize.includes(n));
    assert.ok(won, `the dialog names a prize of the rotary: ${prize}`);
    await chances.filter({ hasText: '今日剩余 2 次' }).waitFor();
    await result.getByRole('button', { name: '知道了' }).click();
    await result.waitFor({ state: 'detached' });

    // everyone's records show the draw with the phone masked, and so do mine
    const records = page.getByTestId('lottery-records');
    await records.locator('li', { hasText: won }).first().waitFor();
    assert.match(await records.innerText(), /139\*\*\*\*0302/);
    await page.getByTestId('lottery-tab-1').click();
    await records.locator('li').first().waitFor();
    assert.equal(await records.locator('li').count(), 1);
    assert.match(await records.innerText(), new RegExp(won));
  });
});

test('a friend registered from the invite landing page is counted by the inviter', { timeout: 90_000 }, async () => {
  await withServer('activity-invite', async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000303');
    pages.inviter = page;
    await page.goto(`${base}/invite`);
    const code = (await page.getByTestId('invite-code').innerText()).trim();
    assert.match(code, /^[0-9A-Z]{8}$/);
    assert.equal(await page.getByTestId('invite-link').innerText(), `${base}/land/invite?invite_code=${code}`);
    assert.equal(await page.getByTestId('invite-count').innerText(), '0');
    assert.match(await page.getByTestId('invite-basic').innerText(), /游戏时长/);

    // the friend opens the link as a guest and registers from it
    const ctx = await newPlayerContext(browser);
    const friend = await ctx.newPage();
    pages.friend = friend;
    await friend.goto(`${base}/land/invite?invite_code=${code}`);
    await friend.getByTestId('invite-register').click();
    const gift = await loginInDialog(friend, base, '13900000304');
    assert.ok(gift, 'the friend is a new user');

    await page.reload();
    await page.getByTestId('invite-count').filter({ hasText: /^1$/ }).waitFor();
    await page.getByTestId('invite-records-link').click();
    const records = page.getByTestId('invite-records');
    await records.locator('li').first().waitFor();
    assert.match(await records.innerText(), /139\*\*\*\*0304[\s\S]*已注册/);
  });
});
