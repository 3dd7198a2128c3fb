// The game itself in Chromium: the real yoo-server, a real yoo-gamehost (Xvfb, GStreamer,
// XTest) linked to it, WebCodecs in the page.
// 1. A plays the test pattern: the canvas shows it (not blank, changing), a key press and a click
//    change the picture (the pattern's key and button squares, the pointer marker); B waits in
//    the queue; A exits: the quality report shows, the slot is reset and freed, B gets it and
//    plays neverball (a real game: not blank, changing); A's history shows the report.
// 2. The host is killed with SIGKILL during play: the player is told, the machine leaves the
//    pool (a new player queues), no minute is charged after the loss, and the host started
//    again registers its machine again (the queued player gets it: on a phone at 390x844, where
//    the picture spans the width and a tap reaches the game).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import {
  assertNoSidewaysScroll,
  assertPrerequisites,
  assertTappable,
  configToml,
  dumpFailure,
  hostBin,
  hostConfigToml,
  launchBrowser,
  login,
  makeTempDir,
  newPlayerContext,
  openGameDetail,
  startHost,
  startOnNode,
  startServerWith,
  stopServer,
} from './helpers.mjs';
import { IDLE, assertLiveAndChanging, buttonBlockCentre, canvasPixelInPage, keyBlockCentre, sameColour } from './streamProbe.mjs';

const NODE_ID = 1;
const SECRET = 'e2e-host-secret-node-1';
/** catalogue games and what the hosts run for them (storage/src/seed.rs: host_game) */
const PATTERN_GAME = 4;
const NEVERBALL_GAME = 1;
const SCREEN = [640, 360];
const PLAY_MINUTE_MS = 3000;

async function startStack(tmp, log, { slots = 1 } = {}) {
  const config = configToml({
    bind: '127.0.0.1:0',
    dataDir: tmp.dataDir,
    game: { connect_countdown_secs: 60, play_minute_ms: PLAY_MINUTE_MS },
    nodes: [{ id: NODE_ID, name: '测试一区', hostSecret: SECRET }],
  });
  const server = await startServerWith(tmp.dir, 'config.toml', config, log);
  const stateDir = path.join(tmp.dir, 'host-state');
  await mkdir(stateDir, { recursive: true });
  const hostConfig = path.join(tmp.dir, 'host.toml');
  await writeFile(hostConfig, hostConfigToml({ nodeId: NODE_ID, host: 'e2e', secret: SECRET, platform: server.url, stateDir, slots, screen: SCREEN }));
  const host = await startHost(hostConfig, log);
  return { server, host, hostConfig };
}

/** The number of machines the node's pool has free, from the platform's metrics. */
async function machinesFree(base) {
  const text = await new Promise((resolve, reject) => {
    import('node:http').then(({ default: http }) =>
      http
        .get(`${base}/metrics`, { agent: false }, (res) => {
          let t = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (t += c));
          res.on('end', () => resolve(t));
        })
        .on('error', reject),
    );
  });
  // One series per node: the sum of them.
  const all = [...text.matchAll(/^yoo_machines_free(?:\{[^}]*\})?\s+(\d+)/gm)];
  return all.length ? all.reduce((sum, m) => sum + Number(m[1]), 0) : null;
}

/** Logs in, opens the game, starts on the node and waits for the ready dialog (or the queue). */
async function startGame(page, base, phone, gameId, expect = 'ready') {
  await page.goto(`${base}/`);
  await login(page, base, phone);
  await openGameDetail(page, gameId);
  await startOnNode(page, NODE_ID);
  if (expect === 'ready') await page.getByTestId('ready-dialog').waitFor({ timeout: 30_000 });
  else await page.getByTestId('queue-rank').filter({ hasText: '排队中，当前第 1 位' }).waitFor();
}

/** '进入游戏': the play page opens in its own window and shows the stream. */
async function enterGame(ctx, page) {
  const ready = page.getByTestId('ready-dialog');
  await ready.waitFor({ timeout: 60_000 });
  const [play] = await Promise.all([ctx.waitForEvent('page'), ready.getByTestId('ready-enter').click()]);
  await play.locator('[data-testid=stream-canvas][data-phase=playing]').waitFor({ timeout: 60_000 });
  return play;
}


/** Polls the canvas colour at a picture point until `ok(colour)`. */
async function waitForColour(play, point, ok, what, within = 10_000) {
  const deadline = Date.now() + within;
  let c = null;
  while (Date.now() < deadline) {
    c = await play.evaluate(canvasPixelInPage, point);
    if (c !== null && ok(c)) return c;
    await play.waitForTimeout(100);
  }
  assert.fail(`${what}: colour at ${JSON.stringify(point)} is ${c === null ? 'unreadable' : c.toString(16)}`);
}

