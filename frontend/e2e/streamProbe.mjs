// What the browser tests and the stream benchmark read back from the game's picture.
//
// The test pattern (gamehost/src/pattern.rs, `yoo-gamehost --pattern`) draws, with a block of
// b = max(8, width / 64) pixels: in row 0 a white then a black calibration block and the wall
// clock in milliseconds as 44 blocks, most significant bit first (white = 1); the last key
// pressed as a 2b square at (width - 3b, 2b) and the last button as one at (width - 6b, 2b), both
// dark blue (0x000080) before anything was pressed; the pointer as a red square of b centred on
// it. The layout is the pattern's (Layout in pattern.rs); the readers below check the calibration
// blocks and fail rather than read a picture drawn some other way.
//
// Two readers:
// - `installFrameProbe` (an init script, in the page before the app runs) wraps WebCodecs'
//   VideoDecoder so that every decoded picture is read as it leaves the decoder: its time code
//   against the page's Date.now() (the same machine's clock as the pattern's: capture to decoded
//   picture, no trust in the host's stamps), and, when asked, whether the pointer marker is at a
//   picture point (input round trip). It changes nothing the app sees.
// - `canvasSamples` and friends read the product's canvas itself (what the player sees).

export const TIME_BITS = 44;
export const IDLE = 0x000080;

export function patternBlock(width) {
  return Math.max(8, Math.floor(width / 64));
}

/** The centre of the last-key square, in picture pixels. */
export function keyBlockCentre(width) {
  const b = patternBlock(width);
  return { x: width - 3 * b + b, y: 2 * b + b };
}

/** The centre of the last-button square, in picture pixels. */
export function buttonBlockCentre(width) {
  const b = patternBlock(width);
  return { x: width - 6 * b + b, y: 2 * b + b };
}

/** Runs in the page (page.addInitScript). */
export function installFrameProbe() {
  const Orig = window.VideoDecoder;
  if (!Orig) return;
  const TIME_BITS = 44;
  const probe = {
    frames: 0,
    /** performance.now() of each decoded picture */
    times: [],
    /** capture-to-decoded latency (ms) of each picture whose time code was read */
    latencies: [],
    /** performance.now() of each of `latencies` */
    latencyTimes: [],
    unreadable: 0,
    /** { x, y, since, seenAt } : look for the pointer marker at a picture point */
    watch: null,
    roundTrips: [],
  };
  window.__yooFrameProbe = probe;
  let strip = null;
  let stripCtx = null;
  let dot = null;
  let dotCtx = null;
  const luma = (d, i) => (d[i] * 3 + d[i + 1] * 6 + d[i + 2]) / 10;
  const readTime = (frame) => {
    const w = frame.displayWidth;
    const b = Math.max(8, Math.floor(w / 64));
    if (!strip || strip.width !== w) {
      strip = new OffscreenCanvas(w, 1);
      stripCtx = strip.getContext('2d', { willReadFrequently: true });
    }
    // the middle row of the time code's blocks
    stripCtx.drawImage(frame, 0, Math.floor(b / 2), w, 1, 0, 0, w, 1);
    const d = stripCtx.getImageData(0, 0, w, 1).data;
    const bit = (i) => luma(d, (i * b + Math.floor(b / 2)) * 4) >= 128;
    if (!bit(0) || bit(1)) return null;
    let ms = 0;
    for (let i = 0; i < TIME_BITS; i++) ms = ms * 2 + (bit(2 + i) ? 1 : 0);
    return ms;
  };
  const isMarker = (frame, x, y) => {
    if (!dot) {
      dot = new OffscreenCanvas(1, 1);
      dotCtx = dot.getContext('2d', { willReadFrequently: true });
    }
    dotCtx.drawImage(frame, x, y, 1, 1, 0, 0, 1, 1);
    const [r, g, b] = dotCtx.getImageData(0, 0, 1, 1).data;
    return r > 180 && g < 90 && b < 90;
  };
  window.VideoDecoder = class extends Orig {
    constructor(init) {
      const output = init.output;
      super({
        ...init,
        output: (frame) => {
          const now = Date.now();
          probe.frames++;
          probe.times.push(performance.now());
          try {
            const ms = readTime(frame);
            if (ms !== null && Math.abs(now - ms) < 10_000) {
              probe.latencies.push(now - ms);
              probe.latencyTimes.push(performance.now());
            } else probe.unreadable++;
            const w = probe.watch;
            if (w && w.seenAt === null && w.since !== null && isMarker(frame, w.x, w.y)) {
              w.seenAt = now;
              probe.roundTrips.push(now - w.since);
            }
          } catch {
            probe.unreadable++;
          }
          output(frame);
        },
      });
    }
  };
}

