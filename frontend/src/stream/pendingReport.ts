import type { QualitySummary } from './stats';

/** localStorage: figures of play pages that closed while their game ran on, by session id */
export const PENDING_REPORTS_KEY = 'yoo_pending_quality';

type Store = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * Two stretches of one session's stream as one: played time adds up, the frame rate and median
 * latency are weighted by time played, the 95th percentile is the worse of the two (an upper
 * bound: the samples are gone), drops add up, and reopening the page counts as a reconnect.
 */
export function mergeSummaries(a: QualitySummary, b: QualitySummary): QualitySummary {
  const total = a.playedSecs + b.playedSecs;
  const weighted = (x: number, y: number) => (total > 0 ? (x * a.playedSecs + y * b.playedSecs) / total : (x + y) / 2);
  return {
    playedSecs: total,
    latencyP50Ms: Math.round(weighted(a.latencyP50Ms, b.latencyP50Ms)),
    latencyP95Ms: Math.max(a.latencyP95Ms, b.latencyP95Ms),
    fps: Math.round(weighted(a.fps, b.fps) * 10) / 10,
    drops: a.drops + b.drops,
    reconnects: a.reconnects + b.reconnects + 1,
  };
}

/**
 * The figures a play page had when it closed while its game ran on (the player closed the
 * window; the game is not over, so the platform takes no report yet). The page that sees the
 * game end (a reopened play page, or the site's main window) merges them into its own and sends
 * the one report. Shared by every window of the site through localStorage.
 */
export class PendingReports {
  constructor(private readonly storage: Store | null) {}

  /** Keeps `summary` for the session, merged with what an earlier page left. */
  save(sessionId: string, summary: QualitySummary): void {
    const all = this.read();
    const before = all[sessionId];
    all[sessionId] = before ? mergeSummaries(before, summary) : summary;
    this.write(all);
  }

  /** The session's kept figures, removed (so that one page sends them). */
  take(sessionId: string): QualitySummary | null {
    const all = this.read();
    const found = all[sessionId] ?? null;
    if (found) {
      delete all[sessionId];
      this.write(all);
    }
    return found;
  }

  ids(): string[] {
    return Object.keys(this.read());
  }

  private read(): Record<string, QualitySummary> {
    try {
      const raw = this.storage?.getItem(PENDING_REPORTS_KEY);
      const parsed: unknown = raw ? JSON.parse(raw) : {};
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, QualitySummary>) : {};
    } catch {
      return {};
    }
  }

  private write(all: Record<string, QualitySummary>): void {
    try {
      this.storage?.setItem(PENDING_REPORTS_KEY, JSON.stringify(all));
    } catch {
      // private mode or full: the figures are lost with the page
    }
  }
}
