import { makeAutoObservable } from 'mobx';
import type { CaptchaRegister } from '../../../api/types';
import type { AppServices } from '../../../kernel/services';
import type { CaptchaResult } from './userStore';

/** What this store needs from the others (the root store provides it). */
export type SecurityCheckDeps = Pick<AppServices, 'api' | 'ui'>;

/** The warning when the security check is closed unsolved (core-platform.md §4.13). */
export const CAPTCHA_CLOSED_WARNING = '本次访问需要进行安全验证';

/** The message the challenge page posts to its parent (same origin only). */
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
 * The security check (core-platform.md §4.13, §8.1): what a password login (20125 / 20128) and
 * a code send (20125) ask for before they go again with its result merged in. One per root,
 * shown by the overlays' CaptchaDialog: `ask()` registers a challenge with the provider, shows
 * its widget (the sandbox's challenge page in dev mode) and resolves with the widget's result,
 * or with null when it is closed unsolved (with the warning).
 */
export class SecurityCheck {
  /** the check shown (its widget's parameters), or null */
  captcha: CaptchaRegister | null = null;
  private settle: ((result: CaptchaResult | null) => void) | null = null;
  private readonly onMessage = (e: MessageEvent) => {
    if (e.origin !== window.location.origin || !isCaptchaMessage(e.data)) return;
    if (!this.captcha || e.data.challenge !== this.captcha.challenge) return;
    this.solved({ geetest_challenge: e.data.challenge, geetest_validate: e.data.validate, geetest_seccode: e.data.seccode });
  };

  constructor(private readonly deps: SecurityCheckDeps) {
    makeAutoObservable<SecurityCheck, 'deps' | 'settle' | 'onMessage'>(this, { deps: false, settle: false, onMessage: false });
  }

  /**
   * Shows a new challenge; resolves with the widget's result, or null when closed unsolved.
   * Throws the provider's refusal (ApiError) when no challenge can be had. A check already
   * shown is replaced (its asker gets null).
   */
  async ask(): Promise<CaptchaResult | null> {
    const c = await this.deps.api.get('/api/passport/captcha/senseboot/register');
    this.finish(null);
    return new Promise((resolve) => this.show(c, resolve));
  }

  private show(c: CaptchaRegister, resolve: (result: CaptchaResult | null) => void): void {
    this.captcha = c;
    this.settle = resolve;
    window.addEventListener('message', this.onMessage);
  }

  /** The widget's result: the check closes and its asker goes on with it. */
  solved(result: CaptchaResult): void {
    this.finish(result);
  }

  /** Closed unsolved: the asker gets null, and the warning shows. */
  close(): void {
    if (!this.captcha) return;
    this.finish(null);
    this.deps.ui.warning(CAPTCHA_CLOSED_WARNING);
  }

  private finish(result: CaptchaResult | null): void {
    const settle = this.settle;
    this.captcha = null;
    this.settle = null;
    window.removeEventListener('message', this.onMessage);
    settle?.(result);
  }
}

const checks = new WeakMap<SecurityCheckDeps, SecurityCheck>();

/** The root's one security check. */
export function securityCheckOf(root: SecurityCheckDeps): SecurityCheck {
  let check = checks.get(root);
  if (!check) {
    check = new SecurityCheck(root);
    checks.set(root, check);
  }
  return check;
}
