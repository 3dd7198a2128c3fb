// Shared pieces of the browser tests: the server config, starting and stopping the real
// yoo-server, the dev endpoints (SMS outbox, grants), Chromium, and the page steps every test
// repeats (login, open a game, start on a node).
//
// Needs: ../target/debug/yoo-server (or YOO_SERVER_BIN), a built dist/ (npm run build) and
// Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const frontendDir = path.resolve(here, '..');
export const distDir = path.join(frontendDir, 'dist');
export const serverBin = process.env.YOO_SERVER_BIN ?? path.resolve(frontendDir, '../target/debug/yoo-server');
export const hostBin = process.env.YOO_GAMEHOST_BIN ?? path.resolve(frontendDir, '../target/debug/yoo-gamehost');
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const GAME_ID = 1;

/** Fails the test (never skips it) when something it needs is missing. */
export function assertPrerequisites() {
  assert.ok(existsSync(serverBin), `server binary not found at ${serverBin}: run \`cargo build -p facade\` (make test does)`);
  assert.ok(existsSync(path.join(distDir, 'index.html')), 'dist/ is missing: run `npm run build` first');
  assert.ok(existsSync(chromiumPath), `Chromium not found at ${chromiumPath}`);
}

/**
 * The server's TOML config. `game` holds extra `[game]` keys (numbers or strings), `sms` `[sms]`
 * keys over the tests' own (no resend interval, no security check in front of codes); `nodes` lists
 * `{id, name, machines, hostSecret}` (status 1; `hostSecret`: game hosts serve the node).
 */