/** The client point over picture pixel `p` of the stream canvas (object-fit: contain). */
async function clientPointOf(play, p) {
  return play.evaluate(({ x, y }) => {
    const c = document.querySelector('[data-testid=stream-canvas]');
    const r = c.getBoundingClientRect();
    const s = Math.min(r.width / c.width, r.height / c.height);
    const left = r.left + (r.width - c.width * s) / 2;
    const top = r.top + (r.height - c.height * s) / 2;
    return { x: left + (x + 0.5) * s, y: top + (y + 0.5) * s };
  }, p);
}

function assertHostPrerequisites() {
  assertPrerequisites();
  assert.ok(existsSync(hostBin), `game host binary not found at ${hostBin}: run \`cargo build -p gamehost\` (make test does)`);
}

test('a real game stream: picture, input, exit frees the slot for the next player, quality report', { timeout: 300_000 }, async () => {
  assertHostPrerequisites();
  const tmp = await makeTempDir('yoo-e2e-stream-');
  const log = [];
  let stack = null;
  let browser = null;
  const pages = {};
  try {
    stack = await startStack(tmp, log);
    const base = stack.server.url;
    browser = await launchBrowser();
    const ctxA = await newPlayerContext(browser);
    const ctxB = await newPlayerContext(browser);
    const a = (pages.A = await ctxA.newPage());
    const b = (pages.B = await ctxB.newPage());

    // --- A: the test pattern on the node's only slot
    await startGame(a, base, '13900000101', PATTERN_GAME);
    const playA = (pages.playA = await enterGame(ctxA, a));
    await assertLiveAndChanging(playA, 'the test pattern');

    // a key press reaches the game: the pattern's last-key square leaves its idle colour
    const keyAt = keyBlockCentre(SCREEN[0]);
    await waitForColour(playA, keyAt, (c) => sameColour(c, IDLE), 'the key square before any key');
    await playA.getByTestId('stream-canvas').focus();
    await playA.keyboard.press('KeyA');
    await waitForColour(playA, keyAt, (c) => !sameColour(c, IDLE), 'the key square after a key press');

    // a click reaches it: the button square changes and the pointer marker is where we clicked
    const buttonAt = buttonBlockCentre(SCREEN[0]);
    await waitForColour(playA, buttonAt, (c) => sameColour(c, IDLE), 'the button square before any click');
    const target = { x: 200, y: 220 };
    const point = await clientPointOf(playA, target);
    await playA.mouse.click(point.x, point.y);
    await waitForColour(playA, buttonAt, (c) => !sameColour(c, IDLE), 'the button square after a click');
    await waitForColour(playA, target, (c) => sameColour(c, 0xff0000, 70), 'the pointer marker at the click');

    // the stats overlay shows live figures
    await playA.getByTestId('play-stats').click();
    await playA.getByTestId('stat-fps').filter({ hasText: /^[1-9]\d* fps$/ }).waitFor();
    await playA.getByTestId('stat-rtt').filter({ hasText: /^\d+ ms$/ }).waitFor();

    // --- B queues behind A on the node (no free machine)
    await startGame(b, base, '13900000102', NEVERBALL_GAME, 'queue');

    // --- A exits: the play window closes itself, A's page shows the quality report
    await playA.getByTestId('play-exit').click();
    await Promise.all([playA.waitForEvent('close'), playA.getByTestId('message-box').getByRole('button', { name: '立即退出' }).click()]);
    delete pages.playA;
    const report = a.getByTestId('quality-report');
    await report.waitFor();
    assert.match(await report.getByTestId('quality-fps').innerText(), /^\d+\.\d fps$/);
    assert.ok(Number((await report.getByTestId('quality-fps').innerText()).split(' ')[0]) > 0, 'a frame rate was measured');
    assert.match(await report.getByTestId('quality-played').innerText(), /^\d\d:\d\d:\d\d$/);
    await report.getByTestId('quality-report-ok').click();

    // --- the slot is reset and freed: B gets it and plays neverball
    const playB = (pages.playB = await enterGame(ctxB, b));
    await assertLiveAndChanging(playB, 'neverball');

    // --- A's history has the session with its report
    await a.goto(`${base}/user/history`);
    const item = a.locator('li[data-testid^="history-"]').filter({ has: a.getByTestId('quality-rows') }).first();
    await item.waitFor();
    assert.match(await item.innerText(), /荒原求生/);
  } catch (e) {
    await dumpFailure('stream', pages, log);
    throw e;
  } finally {
    await browser?.close().catch(() => undefined);
    await stopServer(stack?.host.proc);
    await stopServer(stack?.server.proc);
    await tmp.cleanup();
  }
});

