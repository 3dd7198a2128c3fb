// Browser end-to-end journey against the real yoo-server: two players, one machine.
// A logs in with an SMS code, starts game 1, confirms the ready dialog and plays; B queues behind
// A at rank 1; A exits, B's ready dialog is pushed over the WebSocket, B lets it lapse and sees the
// missed-queue message; the server restarts on the same port and data dir and both stay logged in.
//
// Needs: ../target/debug/yoo-server (or YOO_SERVER_BIN), a built dist/ (npm run build) and
// Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const frontendDir = path.resolve(here, '..');
const distDir = path.join(frontendDir, 'dist');
const serverBin = process.env.YOO_SERVER_BIN ?? path.resolve(frontendDir, '../target/debug/yoo-server');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const PHONE_A = '13900000001';
const PHONE_B = '13900000002';
const GAME_ID = 1;
const NODE_ID = 1;
const COUNTDOWN_SECS = 6;

function configToml({ bind, dataDir }) {
  // JSON strings are valid TOML basic strings for these paths
  return [
    'mode = "dev"',
    `bind = ${JSON.stringify(bind)}`,
    `data_dir = ${JSON.stringify(dataDir)}`,
    `frontend_dir = ${JSON.stringify(distDir)}`,
    '',
    '[game]',
    `connect_countdown_secs = ${COUNTDOWN_SECS}`,
    'connect_delay_ms = 300',
    '',
    '[[nodes]]',
    'id = 1',
    'name = "测试一区"',
    'status = 1',
    'machines = ["t1-01"]',
    '',
  ].join('\n');
}

/** Starts yoo-server and resolves once it prints its listening line. */
function startServer(configPath, log) {
  return new Promise((resolve, reject) => {
    const proc = spawn(serverBin, ['--config', configPath], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let buffer = '';
    let settled = false;
    const timer = setTimeout(() => finish(new Error('yoo-server did not print its listening line within 30 s')), 30_000);
    function finish(err, url) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        proc.kill('SIGKILL');
        reject(err);
      } else resolve({ proc, url });
    }
    proc.stdout.setEncoding('utf8');
    proc.stderr.setEncoding('utf8');
    proc.stdout.on('data', (chunk) => {
      log.push(chunk);
      buffer += chunk;
      const m = buffer.match(/yoo-server listening on (http:\/\/127\.0\.0\.1:(\d+))/);
      if (m) finish(null, m[1]);
    });
    proc.stderr.on('data', (chunk) => log.push(chunk));
    proc.on('error', (e) => finish(e));
    proc.on('exit', (code, signal) => finish(new Error(`yoo-server exited early (code ${code}, signal ${signal})`)));
  });
}

/** SIGTERM, then SIGKILL if it is still running after 10 s. */
async function stopServer(proc) {
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

/** GET a JSON envelope without keeping the connection alive (so nothing lingers after the test). */
function getJson(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { 'x-skip-csrf': 'true' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body));
        } catch {
          resolve(null);
        }
      });
    });
    req.on('error', reject);
  });
}

/** The newest SMS code sent to a phone, from the dev outbox (polled until it arrives). */
async function readSmsCode(base, phone) {
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

async function login(page, base, phone) {
  await page.getByTestId('header-login').click();
  const dialog = page.getByTestId('login-dialog');
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /登录视为同意《用户服务协议》和《隐私政策》/);
  await dialog.getByTestId('login-phone').fill(phone);
  await dialog.getByTestId('login-send-code').click();
  // the resend countdown starts only after a successful send
  await dialog.getByTestId('login-send-code').filter({ hasText: /\d+s后重新获取/ }).waitFor();
  const code = await readSmsCode(base, phone);
  await dialog.getByTestId('login-code').fill(code);
  await dialog.getByTestId('login-code').press('Enter');
  await page.getByTestId('header-nickname').waitFor();
  await dialog.waitFor({ state: 'detached' });
}

async function openGameDetail(page) {
  await page.getByRole('link', { name: '游戏库', exact: true }).click();
  await page.waitForURL(/\/game(\?|$)/);
  await page.getByTestId(`game-card-${GAME_ID}`).click();
  await page.getByTestId('game-detail').waitFor();
  await page.waitForURL(new RegExp(`/game/detail/${GAME_ID}\\?r=`));
}

async function startOnNode(page) {
  await page.getByTestId('start-game').click();
  const dialog = page.getByTestId('node-dialog');
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /选择游戏服务器/);
  // the latency probe settles on a measured latency (or 超时), never stays 连接中
  await page.getByTestId(`node-status-${NODE_ID}`).filter({ hasText: /^(延迟\d+ms|超时)$/ }).waitFor();
  await page.getByTestId(`node-${NODE_ID}`).click();
  await page.getByTestId('node-confirm').click();
  await dialog.waitFor({ state: 'detached' });
}

