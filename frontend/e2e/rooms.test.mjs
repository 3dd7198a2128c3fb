// Live rooms in Chromium (issue 9): the real yoo-server, a real yoo-gamehost playing the test
// pattern, three browsers.
// The host creates a room with a password and starts the pattern as its relay; viewer A enters
// with a wrong then the right password, viewer B (a phone at 390x844) with the right one; A chats
// (B sees it, the [name.ext] rule applied, in the chat and the barrage); A takes a seat, applies
// for control and is granted it: A's key press changes the picture; the host revokes: A's keys no
// longer reach the game, not even a key frame written straight onto A's stream socket (the game
// host drops it, not only the page); the host turns on the rotation: A and B apply, control goes to A and, when A's turn
// is over, to B; B's socket is dropped while A chats, and B, back, has every message exactly
// once; the host ends the room: all three see the live summary.
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
  startHost,
  startServerWith,
  stopServer,
} from './helpers.mjs';
import { IDLE, assertLiveAndChanging, canvasPixelInPage, keyBlockCentre, sameColour } from './streamProbe.mjs';

const NODE_ID = 1;
const SECRET = 'e2e-host-secret-rooms';
/** the catalogue game the host runs as the test pattern (storage/src/seed.rs: host_game) */
const PATTERN_GAME = 4;
const SCREEN = [640, 360];
const PASSWORD = '2468';
/** one applicant's turn under the rotation: the shortest the host may choose */
const TURN_SECS = 30;

/** Every WebSocket the page opens, kept so a test can drop the site's socket. */
const RECORD_SOCKETS = () => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.__sockets.push(this);
    }
  };
};

async function startStack(tmp, log) {
  const config = configToml({
    bind: '127.0.0.1:0',
    dataDir: tmp.dataDir,
    game: { connect_countdown_secs: 60 },
    nodes: [{ id: NODE_ID, name: '测试一区', hostSecret: SECRET }],
  });
  const server = await startServerWith(tmp.dir, 'config.toml', config, log);
  const stateDir = path.join(tmp.dir, 'host-state');
  await mkdir(stateDir, { recursive: true });
  const hostConfig = path.join(tmp.dir, 'host.toml');
  await writeFile(hostConfig, hostConfigToml({ nodeId: NODE_ID, host: 'e2e', secret: SECRET, platform: server.url, stateDir, slots: 1, screen: SCREEN }));
  const host = await startHost(hostConfig, log);
  return { server, host };
}

async function player(browser, base, phone, contextOptions = {}) {
  const ctx = await newPlayerContext(browser, contextOptions);
  await ctx.addInitScript(RECORD_SOCKETS);
  const page = await ctx.newPage();
  await page.goto(`${base}/`);
  await login(page, base, phone);
  return { ctx, page };
}


async function colourAt(page, point) {
  return page.evaluate(canvasPixelInPage, point);
}

async function waitForColour(page, point, ok, what, within = 10_000) {
  const deadline = Date.now() + within;
  let c = null;
  while (Date.now() < deadline) {
    c = await colourAt(page, point);
    if (c !== null && ok(c)) return c;
    await page.waitForTimeout(100);
  }
  assert.fail(`${what}: colour at ${JSON.stringify(point)} is ${c === null ? 'unreadable' : c.toString(16)}`);
}

/** The colour at `point` once two reads 300 ms apart agree (bounded: 5 s). */
async function settledColour(page, point) {
  let last = await colourAt(page, point);
  for (let i = 0; i < 16; i++) {
    await page.waitForTimeout(300);
    const c = await colourAt(page, point);
    if (c !== null && last !== null && sameColour(c, last)) return c;
    last = c;
  }
  assert.fail(`the colour at ${JSON.stringify(point)} never settled (last ${last === null ? 'unreadable' : last.toString(16)})`);
}

/** Opens the room from the list (the card of the only room). */
async function openRoomFromList(page, base) {
  await page.goto(`${base}/game/live`);
  const card = page.getByTestId('room-card').first();
  await card.waitFor();
  await card.click();
}

async function enterPassword(page, password) {
  const prompt = page.getByTestId('room-password');
  await prompt.waitFor();
  assert.match(await prompt.innerText(), /验证房间密码/);
  await prompt.getByTestId('room-password-input').fill(password);
  await prompt.getByTestId('room-password-submit').click();
}

async function chatTexts(page) {
  return page.getByTestId('chat-item').allInnerTexts();
}

/**
 * Writes a key press and release straight onto the page's stream socket, past the page's own
 * input gate: ClientFrame { key: Key { code, down } } (gamehost/proto/stream.proto), encoded by hand.
 */
