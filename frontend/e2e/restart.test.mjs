// The platform restarted under running games, in Chromium: the real yoo-server killed with
// SIGKILL and started again at the same address, a real yoo-gamehost left running.
// 1. A plays the test pattern: after the restart the same play window still shows the same game,
//    the picture moving, and A's session is the same one, PLAYING; no end was shown.
// 2. The host is killed too: A was READY on its only slot and B waited behind; the server starts
//    again without the host, and once the host timeout passes A waits first again (B second),
//    not ended; the host started again hands its slot to A (the ready dialog), not to B.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  dumpFailure,
  launchBrowser,
  login,
  makeTempDir,
  newPlayerContext,
  openGameDetail,
  playInNewWindow,
  startHost,
  startOnNode,
  startServer,
  stopServer,
} from './helpers.mjs';
import { assertHostPrerequisites, floatBall, kill9, NODE_ID, PATTERN_GAME, startStack } from './restartStack.mjs';
import { assertLiveAndChanging } from './streamProbe.mjs';

const rankText = (n) => `排队中，当前第 ${n} 位`;

test('the platform killed and started again: the same player in the same game, the picture moving', { timeout: 300_000 }, async () => {
  assertHostPrerequisites();
  const tmp = await makeTempDir('yoo-e2e-restart-');
  const log = [];
  let stack = null;
  let server = null;
  let browser = null;
  const pages = {};
  try {
    stack = await startStack(tmp, log);
    server = stack.server.proc;
    const base = stack.server.url;
    browser = await launchBrowser();
    const ctx = await newPlayerContext(browser);
    const a = (pages.A = await ctx.newPage());
    const play = (pages.play = await playInNewWindow(a, base, '13900000121', PATTERN_GAME, NODE_ID));
    await assertLiveAndChanging(play, 'the test pattern before the restart');
    const before = await floatBall(a);
    assert.equal(before.status, 5, JSON.stringify(before));

    // --- kill -9 of the platform; the host keeps the game running; the platform comes back
    await kill9(server);
    server = (await startServer(stack.configPath, log)).proc;

    // the host links again and the session is adopted: the same session, PLAYING
    const deadline = Date.now() + 20_000;
    let after = null;
    while (Date.now() < deadline) {
      after = await floatBall(a).catch(() => null);
      if (after?.status === 5 && after.id === before.id) break;
      await a.waitForTimeout(200);
    }
    assert.equal(after?.id, before.id, `the same session: ${JSON.stringify(after)}`);
    assert.equal(after?.status, 5, `still playing: ${JSON.stringify(after)}`);

    // the same play window shows the same game, still moving; nothing told the player it ended
    assert.ok(!play.isClosed(), 'the play window stayed open');
    await assertLiveAndChanging(play, 'the test pattern after the restart');
    assert.equal(await a.getByTestId('quality-report').count(), 0, 'no end report');
    assert.equal(await play.locator('[data-testid=stream-canvas][data-phase=playing]').count(), 1);
  } catch (e) {
    await dumpFailure('restart', pages, log);
    throw e;
  } finally {
    await browser?.close().catch(() => undefined);
    await stopServer(stack?.host.proc);
    await stopServer(server);
    await tmp.cleanup();
  }
});

test('the platform and the host killed: the READY player waits first again and gets the machine back', { timeout: 300_000 }, async () => {
  assertHostPrerequisites();
  const tmp = await makeTempDir('yoo-e2e-restart-host-');
  const log = [];
  let server = null;
  let host = null;
  let browser = null;
  const pages = {};
  try {
    const stack = await startStack(tmp, log);
    server = stack.server.proc;
    host = stack.host.proc;
    const base = stack.server.url;
    browser = await launchBrowser();
    const ctxA = await newPlayerContext(browser);
    const ctxB = await newPlayerContext(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const a = (pages.A = await ctxA.newPage());
    const b = (pages.B = await ctxB.newPage());
    await a.goto(`${base}/`);
    await login(a, base, '13900000131');
    await openGameDetail(a, PATTERN_GAME);
    await startOnNode(a, NODE_ID);
    await a.getByTestId('ready-dialog').waitFor({ timeout: 30_000 });
    await b.goto(`${base}/`);
    await login(b, base, '13900000132');
    await openGameDetail(b, PATTERN_GAME);
    await startOnNode(b, NODE_ID);
    await b.getByTestId('queue-rank').filter({ hasText: rankText(1) }).waitFor();
    const readyA = await floatBall(a);
    assert.equal(readyA.status, 3);

    // --- both killed (the platform first: it learns nothing of the host going); the platform
    // comes back alone and waits the host timeout for it
    await kill9(server);
    await kill9(host);
    host = null;
    server = (await startServer(stack.configPath, log)).proc;

    // after the host timeout A waits first again (not ended), B second
    await a.getByTestId('queue-rank').filter({ hasText: rankText(1) }).waitFor({ timeout: 20_000 });
    await b.getByTestId('queue-rank').filter({ hasText: rankText(2) }).waitFor({ timeout: 20_000 });
    const back = await floatBall(a);
    assert.deepEqual([back.id, back.status], [readyA.id, 1], JSON.stringify(back));
    assert.equal(await a.getByTestId('quality-report').count(), 0, 'not ended');

    // the host starts again: its slot goes to A (the ready dialog), B still waits first
    host = (await startHost(stack.hostConfig, log)).proc;
    await a.getByTestId('ready-dialog').waitFor({ timeout: 30_000 });
    await b.getByTestId('queue-rank').filter({ hasText: rankText(1) }).waitFor({ timeout: 20_000 });
    assert.equal((await floatBall(a)).status, 3);
  } catch (e) {
    await dumpFailure('restart-host', pages, log);
    throw e;
  } finally {
    await browser?.close().catch(() => undefined);
    await stopServer(host);
    await stopServer(server);
    await tmp.cleanup();
  }
});