export function configToml({ bind, dataDir, game = {}, sms = {}, nodes }) {
  const smsKeys = {
    // one phone logs in on several devices within a minute here; the resend limit has its own tests
    resend_secs: 0,
    // every browser here is 127.0.0.1: no security check in front of codes unless a test sets
    // its thresholds (the check has its own tests)
    captcha_phone_per_hour: 0,
    captcha_ip_per_hour: 0,
    ...sms,
  };
  // JSON strings are valid TOML basic strings for these paths and names
  const lines = [
    'mode = "dev"',
    `bind = ${JSON.stringify(bind)}`,
    `data_dir = ${JSON.stringify(dataDir)}`,
    `frontend_dir = ${JSON.stringify(distDir)}`,
    // the game hosts' streams and probes, on this machine
    'host_origins = ["ws://127.0.0.1:*", "http://127.0.0.1:*"]',
    '',
    '[game]',
    ...Object.entries(game).map(([k, v]) => `${k} = ${JSON.stringify(v)}`),
    '',
    '[sms]',
    ...Object.entries(smsKeys).map(([k, v]) => `${k} = ${JSON.stringify(v)}`),
    '',
  ];
  for (const n of nodes) {
    lines.push('[[nodes]]', `id = ${n.id}`, `name = ${JSON.stringify(n.name)}`, 'status = 1', `machines = ${JSON.stringify(n.machines ?? [])}`);
    if (n.hostSecret) lines.push(`host_secret = ${JSON.stringify(n.hostSecret)}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** A port free on 127.0.0.1 now: for a server that must come back at the same address. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** A temp dir with a data dir; `cleanup()` removes it. */
export async function makeTempDir(prefix = 'yoo-e2e-') {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const dataDir = path.join(dir, 'data');
  await mkdir(dataDir, { recursive: true });
  return { dir, dataDir, cleanup: () => rm(dir, { recursive: true, force: true }).catch(() => undefined) };
}

/** Writes a config and starts yoo-server on it; resolves once it prints its listening line. */
export async function startServerWith(dir, name, config, log) {
  const configPath = path.join(dir, name);
  await writeFile(configPath, config);
  return startServer(configPath, log);
}

/** Starts yoo-server and resolves with {proc, url} once it prints its listening line. */
export async function startServer(configPath, log) {
  const { proc, found } = await spawnUntil(serverBin, 'yoo-server', configPath, log, /yoo-server listening on (http:\/\/127\.0\.0\.1:\d+)/);
  return { proc, url: found };
}

/**
 * Spawns `bin --config configPath`, collecting its output into `log`, and resolves with
 * {proc, found} once stdout matches `pattern` (found: its first group); kills it when it does
 * not within 30 s or exits first.
 */
function spawnUntil(bin, name, configPath, log, pattern) {
  return new Promise((resolve, reject) => {
    const proc = spawn(bin, ['--config', configPath], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let buffer = '';
    let settled = false;
    const timer = setTimeout(() => finish(new Error(`${name} did not print its listening line within 30 s`)), 30_000);
    function finish(err, found) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        proc.kill('SIGKILL');
        reject(err);
      } else resolve({ proc, found });
    }
    proc.stdout.setEncoding('utf8');
    proc.stderr.setEncoding('utf8');
    proc.stdout.on('data', (chunk) => {
      log.push(chunk);
      buffer += chunk;
      const m = buffer.match(pattern);
      if (m) finish(null, m[1]);
    });
    proc.stderr.on('data', (chunk) => log.push(chunk));
    proc.on('error', (e) => finish(e));
    proc.on('exit', (code, signal) => finish(new Error(`${name} exited early (code ${code}, signal ${signal})`)));
  });
}

/**
 * A game host's TOML config: `slots` virtual displays of `screen`, the built-in test pattern
 * ('pattern') and neverball, linked to the platform at `platform` (http://127.0.0.1:port).
 */
export function hostConfigToml({ nodeId, host, secret, platform, stateDir, slots = 1, screen = [640, 360] }) {
  const [w, h] = screen;
  return [
    `node_id = ${nodeId}`,
    `host = ${JSON.stringify(host)}`,
    `secret = ${JSON.stringify(secret)}`,
    `platform_url = ${JSON.stringify(`${platform.replace(/^http/, 'ws')}/api/host/link`)}`,
    'bind = "127.0.0.1:0"',
    `slots = ${slots}`,
    `screen = [${w}, ${h}]`,
    'fps = 30',
    'bitrate_kbps = 1500',
    'key_interval_secs = 2',
    `state_dir = ${JSON.stringify(stateDir)}`,
    '',
    '[games.pattern]',
    'program = "@self"',
    `args = ["--pattern", "--size", "${w}x${h}"]`,
    `window = [${w}, ${h}]`,
    'nice = 5',
    '',
    '[games.neverball]',
    'program = "neverball"',
    `window = [${w}, ${h}]`,
    'nice = 10',
    'env = { LIBGL_ALWAYS_SOFTWARE = "1", LP_NUM_THREADS = "1" }',
    `home_files = { ".neverball/neverballrc" = "fullscreen 0\\nwidth ${w}\\nheight ${h}\\nvsync 0\\n" }`,
    '',
  ].join('\n');
}

/** Starts yoo-gamehost on a config; resolves with {proc, addr} once it listens. */
export async function startHost(configPath, log) {
  const { proc, found } = await spawnUntil(hostBin, 'yoo-gamehost', configPath, log, /yoo-gamehost listening on (127\.0\.0\.1:\d+)/);
  return { proc, addr: found };
}

/** SIGTERM, then SIGKILL if it is still running after 10 s. */
export async function stopServer(proc) {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGTERM');
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve('timeout'), 10_000);
  });
  const outcome = await Promise.race([exited, timeout]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    proc.kill('SIGKILL');
    await exited;
  }
}

/** One JSON request without keep-alive (so nothing lingers after the test); resolves the envelope. */
async function requestJson(method, url, body) {
  return (await request(method, url, body)).env;
}

/**
 * One JSON request without keep-alive, with `extra` headers (else x-skip-csrf); resolves
 * {env, cookies} (the envelope, and the `name=value` of each cookie set).
 */
function request(method, url, body, extra) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = extra ?? { 'x-skip-csrf': 'true' };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    const req = http.request(url, { method, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        const cookies = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
        try {
          resolve({ env: JSON.parse(text), cookies });
        } catch {
          resolve({ env: null, cookies });
        }
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

export const getJson = (url) => requestJson('GET', url);
export const postJson = (url, body) => requestJson('POST', url, body);

/**
 * POST /api/dev/grant {cellphone, kind, days|minutes|count} (dev mode; no cookie). Fails the test
 * when the server refuses or lacks the endpoint; resolves the profile after the grant.
 */
export async function grant(base, body) {
  const env = await postJson(`${base}/api/dev/grant`, body);
  assert.ok(env && env.code === 0, `grant ${JSON.stringify(body)} failed: ${JSON.stringify(env)}`);
  return env.data;
}

/** The newest SMS code sent to a phone, from the dev outbox (polled until it arrives). */
export async function readSmsCode(base, phone) {
  const deadline = Date.now() + 15_000;
  let last = null;
  while (Date.now() < deadline) {
    last = await getJson(`${base}/api/dev/sms/outbox?phone=${phone}`).catch(() => null);
    if (last && last.code === 0 && Array.isArray(last.data) && last.data.length > 0 && last.data[0].code) {
      return String(last.data[0].code);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no SMS code for ${phone} in the outbox: ${JSON.stringify(last)}`);
}

/**
 * Creates `phone`'s account the way the product's app would have (the code login, through the
 * API), and reads its card notice as a new user's first login does (the welcome coupons told
 * there): an app-QR login needs an account the app is signed in to.
 */
export async function registerAccount(base, phone) {
  const sent = await postJson(`${base}/api/passport/login/sendcode`, { phone });
  assert.equal(sent?.code, 0, `sendcode ${phone}: ${JSON.stringify(sent)}`);
  const code = await readSmsCode(base, phone);
  const { env, cookies } = await request('POST', `${base}/api/passport/login`, { cellphone: phone, code, device_no: 'app' });
  assert.equal(env?.code, 0, `login ${phone}: ${JSON.stringify(env)}`);
  const csrf = cookies.find((c) => c.startsWith('_csrfToken='))?.slice('_csrfToken='.length) ?? '';
  const notice = await request('GET', `${base}/api/v3/user/card/notice?type=1`, undefined, { cookie: cookies.join('; '), 'x-csrf-token': csrf });
  assert.equal(notice.env?.code, 0, `card notice ${phone}: ${JSON.stringify(notice.env)}`);
}

/**
 * Logs in through the open login dialog's app QR (core-platform.md §2.3, §4.12): the entry
 * labelled `label` ('App扫码登录', '手机扫码登录' in a car) shows the code; a second tab plays
 * the app (the sandbox's page) signed in as `phone`'s account (it must exist: `registerAccount`),
 * scans (the dialog shows 扫描成功) and confirms; the page is logged in and the dialog closes.
 * Resolves {url, app}: the code's address and the app's page (kept in `pages.app`).
 */
export async function loginByAppQr(page, browser, base, phone, { label = 'App扫码登录', pages = {} } = {}) {
  const dialog = page.getByTestId('login-dialog');
  await dialog.getByTestId('login-type-qrcode').filter({ hasText: label }).click();
  const qr = dialog.getByTestId('qr-login');
  const code = qr.locator('svg[data-text]');
  await code.waitFor();
  const url = await code.getAttribute('data-text');
  assert.match(url, new RegExp(`^${base}/api/dev/app/qr-login/[0-9a-f]{32}$`));
  assert.equal(await qr.getByTestId('qr-login-overlay').count(), 0, 'no overlay while it waits');

  const app = (pages.app = await (await newPlayerContext(browser)).newPage());
  await app.goto(url);
  await app.getByLabel('App 已登录的手机号').fill(phone);
  await app.getByRole('button', { name: '扫码登录' }).click();
  await qr.getByTestId('qr-login-overlay').filter({ hasText: /扫描成功\s*请在手机端确认登录/ }).waitFor();
  await app.getByRole('button', { name: '确认登录' }).click();
  await app.getByText('登录成功').waitFor();
  await page.getByTestId('header-nickname').waitFor();
  await dialog.waitFor({ state: 'detached' });
  return { url, app };
}

/**
 * A car head unit's player, logged in the way a car logs in (core-platform.md §2.3, §4.14): the
 * account registered by its app, the login dialog without the phone entry or its tabs, the app
 * QR labelled as a phone scan. `contextOptions` must carry a car's user agent.
 */
export async function newCarPlayer(browser, base, phone, { contextOptions, pages = {} } = {}) {
  await registerAccount(base, phone);
  const ctx = await newPlayerContext(browser, contextOptions);
  const page = await ctx.newPage();
  await page.goto(`${base}/`);
  await page.getByTestId('header-login').click();
  const dialog = page.getByTestId('login-dialog');
  await dialog.getByTestId('wechat-frame').waitFor();
  for (const id of ['login-type-phone', 'login-tab-phone', 'login-tab-account', 'login-phone']) {
    assert.equal(await dialog.getByTestId(id).count(), 0, `a car's login dialog has no ${id}`);
  }
  const { app } = await loginByAppQr(page, browser, base, phone, { label: '手机扫码登录', pages });
  await app.context().close();
  delete pages.app;
  return { ctx, page };
}

export async function launchBrowser() {
  return chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
}

/** A fresh browser context (one player or device), zh-CN, 15 s default timeout; `options` adds to it (viewport...). */
export async function newPlayerContext(browser, options = {}) {
  const ctx = await browser.newContext({ locale: 'zh-CN', ...options });
  ctx.setDefaultTimeout(15_000);
  return ctx;
}

/**
 * Logs in with an SMS code through the header's login dialog. A new player's registration gift
 * dialog opens as the login dialog closes: it is checked and accepted ('开心收下'), and its
 * text is returned (null when there was none).
 */
export async function login(page, base, phone) {
  await page.getByTestId('header-login').click();
  return loginInDialog(page, base, phone);
}

/** `login` from an already open login dialog (opened by the header or by '开始游戏'). */
export async function loginInDialog(page, base, phone) {
  const dialog = page.getByTestId('login-dialog');
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /登录视为同意《用户服务协议》和《隐私政策》/);
  // the dialog opens on the messaging app (core-platform.md §2.3): the phone entry switches
  // (a caller may have switched already; the entries render with the dialog)
  if ((await dialog.getByTestId('login-type-phone').count()) > 0) await dialog.getByTestId('login-type-phone').click();
  await dialog.getByTestId('login-phone').fill(phone);
  await dialog.getByTestId('login-send-code').click();
  // the resend countdown starts only after a successful send
  await dialog.getByTestId('login-send-code').filter({ hasText: /\d+s后重新获取/ }).waitFor();
  const code = await readSmsCode(base, phone);
  await dialog.getByTestId('login-code').fill(code);
  await dialog.getByTestId('login-code').press('Enter');
  await page.getByTestId('header-nickname').waitFor();
  await dialog.waitFor({ state: 'detached' });
  // the gift dialog and the login dialog change in one step: no frame shows neither
  const gift = page.getByTestId('register-gift');
  if ((await gift.count()) === 0) return null;
  const text = await gift.innerText();
  await gift.getByTestId('register-gift-ok').click();
  await gift.waitFor({ state: 'detached' });
  return text;
}

