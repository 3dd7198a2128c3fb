// The platform and a game host for the restart tests and the restart benchmark
// (loadtest/bench/restart_picture.mjs): a server at a fixed address, so that pages and the
// host find it again after a `kill -9` and a start on the same configuration.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertPrerequisites, configToml, freePort, hostBin, hostConfigToml, startHost, startServer } from './helpers.mjs';

export const NODE_ID = 1;
const SECRET = 'e2e-host-secret-node-1';
/** storage/src/seed.rs: game 4 runs the host's test pattern */
export const PATTERN_GAME = 4;
const SCREEN = [640, 360];

/** The platform (ready countdown 120 s) and one game host of `slots` slots linked to it. */
export async function startStack(tmp, log, { slots = 1 } = {}) {
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
  await writeFile(hostConfig, hostConfigToml({ nodeId: NODE_ID, host: 'e2e', secret: SECRET, platform: server.url, stateDir, slots, screen: SCREEN }));
  const host = await startHost(hostConfig, log);
  return { server, host, hostConfig, configPath };
}

/** SIGKILL, and wait for the process to be gone. */
export async function kill9(proc) {
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}

/** The player's game state, as their page's own API calls see it (the page's cookies). */
export async function floatBall(page) {
  return page.evaluate(async () => {
    const csrf = document.cookie.match(/(?:^|; )_csrfToken=([^;]*)/)?.[1] ?? '';
    const r = await fetch('/api/japi/yoo/game/floatBall', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) }, body: '{}' });
    return (await r.json()).data;
  });
}

export function assertHostPrerequisites() {
  assertPrerequisites();
  assert.ok(existsSync(hostBin), `game host binary not found at ${hostBin}: run \`cargo build -p gamehost\` (make test does)`);
}
