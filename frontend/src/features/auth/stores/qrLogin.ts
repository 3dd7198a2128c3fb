import type { LoginResult } from '../../../api/types';
import { QrLoginState, QrTicketPoller } from '../../../lib/qrTicket';
import type { AppServices } from '../../../kernel/services';
import type { UserStore } from './userStore';

/** What this store needs from the others (the root store provides it). */
export type QrLoginDeps = Pick<AppServices, 'api' | 'transport'> & { user: Pick<UserStore, 'completeLogin' | 'showForbidden'> };

export { QR_RETRY_MS, QrLoginState } from '../../../lib/qrTicket';

/** The overlay text of each state (none while loading or shown). */
export const QR_STATE_TEXT: Partial<Record<QrLoginState, string[]>> = {
  [QrLoginState.LOAD_FAIL]: ['二维码获取失败'],
  [QrLoginState.TIMEOUT]: ['二维码已失效'],
  [QrLoginState.SCAN_SUCCESS]: ['扫描成功', '请在手机端确认登录'],
  [QrLoginState.SCAN_CANCEL]: ['二维码已取消'],
};

/**
 * App-QR login (core-platform.md §4.12): a code of a login ticket, long-polled until the app
 * confirms (then logged in like any login); a forbidden account (20101) ends it with the
 * forbidden alert.
 */
export class QrLoginStore extends QrTicketPoller<LoginResult> {
  constructor(deps: QrLoginDeps) {
    super({
      fetch: async () => {
        const qr = await deps.api.get('/api/user/v1/auth/login/qrcode');
        return { url: new URL(qr.qrcode, window.location.origin).href, ticket: qr.ticket };
      },
      poll: (ticket) => deps.api.post('/api/user/v1/auth/login/qrcode', { device_no: deps.transport.deviceId(), ticket }),
      done: async (result) => void (await deps.user.completeLogin(result)),
      fatal: (e) => {
        if (e.code !== 20101) return false;
        deps.user.showForbidden(e);
        return true;
      },
    });
  }
}