export async function openGameDetail(page, gameId = GAME_ID) {
  await page.getByRole('link', { name: '游戏库', exact: true }).click();
  await page.waitForURL(/\/game(\?|$)/);
  await page.getByTestId(`game-card-${gameId}`).click();
  await page.getByTestId('game-detail').waitFor();
  await page.waitForURL(new RegExp(`/game/detail/${gameId}\\?r=`));
}

export async function startOnNode(page, nodeId) {
  await page.getByTestId('start-game').click();
  const dialog = page.getByTestId('node-dialog');
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /选择游戏服务器/);
  // the latency probe settles on a measured latency (or 超时), never stays 连接中
  await page.getByTestId(`node-status-${nodeId}`).filter({ hasText: /^(延迟\d+ms|超时)$/ }).waitFor();
  await page.getByTestId(`node-${nodeId}`).click();
  await page.getByTestId('node-confirm').click();
  await dialog.waitFor({ state: 'detached' });
}

/**
 * On `page` (a fresh page of a player's context): log in with `phone`, start `gameId` on
 * `nodeId`, wait for the ready dialog, enter, and wait until the play window (the default: a
 * new window) shows a playing stream. Resolves with that window.
 */
export async function playInNewWindow(page, base, phone, gameId, nodeId, { readyTimeout = 30_000 } = {}) {
  await page.goto(`${base}/`);
  await login(page, base, phone);
  await openGameDetail(page, gameId);
  await startOnNode(page, nodeId);
  const ready = page.getByTestId('ready-dialog');
  await ready.waitFor({ timeout: readyTimeout });
  const [play] = await Promise.all([page.context().waitForEvent('page'), ready.getByTestId('ready-enter').click()]);
  await play.locator('[data-testid=stream-canvas][data-phase=playing]').waitFor({ timeout: 60_000 });
  return play;
}

