import { makeAutoObservable, runInAction } from 'mobx';
import { PHONE_MAX_LENGTH, validatePhone } from '../../../lib/validation';
import { encodePassword, isStrongPassword, PASSWORD_MAX_LENGTH, validateLoginPassword } from '../../../lib/password';
import { ApiError, ErrorCode, errorMessage } from '../../../transport/apiError';
import type { CaptchaRegister, LoginResult } from '../../../api/types';
import type { RootStore } from '../../../stores/rootStore';

/** core-platform.md §8.1: the password login asks for the security check. */
export const CAPTCHA_REQUIRED = 20125;
/** core-platform.md §8.1: the security check's result was not taken. */
export const CAPTCHA_FAILED = 20128;

/** The warning when the security check is closed unsolved (§4.13). */
export const CAPTCHA_CLOSED_WARNING = '本次访问需要进行安全验证';
/** The weak-password prompt after a login (§2.6). */
export const WEAK_PASSWORD_PROMPT = {
  title: '温馨提示',
  message: '当前账号密码强度较弱，为保障你的账户安全，建议立即修改密码',
  confirmText: '立即前往',
  cancelText: '下次再说',
} as const;
export const CHANGE_PASSWORD_PATH = '/user/detail?changePassword=1';

/** The result the security check's widget hands back, as the login resends it. */
export interface CaptchaResult {
  geetest_challenge: string;
  geetest_validate: string;
  geetest_seccode: string;
}

/** The message the challenge page posts to the dialog (same origin only). */
interface CaptchaMessage {
  type: 'yoo-captcha';
  challenge: string;
  validate: string;
  seccode: string;
}

function isCaptchaMessage(d: unknown): d is CaptchaMessage {
  const m = d as CaptchaMessage;
  return typeof d === 'object' && d !== null && m.type === 'yoo-captcha' && typeof m.challenge === 'string' && typeof m.validate === 'string' && typeof m.seccode === 'string';
}

/**
 * The account-and-password tab (§2.3, §4.13): the phone and password, the login; 20125 / 20128
 * open the security check, whose result resubmits the login; closing it unsolved warns. After a
 * login with a password that fails the strong pattern, the weak-password prompt.
 */
export class PasswordLoginStore {
  phone = '';
  password = '';
  phoneError: string | null = null;
  passwordError: string | null = null;
  serverError: string | null = null;
  submitting = false;
  /** the security check shown (its widget's parameters), or null */
  captcha: CaptchaRegister | null = null;
  private readonly onMessage = (e: MessageEvent) => {
    if (e.origin !== window.location.origin || !isCaptchaMessage(e.data)) return;
    if (!this.captcha || e.data.challenge !== this.captcha.challenge) return;
    void this.captchaSolved({ geetest_challenge: e.data.challenge, geetest_validate: e.data.validate, geetest_seccode: e.data.seccode });
  };

  constructor(private readonly root: RootStore) {
    makeAutoObservable<PasswordLoginStore, 'root' | 'onMessage'>(this, { root: false, onMessage: false });
  }

  /** Hears the challenge page; returns the unsubscribe. */
  listen(): () => void {
    window.addEventListener('message', this.onMessage);
    return () => window.removeEventListener('message', this.onMessage);
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
      result = await this.root.api.post('/api/passport/password/login', {
        user_name: this.phone.trim(),
        password: encodePassword(password),
        device_no: this.root.transport.deviceId(),
        ...(captcha ?? {}),
      });
    } catch (e) {
      runInAction(() => (this.submitting = false));
      if (e instanceof ApiError && (e.code === CAPTCHA_REQUIRED || e.code === CAPTCHA_FAILED)) {
        if (e.code === CAPTCHA_FAILED) this.report();
        await this.openCaptcha();
        return false;
      }
      if (e instanceof ApiError && e.code === ErrorCode.ACCOUNT_FORBIDDEN) void this.root.user.showForbidden(e);
      runInAction(() => (this.serverError = errorMessage(e)));
      return false;
    }
    await this.root.user.completeLogin(result);
    runInAction(() => (this.submitting = false));
    if (!isStrongPassword(password)) {
      const go = await this.root.ui.confirm({ ...WEAK_PASSWORD_PROMPT });
      if (go) this.root.ui.navigate(CHANGE_PASSWORD_PATH);
    }
    return true;
  }

  /** Shows the security check: a new challenge from the provider. */
  async openCaptcha(): Promise<void> {
    try {
      const c = await this.root.api.get('/api/passport/captcha/senseboot/register');
      runInAction(() => (this.captcha = c));
    } catch (e) {
      runInAction(() => (this.serverError = errorMessage(e)));
    }
  }

  /** The widget's result: the check closes and the login goes again with it. */
  async captchaSolved(result: CaptchaResult): Promise<boolean> {
    this.captcha = null;
    return this.submit(result);
  }

  /** Closed unsolved: no login, and the warning. */
  closeCaptcha(): void {
    if (!this.captcha) return;
    this.captcha = null;
    this.root.ui.warning(CAPTCHA_CLOSED_WARNING);
  }

  /** Tells the server the check failed (§7.2). */
  private report(): void {
    void this.root.api.post('/api/v3/senseboot/report', { third_status: 1, type: 1, phone: this.phone || null }).catch(() => undefined);
  }
}
