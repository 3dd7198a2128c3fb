// What the live feature's components need from the app's root store (src/app/provides.ts checks
// that the root store provides it).
import { storesHook } from '../../../kernel/storeContext';
import type { AppServices } from '../../../kernel/services';
import type { LiveStoreDeps } from './liveStore';
import type { RoomStore } from './roomStore';

export type LiveStores = AppServices &
  LiveStoreDeps & {
    /** the room store once loaded (its code is loaded on first need) */
    readonly room: RoomStore | null;
    loadRoom(): Promise<RoomStore>;
  };

export const useStores = storesHook<LiveStores>();