/** Counts NOTIFICATION frames a page's WebSocket receives (Envelope field 1 = 3: bytes 08 03). */
export function watchNotifications(page) {
  const counter = { count: 0 };
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      const bytes = typeof payload === 'string' ? Buffer.from(payload, 'binary') : payload;
      if (bytes.length >= 2 && bytes[0] === 0x08 && bytes[1] === 0x03) counter.count++;
    });
  });
  return counter;
}

/**
 * Fails unless the element is inside the viewport and is what a tap at its centre reaches (not
 * covered by something else).
 */
export async function assertTappable(page, locator, what) {
  await locator.waitFor();
  const box = await locator.boundingBox();
  const vp = page.viewportSize();
  assert.ok(box, `${what} is rendered`);
  const inside = box.x >= -0.5 && box.y >= -0.5 && box.x + box.width <= vp.width + 0.5 && box.y + box.height <= vp.height + 0.5;
  assert.ok(inside, `${what} lies within the ${vp.width}x${vp.height} viewport: ${JSON.stringify(box)}`);
  const reached = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
  assert.ok(reached, `${what} is not covered by another element`);
}

/**
 * The purchase dialog's total once the server has answered for the current selection (the
 * element is `data-pending` until then): its text.
 */
export async function settledTotal(dialog) {
  const total = dialog.locator('[data-testid="purchase-total"]:not([data-pending])');
  await total.waitFor();
  return total.innerText();
}

