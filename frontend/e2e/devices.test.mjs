// Issue 7: a game left running on another device can be ended, not only moved
// (core-platform.md §4.5: exit of a game on another device ends it with over; §8.2: 130115).
// One player, two browser contexts = two devices: A plays; B ends A's game from the float, then,
// after A starts again, from the detail page's 开始游戏 (130115: confirm, force-cancel, 退出游戏成功).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configToml, grant, login, newPlayerContext, openGameDetail, startOnNode, withServer } from './helpers.mjs';

const NODE = 1;
const PHONE = '13900000061';

/** A starts game 1 and enters it: the play page opens in its own window, PLAYING. */
async function playOnA(ctxA, a, pages) {
  await openGameDetail(a);
  await startOnNode(a, NODE);
  await a.getByTestId('ready-dialog').waitFor();
  const [play] = await Promise.all([ctxA.waitForEvent('page'), a.getByTestId('ready-enter').click()]);
  pages.playA = play;
  await play.getByTestId('play-status').filter({ hasText: '游戏中' }).waitFor();
  return play;
}

const devicesConfig = (dataDir) =>
  configToml({
    bind: '127.0.0.1:0',
    dataDir,
    game: { connect_countdown_secs: 60, connect_delay_ms: 300 },
    nodes: [{ id: NODE, name: '测试一区', machines: ['d-01'] }],
  });

test('a game on another device is ended from the float and from 开始游戏 (130115)', { timeout: 180_000 }, async () => {
  await withServer('devices', devicesConfig, async ({ base, browser, pages }) => {
    const ctxA = await newPlayerContext(browser);
    const ctxB = await newPlayerContext(browser);
    const a = (pages.A = await ctxA.newPage());
    const b = (pages.B = await ctxB.newPage());

    await a.goto(`${base}/`);
    await login(a, base, PHONE);
    await grant(base, { cellphone: PHONE, kind: 'play_time', minutes: 120 });
    let playA = await playOnA(ctxA, a, pages);

    // --- B, the same player on another device: the float says so and offers 退出游戏
    await b.goto(`${base}/`);
    assert.equal(await login(b, base, PHONE), null, 'no second registration gift');
    const float = b.getByTestId('game-float');
    await float.waitFor();
    await b.getByTestId('float-other-device').filter({ hasText: '正在其他设备上运行' }).waitFor();
    await b.getByTestId('float-move').waitFor();
    await b.getByTestId('float-end').click();
    const box = b.getByTestId('message-box');
    await box.waitFor();
    assert.match(await box.innerText(), /退出游戏[\s\S]*您正在其他设备上运行当前游戏[\s\S]*立即退出[\s\S]*再玩一会|退出游戏[\s\S]*您正在其他设备上运行当前游戏/);
    // A's game is over: its play window closes itself (core-platform.md §2.2)
    let closed = playA.waitForEvent('close', { timeout: 10_000 });
    await box.getByRole('button', { name: '立即退出' }).click();
    await b.getByTestId('toast-success').filter({ hasText: '退出游戏成功' }).waitFor();
    await float.waitFor({ state: 'detached' });
    await closed;
    // and the server has no game for the player
    const floatBall = await a.evaluate(async () => {
      const csrf = document.cookie.match(/_csrfToken=([^;]+)/)?.[1] ?? '';
      const r = await fetch('/api/japi/yoo/game/floatBall', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) }, body: '{}' });
      return r.json();
    });
    assert.equal(floatBall.code, 0, JSON.stringify(floatBall));
    assert.equal(floatBall.data.hasGameOnline, false, 'the ended game no longer runs (nor uses play time)');

    // --- A plays again; B presses 开始游戏 on the detail page: 130115, confirm, over, 退出游戏成功
    playA = await playOnA(ctxA, a, pages);
    await openGameDetail(b);
    await b.getByTestId('game-float').waitFor();
    await startOnNode(b, NODE);
    await box.waitFor();
    const text = await box.innerText();
    assert.match(text, /您正在其他设备上运行当前游戏/);
    assert.match(text, /请退出游戏后重新启动/);
    closed = playA.waitForEvent('close', { timeout: 10_000 });
    await box.getByTestId('message-box-confirm').click();
    await b.getByTestId('toast-success').filter({ hasText: '退出游戏成功' }).waitFor();
    await b.getByTestId('game-float').waitFor({ state: 'detached' });
    await closed;
    await a.getByTestId('game-float').waitFor({ state: 'detached' });
  });
});
