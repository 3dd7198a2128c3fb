// The game tip before a start (core-platform.md §4.4 step 9, §4.7, §2.14): a player starting a
// game with a tip sees '温馨提示' with the tip, its yoodo line and its ad, ticks
// '当前游戏版本不再提醒' and starts; after a reload the same game starts with no tip.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, newPlayer, openGameDetail, startOnNode, withServer } from './helpers.mjs';

/** 灯塔之夜: the seeded game with a tip */
const TIP_GAME = 13;

function config(dataDir) {
  return configToml({
    bind: '127.0.0.1:0',
    dataDir,
    game: { connect_countdown_secs: 60, connect_delay_ms: 300 },
    nodes: [{ id: 1, name: '畅玩一区', machines: ['t-01'] }],
  });
}

/** The start went through: the ready dialog (a machine was free) or the queue dialog. */
async function started(page) {
  await page.locator('[data-testid="ready-dialog"], [data-testid="queue-dialog"]').first().waitFor();
}

/** Polls the player's state until no game is online (the give-up reached the server). */
async function gameOver(page) {
  for (let i = 0; i < 100; i++) {
    const online = await page.evaluate(async () => {
      const csrf = document.cookie.match(/_csrfToken=([^;]+)/)?.[1] ?? '';
      const r = await fetch('/api/japi/yoo/game/floatBall', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: '{}' });
      return (await r.json()).data?.hasGameOnline;
    });
    if (online === false) return;
    await page.waitForTimeout(100);
  }
  assert.fail('the game did not end');
}

test('a game tip shows before the start; 当前游戏版本不再提醒 hides it the next time', { timeout: 90_000 }, async () => {
  await withServer('gametip', config, async ({ base, browser, pages }) => {
    const { page } = await newPlayer(browser, base, '13900000711');
    pages.main = page;
    await openGameDetail(page, TIP_GAME);
    await startOnNode(page, 1);

    const tip = page.getByTestId('game-tip');
    await tip.waitFor();
    const text = await tip.innerText();
    assert.match(text, /温馨提示/);
    assert.match(await tip.getByTestId('game-tip-text').innerText(), /云端/);
    assert.equal(await tip.getByTestId('game-tip-yoodo').innerText(), '时长不足时，可消耗60悠豆/小时继续畅玩');
    assert.equal(await tip.locator('.game-tip__amount').innerText(), '60', 'the amount is highlighted');
    assert.equal(await tip.getByTestId('game-tip-ad').innerText(), '排队加速卡');
    assert.match(text, /当前游戏版本不再提醒/);
    assert.equal(await page.getByTestId('ready-dialog').count(), 0, 'no start before the tip is answered');

    await tip.getByTestId('game-tip-dont-remind').check();
    await tip.getByTestId('game-tip-start').filter({ hasText: '开始游戏' }).click();
    await tip.waitFor({ state: 'detached' });
    // the machine is free: the ready dialog; giving up ends the game
    const ready = page.getByTestId('ready-dialog');
    await ready.waitFor();
    await ready.getByTestId('ready-giveup').click();
    await ready.waitFor({ state: 'detached' });
    // the game is over (given up) before the second start
    await gameOver(page);

    // a new page load: what is remembered is the browser's, not the page's
    await page.reload();
    await page.getByTestId('start-game').waitFor();
    await startOnNode(page, 1);
    await started(page);
    assert.equal(await page.getByTestId('game-tip').count(), 0, 'the dismissed tip is not shown again');
  });
});
