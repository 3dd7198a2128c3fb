// What the auth feature's components need from the app's root store (src/app/provides.ts checks
// that the root store provides it).
import { storesHook } from '../../../kernel/storeContext';
import type { AppServices } from '../../../kernel/services';
import type { UserStore } from './userStore';

export type AuthStores = Omit<AppServices, 'user'> & { readonly user: UserStore };

export const useStores = storesHook<AuthStores>();
