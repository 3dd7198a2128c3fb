// What the home feature's components need from the app's root store (src/app/provides.ts checks
// that the root store provides it).
import { storesHook } from '../../../kernel/storeContext';
import type { AppServices } from '../../../kernel/services';
import type { CatalogueStore } from '../../catalogue/stores/catalogueStore';

export type HomeStores = AppServices & { readonly catalogue: CatalogueStore };

export const useStores = storesHook<HomeStores>();
