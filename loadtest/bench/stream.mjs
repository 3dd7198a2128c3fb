// The stream benchmark (issue 8), driven by loadtest/bench/stream.sh, which starts the platform
// and one game host and passes their addresses. Real parts only: players log in, start the
// test-pattern game, confirm and watch the play page in Debian's Chromium on this machine.
//
// 1. One stream for DURATION seconds:
//    - decoded fps: pictures out of WebCodecs' decoder per second (the page's own decoder);
//    - capture to decoded picture: the pattern draws the wall clock into the display; each
//      decoded picture's time code is read as it leaves the decoder and compared with Date.now()
//      (the same machine's clock: no trust in the host's stamps). The pattern redraws at 60 Hz,
//      so a figure includes up to 16.7 ms of the clock's own age before capture (an upper bound);
//    - input round trip: the pointer moves to a new point of the picture (a real pointer event
//      on the canvas, through the page's input path); the time from the event to the first
//      decoded picture with the pattern's marker there;
//    - the host's CPU per stream: /proc time of yoo-gamehost (capture, convert, encode, fan-out)
//      and of the slot's Xvfb and game, over the same window; and the browser's (Chromium's
//      processes, this script's descendants), for scale.
// 2. Simultaneous streams: 1, 2, ... players at once (each its own slot, page and decoder),
//    WINDOW seconds each; the largest count at which every page decodes >= 25 fps.
//
// Bounded: every wait has a deadline; the script exits by itself. Loopback only.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const e2e = path.resolve(here, '../../frontend/e2e');
const { launchBrowser, newPlayerContext, playInNewWindow } = await import(path.join(e2e, 'helpers.mjs'));
const { installFrameProbe, percentile } = await import(path.join(e2e, 'streamProbe.mjs'));

const BASE = process.env.BASE;
const HOST_PID = Number(process.env.HOST_PID);
const MAX_STREAMS = Number(process.env.MAX_STREAMS ?? 4);
const DURATION = Number(process.env.DURATION ?? 30);
const WINDOW = Number(process.env.WINDOW ?? 20);
const ROUND_TRIPS = Number(process.env.ROUND_TRIPS ?? 40);
const PATTERN_GAME = 4; // storage/src/seed.rs: game 4 runs the host's test pattern
const NODE_ID = 1;
assert.ok(BASE && HOST_PID, 'BASE and HOST_PID are set by stream.sh');

const TICKS = 100; // USER_HZ: /proc times are in 1/100 s on Linux

/** utime + stime (seconds) of a process, or 0 when it is gone. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** The descendants of a process (its slots' Xvfb and games). */
function descendants(pid) {
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), { ppid: Number(f[1]), comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) });
    } catch {
      // gone
    }
  }
  const out = [];
  const walk = (p) => {
    for (const [child, info] of parent) {
      if (info.ppid === p) {
        out.push({ pid: child, comm: info.comm });
        walk(child);
      }
    }
  };
  walk(pid);
  return out;
}

let phoneSeq = 0;
/** A player on its own page: logged in, playing the pattern, the probe installed. */
async function newPlayer(browser) {
  const ctx = await newPlayerContext(browser, { viewport: { width: 1600, height: 1000 } });
  ctx.setDefaultTimeout(60_000);
  await ctx.addInitScript(installFrameProbe);
  const page = await ctx.newPage();
  const phone = `139100${String(process.pid % 100).padStart(2, '0')}${String(++phoneSeq).padStart(3, '0')}`;
  const play = await playInNewWindow(page, BASE, phone, PATTERN_GAME, NODE_ID, { readyTimeout: 60_000 });
  return { ctx, page, play };
}

async function exitPlayer(p) {
  try {
    await p.play.getByTestId('play-exit').click();
    await p.play.getByTestId('message-box').getByRole('button', { name: '立即退出' }).click();
    await p.play.waitForEvent('close', { timeout: 20_000 });
  } catch {
    // the context goes anyway
  }
  await p.ctx.close().catch(() => undefined);
}

