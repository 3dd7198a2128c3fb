// The operators' console (issue 12): `ops/prometheus/run.sh` (what `make ops` runs) starts
// Prometheus against a real yoo-server, a short load run queues players on its one machine,
// and Chromium opens the console page Prometheus serves and sees the queue panel with the
// node's waiting players. Loopback only; every process is stopped at the end.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { configToml, frontendDir, withServer } from './helpers.mjs';

const repo = path.resolve(frontendDir, '..');
const loadtestBin = process.env.YOO_LOADTEST_BIN ?? path.join(repo, 'target/debug/loadtest');

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(what, check, timeoutMs) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    assert.ok(Date.now() < until, `${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('the console shows the queue of a running platform', { timeout: 120_000 }, async () => {
  assert.ok(existsSync(loadtestBin), `${loadtestBin} is missing: cargo build -p loadtest (make test does)`);
  // Every virtual player asks for its code from 127.0.0.1: the address and global SMS ceilings are raised.
  const config = (dataDir) =>
    configToml({ bind: '127.0.0.1:0', dataDir, nodes: [{ id: 1, name: '畅玩一区', machines: ['o1-01'] }] }).replace(
      '[sms]',
      '[sms]\nip_per_hour = 1000000\nglobal_per_minute = 1000000',
    );
  await withServer('ops', config, async ({ base, browser, pages }) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'yoo-ops-'));
    const listen = `127.0.0.1:${await freePort()}`;
    const procs = [];
    const out = [];
    try {
      const prom = spawn('bash', [path.join(repo, 'ops/prometheus/run.sh')], {
        cwd: repo,
        env: { ...process.env, PLATFORM: new URL(base).host, GAMEHOSTS: '127.0.0.1:9', LISTEN: listen, DATA: dir, INTERVAL: '1s' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      procs.push(prom);
      prom.stdout.on('data', (c) => out.push(String(c)));
      prom.stderr.on('data', (c) => out.push(String(c)));
      await waitFor('Prometheus ready', async () => (await fetch(`http://${listen}/-/ready`)).ok, 30_000);

      // Eight players for one machine, each playing 8 s: seven wait, and the queue moves.
      const load = spawn(
        loadtestBin,
        ['--url', base, '--players', '8', '--concurrency', '8', '--play-ms', '8000', '--timeout-secs', '90', '--phone-prefix', '1470000'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      procs.push(load);

      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      pages.console = page;
      const consoleUrl = `http://${listen}/consoles/yoo-overview.html`;
      let waiting = 0;
      await waitFor(
        'the queue panel shows node 1 with players waiting',
        async () => {
          await page.goto(consoleUrl);
          const row = page.locator('#queue tr.queue-node').first();
          if ((await row.count()) === 0) return false;
          const cells = await row.locator('td').allInnerTexts();
          waiting = Number(cells[1]);
          return cells[0] === '1' && waiting > 0;
        },
        45_000,
      );
      assert.ok(waiting >= 1 && waiting <= 7, `waiting ${waiting}`);
      assert.equal(await page.locator('#queue h2').innerText(), '排队');
      // The lane table names the lane the players wait in.
      assert.match(await page.locator('#queue tr.queue-lane').first().innerText(), /^1\s+normal\s+\d+/);
      // No alert fires on a healthy run, and the page's other panels render.
      await page.locator('#alerts .quiet').waitFor();
      for (const id of ['sessions', 'rooms', 'http', 'providers', 'actors', 'gamehosts']) {
        await page.locator(`#${id} h2`).waitFor();
      }
      if (process.env.YOO_SHOTS) await page.screenshot({ path: path.join(process.env.YOO_SHOTS, 'ops-console.png'), fullPage: true });
    } catch (err) {
      console.error(out.join('').slice(-4000));
      throw err;
    } finally {
      for (const p of procs) p.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  });
});
