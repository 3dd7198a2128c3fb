// What the catalogue feature's components need from the app's root store (src/app/provides.ts checks
// that the root store provides it).
import { storesHook } from '../../../kernel/storeContext';
import type { AppServices } from '../../../kernel/services';
import type { CatalogueStore } from './catalogueStore';

export type CatalogueStores = AppServices & {
  readonly catalogue: CatalogueStore;
  /** the detail page's start button (the game feature's start flow) */
  readonly game: { readonly starting: boolean; readonly loadingNodes: boolean; requestStart(game: { id: number; name: string }): Promise<void> };
};

export const useStores = storesHook<CatalogueStores>();