/** Counts NOTIFICATION frames a page's WebSocket receives (Envelope field 1 = 3: bytes 08 03). */
function watchNotifications(page) {
  const counter = { count: 0 };
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      const bytes = typeof payload === 'string' ? Buffer.from(payload, 'binary') : payload;
      if (bytes.length >= 2 && bytes[0] === 0x08 && bytes[1] === 0x03) counter.count++;
    });
  });
  return counter;
}

async function assertLoggedIn(page, who) {
  await page.getByTestId('header-nickname').waitFor({ timeout: 15_000 });
  assert.equal(await page.getByTestId('header-login').count(), 0, `${who} shows the 登录 button after the restart`);
}

test('two players share one machine: play, queue, push, missed queue, restart', { timeout: 110_000 }, async (t) => {
  assert.ok(existsSync(serverBin), `server binary not found at ${serverBin}: run \`cargo build -p facade\` (make test does)`);
  assert.ok(existsSync(path.join(distDir, 'index.html')), 'dist/ is missing: run `npm run build` first');
  assert.ok(existsSync(chromiumPath), `Chromium not found at ${chromiumPath}`);

  const tmp = await mkdtemp(path.join(tmpdir(), 'yoo-e2e-'));
  const dataDir = path.join(tmp, 'data');
  await mkdir(dataDir, { recursive: true });
  const log = [];
  let server = null;
  let browser = null;
  const pages = {};
  try {
    const config1 = path.join(tmp, 'config.toml');
    await writeFile(config1, configToml({ bind: '127.0.0.1:0', dataDir }));
    server = await startServer(config1, log);
    const base = server.url;
    const port = new URL(base).port;

    browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
    const ctxA = await browser.newContext({ locale: 'zh-CN' });
    const ctxB = await browser.newContext({ locale: 'zh-CN' });
    ctxA.setDefaultTimeout(15_000);
    ctxB.setDefaultTimeout(15_000);
    const a = (pages.A = await ctxA.newPage());
    const b = (pages.B = await ctxB.newPage());
    const pushesToB = watchNotifications(b);

    // --- A: log in, start game 1 on the only node, confirm, play
    await a.goto(`${base}/`);
    await login(a, base, PHONE_A);
    await openGameDetail(a);
    await startOnNode(a);
    const readyA = a.getByTestId('ready-dialog');
    await readyA.waitFor();
    const readyText = await readyA.innerText();
    assert.match(readyText, /已准备就绪，是否进入游戏？/);
    assert.match(readyText, /\d+秒后自动放弃/);
    await readyA.getByTestId('ready-enter').click();
    await a.waitForURL(new RegExp(`/game/play\\?gameId=${GAME_ID}$`));
    await a.getByTestId('play-status').filter({ hasText: '游戏中' }).waitFor();

    // --- B: log in, start the same game: the machine is taken, B is first in the queue
    await b.goto(`${base}/`);
    await login(b, base, PHONE_B);
    await openGameDetail(b);
    await startOnNode(b);
    await b.getByTestId('queue-dialog').waitFor();
    await b.getByTestId('queue-rank').filter({ hasText: '排队中，当前第 1 位' }).waitFor();

    // --- A exits the game; B is told over the WebSocket, without a reload
    await b.evaluate(() => {
      window.__yooNoReload = true;
    });
    const pushesBefore = pushesToB.count;
    await a.getByTestId('play-exit').click();
    const box = a.getByTestId('message-box');
    await box.waitFor();
    assert.match(await box.innerText(), /退出游戏/);
    await box.getByRole('button', { name: '立即退出' }).click();
    await a.waitForURL(`${base}/`);

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
    const config2 = path.join(tmp, 'config-restart.toml');
    await writeFile(config2, configToml({ bind: `127.0.0.1:${port}`, dataDir }));
    server = await startServer(config2, log);
    assert.equal(new URL(server.url).port, port, 'the restarted server listens on the same port');
    await Promise.all([a.reload(), b.reload()]);
    await assertLoggedIn(a, 'player A');
    await assertLoggedIn(b, 'player B');
  } catch (err) {
    for (const [who, page] of Object.entries(pages)) {
      try {
        const shot = path.join(tmpdir(), `yoo-e2e-${who}.png`);
        await page.screenshot({ path: shot, fullPage: true });
        console.error(`[e2e] player ${who} at ${page.url()}, screenshot ${shot}`);
      } catch {
        // the page may be gone
      }
    }
    console.error(`[e2e] server output (tail):\n${log.join('').split('\n').slice(-60).join('\n')}`);
    throw err;
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    if (server) await stopServer(server.proc);
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }
});
