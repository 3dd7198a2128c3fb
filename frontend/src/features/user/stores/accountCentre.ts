import { makeAutoObservable, runInAction } from 'mobx';
import type { UcLogin } from '../../../api/types';
import { isInCar } from '../../../lib/browserCheck';
import { openOutside } from '../../../lib/carMode';
import { errorMessage } from '../../../transport/apiError';
import type { RootStore } from '../../../stores/rootStore';

/** The account centre's pages (core-platform.md §2.6, §7.2): HOME, INFO or AVATAR. */
export type UcTarget = UcLogin['target'];

/** What the store needs of the window the account centre opens in. */
export interface UcWindow {
  location: { href: string };
  close(): void;
  opener: unknown;
}

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
    private readonly root: RootStore,
    private readonly openWindow: () => UcWindow | null = openBlank,
    private readonly userAgent: () => string = () => navigator.userAgent,
  ) {
    makeAutoObservable<AccountCentreStore, 'root' | 'openWindow' | 'userAgent'>(this, { root: false, openWindow: false, userAgent: false });
  }

  /** Opens the account centre at `target` (AVATAR by default); a guest gets the login dialog. */
  async open(target: UcTarget = 'AVATAR'): Promise<void> {
    const { root } = this;
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
      this.rereadOnReturn();
    } catch (e) {
      win?.close();
      root.ui.error(errorMessage(e));
    } finally {
      runInAction(() => {
        this.opening = null;
      });
    }
  }

  /** Re-reads the user when this page has the focus again (back from the account centre). */
  private rereadOnReturn(): void {
    if (typeof window === 'undefined') return;
    window.addEventListener('focus', () => void this.root.user.loadProfile(), { once: true });
  }
}

/** The page the account centre leads back to: this one (a path of the site). */
function returnPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}

const stores = new WeakMap<RootStore, AccountCentreStore>();

/** The one account-centre store of a root store. */
export function accountCentreOf(root: RootStore): AccountCentreStore {
  let s = stores.get(root);
  if (!s) {
    s = new AccountCentreStore(root);
    stores.set(root, s);
  }
  return s;
}
