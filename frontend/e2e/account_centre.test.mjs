// A browser test of the external account centre (core-platform.md §2.6, §7.2, §8.1; commerce.md
// §4.11) against the real yoo-server in dev mode and its sandbox account centre: from
// /user/mission the upNickname task's 去完成 leads to /user/detail, whose 修改资料 opens a window
// on the sandbox's signed agent login; the nickname changed there shows in the page's header
// (the server's USER_INFO push), the task list then shows the task claimable and the claim adds
// its minutes. 修改头像 changes the avatar the same way. A refused uc/login closes the window
// opened beforehand and shows the server's message.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, newPlayer, withServer } from './helpers.mjs';

function ucConfig(dataDir) {
  return configToml({ bind: '127.0.0.1:0', dataDir, nodes: [{ id: 1, name: '畅玩一区', machines: ['t1-01'] }] });
}

/** Minutes of a play-time text ('X小时Y分钟' or 'Y分钟'). */
function minutesOf(text) {
  const m = /(?:(\d+)小时)?(\d+)分钟/.exec(text);
  assert.ok(m, `a play time: ${text}`);
  return Number(m[1] ?? 0) * 60 + Number(m[2]);
}

/** The play time the header's user popover shows. */
async function playTime(page) {
  await page.getByTestId('header-user').hover();
  const text = await page.getByTestId('user-play-time').innerText();
  await page.mouse.move(5, 400);
  return minutesOf(text);
}

async function waitPlayTime(page, want) {
  for (let i = 0; i < 50; i++) {
    if ((await playTime(page)) === want) return;
    await page.waitForTimeout(100);
  }
  assert.equal(await playTime(page), want, 'the play time');
}

/** Clicks an account-centre entry and resolves the window it opened. */
async function openEntry(page, target) {
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId(`uc-entry-${target}`).click()]);
  return popup;
}

test('change the nickname at the account centre, see the upNickname task claimable and claim it', { timeout: 120_000 }, async () => {
  await withServer('account-centre', ucConfig, async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000501');
    pages.player = page;

    // the task list: upNickname to do; 去完成 leads to /user/detail
    await page.goto(`${base}/user/mission`);
    const task = page.getByTestId('task-once_up_nickname');
    await task.waitFor();
    assert.equal(await task.getAttribute('data-status'), '0');
    assert.equal(await task.getByTestId('task-button').innerText(), '去完成');
    await task.getByTestId('task-button').click();
    await page.waitForURL(/\/user\/detail$/);
    await page.getByTestId('user-detail').waitFor();
    const oldName = await page.getByTestId('user-detail-nickname').innerText();

    // 修改资料 opens the sandbox's INFO page through the signed agent login
    const popup = await openEntry(page, 'INFO');
    pages.popup = popup;
    await popup.waitForURL(/\/api\/dev\/uc\/s\/[0-9a-f]+\?view=INFO$/);
    assert.equal(await popup.locator('#uc-nickname-input').inputValue(), oldName);
    await popup.locator('#uc-nickname-input').fill('小明同学');
    await popup.locator('#uc-save').click();
    await popup.locator('#uc-result').filter({ hasText: '昵称修改成功' }).waitFor();
    // the account centre leads back to the page it was opened from
    assert.equal(await popup.locator('#uc-back').getAttribute('href'), '/user/detail');
    await popup.close();

    // the page learns of it from the server (USER_INFO) without a reload
    await page.getByTestId('header-nickname').filter({ hasText: '小明同学' }).waitFor();
    await page.getByTestId('user-detail-nickname').filter({ hasText: '小明同学' }).waitFor();

    // back on the task list: claimable, claimed once for its minutes
    await page.goBack();
    await page.waitForURL(/\/user\/mission$/);
    await page.waitForFunction(() => document.querySelector('[data-testid="task-once_up_nickname"]')?.getAttribute('data-status') === '1');
    const gained = Number(/\+(\d+)分钟/.exec(await task.innerText())[1]);
    assert.ok(gained > 0);
    const before = await playTime(page);
    assert.equal(await task.getByTestId('task-button').innerText(), '领取奖励');
    await task.getByTestId('task-button').click();
    await page.getByTestId('toast-success').filter({ hasText: '领取成功' }).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="task-once_up_nickname"]')?.getAttribute('data-status') === '2');
    assert.equal(await task.getByTestId('task-button').isDisabled(), true);
    await waitPlayTime(page, before + gained);
  });
});

test('change the avatar at the account centre; a refused login closes its window and shows the message', { timeout: 120_000 }, async () => {
  await withServer('account-centre-avatar', ucConfig, async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000502');
    pages.player = page;
    await page.goto(`${base}/user/detail`);
    await page.getByTestId('user-detail').waitFor();

    const popup = await openEntry(page, 'AVATAR');
    pages.popup = popup;
    await popup.waitForURL(/\/api\/dev\/uc\/s\/[0-9a-f]+\?view=AVATAR$/);
    await popup.locator('input[data-avatar="4"]').check();
    await popup.locator('#uc-save').click();
    await popup.locator('#uc-result').filter({ hasText: '头像修改成功' }).waitFor();
    await popup.close();
    await page.waitForFunction(() => document.querySelector('[data-testid="user-detail-avatar"]')?.getAttribute('data-src') === '/api/dev/uc/avatar/4.svg');
    assert.equal(await page.getByTestId('user-detail-avatar').locator('img').getAttribute('src'), '/api/dev/uc/avatar/4.svg');

    // the server refuses: the window opened beforehand closes, the server's message shows
    await page.route('**/api/user/v1/uc/login', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ code: 20270, message: '跳转地址不正确', data: null, ts: 0 }) }),
    );
    const [refused] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('uc-entry-HOME').click()]);
    if (!refused.isClosed()) await refused.waitForEvent('close');
    await page.getByTestId('toast-error').filter({ hasText: '跳转地址不正确' }).waitFor();
  });
});