/** Decoded fps and latencies of a page between now and `seconds` later. */
async function measure(play, seconds) {
  const before = await play.evaluate(() => ({
    frames: window.__yooFrameProbe.frames,
    pictures: window.__yooFrameProbe.times.length,
    lat: window.__yooFrameProbe.latencies.length,
    t: performance.now(),
  }));
  await play.waitForTimeout(seconds * 1000);
  // the plots' clock: the harness's start when it runs this (as its CPU samples), else the window's
  const started = Number(process.env.LOADTEST_STARTED_MS) || null;
  return play.evaluate(([b, started]) => {
    const p = window.__yooFrameProbe;
    const since = (t) => (started === null ? t - b.t : performance.timeOrigin + t - started) / 1000;
    return {
      fps: ((p.frames - b.frames) * 1000) / (performance.now() - b.t),
      latencies: p.latencies.slice(b.lat),
      unreadable: p.unreadable,
      // for the harness's plots: (s since the window's start, ms) and each picture's time
      timed: p.latencyTimes.slice(b.lat).map((t, i) => [since(t), p.latencies[b.lat + i]]),
      pictures: p.times.slice(b.pictures).map(since),
      span: since(performance.now()),
    };
  }, [before, started]);
}

/** Input round trips: move the pointer between far apart points; event to marker seen. */
async function roundTrips(play, n) {
  // the pointer events the page's input path sends: stamp the watch when one reaches the canvas
  await play.evaluate(() => {
    const c = document.querySelector('[data-testid=stream-canvas]');
    c.addEventListener('pointermove', () => {
      const w = window.__yooFrameProbe.watch;
      if (w && w.since === null) w.since = Date.now();
    });
  });
  const geometry = await play.evaluate(() => {
    const c = document.querySelector('[data-testid=stream-canvas]');
    const r = c.getBoundingClientRect();
    const s = Math.min(r.width / c.width, r.height / c.height);
    return { left: r.left + (r.width - c.width * s) / 2, top: r.top + (r.height - c.height * s) / 2, s, w: c.width, h: c.height };
  });
  const points = [
    { x: Math.round(geometry.w * 0.25), y: Math.round(geometry.h * 0.6) },
    { x: Math.round(geometry.w * 0.75), y: Math.round(geometry.h * 0.4) },
  ];
  const results = [];
  let misses = 0;
  for (let i = 0; i < n; i++) {
    const p = points[i % 2];
    await play.evaluate((pt) => {
      window.__yooFrameProbe.watch = { x: pt.x, y: pt.y, since: null, seenAt: null };
    }, p);
    await play.mouse.move(geometry.left + (p.x + 0.5) * geometry.s, geometry.top + (p.y + 0.5) * geometry.s);
    const deadline = Date.now() + 3000;
    let seen = null;
    while (Date.now() < deadline) {
      seen = await play.evaluate(() => window.__yooFrameProbe.watch);
      if (seen.seenAt !== null) break;
      await play.waitForTimeout(20);
    }
    if (seen && seen.seenAt !== null && seen.since !== null) results.push(seen.seenAt - seen.since);
    else misses++;
    await play.waitForTimeout(150);
  }
  return { results, misses };
}

const fmt = (v) => (v === null ? '-' : Math.round(v));