/** Fails when the page scrolls sideways (something wider than the viewport). */
export async function assertNoSidewaysScroll(page, where) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `${where}: the page is ${scroll}px wide in a ${width}px viewport`);
}

/** On failure: a screenshot per page and the tail of the server's output. */
export async function dumpFailure(tag, pages, log) {
  for (const [who, page] of Object.entries(pages)) {
    try {
      const shot = path.join(tmpdir(), `yoo-e2e-${tag}-${who}.png`);
      await page.screenshot({ path: shot, fullPage: true });
      console.error(`[e2e] ${tag}: ${who} at ${page.url()}, screenshot ${shot}`);
    } catch {
      // the page may be gone
    }
  }
  console.error(`[e2e] ${tag}: server output (tail):\n${log.join('').split('\n').slice(-60).join('\n')}`);
}

/**
 * Runs `body` against a fresh server (the config `makeConfig(dataDir)` returns) and browser,
 * and always cleans up both; on failure it keeps a screenshot of every page in `pages` and the
 * server's output. `body` gets { base, browser, pages }.
 */
export async function withServer(tag, makeConfig, body) {
  assertPrerequisites();
  const tmp = await makeTempDir(`yoo-e2e-${tag}-`);
  const log = [];
  const pages = {};
  let server = null;
  let browser = null;
  try {
    server = await startServerWith(tmp.dir, 'config.toml', makeConfig(tmp.dataDir), log);
    browser = await launchBrowser();
    await body({ base: server.url, browser, pages });
  } catch (err) {
    await dumpFailure(tag, pages, log);
    throw err;
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    if (server) await stopServer(server.proc);
    await tmp.cleanup();
  }
}

/** A logged-in player on the home page, in a context of its own; `expectGift`: a new player's
 * registration gift dialog is checked on the way. */
export async function newPlayer(browser, base, phone, { initScript, expectGift = true, contextOptions } = {}) {
  const ctx = await newPlayerContext(browser, contextOptions);
  if (initScript) await ctx.addInitScript(initScript);
  const page = await ctx.newPage();
  await page.goto(`${base}/`);
  const gift = await login(page, base, phone);
  if (expectGift) {
    assert.ok(gift, `${phone}: a new player gets the registration gift dialog`);
    assert.match(gift, /开心收下/);
  }
  return { ctx, page };
}
