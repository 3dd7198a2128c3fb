import { makeAutoObservable, runInAction } from 'mobx';
import type { UcLogin } from '../../../api/types';
import { isInCar } from '../../../lib/browserCheck';
import { openOutside } from '../../../lib/carMode';
import { errorMessage } from '../../../transport/apiError';
import type { AppServices } from '../../../kernel/services';

/** What this store needs from the others (the root store provides it). */
export type AccountCentreDeps = Pick<AppServices, 'api' | 'ui' | 'user'>;

/** The account centre's pages (core-platform.md §2.6, §7.2): HOME, INFO or AVATAR. */
export type UcTarget = UcLogin['target'];

/** What the store needs of the window the account centre opens in. */
export interface UcWindow {
  location: { href: string };
  close(): void;
  opener: unknown;
  readonly closed: boolean;
}

/** How often the account centre's window is looked at, and for how long at most. */
const WATCH_EVERY_MS = 1000;
const WATCH_AT_MOST_MS = 30 * 60_000;

/** Opens a blank window in the click (null when the browser blocked it). */
function openBlank(): UcWindow | null {
  return window.open('', '_blank');
}

/**
 * The external account centre (core-platform.md §2.6, §7.2, §8.1): a window opened in the click
 * (a window opened after an answer would be blocked as a popup), `uc/login` for the signed agent
 * login, then that window goes to the agent-login address; on error the window is closed and
 * the server's message shown. In a car the car action dialog shows the address instead (§4.14).
 * Back from the account centre the user is re-read (the server also pushes USER_INFO).
 */
export class AccountCentreStore {
  /** the page being opened (the entries wait for it) */
  opening: UcTarget | null = null;

  constructor(
    private readonly deps: AccountCentreDeps,
    private readonly openWindow: () => UcWindow | null = openBlank,
    private readonly userAgent: () => string = () => navigator.userAgent,
  ) {
    makeAutoObservable<AccountCentreStore, 'deps' | 'openWindow' | 'userAgent'>(this, { deps: false, openWindow: false, userAgent: false });
  }

  /** Opens the account centre at `target` (AVATAR by default); a guest gets the login dialog. */
  async open(target: UcTarget = 'AVATAR'): Promise<void> {
    const root = this.deps;
    if (!root.user.isLoggedIn) {
      root.ui.openLogin(() => void this.open(target));
      return;
    }
    if (this.opening !== null) return;
    const car = isInCar(this.userAgent());
    const win = car ? null : this.openWindow();
    if (win) win.opener = null;
    this.opening = target;
    try {
      const login = await root.api.post('/api/user/v1/uc/login', { redirect_url: returnPath(), target });
      if (car) openOutside(root.ui, login.url, '账号中心', this.userAgent());
      else if (win) win.location.href = login.url;
      else window.location.assign(login.url);
      this.rereadOnReturn(win);
    } catch (e) {
      win?.close();
      root.ui.error(errorMessage(e));
    } finally {
      runInAction(() => {
        this.opening = null;
      });
    }
  }

  /**
   * Re-reads the user once when this page has the focus again or the account centre's window
   * closes, whichever comes first (back from the account centre: a push missed while the socket
   * was away, or a browser that gives no focus event, still ends with the change shown).
   */
  private rereadOnReturn(win: UcWindow | null): void {
    if (typeof window === 'undefined') return;
    let done = false;
    const started = Date.now();
    const reread = () => {
      if (done) return;
      done = true;
      window.removeEventListener('focus', reread);
      clearInterval(watch);
      void this.deps.user.loadProfile();
    };
    window.addEventListener('focus', reread);
    const watch = setInterval(() => {
      if (win?.closed) reread();
      else if (!win || Date.now() - started > WATCH_AT_MOST_MS) {
        clearInterval(watch);
      }
    }, WATCH_EVERY_MS);
  }
}

/** The page the account centre leads back to: this one (a path of the site). */
function returnPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}

const stores = new WeakMap<AccountCentreDeps, AccountCentreStore>();

/** The one account-centre store of a root store. */
export function accountCentreOf(root: AccountCentreDeps): AccountCentreStore {
  let s = stores.get(root);
  if (!s) {
    s = new AccountCentreStore(root);
    stores.set(root, s);
  }
  return s;
}
