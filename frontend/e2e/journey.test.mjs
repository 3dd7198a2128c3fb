// Browser end-to-end journey against the real yoo-server: two players, one machine.
// A logs in with an SMS code, starts game 1, confirms the ready dialog and plays; B queues behind
// A at rank 1; A exits, B's ready dialog is pushed over the WebSocket, B lets it lapse and sees the
// missed-queue message; the server restarts on the same port and data dir and both stay logged in.
// Shared steps live in helpers.mjs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertPrerequisites,
  configToml,
  dumpFailure,
  launchBrowser,
  login,
  makeTempDir,
  newPlayerContext,
  openGameDetail,
  startOnNode,
  startServerWith,
  stopServer,
  watchNotifications,
} from './helpers.mjs';

const PHONE_A = '13900000001';
const PHONE_B = '13900000002';
const GAME_ID = 1;
const NODE_ID = 1;
const COUNTDOWN_SECS = 6;

function journeyConfig(bind, dataDir) {
  return configToml({
    bind,
    dataDir,
    game: { connect_countdown_secs: COUNTDOWN_SECS, connect_delay_ms: 300 },
    nodes: [{ id: NODE_ID, name: '测试一区', machines: ['t1-01'] }],
  });
}

async function assertLoggedIn(page, who) {
  await page.getByTestId('header-nickname').waitFor({ timeout: 15_000 });
  assert.equal(await page.getByTestId('header-login').count(), 0, `${who} shows the 登录 button after the restart`);
}

test('two players share one machine: play, queue, push, missed queue, restart', { timeout: 180_000 }, async () => {
  assertPrerequisites();
  const tmp = await makeTempDir();
  const log = [];
  let server = null;
  let browser = null;
  const pages = {};
  try {
    server = await startServerWith(tmp.dir, 'config.toml', journeyConfig('127.0.0.1:0', tmp.dataDir), log);
    const base = server.url;
    const port = new URL(base).port;

    browser = await launchBrowser();
    const ctxA = await newPlayerContext(browser);
    const ctxB = await newPlayerContext(browser);
    const a = (pages.A = await ctxA.newPage());
    const b = (pages.B = await ctxB.newPage());
    const pushesToB = watchNotifications(b);

    // --- A: log in, start game 1 on the only node, confirm, play
    await a.goto(`${base}/`);
    await login(a, base, PHONE_A);
    await openGameDetail(a);
    await startOnNode(a, NODE_ID);
    const readyA = a.getByTestId('ready-dialog');
    await readyA.waitFor();
    const readyText = await readyA.innerText();
    assert.match(readyText, /已准备就绪，是否进入游戏？/);
    assert.match(readyText, /\d+秒后自动放弃/);
    // the play page opens in its own window (core-platform.md §2.1); A's page stays where it was
    const [playA] = await Promise.all([ctxA.waitForEvent('page'), readyA.getByTestId('ready-enter').click()]);
    pages.playA = playA;
    await playA.waitForURL(new RegExp(`/game/play\\?gameId=${GAME_ID}$`));
    await playA.getByTestId('play-status').filter({ hasText: '游戏中' }).waitFor();
    assert.match(a.url(), new RegExp(`/game/detail/${GAME_ID}\\?r=`), 'the page that confirmed stays on the detail page');
    await a.getByTestId('float-return').waitFor();

    // --- B: log in, start the same game: the machine is taken, B is first in the queue
    await b.goto(`${base}/`);
    await login(b, base, PHONE_B);
    await openGameDetail(b);
    await startOnNode(b, NODE_ID);
    await b.getByTestId('queue-dialog').waitFor();
    await b.getByTestId('queue-rank').filter({ hasText: '排队中，当前第 1 位' }).waitFor();

    // --- A exits the game; B is told over the WebSocket, without a reload
    await b.evaluate(() => {
      window.__yooNoReload = true;
    });
    const pushesBefore = pushesToB.count;
    await playA.getByTestId('play-exit').click();
    const box = playA.getByTestId('message-box');
    await box.waitFor();
    assert.match(await box.innerText(), /退出游戏/);
    // the play window closes itself once the game is over
    await Promise.all([playA.waitForEvent('close'), box.getByRole('button', { name: '立即退出' }).click()]);
    delete pages.playA;
    await a.getByTestId('game-float').waitFor({ state: 'detached' });

    const readyB = b.getByTestId('ready-dialog');
    await readyB.waitFor({ timeout: 10_000 });
    assert.ok(pushesToB.count > pushesBefore, 'the ready state reached B as a pushed NOTIFICATION frame');
    assert.equal(await b.evaluate(() => window.__yooNoReload), true, 'B was not reloaded');
    assert.equal(await b.getByTestId('queue-dialog').count(), 0, 'the queue dialog closes when READY arrives');

    // --- B lets the countdown lapse: the ready dialog goes and the missed-queue message shows
    await b
      .getByTestId('missed-queue')
      .filter({ hasText: '您的排队已错过，请重新排队' })
      .waitFor({ timeout: (COUNTDOWN_SECS + 8) * 1000 });
    assert.equal(await readyB.count(), 0, 'the ready dialog is gone once the countdown lapsed');

    // --- restart the server on the same port and data dir: both players stay logged in
    await stopServer(server.proc);
    server = await startServerWith(tmp.dir, 'config-restart.toml', journeyConfig(`127.0.0.1:${port}`, tmp.dataDir), log);
    assert.equal(new URL(server.url).port, port, 'the restarted server listens on the same port');
    await Promise.all([a.reload(), b.reload()]);
    await assertLoggedIn(a, 'player A');
    await assertLoggedIn(b, 'player B');
  } catch (err) {
    await dumpFailure('journey', pages, log);
    throw err;
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    if (server) await stopServer(server.proc);
    await tmp.cleanup();
  }
});
