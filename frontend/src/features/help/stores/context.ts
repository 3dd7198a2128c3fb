// What the help feature's components need from the app's root store (src/app/provides.ts checks
// that the root store provides it).
import { storesHook } from '../../../kernel/storeContext';
import type { AppServices } from '../../../kernel/services';
import type { QueueRules } from '../../../api/types';

export type HelpStores = AppServices & {
  /** the queue's rules as the server runs them (the game feature's queue store) */
  readonly queue: { readonly rules: QueueRules | null; loadRules(): Promise<void> };
};

export const useStores = storesHook<HelpStores>();
