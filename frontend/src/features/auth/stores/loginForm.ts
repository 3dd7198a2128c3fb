import { makeAutoObservable, runInAction } from 'mobx';
import { CODE_MAX_LENGTH, PHONE_MAX_LENGTH } from '../../../lib/validation';
import { errorMessage } from '../../../transport/apiError';
import { FieldError, type UserStore } from './userStore';
import type { SecurityCheck } from './securityCheck';

/** The phone-code login form: field values, the message under each field, the server message. */
export class LoginForm {
  phone = '';
  code = '';
  phoneError: string | null = null;
  codeError: string | null = null;
  /** the server's message for a failed send or login */
  serverError: string | null = null;
  private readonly user: UserStore;
  /** what a send that hears 20125 asks (core-platform.md §8.1) */
  private readonly check: SecurityCheck;

  constructor(user: UserStore, check: SecurityCheck) {
    this.user = user;
    this.check = check;
    makeAutoObservable<LoginForm, 'user' | 'check'>(this, { user: false, check: false });
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

  /** '获取验证码', or 'Ns后重新获取' during the 60 s countdown. */
  get sendLabel(): string {
    return this.user.codeCountdown > 0 ? `${this.user.codeCountdown}s后重新获取` : '获取验证码';
  }

  get canSend(): boolean {
    return this.user.codeCountdown === 0 && !this.user.sendingCode;
  }

  get submitting(): boolean {
    return this.user.loggingIn;
  }

  private fail(e: unknown): void {
    if (e instanceof FieldError) {
      if (e.field === 'phone') this.phoneError = e.message;
      else this.codeError = e.message;
    } else {
      this.serverError = errorMessage(e);
    }
  }

  async sendCode(): Promise<boolean> {
    this.serverError = null;
    try {
      return await this.user.sendCode(this.phone, () => this.check.ask());
    } catch (e) {
      runInAction(() => this.fail(e));
      return false;
    }
  }

  async submit(): Promise<boolean> {
    this.serverError = null;
    this.phoneError = null;
    this.codeError = null;
    try {
      await this.user.login(this.phone, this.code);
      return true;
    } catch (e) {
      runInAction(() => this.fail(e));
      return false;
    }
  }
}
