// What every feature may count on from the app, whichever feature provides it: the server, the
// browser's effects, the interface state, the session, the purchase dialog and logout. Features
// declare what else they need (their stores/context.ts and each store's constructor) as small
// interfaces; the root store (src/stores/rootStore.ts) provides them all.
import type { Profile } from '../api/types';
import type { BrowserEffects } from '../lib/notify';
import type { PurchaseType } from '../lib/purchase';
import type { PurchasePayload } from '../lib/purchasePayload';
import type { Api, Transport } from '../transport/types';
import type { UiStore } from './uiStore';

/** The profile as far as it is known: after a login whose profile read failed, only uid and nickname. */
export type KnownProfile = Pick<Profile, 'uid' | 'nickname'> & Partial<Profile>;

/** The signed-in user as the other features see it (the auth feature's UserStore). */
export interface Session {
  readonly profile: KnownProfile | null;
  /** the first profile read has answered (logged in or guest) */
  readonly ready: boolean;
  readonly isLoggedIn: boolean;
  /** the name shown for the user ('' when none) */
  readonly displayName: string;
  /** re-reads the profile; false when the read failed */
  loadProfile(): Promise<boolean>;
}

/** Opens the purchase dialog of `type` (a guest gets the login dialog first). */
export type OpenPurchase = (type: PurchaseType, payload?: PurchasePayload) => void;

export interface AppServices {
  readonly transport: Transport;
  readonly api: Api;
  readonly effects: BrowserEffects;
  readonly ui: UiStore;
  readonly user: Session;
  openPurchase: OpenPurchase;
  logout(): Promise<void>;
}
