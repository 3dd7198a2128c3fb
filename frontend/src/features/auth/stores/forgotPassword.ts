import { makeAutoObservable, runInAction } from 'mobx';
import { CODE_MAX_LENGTH, PHONE_MAX_LENGTH, validateCode, validatePhone } from '../../../lib/validation';
import { encodePassword, PASSWORD_MAX_LENGTH, validateConfirmPassword, validateNewPassword } from '../../../lib/password';
import { errorMessage } from '../../../transport/apiError';
import { FieldError } from './userStore';
import type { AppServices } from '../../../kernel/services';
import type { UserStore } from './userStore';
import { securityCheckOf } from './securityCheck';
import type { BindingState } from '../../../api/types';

/** What this store needs from the others (the root store provides it). */
export type ForgotPasswordDeps = Pick<AppServices, 'api' | 'ui'> & { user: Pick<UserStore, 'clearLocal' | 'codeCountdown' | 'isLoggedIn' | 'sendCode' | 'sendingCode'> };

/**
 * forget: a guest's forgotten password (from the login dialog); change: a logged-in player
 * replaces theirs; set: a logged-in player without one sets a first (§2.5).
 */
export type PasswordMode = 'forget' | 'change' | 'set';

export const PASSWORD_CHANGED = '密码修改成功，请重新登录';
export const PASSWORD_SET = '设置成功';

/**
 * The forgot-password dialogs (§2.5): 1. the phone and its code, '下一步' (verify: a ticket);
 * 2. the new password and its confirm, '完成' (update with the ticket). A replaced password ends
 * every login: the player is logged out here and the login opens; a first one keeps the login.
 */
export class ForgotPasswordStore {
  step: 1 | 2 = 1;
  phone = '';
  code = '';
  password = '';
  confirm = '';
  phoneError: string | null = null;
  codeError: string | null = null;
  passwordError: string | null = null;
  confirmError: string | null = null;
  serverError: string | null = null;
  submitting = false;
  /** done: the dialog closes */
  done = false;
  private ticket = '';

  constructor(
    private readonly deps: ForgotPasswordDeps,
    readonly mode: PasswordMode,
  ) {
    makeAutoObservable<ForgotPasswordStore, 'deps'>(this, { deps: false, mode: false });
  }

  get title(): string {
    return this.mode === 'set' ? '设置密码' : this.mode === 'change' ? '修改密码' : '忘记密码';
  }

  setPhone(v: string): void {
    this.phone = v.replace(/\D/g, '').slice(0, PHONE_MAX_LENGTH);
    this.phoneError = null;
    this.serverError = null;
  }

  setCode(v: string): void {
    this.code = v.replace(/\s/g, '').slice(0, CODE_MAX_LENGTH);
    this.codeError = null;
    this.serverError = null;
  }

  setPassword(v: string): void {
    this.password = v.slice(0, PASSWORD_MAX_LENGTH);
    this.passwordError = null;
    this.serverError = null;
  }

  setConfirm(v: string): void {
    this.confirm = v.slice(0, PASSWORD_MAX_LENGTH);
    this.confirmError = null;
    this.serverError = null;
  }

  get sendLabel(): string {
    return this.deps.user.codeCountdown > 0 ? `${this.deps.user.codeCountdown}s后重新获取` : '获取验证码';
  }

  get canSend(): boolean {
    return this.deps.user.codeCountdown === 0 && !this.deps.user.sendingCode;
  }

  /** The code by SMS (the shared 60 s countdown). */
  async sendCode(): Promise<boolean> {
    this.serverError = null;
    try {
      return await this.deps.user.sendCode(
        this.phone,
        () => securityCheckOf(this.deps).ask(),
        (phone, check) => this.deps.api.post('/api/passport/passwordForget/sendcode', { phone, ...check }),
      );
    } catch (e) {
      runInAction(() => {
        if (e instanceof FieldError) this.phoneError = e.message;
        else this.serverError = errorMessage(e);
      });
      return false;
    }
  }

  /** '下一步': the phone and code buy the ticket. */
  async next(): Promise<boolean> {
    this.phoneError = validatePhone(this.phone);
    this.codeError = this.phoneError ? null : validateCode(this.code);
    this.serverError = null;
    if (this.phoneError || this.codeError || this.submitting) return false;
    this.submitting = true;
    try {
      const r = await this.deps.api.post('/api/password/forget/verify', { cellphone: this.phone.trim(), code: this.code.trim() });
      runInAction(() => {
        this.ticket = r.ticket;
        this.step = 2;
      });
      return true;
    } catch (e) {
      runInAction(() => (this.serverError = errorMessage(e)));
      return false;
    } finally {
      runInAction(() => (this.submitting = false));
    }
  }

  /** '完成': the new password with the ticket. */
  async finish(): Promise<boolean> {
    this.passwordError = validateNewPassword(this.password);
    this.confirmError = validateConfirmPassword(this.confirm, this.password);
    this.serverError = null;
    if (this.passwordError || this.confirmError || this.submitting) return false;
    this.submitting = true;
    try {
      const r = await this.deps.api.post('/api/password/forget/update', {
        cellphone: this.phone.trim(),
        password: encodePassword(this.password),
        ticket: this.ticket,
      });
      runInAction(() => (this.done = true));
      if (r.first) {
        this.deps.ui.success(PASSWORD_SET);
      } else {
        this.deps.ui.success(PASSWORD_CHANGED);
        // every login of the account ended: this tab forgets it, and the login opens
        if (this.deps.user.isLoggedIn) this.deps.user.clearLocal();
        this.deps.ui.openLogin();
      }
      return true;
    } catch (e) {
      runInAction(() => (this.serverError = errorMessage(e)));
      return false;
    } finally {
      runInAction(() => (this.submitting = false));
    }
  }
}

/**
 * The account page's password entry (§2.6 '立即前往' opens /user/detail?changePassword=1): which
 * ways into the account are set, and the password dialog in change mode, or set mode for an
 * account without a password.
 */
export class AccountSecurityStore {
  binding: BindingState | null = null;
  /** the password dialog shown, in this mode */
  mode: PasswordMode | null = null;

  constructor(private readonly deps: ForgotPasswordDeps) {
    makeAutoObservable<AccountSecurityStore, 'deps'>(this, { deps: false });
  }

  async load(): Promise<void> {
    try {
      const b = await this.deps.api.get('/api/v3/user/binding/state');
      runInAction(() => (this.binding = b));
    } catch {
      // a guest, or a failed read: the entry offers nothing until it answers
    }
  }

  get label(): string {
    return this.binding?.password ? '修改密码' : '设置密码';
  }

  open(): void {
    if (!this.binding) return;
    this.mode = this.binding.password ? 'change' : 'set';
  }

  close(): void {
    this.mode = null;
    void this.load();
  }
}
