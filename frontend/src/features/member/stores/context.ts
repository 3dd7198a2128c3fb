// What the member feature's components need from the app's root store (src/app/provides.ts checks
// that the root store provides it).
import { storesHook } from '../../../kernel/storeContext';
import type { AppServices, Session } from '../../../kernel/services';

type LoginFlags = { uid: number; isNew: boolean };

export type MemberStores = Omit<AppServices, 'user'> & {
  /** the login-success and new-user flags the popup chain takes (the auth feature's user store) */
  readonly user: Session & {
    readonly justLoggedIn: LoginFlags | null;
    takeLoginFlags(): LoginFlags | null;
  };
  /** the purchase dialog, once loaded: the popup chain waits while it is open */
  readonly purchase: { readonly isOpen: boolean } | null;
};

export const useStores = storesHook<MemberStores>();
