// What the playtime feature's components need from the app's root store (src/app/provides.ts checks
// that the root store provides it).
import { storesHook } from '../../../kernel/storeContext';
import type { AppServices } from '../../../kernel/services';
import type { PlayTimeStore } from './playTimeStore';

export type PlaytimeStores = AppServices & { readonly playTime: PlayTimeStore };

export const useStores = storesHook<PlaytimeStores>();
