// The stream's figures: what the stats overlay shows every second (frame rate and bitrate over
// the last second, the last round trip, frames dropped) and what the quality report sums up at
// the end (time played, median and 95th-percentile round trip, average frame rate, drops,
// reconnects). Pure: every method takes the time, so tests drive it with numbers.

import type { BodyOf } from '../api/types';

/** The window of the live figures. */
export const WINDOW_MS = 1000;
/** Round-trip samples kept for the report: one a second is over five hours. */
export const MAX_RTT_SAMPLES = 20_000;

/** Nearest-rank percentile (p in 0..100) of unsorted samples; null without samples. */
export function percentile(samples: readonly number[], p: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((Math.min(100, Math.max(0, p)) / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)];
}

/** What the overlay shows. */
export interface LiveFigures {
  /** pictures decoded in the last second */
  fps: number;
  /** kilobits per second received in the last second */
  kbps: number;
  /** the last round trip in ms, null before the first Pong */
  rttMs: number | null;
  dropped: number;
  width: number;
  height: number;
}

/** What the quality report carries: the body of the platform's qualityReport without the session id. */
export type QualitySummary = Omit<BodyOf<'/api/japi/yoo/game/qualityReport'>, 'id'>;

export class StreamStats {
  reconnects = 0;
  private readonly frameTimes: number[] = [];
  private readonly byteTimes: { t: number; n: number }[] = [];
  private readonly rtts: number[] = [];
  private rttCount = 0;
  private lastRtt: number | null = null;
  private firstPictureMs: number | null = null;
  private lastPictureMs: number | null = null;
  private pictures = 0;
  private readonly maxSamples: number;
  private readonly random: () => number;

  constructor(opts: { maxSamples?: number; random?: () => number } = {}) {
    this.maxSamples = opts.maxSamples ?? MAX_RTT_SAMPLES;
    this.random = opts.random ?? Math.random;
  }

  /** A decoded picture was drawn. */
  picture(nowMs: number): void {
    this.pictures++;
    if (this.firstPictureMs === null) this.firstPictureMs = nowMs;
    this.lastPictureMs = nowMs;
    this.frameTimes.push(nowMs);
    this.trim(nowMs);
  }

  /** A message of `n` bytes arrived. */
  bytes(n: number, nowMs: number): void {
    this.byteTimes.push({ t: nowMs, n });
    this.trim(nowMs);
  }

  /** A Pong: the round trip of its Ping. Negative or absurd values (a clock jump) are dropped. */
  rtt(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0 || ms > 60_000) return;
    this.lastRtt = ms;
    // a bounded reservoir: beyond the cap each new sample replaces a random old one, so the
    // percentiles stay those of the whole session
    this.rttCount++;
    if (this.rtts.length < this.maxSamples) this.rtts.push(ms);
    else {
      const i = Math.floor(this.random() * this.rttCount);
      if (i < this.maxSamples) this.rtts[i] = ms;
    }
  }

  reconnected(): void {
    this.reconnects++;
  }

  /** The overlay's figures; `dropped` is the frame gate's count. */
  live(nowMs: number, dropped: number, size: { width: number; height: number }): LiveFigures {
    this.trim(nowMs);
    const bits = this.byteTimes.reduce((s, b) => s + b.n, 0) * 8;
    return {
      fps: this.frameTimes.length,
      kbps: Math.round(bits / WINDOW_MS),
      rttMs: this.lastRtt === null ? null : Math.round(this.lastRtt),
      dropped,
      width: size.width,
      height: size.height,
    };
  }

  /** Whether any picture was shown: no picture, no report. */
  get played(): boolean {
    return this.firstPictureMs !== null;
  }

  /**
   * The report at `nowMs`: time played from the first picture, the average frame rate over that
   * time, the round-trip percentiles (0 without a sample), drops and reconnects.
   */
  summary(nowMs: number, dropped: number): QualitySummary {
    const start = this.firstPictureMs ?? nowMs;
    const playedMs = Math.max(0, nowMs - start);
    const spanMs = this.lastPictureMs !== null ? Math.max(this.lastPictureMs - start, 0) : 0;
    // the frame rate is over the span the pictures cover (the first one opens it)
    const fps = spanMs > 0 ? ((this.pictures - 1) * 1000) / spanMs : 0;
    return {
      playedSecs: Math.round(playedMs / 1000),
      latencyP50Ms: Math.round(percentile(this.rtts, 50) ?? 0),
      latencyP95Ms: Math.round(percentile(this.rtts, 95) ?? 0),
      fps: Math.round(fps * 10) / 10,
      drops: dropped,
      reconnects: this.reconnects,
    };
  }

  private trim(nowMs: number): void {
    const from = nowMs - WINDOW_MS;
    while (this.frameTimes.length > 0 && this.frameTimes[0] <= from) this.frameTimes.shift();
    while (this.byteTimes.length > 0 && this.byteTimes[0].t <= from) this.byteTimes.shift();
  }
}

/** A session's quality report as the player sees it after the game. */
export interface ShownQualityReport {
  sessionId: string;
  gameName: string;
  /** why the session ended (EndReason), null when not known */
  endReason: string | null;
  summary: QualitySummary;
}
