import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError } from '../../../transport/apiError';
import type { Api } from '../../../transport/types';
import { QR_RETRY_MS, QrLoginState } from '../../auth/stores/qrLogin';

/** The poll's answers that are not the certification (core-platform.md §4.9, §8.3). */
const QrCode = { TIMEOUT: 20140, CANCEL: 20141, WAITING: 20142, SCAN_SUCCESS: 20143 } as const;

/** The in-car variant's overlay texts (§2.15). */
export const QR_CERT_TEXT: Partial<Record<QrLoginState, string>> = {
  [QrLoginState.LOAD_FAIL]: '二维码加载失败',
  [QrLoginState.TIMEOUT]: '二维码已过期',
  [QrLoginState.SCAN_SUCCESS]: '扫码成功，请在手机上完成认证',
  [QrLoginState.SCAN_CANCEL]: '二维码已取消',
};

/**
 * QR certification (§2.15 in-car variant, §4.9 "Certification QR polling"): a code of this
 * account for a phone signed in to it; the long poll follows loading → scanned (polling on) →
 * certified, or the code's end or cancel; other errors poll again after 10 s. A click on a
 * failed, expired or cancelled code fetches a new one.
 */
export class QrCertificationStore {
  state: QrLoginState = QrLoginState.LOADING;
  url = '';
  certified = false;
  private ticket = '';
  private generation = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly api: Api;

  constructor(api: Api) {
    this.api = api;
    makeAutoObservable<QrCertificationStore, 'api' | 'retryTimer' | 'generation' | 'ticket'>(this, {
      api: false,
      retryTimer: false,
      generation: false,
      ticket: false,
    });
  }

  get refreshable(): boolean {
    return this.state === QrLoginState.LOAD_FAIL || this.state === QrLoginState.TIMEOUT || this.state === QrLoginState.SCAN_CANCEL;
  }

  async load(): Promise<void> {
    const generation = this.restart();
    this.state = QrLoginState.LOADING;
    try {
      const qr = await this.api.get('/api/v3/qrcode/generate', { action: 'idauth' });
      if (generation !== this.generation) return;
      runInAction(() => {
        this.url = qr.qrcode;
        this.ticket = qr.ticket;
        this.state = QrLoginState.LOAD_SUCCESS;
      });
      void this.pollLoop(generation);
    } catch {
      if (generation === this.generation) runInAction(() => (this.state = QrLoginState.LOAD_FAIL));
    }
  }

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
        await this.api.post('/api/v3/qrcode/idauth/polling', { ticket: this.ticket });
        if (generation !== this.generation) return;
        this.restart();
        runInAction(() => (this.certified = true));
        return;
      } catch (e) {
        if (generation !== this.generation) return;
        const code = e instanceof ApiError ? e.code : 0;
        if (code === QrCode.SCAN_SUCCESS) runInAction(() => (this.state = QrLoginState.SCAN_SUCCESS));
        else if (code === QrCode.WAITING) continue;
        else if (code === QrCode.TIMEOUT) return runInAction(() => void (this.state = QrLoginState.TIMEOUT));
        else if (code === QrCode.CANCEL) return runInAction(() => void (this.state = QrLoginState.SCAN_CANCEL));
        else await new Promise<void>((resolve) => (this.retryTimer = setTimeout(resolve, QR_RETRY_MS)));
      }
    }
  }
}