test('a host killed during play: the player is told, the machine leaves the pool, charging stops, the host comes back', { timeout: 300_000 }, async () => {
  assertHostPrerequisites();
  const tmp = await makeTempDir('yoo-e2e-hostkill-');
  const log = [];
  let stack = null;
  let host = null;
  let browser = null;
  const pages = {};
  try {
    stack = await startStack(tmp, log);
    host = stack.host.proc;
    const base = stack.server.url;
    browser = await launchBrowser();
    const ctxA = await newPlayerContext(browser);
    const ctxB = await newPlayerContext(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const a = (pages.A = await ctxA.newPage());
    const b = (pages.B = await ctxB.newPage());

    await startGame(a, base, '13900000111', PATTERN_GAME);
    const playA = (pages.playA = await enterGame(ctxA, a));
    await assertLiveAndChanging(playA, 'the test pattern');
    // play for at least one charged minute
    await playA.waitForTimeout(PLAY_MINUTE_MS + 500);

    // the newest session of A's history page: [end text, charged minutes]
    const newestSession = async () => {
      await a.goto(`${base}/user/history`);
      const item = a.locator('li[data-testid^="history-"]').first();
      await item.waitFor();
      const text = await item.innerText();
      const charged = Number(text.match(/计费 (\d+) 分钟/)?.[1]);
      return { end: await item.getByTestId('history-end').innerText(), charged, text };
    };

    // --- SIGKILL the host
    const exited = new Promise((resolve) => host.once('exit', resolve));
    host.kill('SIGKILL');
    await exited;
    const killedAt = Date.now();

    // the player is told: the play window closes itself and A's page says why, with the report
    await playA.waitForEvent('close', { timeout: 15_000 });
    delete pages.playA;
    const report = a.getByTestId('quality-report');
    await report.waitFor({ timeout: 15_000 });
    assert.match(await report.getByTestId('quality-end').innerText(), /游戏主机断开/);
    assert.ok(Date.now() - killedAt < 15_000, 'told within seconds');
    await report.getByTestId('quality-report-ok').click();

    // the session ended because the host was lost; nothing is charged after that minute
    const ended = await newestSession();
    assert.equal(ended.end, '游戏主机断开');
    assert.ok(ended.charged >= 1, `a minute was charged while playing: ${ended.text}`);
    await a.waitForTimeout(2 * PLAY_MINUTE_MS + 500);
    const later = await newestSession();
    assert.equal(later.charged, ended.charged, 'no minute charged after the host was lost');

    // the machine left the pool: a new player waits in the queue
    assert.equal(await machinesFree(base), 0, 'no free machine once the host is gone');
    await startGame(b, base, '13900000112', PATTERN_GAME, 'queue');

    // the host starts again and registers: the waiting player gets its machine and plays
    host = (await startHost(stack.hostConfig, log)).proc;
    const playB = (pages.playB = await enterGame(ctxB, b));
    await assertLiveAndChanging(playB, 'the test pattern after the host came back');

    // the phone's play page: the picture across the width, the buttons in reach, a tap is a click
    const box = await playB.getByTestId('stream-canvas').boundingBox();
    assert.ok(box && box.width >= 380 && box.x >= 0 && box.x + box.width <= 390.5, `the canvas spans the phone's width: ${JSON.stringify(box)}`);
    await assertTappable(playB, playB.getByTestId('play-exit'), '退出游戏');
    await assertTappable(playB, playB.getByTestId('play-stats'), '显示数据');
    await assertNoSidewaysScroll(playB, 'the play page on a phone');
    const buttonAt = buttonBlockCentre(SCREEN[0]);
    await waitForColour(playB, buttonAt, (c) => sameColour(c, IDLE), 'the button square before the tap (a reset slot)');
    const tap = await clientPointOf(playB, { x: 320, y: 200 });
    await playB.touchscreen.tap(tap.x, tap.y);
    await waitForColour(playB, buttonAt, (c) => !sameColour(c, IDLE), 'the button square after a tap');
  } catch (e) {
    await dumpFailure('hostkill', pages, log);
    throw e;
  } finally {
    await browser?.close().catch(() => undefined);
    await stopServer(host);
    await stopServer(stack?.server.proc);
    await tmp.cleanup();
  }
});

