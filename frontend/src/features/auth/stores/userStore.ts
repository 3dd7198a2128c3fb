import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError, ErrorCode } from '../../../transport/apiError';
import { validateCode, validatePhone } from '../../../lib/validation';
import type { Forbidden, LoginResult } from '../../../api/types';
import type { AppServices, KnownProfile } from '../../../kernel/services';
import type { GiftGoods } from '../../../api/types';
import { forgetInviteCode, keptInviteCode } from '../../../lib/inviteCode';

/** What this store needs from the others (the root store provides it). */
export type UserStoreDeps = Pick<AppServices, 'api' | 'transport' | 'ui'> & {
  /** the new user's register gift (the playtime feature's dialog) */
  playTime: { showRegisterGift(goods: GiftGoods[] | null | undefined): Promise<void> };
  /** the root's reactions to a login and a logout (the socket, the game status, the room) */
  onLoggedIn(): void;
  onLoggedOut(): void;
};

export const RESEND_SECONDS = 60;

/** A client-side validation failure of one login field. */
export class FieldError extends Error {
  readonly field: 'phone' | 'code';

  constructor(field: 'phone' | 'code', message: string) {
    super(message);
    this.name = 'FieldError';
    this.field = field;
  }
}

/**
 * The result the security check's widget hands back, as a call that asked for it (20125 /
 * 20128) merges it in when it goes again (core-platform.md §4.13, §8.1).
 */
export interface CaptchaResult {
  geetest_challenge: string;
  geetest_validate: string;
  geetest_seccode: string;
}

/** A code send: the phone, and on a resend after 20125 the security check's result. */
export type CodeSender = (phone: string, check?: CaptchaResult) => Promise<unknown>;

export type { KnownProfile };

/** The signed-in user: profile, phone-code login, logout, and the SMS resend countdown. */
export class UserStore {
  profile: KnownProfile | null = null;
  /** the first profile read has answered (logged in or guest) */
  ready = false;
  /** seconds until another code may be requested; 0 = now */
  codeCountdown = 0;
  loggingIn = false;
  sendingCode = false;
  /** the login-success and new-user flags the system popup chain takes (commerce.md §4.7) */
  justLoggedIn: { uid: number; isNew: boolean } | null = null;
  private countdownTimer: ReturnType<typeof setInterval> | null = null;
  private readonly deps: UserStoreDeps;

  constructor(deps: UserStoreDeps) {
    this.deps = deps;
    makeAutoObservable<UserStore, 'deps' | 'countdownTimer'>(this, { deps: false, countdownTimer: false });
  }

  get isLoggedIn(): boolean {
    return this.profile !== null;
  }

  get displayName(): string {
    return this.profile?.nickname || this.profile?.display_name || '';
  }

  /** The start-up read: a 20119 simply means guest. */
  async init(): Promise<void> {
    const loggedIn = await this.loadProfile();
    runInAction(() => {
      this.ready = true;
    });
    if (loggedIn) this.deps.onLoggedIn();
  }

  /** Re-reads the profile; true when logged in. */
  async loadProfile(): Promise<boolean> {
    try {
      const profile = await this.deps.api.get('/api/user/profile');
      runInAction(() => {
        this.profile = profile;
      });
      return true;
    } catch (e) {
      if (e instanceof ApiError && (e.code === ErrorCode.NOT_LOGGED_IN || e.code === ErrorCode.SESSION_INVALID)) {
        runInAction(() => {
          this.profile = null;
        });
      }
      return false;
    }
  }

