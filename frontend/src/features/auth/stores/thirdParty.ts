import { makeAutoObservable, runInAction } from 'mobx';
import { CODE_MAX_LENGTH, PHONE_MAX_LENGTH, validateCode, validatePhone } from '../../../lib/validation';
import { ApiError, errorMessage } from '../../../transport/apiError';
import type { AppServices } from '../../../kernel/services';
import type { UserStore } from './userStore';
import { securityCheckOf } from './securityCheck';

/** What this store needs from the others (the root store provides it). */
export type ThirdPartyDeps = Pick<AppServices, 'api' | 'transport' | 'ui'> & { user: Pick<UserStore, 'completeLogin' | 'sendCode' | 'showForbidden'> };

/** core-platform.md §7.2: the messaging app (WeChat) and the second provider (QQ). */
export const OpenType = { WECHAT: 3, QQ: 1 } as const;
export type OpenType = (typeof OpenType)[keyof typeof OpenType];

/** The message the provider's callback page posts to the dialog (same origin only). */
interface OAuthMessage {
  type: 'yoo-oauth';
  token: string;
}

function isOAuthMessage(data: unknown): data is OAuthMessage {
  return typeof data === 'object' && data !== null && (data as OAuthMessage).type === 'yoo-oauth' && typeof (data as OAuthMessage).token === 'string';
}

/** 20108 on a token login: the identity is bound to no account (§4.13, §8.1). */
const PHONE_BIND_REQUIRED = 20108;

/**
 * Third-party login (§2.3, §2.4, §4.13): the provider's authorize page (framed for the messaging
 * app, in the wide dialog for the second provider); its callback's token logs in, or opens the
 * phone bind, whose phone and code log in and bind.
 */
export class ThirdPartyStore {
  /** the authorize page shown, by provider */
  url: string | null = null;
  openType: OpenType | null = null;
  /** the provider of the token being bound (the last one opened) */
  lastOpenType: OpenType = OpenType.WECHAT;
  /** the token waiting for a phone bind (the bind dialog is open) */
  bindToken: string | null = null;
  phone = '';
  code = '';
  error: string | null = null;
  submitting = false;
  private readonly onMessage = (e: MessageEvent) => {
    if (e.origin !== window.location.origin || !isOAuthMessage(e.data)) return;
    void this.tokenLogin(e.data.token);
  };

  constructor(private readonly deps: ThirdPartyDeps) {
    makeAutoObservable<ThirdPartyStore, 'deps' | 'onMessage'>(this, { deps: false, onMessage: false });
  }

  /** Hears the provider's callback page; returns the unsubscribe. */
  listen(): () => void {
    window.addEventListener('message', this.onMessage);
    return () => window.removeEventListener('message', this.onMessage);
  }

  /** Shows the provider's authorize page. */
  async open(openType: OpenType): Promise<void> {
    this.openType = openType;
    this.lastOpenType = openType;
    this.url = null;
    this.error = null;
    try {
      const r = await this.deps.api.get('/api/passport/authorize/url', { open_type: openType });
      runInAction(() => {
        if (this.openType === openType) this.url = r.url;
      });
    } catch (e) {
      runInAction(() => (this.error = errorMessage(e)));
    }
  }

  close(): void {
    this.openType = null;
    this.url = null;
  }

  async tokenLogin(token: string): Promise<void> {
    try {
      const result = await this.deps.api.post('/api/auth/authorize/token/login', { token, device_no: this.deps.transport.deviceId() });
      this.close();
      await this.deps.user.completeLogin(result);
    } catch (e) {
      runInAction(() => {
        if (e instanceof ApiError && e.code === PHONE_BIND_REQUIRED) {
          this.bindToken = token;
          this.close();
        } else if (e instanceof ApiError && e.code === 20101) {
          void this.deps.user.showForbidden(e);
        } else {
          this.deps.ui.error(errorMessage(e));
        }
      });
    }
  }

  setPhone(v: string): void {
    this.phone = v.replace(/\D/g, '').slice(0, PHONE_MAX_LENGTH);
    this.error = null;
  }

  setCode(v: string): void {
    this.code = v.replace(/\s/g, '').slice(0, CODE_MAX_LENGTH);
    this.error = null;
  }

  async sendBindCode(): Promise<void> {
    const token = this.bindToken;
    if (!token) return;
    try {
      await this.deps.user.sendCode(
        this.phone,
        () => securityCheckOf(this.deps).ask(),
        (phone, check) => this.deps.api.post('/api/passport/authorize/bind-phone/sendcode', { phone, token, open_type: this.lastOpenType, ...check }),
      );
    } catch (e) {
      runInAction(() => (this.error = errorMessage(e)));
    }
  }

  /** '完成': binds the phone and logs in. */
  async bindLogin(): Promise<void> {
    const token = this.bindToken;
    if (!token || this.submitting) return;
    const problem = validatePhone(this.phone) ?? validateCode(this.code);
    if (problem) {
      this.error = problem;
      return;
    }
    this.submitting = true;
    try {
      const result = await this.deps.api.post('/api/passport/authorize/token/bind-phone/login', {
        token,
        cellphone: this.phone,
        code: this.code,
        device_no: this.deps.transport.deviceId(),
      });
      runInAction(() => (this.bindToken = null));
      await this.deps.user.completeLogin(result);
    } catch (e) {
      runInAction(() => (this.error = errorMessage(e)));
    } finally {
      runInAction(() => (this.submitting = false));
    }
  }

  /** The bind dialog closed without binding: the login failed (§2.4). */
  cancelBind(): void {
    this.bindToken = null;
    this.deps.ui.warning('已取消手机绑定，登录失败');
    this.deps.ui.closeLogin();
  }
}
