// When to connect the stream again after it dropped. The first retry is nearly at once (a host
// restarting a listener, a network blip), later ones back off to a few seconds, and after a
// bounded number of failures the page stops and offers a button: a machine that is gone does not
// come back by retrying, and the platform says so by ending the session.

/** Delay before each retry; the last one repeats. */
export const RECONNECT_DELAYS_MS: readonly number[] = [250, 1000, 2000, 4000];
/** Failed attempts in a row after which the page gives up (about half a minute). */
export const MAX_RECONNECT_ATTEMPTS = 10;

export interface ReconnectOptions {
  delaysMs?: readonly number[];
  maxAttempts?: number;
}

export class ReconnectPolicy {
  /** attempts since the last success */
  attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly delays: readonly number[];
  private readonly maxAttempts: number;
  private readonly run: () => void;

  constructor(run: () => void, opts: ReconnectOptions = {}) {
    this.run = run;
    this.delays = opts.delaysMs ?? RECONNECT_DELAYS_MS;
    this.maxAttempts = opts.maxAttempts ?? MAX_RECONNECT_ATTEMPTS;
  }

  /** A retry is waiting. */
  get pending(): boolean {
    return this.timer !== null;
  }

  /** Every attempt failed: no retry until `restart`. */
  get exhausted(): boolean {
    return this.attempts >= this.maxAttempts;
  }

  /** The delay before the next attempt. */
  nextDelayMs(): number {
    return this.delays[Math.min(this.attempts, this.delays.length - 1)];
  }

  /**
   * The stream dropped or an attempt failed: schedule the next attempt. False when the attempts
   * are exhausted (nothing scheduled); a second call while one waits changes nothing.
   */
  schedule(): boolean {
    if (this.timer) return true;
    if (this.exhausted) return false;
    const delay = this.nextDelayMs();
    this.attempts++;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.run();
    }, delay);
    return true;
  }

  /** The stream is back (a picture arrived): the next drop starts from the first delay. */
  succeeded(): void {
    this.attempts = 0;
  }

  /** The player asked to try again after the page gave up: a fresh round, starting now. */
  restart(): void {
    this.cancel();
    this.attempts = 0;
    this.run();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
