// The restart as the players see it (issue 23): from `kill -9` of yoo-server to every adopted
// game's next picture in the browser, over RESTARTS restarts (default 10).
//
// Real parts only: the debug yoo-server and yoo-gamehost (the test pattern, SLOTS slots, default
// 2) on loopback ports through the e2e stack (frontend/e2e/restartStack.mjs), and SLOTS players
// in Debian's Chromium, each playing in its own play window with the frame probe
// (frontend/e2e/streamProbe.mjs) reading every decoded picture. Each restart: a few seconds of
// play, `kill -9` of the server, the server started again on the same configuration, then wait
// until every player's session reads PLAYING again with the same id (adopted), and one more
// second of pictures. Per game and restart:
//   - next picture: from the kill to the first picture decoded after it;
//   - longest gap: the longest time without a decoded picture from the kill to a second after
//     the adoption (what a player would see as a stall);
//   - adopted: from the kill to the session reading PLAYING again through the page's own API;
//   - and for scale, the longest gap of the same game in the 2.5 s of play before the kill.
// Prints each restart and p50/max of each figure. Loopback only; every wait has a deadline and
// the script stops everything it started.
//
//   node loadtest/bench/restart_picture.mjs      (build first: cargo build -p facade -p gamehost;
//                                                 bash ops/frontend.sh build)
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const e2e = path.resolve(here, '../../frontend/e2e');
const { launchBrowser, makeTempDir, newPlayerContext, playInNewWindow, startServer, stopServer } = await import(path.join(e2e, 'helpers.mjs'));
const { installFrameProbe, percentile } = await import(path.join(e2e, 'streamProbe.mjs'));
const { assertHostPrerequisites, floatBall, kill9, NODE_ID, PATTERN_GAME, startStack } = await import(path.join(e2e, 'restartStack.mjs'));

const RESTARTS = Number(process.env.RESTARTS ?? 10);
const SLOTS = Number(process.env.SLOTS ?? 2);
const PLAY_BETWEEN_MS = 3000;
const ADOPT_DEADLINE_MS = 20_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The longest time without a picture from `from` to `to` (ms), the bounds counting as pictures. */
function longestGap(times, from, to) {
  const inWindow = [from, ...times.filter((t) => t > from && t <= to), to];
  let gap = 0;
  for (let k = 1; k < inWindow.length; k++) gap = Math.max(gap, inWindow[k] - inWindow[k - 1]);
  return gap;
}

/** The probe's picture times of a play page, on the wall clock (ms). */
async function pictureTimes(play) {
  return play.evaluate(() => window.__yooFrameProbe.times.map((t) => performance.timeOrigin + t));
}

/** One player: logged in, the test pattern started, confirmed, its play window decoding. */
async function player(browser, base, phone) {
  const ctx = await newPlayerContext(browser);
  await ctx.addInitScript(installFrameProbe);
  const page = await ctx.newPage();
  const play = await playInNewWindow(page, base, phone, PATTERN_GAME, NODE_ID);
  const state = await floatBall(page);
  assert.equal(state.status, 5, JSON.stringify(state));
  return { page, play, session: state.id };
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${Math.round(percentile(sorted, 50))} ms, max ${Math.round(sorted.at(-1))} ms`;
}

assertHostPrerequisites();
const tmp = await makeTempDir('yoo-bench-restart-picture-');
const log = [];
let stack = null;
let server = null;
let browser = null;
const hardStop = setTimeout(() => {
  console.error('gave up: the benchmark ran past its 15 minutes');
  process.exit(2);
}, 15 * 60_000);
try {
  stack = await startStack(tmp, log, { slots: SLOTS });
  server = stack.server.proc;
  const base = stack.server.url;
  browser = await launchBrowser();
  const players = [];
  for (let i = 0; i < SLOTS; i++) players.push(await player(browser, base, `1390000${String(1500 + i).padStart(4, '0')}`));
  console.log(`${players.length} games play on one host; ${RESTARTS} restarts`);

  const next = [];
  const gaps = [];
  const adopted = [];
  const calm = [];
  for (let r = 1; r <= RESTARTS; r++) {
    await sleep(PLAY_BETWEEN_MS);
    const killedAt = Date.now();
    await kill9(server);
    server = (await startServer(stack.configPath, log)).proc;
    const adoptedAt = [];
    for (const p of players) {
      const deadline = killedAt + ADOPT_DEADLINE_MS;
      for (;;) {
        const s = await floatBall(p.page).catch(() => null);
        if (s?.status === 5 && s.id === p.session) break;
        assert.ok(Date.now() < deadline, `restart ${r}: session ${p.session} not adopted: ${JSON.stringify(s)}`);
        await sleep(50);
      }
      adoptedAt.push(Date.now());
    }
    await sleep(1000);
    const until = Math.max(...adoptedAt) + 1000;
    const line = [];
    for (const [i, p] of players.entries()) {
      const times = await pictureTimes(p.play);
      const after = times.filter((t) => t > killedAt);
      assert.ok(after.length > 0, `restart ${r}: no picture after the kill in game ${p.session}`);
      const gap = longestGap(times, killedAt, until);
      const before = longestGap(times, killedAt - PLAY_BETWEEN_MS + 500, killedAt);
      calm.push(before);
      next.push(after[0] - killedAt);
      gaps.push(gap);
      adopted.push(adoptedAt[i] - killedAt);
      line.push(`game ${p.session}: next picture ${Math.round(after[0] - killedAt)} ms, longest gap ${Math.round(gap)} ms (${Math.round(before)} ms before the kill), adopted ${adoptedAt[i] - killedAt} ms`);
    }
    console.log(`restart ${r}: ${line.join('; ')}`);
  }
  console.log(`next picture after the kill: ${stats(next)} (${next.length} games x restarts)`);
  console.log(`longest picture gap through a restart: ${stats(gaps)}`);
  console.log(`longest picture gap in the play before each kill: ${stats(calm)}`);
  console.log(`session adopted (PLAYING, same id, through the page's API): ${stats(adopted)}`);
} catch (e) {
  console.error(e);
  console.error(log.slice(-40).join('\n'));
  process.exitCode = 1;
} finally {
  clearTimeout(hardStop);
  await browser?.close().catch(() => undefined);
  await stopServer(stack?.host.proc);
  await stopServer(server);
  await tmp.cleanup();
}
