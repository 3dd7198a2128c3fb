// What the purchase feature's components need from the app's root store (src/app/provides.ts checks
// that the root store provides it).
import { storesHook } from '../../../kernel/storeContext';
import type { AppServices } from '../../../kernel/services';
import type { PurchaseStore } from './purchaseStore';

export type PurchaseStores = AppServices & { readonly purchase: PurchaseStore | null };

export const useStores = storesHook<PurchaseStores>();
