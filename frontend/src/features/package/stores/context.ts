// What the package feature's components need from the app's root store (src/app/provides.ts checks
// that the root store provides it).
import { storesHook } from '../../../kernel/storeContext';
import type { AppServices } from '../../../kernel/services';

export type PackageStores = AppServices;

export const useStores = storesHook<PackageStores>();