const browser = await launchBrowser();
const report = {};
try {
  // ---- 1. one stream
  const one = await newPlayer(browser);
  await one.play.waitForTimeout(3000); // past the first key frame and the page's start
  const kids0 = descendants(HOST_PID);
  // the browser: Chromium's processes are this script's descendants
  const browserCpu = () => descendants(process.pid).reduce((s, k) => s + cpuSeconds(k.pid), 0);
  const cpu0 = { host: cpuSeconds(HOST_PID), slot: kids0.reduce((s, k) => s + cpuSeconds(k.pid), 0), browser: browserCpu(), t: Date.now() };
  const m = await measure(one.play, DURATION);
  const kids1 = descendants(HOST_PID);
  const cpu1 = { host: cpuSeconds(HOST_PID), slot: kids1.reduce((s, k) => s + cpuSeconds(k.pid), 0), browser: browserCpu(), t: Date.now() };
  const secs = (cpu1.t - cpu0.t) / 1000;
  const rt = await roundTrips(one.play, ROUND_TRIPS);
  report.one = {
    seconds: DURATION,
    decodedFps: Math.round(m.fps * 10) / 10,
    pictures: m.latencies.length,
    unreadable: m.unreadable,
    captureToDecodedP50: fmt(percentile(m.latencies, 50)),
    captureToDecodedP95: fmt(percentile(m.latencies, 95)),
    captureToDecodedMax: fmt(percentile(m.latencies, 100)),
    inputRoundTripP50: fmt(percentile(rt.results, 50)),
    inputRoundTripP95: fmt(percentile(rt.results, 95)),
    inputRoundTrips: rt.results.length,
    inputMisses: rt.misses,
    hostProcessCpuPct: Math.round(((cpu1.host - cpu0.host) / secs) * 1000) / 10,
    slotProcessesCpuPct: Math.round(((cpu1.slot - cpu0.slot) / secs) * 1000) / 10,
    browserCpuPct: Math.round(((cpu1.browser - cpu0.browser) / secs) * 1000) / 10,
    slotProcesses: kids1.map((k) => k.comm).join(','),
  };
  console.log(JSON.stringify({ oneStream: report.one }));
  report.oneDetail = { latencies: m.latencies, roundTrips: rt.results, timed: m.timed, pictures: m.pictures, span: m.span };
  await exitPlayer(one);

  // ---- 2. simultaneous streams
  report.simultaneous = [];
  const players = [];
  let held = 0;
  for (let n = 1; n <= MAX_STREAMS; n++) {
    players.push(await newPlayer(browser));
    await Promise.all(players.map((p) => p.play.waitForTimeout(3000)));
    const c0 = { host: cpuSeconds(HOST_PID), t: Date.now() };
    const ms = await Promise.all(players.map((p) => measure(p.play, WINDOW)));
    const c1 = { host: cpuSeconds(HOST_PID), t: Date.now() };
    const fps = ms.map((x) => Math.round(x.fps * 10) / 10);
    const lat = ms.flatMap((x) => x.latencies);
    const row = {
      streams: n,
      fpsEach: fps,
      minFps: Math.min(...fps),
      captureToDecodedP50: fmt(percentile(lat, 50)),
      captureToDecodedP95: fmt(percentile(lat, 95)),
      hostProcessCpuPct: Math.round(((c1.host - c0.host) / ((c1.t - c0.t) / 1000)) * 1000) / 10,
      load1: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
    };
    report.simultaneous.push(row);
    console.log(JSON.stringify({ simultaneous: row }));
    if (row.minFps >= 25) held = n;
    else break;
  }
  report.holdsAt25Fps = held;
  console.log(JSON.stringify({ holdsAt25Fps: held, maxTried: MAX_STREAMS }));
  for (const p of players) await exitPlayer(p);
} finally {
  await browser.close();
}
const { oneDetail, ...shown } = report;
console.log(JSON.stringify({ report: shown }));

// The load-test harness's `command` workload (loadtest/scenarios/stream.toml) reads its figures
// from $LOADTEST_FIGURES (loadtest/src/command.rs, FiguresFile).
if (process.env.LOADTEST_FIGURES) {
  const one = report.one;
  const figure = (name, value, unit) => (unit ? { name, value, unit } : { name, value });
  const minFps = (n) => report.simultaneous.find((r) => r.streams === n)?.minFps ?? 0;
  writeFileSync(
    process.env.LOADTEST_FIGURES,
    JSON.stringify({
      figures: [
        figure('decoded fps', one.decodedFps),
        figure('unreadable pictures', one.unreadable),
        figure('input misses', one.inputMisses),
        figure('game host cpu', one.hostProcessCpuPct, '%'),
        figure('display and pattern cpu', one.slotProcessesCpuPct, '%'),
        figure('browser cpu', one.browserCpuPct, '%'),
        figure('2 streams: lowest fps', minFps(2)),
        figure('3 streams: lowest fps', minFps(3)),
        figure('streams held at 25 fps', report.holdsAt25Fps),
      ],
      samples: { 'capture → decoded': oneDetail.latencies, 'input round trip': oneDetail.roundTrips },
      timeline: {
        unit: 'pictures',
        span_s: oneDetail.span,
        latencies: oneDetail.timed,
        done: oneDetail.pictures,
        errors_untimed: 'the one-stream window of the page: a failure stops the benchmark instead',
      },
    }),
  );
}