  /**
   * Sends the login code (or, with `send`, another call's code: the phone bind's, the forgot
   * password's); throws FieldError or ApiError. 20125 asks for the security check (`check`) and
   * the send goes again with its result merged in (core-platform.md §8.1); closed unsolved,
   * nothing is sent (false). Starts the 60 s resend countdown, which every code shares.
   */
  async sendCode(phone: string, check: () => Promise<CaptchaResult | null>, send?: CodeSender): Promise<boolean> {
    const problem = validatePhone(phone);
    if (problem) throw new FieldError('phone', problem);
    if (this.codeCountdown > 0 || this.sendingCode) return false;
    this.sendingCode = true;
    const post: CodeSender = send ?? ((p, result) => this.deps.api.post('/api/passport/login/sendcode', { phone: p, ...result }));
    try {
      try {
        await post(phone.trim());
      } catch (e) {
        if (!(e instanceof ApiError && e.code === ErrorCode.CAPTCHA_REQUIRED)) throw e;
        const result = await check();
        if (!result) return false;
        await post(phone.trim(), result);
      }
      this.startCountdown(RESEND_SECONDS);
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.code === ErrorCode.CODE_TOO_OFTEN) {
        const retry = Number((e.data as { retry_after?: unknown } | null)?.retry_after);
        if (Number.isFinite(retry) && retry > 0) this.startCountdown(Math.ceil(retry));
      }
      throw e;
    } finally {
      runInAction(() => {
        this.sendingCode = false;
      });
    }
  }

  startCountdown(seconds: number): void {
    this.stopCountdown();
    this.codeCountdown = seconds;
    this.countdownTimer = setInterval(() => this.tickCountdown(), 1000);
  }

  tickCountdown(): void {
    this.codeCountdown = Math.max(0, this.codeCountdown - 1);
    if (this.codeCountdown === 0) this.stopCountdown();
  }

  private stopCountdown(): void {
    if (this.countdownTimer) clearInterval(this.countdownTimer);
    this.countdownTimer = null;
  }

  /**
   * Phone-code login (core-platform.md §7.2). Throws FieldError or ApiError. On success the
   * profile is read again, the real-time channel opens and the dialog closes: no page reload.
   */
  async login(phone: string, code: string): Promise<LoginResult> {
    const phoneProblem = validatePhone(phone);
    if (phoneProblem) throw new FieldError('phone', phoneProblem);
    const codeProblem = validateCode(code);
    if (codeProblem) throw new FieldError('code', codeProblem);
    this.loggingIn = true;
    try {
      const result = await this.deps.api.post('/api/passport/login', {
        cellphone: phone.trim(),
        code: code.trim(),
        device_no: this.deps.transport.deviceId(),
        // a landing page's invite code; bound by the server only when this login registers
        ...(keptInviteCode() ? { invite_code: keptInviteCode() } : {}),
      });
      forgetInviteCode();
      return await this.completeLogin(result);
    } catch (e) {
      if (e instanceof ApiError && e.code === ErrorCode.ACCOUNT_FORBIDDEN) void this.showForbidden(e);
      throw e;
    } finally {
      runInAction(() => {
        this.loggingIn = false;
      });
    }
  }

  /**
   * What every login does once the server accepted it (phone code, app QR, third party): the
   * profile is read again, the registration gift opens as the login dialog closes, the real-time
   * channel opens, and what the login was asked for goes on (core-platform.md §4.13).
   */
  async completeLogin(result: LoginResult): Promise<LoginResult> {
    const ok = await this.loadProfile();
    runInAction(() => {
      // the profile read can fail on a flaky network: the login itself succeeded
      if (!ok && !this.profile) this.profile = { uid: result.uid, nickname: result.nickname };
      this.loggingIn = false;
    });
    // the registration gift opens as the login dialog closes (no frame without either)
    const { gift, next } = runInAction(() => {
      const next = this.deps.ui.takeAfterLogin();
      this.deps.ui.closeLogin();
      return { gift: this.deps.playTime.showRegisterGift(result?.give_goods), next };
    });
    this.deps.ui.success('登录成功');
    this.deps.onLoggedIn();
    // the caller continues once the gift dialog is closed (commerce.md §4.8), and so does what
    // the login was asked for, such as '开始游戏' (core-platform.md §4.13)
    await gift;
    next?.();
    runInAction(() => {
      this.justLoggedIn = { uid: result.uid, isNew: !!result.is_new_user };
    });
    return result;
  }

  /** The forbidden alert of a login refused with 20101 (core-platform.md §2.6, §8.1). */
  async showForbidden(e: ApiError): Promise<void> {
    const { forbiddenAlert } = await import('../../../lib/forbidden');
    const data = e.data as Forbidden | null;
    await this.deps.ui.alert(data?.template ? forbiddenAlert(data) : { title: '温馨提示', message: e.message, confirmText: '好的' });
  }

  /** Server logout; the caller (UserStoreDeps.logout) handles the confirm and the running game. */
  async logoutRemote(): Promise<void> {
    await this.deps.api.post('/api/user/logout', { r: Math.random() });
  }

  /** The popup chain took the login flags (commerce.md §4.7 step 1). */
  takeLoginFlags(): { uid: number; isNew: boolean } | null {
    const flags = this.justLoggedIn;
    this.justLoggedIn = null;
    return flags;
  }

  /** Forget the user in this tab (20119, KICK_OUT, logout). */
  clearLocal(): void {
    this.justLoggedIn = null;
    const was = this.profile !== null;
    this.profile = null;
    if (was) this.deps.onLoggedOut();
  }

  dispose(): void {
    this.stopCountdown();
  }
}
