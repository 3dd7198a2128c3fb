// A browser test of check-in and tasks (commerce.md §2.9, §2.11, §2.12, §4.10, §4.11) against the
// real yoo-server in dev mode: a player checks in from the header's dialog, sees the result
// ('签到成功，恭喜您获得 +N分钟', '已连续签到1天') and the play time grow; the dialog then reads
// '今日已签到'; the check-in finished the daily signIn task, whose reward the player takes on
// /user/mission (reached from the header's task popover), seeing it become 已完成 and the play
// time grow again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, newPlayer, withServer as withServerOf } from './helpers.mjs';

function checkinConfig(dataDir) {
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

test('check in from the header, see the result and the play time grow; claim the signIn task on /user/mission', { timeout: 90_000 }, async () => {
  await withServerOf('checkin', checkinConfig, async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000401');
    pages.player = page;
    await page.goto(`${base}/`);
    await page.getByTestId('header-checkin').waitFor();
    const before = await playTime(page);

    // the check-in dialog: day cells, today first, then 立即签到
    await page.getByTestId('header-checkin').click();
    await page.getByTestId('checkin-dialog').waitFor();
    await page.getByTestId('checkin-cell-10').waitFor();
    assert.match(await page.getByTestId('checkin-cell-1').innerText(), /今天/);
    assert.match(await page.getByTestId('checkin-cell-3').innerText(), /翻倍/, 'day 3 is doubled');
    const submit = page.getByTestId('checkin-submit');
    assert.equal(await submit.innerText(), '立即签到');
    await submit.click();

    // the result: the number counts up to the reward; the streak
    await page.getByTestId('checkin-result').waitFor();
    const minutes = page.getByTestId('checkin-result-minutes');
    const reward = Number(await minutes.getAttribute('data-target'));
    assert.ok(reward > 0);
    await page.waitForFunction((want) => document.querySelector('[data-testid="checkin-result-minutes"]')?.textContent === want, `+${reward}`);
    assert.match(await page.getByTestId('checkin-result-text').innerText(), new RegExp(`签到成功，恭喜您获得 \\+${reward}\\s*分钟`));
    assert.equal(await page.getByTestId('checkin-result-count').innerText(), '已连续签到1天');
    await page.getByTestId('checkin-result-ok').click();
    assert.equal(await page.getByTestId('checkin-dialog').count(), 0, 'the check-in dialog closed');
    await waitPlayTime(page, before + reward);

    // checked in today: the button is disabled
    await page.getByTestId('header-checkin').click();
    await page.getByTestId('checkin-dialog').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="checkin-submit"]')?.textContent === '今日已签到');
    assert.equal(await page.getByTestId('checkin-submit').isDisabled(), true);
    await page.getByTestId('checkin-dialog').getByRole('button', { name: '关闭' }).click();

    // the task popover leads to /user/mission
    await page.getByTestId('header-missions').click();
    await page.getByTestId('mission-popover').waitFor();
    assert.match(await page.getByTestId('mission-popover').innerText(), /做任务，领奖励/);
    await page.getByTestId('mission-all').click();
    await page.getByTestId('mission-page').waitFor();
    const task = page.getByTestId('task-daily_sign_in');
    await task.waitFor();
    assert.equal(await task.getAttribute('data-status'), '1', 'the check-in finished the signIn task');
    assert.match(await task.getByTestId('task-progress').innerText(), /1\/1/);
    const gained = Number(/\+(\d+)分钟/.exec(await task.innerText())[1]);
    const mid = await playTime(page);
    assert.equal(await task.getByTestId('task-button').innerText(), '领取奖励');
    await task.getByTestId('task-button').click();
    await page.getByTestId('toast-success').filter({ hasText: '领取成功' }).waitFor();
    // the status and the button's text come from two renders (the claim's busy flag clears after)
    await page.waitForFunction(() => {
      const t = document.querySelector('[data-testid="task-daily_sign_in"]');
      return t?.getAttribute('data-status') === '2' && t.querySelector('[data-testid="task-button"]')?.textContent === '已完成';
    });
    assert.equal(await task.getByTestId('task-button').isDisabled(), true);
    await waitPlayTime(page, mid + gained);
  });
});
