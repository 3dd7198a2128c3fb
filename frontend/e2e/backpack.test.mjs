// A browser test of the backpack (issue 10, commerce.md §2.13, §4.12) against the real yoo-server
// in dev mode: a player given a time card (the dev operator grant) opens /user/card, sees the
// card with its texts and the tab count, uses it through the confirm '确定要使用 X 吗？', gets
// '使用成功', and sees the card move to 已使用 and the play time grow.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, grant, newPlayer, withServer as withServerOf } from './helpers.mjs';

function backpackConfig(dataDir) {
  return configToml({
    bind: '127.0.0.1:0',
    dataDir,
    nodes: [{ id: 1, name: '畅玩一区', machines: ['t1-01'] }],
  });
}

/** Minutes of a play-time text ('X小时Y分钟' or 'Y分钟'). */
function minutesOf(text) {
  const m = /(?:(\d+)小时)?(\d+)分钟/.exec(text);
  assert.ok(m, `a play time: ${text}`);
  return Number(m[1] ?? 0) * 60 + Number(m[2]);
}

test('a time card from the backpack: confirm, 使用成功, and the play time grows', { timeout: 90_000 }, async () => {
  await withServerOf('backpack', backpackConfig, async ({ base, browser, pages }) => {
    const PHONE = '13900000301';
    const { page } = await newPlayer(browser, base, PHONE);
    pages.player = page;
    await grant(base, { cellphone: PHONE, kind: 'time_card', minutes: 120, days: 7 });

    // from the user centre to the backpack
    await page.goto(`${base}/user`);
    await page.getByTestId('user-backpack').click();
    await page.getByTestId('backpack-page').waitFor();
    const before = minutesOf(await page.getByTestId('backpack-play-time').innerText());
    const item = page.locator('[data-testid^="backpack-card-"]');
    await item.first().waitFor();
    assert.equal(await item.count(), 1);
    const text = await item.first().innerText();
    assert.match(text, /120分钟付费时长卡/);
    assert.match(text, /有效期至 \d{4}-\d{2}-\d{2} 23:59:59/);
    assert.match(text, /来源：平台发放/);
    assert.match(await page.getByTestId('backpack-tab-card').innerText(), /\(1\)/, 'the unused count on the tab');

    // 使用: the confirm names the card; confirming uses it
    await item.first().getByRole('button', { name: '使用' }).click();
    await page.getByTestId('message-box').waitFor();
    assert.equal(await page.getByTestId('message-box-text').innerText(), '确定要使用 120分钟付费时长卡 吗？');
    await page.getByTestId('message-box-confirm').click();
    await page.getByTestId('toast-success').filter({ hasText: '使用成功' }).waitFor();
    await page.getByTestId('backpack-empty').waitFor();

    // the play time grew by the card's 120 minutes
    await page.waitForFunction(
      ([want]) => {
        const el = document.querySelector('[data-testid="backpack-play-time"]');
        const m = el && /(?:(\d+)小时)?(\d+)分钟/.exec(el.textContent ?? '');
        return m && Number(m[1] ?? 0) * 60 + Number(m[2]) === want;
      },
      [before + 120],
    );

    // the used filter shows it, with no 使用 button
    await page.getByTestId('backpack-filter-1').click();
    await item.first().waitFor();
    assert.match(await item.first().innerText(), /使用于 .*已使用/s);
    assert.equal(await item.first().getByRole('button', { name: '使用' }).count(), 0);
  });
});
