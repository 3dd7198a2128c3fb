import { action, computed, makeObservable, observable, runInAction } from 'mobx';
import { ApiError } from '../transport/apiError';

/** core-platform.md §4.12: the QR code's display states (INVALID is the payment QR's only). */
export const QrLoginState = {
  LOADING: 0,
  LOAD_SUCCESS: 1,
  LOAD_FAIL: 2,
  TIMEOUT: 3,
  SCAN_SUCCESS: 4,
  SCAN_CANCEL: 5,
} as const;
export type QrLoginState = (typeof QrLoginState)[keyof typeof QrLoginState];

/** The long poll's answers that are not its result (§4.9, §4.12, §8.3). */
const QrCode = { TIMEOUT: 20140, CANCEL: 20141, WAITING: 20142, SCAN_SUCCESS: 20143 } as const;

/** Any other poll error is tried again after this long (§8.3). */
export const QR_RETRY_MS = 10_000;

/** What a QR ticket flow does at each end: fetch a code, poll it once, take its result. */
export interface QrTicketSteps<R> {
  /** a new code: the address it carries and the ticket the poll names */
  fetch(): Promise<{ url: string; ticket: string }>;
  /** one long poll of the ticket: its result, or an ApiError with one of the poll's codes */
  poll(ticket: string): Promise<R>;
  /** the result, once (a subclass may override `finish` instead) */
  done?(result: R): void | Promise<void>;
  /** an error that ends the flow (true: handled, stop polling); others poll again after 10 s */
  fatal?(e: ApiError): boolean;
}

/**
 * A QR code whose ticket is long-polled until the phone or app completes it (the app-QR login of
 * §4.12, the in-car certification of §4.9): loading → shown → scanned → the result, or the
 * code's end (expired, cancelled); other errors poll again after [`QR_RETRY_MS`]. A click on a
 * failed, expired or cancelled code fetches a new one; `stop()` ends the polling.
 */
export class QrTicketPoller<R> {
  state: QrLoginState = QrLoginState.LOADING;
  /** what the QR code carries */
  url = '';
  private ticket = '';
  /** bumps on every new code and on stop: an older poll loop sees it and ends */
  private generation = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly steps: QrTicketSteps<R>) {
    makeObservable<QrTicketPoller<R>, never>(this, {
      state: observable,
      url: observable,
      refreshable: computed,
      load: action,
    });
  }

  get refreshable(): boolean {
    return this.state === QrLoginState.LOAD_FAIL || this.state === QrLoginState.TIMEOUT || this.state === QrLoginState.SCAN_CANCEL;
  }

  /** Fetches a new code and starts polling it. */
  async load(): Promise<void> {
    const generation = this.restart();
    this.state = QrLoginState.LOADING;
    try {
      const qr = await this.steps.fetch();
      if (generation !== this.generation) return;
      runInAction(() => {
        this.url = qr.url;
        this.ticket = qr.ticket;
        this.state = QrLoginState.LOAD_SUCCESS;
      });
      void this.pollLoop(generation);
    } catch {
      if (generation === this.generation) runInAction(() => (this.state = QrLoginState.LOAD_FAIL));
    }
  }

  /** The code overlay's click: a new code where one can be had. */
  refresh(): void {
    if (this.refreshable) void this.load();
  }

  stop(): void {
    this.restart();
  }

  /** The poll's result, once. */
  protected async finish(result: R): Promise<void> {
    await this.steps.done?.(result);
  }

  private restart(): number {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    return ++this.generation;
  }

  private async pollLoop(generation: number): Promise<void> {
    while (generation === this.generation) {
      try {
        const result = await this.steps.poll(this.ticket);
        if (generation !== this.generation) return;
        this.restart();
        await this.finish(result);
        return;
      } catch (e) {
        if (generation !== this.generation) return;
        const code = e instanceof ApiError ? e.code : 0;
        if (code === QrCode.SCAN_SUCCESS) runInAction(() => (this.state = QrLoginState.SCAN_SUCCESS));
        else if (code === QrCode.WAITING) continue;
        else if (code === QrCode.TIMEOUT) return runInAction(() => void (this.state = QrLoginState.TIMEOUT));
        else if (code === QrCode.CANCEL) return runInAction(() => void (this.state = QrLoginState.SCAN_CANCEL));
        else if (e instanceof ApiError && this.steps.fatal?.(e)) return;
        else await new Promise<void>((resolve) => (this.retryTimer = setTimeout(resolve, QR_RETRY_MS)));
      }
    }
  }
}
