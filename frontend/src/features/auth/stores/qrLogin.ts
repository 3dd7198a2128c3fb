import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError } from '../../../transport/apiError';
import type { RootStore } from '../../../stores/rootStore';

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

/** The poll's answers that are not a login (§4.12, §8.3). */
const QrCode = { TIMEOUT: 20140, CANCEL: 20141, WAITING: 20142, SCAN_SUCCESS: 20143 } as const;

/** Any other poll error is tried again after this long (§8.3). */
export const QR_RETRY_MS = 10_000;

/** The overlay text of each state (none while loading or shown). */
export const QR_STATE_TEXT: Partial<Record<QrLoginState, string[]>> = {
  [QrLoginState.LOAD_FAIL]: ['二维码获取失败'],
  [QrLoginState.TIMEOUT]: ['二维码已失效'],
  [QrLoginState.SCAN_SUCCESS]: ['扫描成功', '请在手机端确认登录'],
  [QrLoginState.SCAN_CANCEL]: ['二维码已取消'],
};

/**
 * App-QR login: fetches a code, long-polls until the app confirms (then logs in like any login),
 * and follows the states of §4.12. A click on a failed, expired or cancelled code fetches a new
 * one. `stop()` ends the polling (the dialog closed or switched type).
 */
export class QrLoginStore {
  state: QrLoginState = QrLoginState.LOADING;
  /** what the QR code carries: the address the app opens */
  url = '';
  private ticket = '';
  /** bumps on every new code and on stop: an older poll loop sees it and ends */
  private generation = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly root: RootStore) {
    makeAutoObservable<QrLoginStore, 'root' | 'retryTimer' | 'generation' | 'ticket'>(this, {
      root: false,
      retryTimer: false,
      generation: false,
      ticket: false,
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
      const qr = await this.root.api.get('/api/user/v1/auth/login/qrcode');
      if (generation !== this.generation) return;
      runInAction(() => {
        this.url = new URL(qr.qrcode, window.location.origin).href;
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

  private restart(): number {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    return ++this.generation;
  }

  private async pollLoop(generation: number): Promise<void> {
    while (generation === this.generation) {
      try {
        const result = await this.root.api.post('/api/user/v1/auth/login/qrcode', {
          device_no: this.root.transport.deviceId(),
          ticket: this.ticket,
        });
        if (generation !== this.generation) return;
        this.restart();
        await this.root.user.completeLogin(result);
        return;
      } catch (e) {
        if (generation !== this.generation) return;
        const code = e instanceof ApiError ? e.code : 0;
        if (code === QrCode.SCAN_SUCCESS) runInAction(() => (this.state = QrLoginState.SCAN_SUCCESS));
        else if (code === QrCode.WAITING) continue;
        else if (code === QrCode.TIMEOUT) return runInAction(() => void (this.state = QrLoginState.TIMEOUT));
        else if (code === QrCode.CANCEL) return runInAction(() => void (this.state = QrLoginState.SCAN_CANCEL));
        else if (e instanceof ApiError && e.code === 20101) return void this.root.user.showForbidden(e);
        else {
          await new Promise<void>((resolve) => (this.retryTimer = setTimeout(resolve, QR_RETRY_MS)));
        }
      }
    }
  }
}
