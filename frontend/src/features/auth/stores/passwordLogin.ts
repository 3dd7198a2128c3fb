import { makeAutoObservable, runInAction } from 'mobx';
import { PHONE_MAX_LENGTH, validatePhone } from '../../../lib/validation';
import { encodePassword, isStrongPassword, PASSWORD_MAX_LENGTH, validateLoginPassword } from '../../../lib/password';
import { ApiError, ErrorCode, errorMessage } from '../../../transport/apiError';
import type { LoginResult } from '../../../api/types';
import type { AppServices } from '../../../kernel/services';
import type { UserStore } from './userStore';
import type { CaptchaResult } from './userStore';
import { securityCheckOf } from './securityCheck';

/** What this store needs from the others (the root store provides it). */
export type PasswordLoginDeps = Pick<AppServices, 'api' | 'transport' | 'ui'> & { user: Pick<UserStore, 'completeLogin' | 'showForbidden'> };

/** The weak-password prompt after a login (§2.6). */
export const WEAK_PASSWORD_PROMPT = {
  title: '温馨提示',
  message: '当前账号密码强度较弱，为保障你的账户安全，建议立即修改密码',
  confirmText: '立即前往',
  cancelText: '下次再说',
} as const;
export const CHANGE_PASSWORD_PATH = '/user/detail?changePassword=1';

/**
 * The account-and-password tab (§2.3, §4.13): the phone and password, the login; 20125 / 20128
 * open the security check (securityCheck.ts), whose result resubmits the login; closing it
 * unsolved warns. After a login with a password that fails the strong pattern, the
 * weak-password prompt.
 */
export class PasswordLoginStore {
  phone = '';
  password = '';
  phoneError: string | null = null;
  passwordError: string | null = null;
  serverError: string | null = null;
  submitting = false;

  constructor(private readonly deps: PasswordLoginDeps) {
    makeAutoObservable<PasswordLoginStore, 'deps'>(this, { deps: false });
  }

  setPhone(v: string): void {
    this.phone = v.replace(/\D/g, '').slice(0, PHONE_MAX_LENGTH);
    this.phoneError = null;
    this.serverError = null;
  }

  setPassword(v: string): void {
    this.password = v.slice(0, PASSWORD_MAX_LENGTH);
    this.passwordError = null;
    this.serverError = null;
  }

  /** Logs in; `captcha` is the security check's result on a resubmit. True when logged in. */
  async submit(captcha?: CaptchaResult): Promise<boolean> {
    this.serverError = null;
    this.phoneError = validatePhone(this.phone);
    this.passwordError = validateLoginPassword(this.password);
    if (this.phoneError || this.passwordError || this.submitting) return false;
    this.submitting = true;
    const password = this.password;
    let result: LoginResult;
    try {
      result = await this.deps.api.post('/api/passport/password/login', {
        user_name: this.phone.trim(),
        password: encodePassword(password),
        device_no: this.deps.transport.deviceId(),
        ...(captcha ?? {}),
      });
    } catch (e) {
      runInAction(() => (this.submitting = false));
      if (e instanceof ApiError && (e.code === ErrorCode.CAPTCHA_REQUIRED || e.code === ErrorCode.CAPTCHA_FAILED)) {
        if (e.code === ErrorCode.CAPTCHA_FAILED) this.report();
        return this.retryChecked();
      }
      if (e instanceof ApiError && e.code === ErrorCode.ACCOUNT_FORBIDDEN) void this.deps.user.showForbidden(e);
      runInAction(() => (this.serverError = errorMessage(e)));
      return false;
    }
    await this.deps.user.completeLogin(result);
    runInAction(() => (this.submitting = false));
    if (!isStrongPassword(password)) {
      const go = await this.deps.ui.confirm({ ...WEAK_PASSWORD_PROMPT });
      if (go) this.deps.ui.navigate(CHANGE_PASSWORD_PATH);
    }
    return true;
  }

  /** The security check, then the login again with its result; closed unsolved, no login. */
  private async retryChecked(): Promise<boolean> {
    let result: CaptchaResult | null;
    try {
      result = await securityCheckOf(this.deps).ask();
    } catch (e) {
      runInAction(() => (this.serverError = errorMessage(e)));
      return false;
    }
    return result ? this.submit(result) : false;
  }

  /** Tells the server the check failed (§7.2). */
  private report(): void {
    void this.deps.api.post('/api/v3/senseboot/report', { third_status: 1, type: 1, phone: this.phone || null }).catch(() => undefined);
  }
}