async function sendRawKey(page, code) {
  const key = (down) => {
    const c = [...Buffer.from(code, 'ascii')];
    const inner = [0x0a, c.length, ...c, ...(down ? [0x10, 0x01] : [])];
    return [0x0a, inner.length, ...inner];
  };
  const sent = await page.evaluate(
    (frames) => {
      const sockets = window.__sockets.filter((s) => s.url.includes('/stream?') && s.readyState === 1);
      for (const s of sockets) for (const f of frames) s.send(new Uint8Array(f));
      return sockets.length;
    },
    [key(true), key(false)],
  );
  assert.ok(sent > 0, 'the page has an open stream socket');
}

/** Presses a key on the room canvas (focused first, as a player would click into it). */
async function pressOnCanvas(page, key) {
  await page.getByTestId('stream-canvas').focus();
  await page.keyboard.press(key);
}

test('a live room: password, chat, seat, control granted and revoked, rotation, a dropped socket, the summary', { timeout: 420_000 }, async () => {
  assertPrerequisites();
  assert.ok(existsSync(hostBin), `game host binary not found at ${hostBin}: run \`cargo build -p gamehost\``);
  const tmp = await makeTempDir('yoo-e2e-rooms-');
  const log = [];
  let stack = null;
  let browser = null;
  const pages = {};
  try {
    stack = await startStack(tmp, log);
    const base = stack.server.url;
    browser = await launchBrowser();

    // --- the host creates a room with a password and starts the pattern as its relay
    const H = await player(browser, base, '13900000301');
    const host = (pages.host = H.page);
    await host.goto(`${base}/game/live`);
    await host.getByTestId('live-create').click();
    const dialog = host.getByTestId('relay-dialog');
    await dialog.waitFor();
    // the relay public-beta notice, once per user, over the dialog
    const notice = host.getByTestId('message-box').filter({ hasText: '公测资格' });
    await notice.waitFor();
    await notice.getByTestId('message-box-confirm').click();
    await notice.waitFor({ state: 'detached' });
    await dialog.getByTestId('relay-name').fill('一起看图案');
    await dialog.getByTestId('relay-game').selectOption(String(PATTERN_GAME));
    await dialog.getByTestId('relay-password').fill('12');
    await dialog.getByTestId('relay-submit').click();
    await dialog.getByTestId('relay-error').filter({ hasText: '密码格式不正确' }).waitFor();
    await dialog.getByTestId('relay-password').fill(PASSWORD);
    await dialog.getByTestId('relay-submit').click();
    await host.getByTestId('room-page').waitFor();
    const ddRid = Number(await host.getByTestId('room-page').getAttribute('data-ddrid'));
    assert.ok(ddRid > 0, 'the room has an id');
    // the relay: the node dialog, the ready dialog, the play window
    const nodeDialog = host.getByTestId('node-dialog');
    await nodeDialog.waitFor();
    await host.getByTestId(`node-status-${NODE_ID}`).filter({ hasText: /^(延迟\d+ms|超时)$/ }).waitFor();
    await host.getByTestId(`node-${NODE_ID}`).click();
    await host.getByTestId('node-confirm').click();
    const ready = host.getByTestId('ready-dialog');
    await ready.waitFor({ timeout: 60_000 });
    const [hostPlay] = await Promise.all([H.ctx.waitForEvent('page'), ready.getByTestId('ready-enter').click()]);
    pages.hostPlay = hostPlay;
    await hostPlay.locator('[data-testid=stream-canvas][data-phase=playing]').waitFor({ timeout: 60_000 });
    await host.getByTestId('float-live').waitFor();
    // the game's corner float leaves the host's chat box free
    await assertTappable(host, host.getByTestId('chat-input'), "the host's chat box beside the game float");

    // --- viewer A: a wrong password, then the right one; the host's stream shows
    const A = await player(browser, base, '13900000302');
    const a = (pages.a = A.page);
    await openRoomFromList(a, base);
    await enterPassword(a, '1111');
    await a.getByTestId('room-password-error').filter({ hasText: '房间密码错误' }).waitFor();
    await enterPassword(a, PASSWORD);
    await a.getByTestId('room-page').waitFor();
    await a.locator('[data-testid=stream-canvas][data-phase=playing]').waitFor({ timeout: 60_000 });
    await assertLiveAndChanging(a, "viewer A's picture of the host's game");

    // --- viewer B, on a phone, straight with the right password
    const B = await player(browser, base, '13900000303', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const b = (pages.b = B.page);
    await openRoomFromList(b, base);
    await enterPassword(b, PASSWORD);
    await b.getByTestId('room-page').waitFor();
    await b.locator('[data-testid=stream-canvas][data-phase=playing]').waitFor({ timeout: 60_000 });
    await assertNoSidewaysScroll(b, 'the room page on a phone');
    const canvasBox = await b.getByTestId('stream-canvas').boundingBox();
    assert.ok(canvasBox && canvasBox.width >= 370, `the picture spans the phone's width: ${JSON.stringify(canvasBox)}`);
    await b.getByTestId('room-online-count').filter({ hasText: '在线 3' }).waitFor();

    await assertTappable(b, b.getByTestId('chat-send'), 'the chat send button on a phone');
    await assertTappable(b, b.getByTestId('control-apply'), 'apply for control on a phone');

    // --- chat: A's message reaches B, with [name.ext] shown without its extension
    await a.getByTestId('chat-input').fill('大家好[微笑.png]');
    await a.getByTestId('chat-send').click();
    await b.getByTestId('chat-item').filter({ hasText: '大家好[微笑]' }).waitFor();
    await b.getByTestId('barrage-item').filter({ hasText: '大家好[微笑]' }).first().waitFor();
    assert.equal((await chatTexts(b)).filter((t) => t.includes('大家好')).length, 1, 'the message shows once');

    // --- A takes a seat
    await a.getByTestId('mike-up').click();
    await a.getByTestId('mike-down').waitFor();
    await b.getByTestId('room-tab-mike').click();
    await b.locator('[data-testid=mike-seat][data-state=taken]').first().waitFor();
    await b.getByTestId('room-tab-chat').click();

    // --- A applies for control (pending, counting down); the host grants it
    const keyAt = keyBlockCentre(SCREEN[0]);
    await waitForColour(a, keyAt, (c) => sameColour(c, IDLE), 'the key square before any key');
    await a.getByTestId('control-apply').click();
    await a.getByTestId('control-apply').filter({ hasText: /^申请中 \d+s$/ }).waitFor();
    const request = host.getByTestId('control-request').first();
    await request.waitFor();
    await request.getByTestId('control-assign').click();
    await a.getByTestId('control-state').filter({ hasText: '你正在控制游戏' }).waitFor();

    // the controller's key reaches the game
    await pressOnCanvas(a, 'KeyA');
    await waitForColour(a, keyAt, (c) => !sameColour(c, IDLE), "the key square after the controller's key");
    // the colour it settles on (a busy machine may show a frame of the change first)
    const afterA = await settledColour(a, keyAt);

    // --- the host revokes: A's keys no longer reach the game
    await host.getByTestId('control-recycle').click();
    await a.getByTestId('control-apply').waitFor();
    await pressOnCanvas(a, 'KeyZ');
    await sendRawKey(a, 'KeyX');
    await a.waitForTimeout(1500);
    const afterRevoked = await colourAt(a, keyAt);
    assert.ok(
      sameColour(afterRevoked, afterA),
      `a revoked viewer's key does not change the picture (${afterA.toString(16)} then ${afterRevoked?.toString(16)})`,
    );

    // --- rotation: A then B apply; A's turn comes first, then B's
    await host.getByTestId('rotation-turn').selectOption(String(TURN_SECS));
    await host.getByTestId('rotation-toggle').click();
    await host.getByTestId('rotation-panel').waitFor();
    await a.getByTestId('rotation-panel').waitFor();
    await a.getByTestId('control-apply').click();
    await b.getByTestId('control-apply').click();
    await a.getByTestId('control-state').waitFor({ timeout: 20_000 });
    await b.getByTestId('rotation-position').filter({ hasText: /排队第\d+位/ }).waitFor();
    await b.getByTestId('control-state').waitFor({ timeout: (TURN_SECS + 15) * 1000 });
    await a.getByTestId('control-apply').waitFor();

    // --- B's socket drops while A chats; back, B has every message exactly once, in order
    await b.evaluate(() => {
      for (const s of window.__sockets) if (s.url.includes('/echo')) s.close();
    });
    for (const text of ['断线期间一', '断线期间二', '断线期间三']) {
      await a.getByTestId('chat-input').fill(text);
      await a.getByTestId('chat-send').click();
      await a.getByTestId('chat-item').filter({ hasText: text }).waitFor();
    }
    await b.getByTestId('chat-item').filter({ hasText: '断线期间三' }).waitFor({ timeout: 30_000 });
    const seen = (await chatTexts(b)).filter((t) => t.includes('断线期间'));
    assert.deepEqual(
      seen.map((t) => t.replace(/^.*：/, '')),
      ['断线期间一', '断线期间二', '断线期间三'],
      'each missed message once, in order',
    );

    // --- the host ends the room: everyone sees the live summary
    await host.getByTestId('room-exit').click();
    for (const [who, page] of [
      ['host', host],
      ['A', a],
      ['B', b],
    ]) {
      const summary = page.getByTestId('live-summary');
      await summary.waitFor({ timeout: 20_000 });
      assert.match(await summary.innerText(), /直播时长/, `${who} sees the summary`);
      assert.match(await summary.innerText(), /观众/, `${who} sees the audience count`);
    }
  } catch (e) {
    await dumpFailure('rooms', pages, log);
    throw e;
  } finally {
    await browser?.close().catch(() => undefined);
    await stopServer(stack?.host.proc);
    await stopServer(stack?.server.proc);
    await tmp.cleanup();
  }
});
