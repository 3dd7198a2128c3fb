// Which access units reach the decoder. H.264 frames refer to the ones before them, so once one
// is missing (the host dropped frames for a slow connection, the decoder fell behind or failed)
// nothing can be decoded until the next key frame; this gate counts what was lost and says when
// to ask the host for a key frame rather than wait up to its key-frame interval.

/** Ask for a key frame at most this often while waiting for one. */
export const KEY_REQUEST_INTERVAL_MS = 500;
/**
 * Frames waiting in the decoder beyond which it is behind: the picture would lag further with
 * every frame, so the gate skips to a fresh key frame instead.
 */
export const MAX_DECODE_BACKLOG = 4;

export interface GateVerdict {
  /** hand this access unit to the decoder */
  decode: boolean;
  /** ask the host for a key frame now */
  requestKey: boolean;
}

/** The gate of one decoder: reset on every new Config, connection or decoder. */
export class FrameGate {
  /** frames this page never showed: gaps in the slot's sequence and frames skipped to a key frame */
  dropped = 0;
  private needKey = true;
  private lastSeq: number | null = null;
  private lastRequestMs = Number.NEGATIVE_INFINITY;

  /**
   * Start over: wait for a key frame. `forgetSeq` for a new connection, whose first frame may be
   * any number of frames after the last one seen (not a loss: nobody was watching).
   */
  reset(forgetSeq: boolean): void {
    this.needKey = true;
    if (forgetSeq) this.lastSeq = null;
  }

  /** Whether the gate waits for a key frame. */
  get waitingForKey(): boolean {
    return this.needKey;
  }

  /** Decides for one access unit; `backlog` is the decoder's queue, `nowMs` any monotonic clock. */
  accept(frame: { key: boolean; seq: number }, backlog: number, nowMs: number): GateVerdict {
    if (this.lastSeq !== null && frame.seq <= this.lastSeq) {
      // a repeat or an old frame: never decode backwards
      return { decode: false, requestKey: false };
    }
    if (this.lastSeq !== null && frame.seq > this.lastSeq + 1) {
      this.dropped += frame.seq - this.lastSeq - 1;
      if (!frame.key) this.needKey = true;
    }
    this.lastSeq = frame.seq;
    if (!frame.key && backlog > MAX_DECODE_BACKLOG) this.needKey = true;
    if (frame.key) {
      this.needKey = false;
      return { decode: true, requestKey: false };
    }
    if (!this.needKey) return { decode: true, requestKey: false };
    this.dropped += 1;
    const requestKey = nowMs - this.lastRequestMs >= KEY_REQUEST_INTERVAL_MS;
    if (requestKey) this.lastRequestMs = nowMs;
    return { decode: false, requestKey };
  }

  /**
   * The decoder failed or was replaced: what it held is lost. Returns whether to ask for a key
   * frame now (rate-limited like the gate's own requests).
   */
  lost(nowMs: number): boolean {
    this.needKey = true;
    if (nowMs - this.lastRequestMs < KEY_REQUEST_INTERVAL_MS) return false;
    this.lastRequestMs = nowMs;
    return true;
  }
}
