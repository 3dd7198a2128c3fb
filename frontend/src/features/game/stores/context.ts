// What the game feature's components need from the app's root store (src/app/provides.ts checks
// that the root store provides it).
import { storesHook } from '../../../kernel/storeContext';
import type { AppServices } from '../../../kernel/services';
import type { CatalogueStore } from '../../catalogue/stores/catalogueStore';
import type { GameStore } from './gameStore';
import type { GameRoomView } from './gameTypes';
import type { NoticeStore } from './noticeStore';
import type { QueueStore } from './queueStore';

export type GameStores = AppServices & {
  readonly game: GameStore;
  readonly queue: QueueStore;
  readonly notice: NoticeStore;
  readonly catalogue: Pick<CatalogueStore, 'detail' | 'loadDetail'>;
  /** the room, once loaded: the float's 'live' label, the ready dialog's text in a room */
  readonly room: (GameRoomView & { readonly hostsRelay: boolean }) | null;
};

export const useStores = storesHook<GameStores>();
