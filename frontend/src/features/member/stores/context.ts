// What the member feature's components need from the app's root store (src/app/provides.ts checks
// that the root store provides it).
import { storesHook } from '../../../kernel/storeContext';
import type { AppServices } from '../../../kernel/services';
import type { Session } from '../../../kernel/services';
import type { UserStore } from '../../auth/stores/userStore';

export type MemberStores = Omit<AppServices, 'user'> & {
  readonly user: Session & Pick<UserStore, 'justLoggedIn' | 'takeLoginFlags'>;
  /** the purchase dialog, once loaded: the popup chain waits while it is open */
  readonly purchase: { readonly isOpen: boolean } | null;
};

export const useStores = storesHook<MemberStores>();
