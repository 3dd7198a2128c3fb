// What the help feature's components need from the app's root store (src/app/provides.ts checks
// that the root store provides it).
import { storesHook } from '../../../kernel/storeContext';
import type { AppServices } from '../../../kernel/services';
import type { QueueStore } from '../../game/stores/queueStore';

export type HelpStores = AppServices & { readonly queue: Pick<QueueStore, 'rules' | 'loadRules'> };

export const useStores = storesHook<HelpStores>();
