// What the mission feature's components need from the app's root store (src/app/provides.ts checks
// that the root store provides it).
import { storesHook } from '../../../kernel/storeContext';
import type { AppServices } from '../../../kernel/services';
import type { MissionDeps } from './missionStore';

export type MissionStores = AppServices & MissionDeps;

export const useStores = storesHook<MissionStores>();
