// The platform restarted under running games, in Chromium: the real yoo-server killed with
// SIGKILL and started again at the same address, a real yoo-gamehost left running.
// 1. A plays the test pattern: after the restart the same play window still shows the same game,
//    the picture moving, and A's session is the same one, PLAYING; no end was shown.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import {
  assertPrerequisites,
  configToml,
  dumpFailure,
  freePort,
  hostBin,
  hostConfigToml,
  launchBrowser,
  login,
  makeTempDir,
  newPlayerContext,
  openGameDetail,
  startHost,
  startOnNode,
  startServer,
  stopServer,
} from './helpers.mjs';
import { assertLiveAndChanging } from './streamProbe.mjs';

const NODE_ID = 1;
const SECRET = 'e2e-host-secret-node-1';
const PATTERN_GAME = 4;
const SCREEN = [640, 360];

/** A server at a fixed address (so that pages and the host find it again after a restart). */
async function startStack(tmp, log) {
  const port = await freePort();
  const configPath = path.join(tmp.dir, 'config.toml');
  await writeFile(
    configPath,
    configToml({
      bind: `127.0.0.1:${port}`,
      dataDir: tmp.dataDir,
      game: { connect_countdown_secs: 120 },
      nodes: [{ id: NODE_ID, name: '测试一区', hostSecret: SECRET }],
    }),
  );
  const server = await startServer(configPath, log);
  const stateDir = path.join(tmp.dir, 'host-state');
  await mkdir(stateDir, { recursive: true });
  const hostConfig = path.join(tmp.dir, 'host.toml');
  await writeFile(hostConfig, hostConfigToml({ nodeId: NODE_ID, host: 'e2e', secret: SECRET, platform: server.url, stateDir, slots: 1, screen: SCREEN }));
  const host = await startHost(hostConfig, log);
  return { server, host, hostConfig, configPath };
}

/** SIGKILL, and wait for the process to be gone. */
async function kill9(proc) {
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}

/** The player's game state, as their page's own API calls see it (the page's cookies). */
async function floatBall(page) {
  return page.evaluate(async () => {
    const csrf = document.cookie.match(/(?:^|; )_csrfToken=([^;]*)/)?.[1] ?? '';
    const r = await fetch('/api/japi/yoo/game/floatBall', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) }, body: '{}' });
    return (await r.json()).data;
  });
}


function assertHostPrerequisites() {
  assertPrerequisites();
  assert.ok(existsSync(hostBin), `game host binary not found at ${hostBin}: run \`cargo build -p gamehost\` (make test does)`);
}

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
    await a.goto(`${base}/`);
    await login(a, base, '13900000121');
    await openGameDetail(a, PATTERN_GAME);
    await startOnNode(a, NODE_ID);
    const ready = a.getByTestId('ready-dialog');
    await ready.waitFor({ timeout: 30_000 });
    const [play] = await Promise.all([ctx.waitForEvent('page'), ready.getByTestId('ready-enter').click()]);
    pages.play = play;
    await play.locator('[data-testid=stream-canvas][data-phase=playing]').waitFor({ timeout: 60_000 });
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