/** In the page: samples the product's canvas on a grid; {w, h, px: [[r,g,b]...]} or null. */
export function canvasGridInPage() {
  const c = document.querySelector('[data-testid=stream-canvas]');
  if (!c || c.width < 16 || c.height < 16) return null;
  const ctx = c.getContext('2d');
  const px = [];
  for (let gy = 1; gy < 8; gy++) {
    for (let gx = 1; gx < 8; gx++) {
      const d = ctx.getImageData(Math.floor((c.width * gx) / 8), Math.floor((c.height * gy) / 8), 1, 1).data;
      px.push([d[0], d[1], d[2]]);
    }
  }
  // and the time code's row, which changes every millisecond on the pattern
  const b = Math.max(8, Math.floor(c.width / 64));
  const row = ctx.getImageData(0, Math.floor(b / 2), c.width, 1).data;
  for (let x = 0; x < c.width; x += Math.floor(b / 2)) px.push([row[x * 4], row[x * 4 + 1], row[x * 4 + 2]]);
  return { w: c.width, h: c.height, px };
}

/** In the page: the colour (0xRRGGBB) of the canvas at picture point {x, y}. */
export function canvasPixelInPage({ x, y }) {
  const c = document.querySelector('[data-testid=stream-canvas]');
  if (!c) return null;
  const d = c.getContext('2d').getImageData(x, y, 1, 1).data;
  return (d[0] << 16) | (d[1] << 8) | d[2];
}

/** Whether two colours are the same within the encoder's error. */
export function sameColour(a, b, tolerance = 48) {
  const ch = (v, s) => (v >> s) & 0xff;
  return [16, 8, 0].every((s) => Math.abs(ch(a, s) - ch(b, s)) <= tolerance);
}

/** Not blank: the grid's samples are not all one colour. */
export function isBlank(grid) {
  const first = grid.px[0];
  return grid.px.every((p) => p.every((v, i) => Math.abs(v - first[i]) < 12));
}

/** How many samples differ between two grids. */
export function changedSamples(a, b) {
  let n = 0;
  for (let i = 0; i < Math.min(a.px.length, b.px.length); i++) {
    if (a.px[i].some((v, k) => Math.abs(v - b.px[i][k]) > 24)) n++;
  }
  return n;
}

/** Nearest-rank percentile. */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const s = [...values].sort((x, y) => x - y);
  return s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)];
}

/**
 * Waits (up to 45 s) until the page's stream canvas is not blank and changes between two looks
 * a second apart; fails with `what` and the last look otherwise.
 */
export async function assertLiveAndChanging(page, what) {
  const deadline = Date.now() + 45_000;
  let last = null;
  while (Date.now() < deadline) {
    const a = await page.evaluate(canvasGridInPage);
    await page.waitForTimeout(1000);
    const b = await page.evaluate(canvasGridInPage);
    last = { blankA: a && isBlank(a), blankB: b && isBlank(b), changed: a && b ? changedSamples(a, b) : 0 };
    if (a && b && !last.blankA && !last.blankB && last.changed > 0) return;
  }
  throw new Error(`${what}: the picture is blank or still: ${JSON.stringify(last)}`);
}
