import { makeObservable, observable, runInAction } from 'mobx';
import type { Api } from '../../../transport/types';
import { QrLoginState, QrTicketPoller } from '../../../lib/qrTicket';

/** The in-car variant's overlay texts (§2.15). */
export const QR_CERT_TEXT: Partial<Record<QrLoginState, string>> = {
  [QrLoginState.LOAD_FAIL]: '二维码加载失败',
  [QrLoginState.TIMEOUT]: '二维码已过期',
  [QrLoginState.SCAN_SUCCESS]: '扫码成功，请在手机上完成认证',
  [QrLoginState.SCAN_CANCEL]: '二维码已取消',
};

/**
 * QR certification (core-platform.md §2.15 in-car variant, §4.9 "Certification QR polling"): a
 * code of this account for a phone signed in to it, long-polled until the phone certifies.
 */
export class QrCertificationStore extends QrTicketPoller<unknown> {
  certified = false;

  constructor(api: Api) {
    super({
      fetch: async () => {
        const qr = await api.get('/api/v3/qrcode/generate', { action: 'idauth' });
        return { url: qr.qrcode, ticket: qr.ticket };
      },
      poll: (ticket) => api.post('/api/v3/qrcode/polling', { ticket }),
    });
    makeObservable(this, { certified: observable });
  }

  protected override async finish(): Promise<void> {
    runInAction(() => (this.certified = true));
  }
}
