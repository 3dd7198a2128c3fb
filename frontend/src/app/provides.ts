// The app's side of the stores' context (src/kernel/storeContext.tsx): the app's own hook, and the
// check that the root store provides what each feature's components declare they need (a
// feature's stores/context.ts). A feature asking for something the root store lacks, or of
// another type, fails here at compile time.
import { storesHook } from '../kernel/storeContext';
import type { RootStore } from '../stores/rootStore';
import type { ActivityStores } from '../features/activity/stores/context';
import type { AuthStores } from '../features/auth/stores/context';
import type { BackpackStores } from '../features/backpack/stores/context';
import type { BillStores } from '../features/bill/stores/context';
import type { CatalogueStores } from '../features/catalogue/stores/context';
import type { CouponStores } from '../features/coupon/stores/context';
import type { CouponGroupStores } from '../features/couponGroup/stores/context';
import type { ExclusiveStores } from '../features/exclusive/stores/context';
import type { GameStores } from '../features/game/stores/context';
import type { HelpStores } from '../features/help/stores/context';
import type { HomeStores } from '../features/home/stores/context';
import type { IdentityStores } from '../features/identity/stores/context';
import type { LayoutStores } from '../features/layout/stores/context';
import type { LiveStores } from '../features/live/stores/context';
import type { MemberStores } from '../features/member/stores/context';
import type { MessageStores } from '../features/message/stores/context';
import type { MissionStores } from '../features/mission/stores/context';
import type { PackageStores } from '../features/package/stores/context';
import type { PlaytimeStores } from '../features/playtime/stores/context';
import type { PurchaseStores } from '../features/purchase/stores/context';
import type { UserStores } from '../features/user/stores/context';

/** The app shell's hook: the whole root store. */
export const useStores = storesHook<RootStore>();

type Provides<T> = RootStore extends T ? true : never;

/** Compiles only when the root store provides every feature's interface. */
export type ProvidedToFeatures = {
  activity: Provides<ActivityStores>;
  auth: Provides<AuthStores>;
  backpack: Provides<BackpackStores>;
  bill: Provides<BillStores>;
  catalogue: Provides<CatalogueStores>;
  coupon: Provides<CouponStores>;
  couponGroup: Provides<CouponGroupStores>;
  exclusive: Provides<ExclusiveStores>;
  game: Provides<GameStores>;
  help: Provides<HelpStores>;
  home: Provides<HomeStores>;
  identity: Provides<IdentityStores>;
  layout: Provides<LayoutStores>;
  live: Provides<LiveStores>;
  member: Provides<MemberStores>;
  message: Provides<MessageStores>;
  mission: Provides<MissionStores>;
  package: Provides<PackageStores>;
  playtime: Provides<PlaytimeStores>;
  purchase: Provides<PurchaseStores>;
  user: Provides<UserStores>;
};

export const providedToFeatures: ProvidedToFeatures = {
  activity: true,
  auth: true,
  backpack: true,
  bill: true,
  catalogue: true,
  coupon: true,
  couponGroup: true,
  exclusive: true,
  game: true,
  help: true,
  home: true,
  identity: true,
  layout: true,
  live: true,
  member: true,
  message: true,
  mission: true,
  package: true,
  playtime: true,
  purchase: true,
  user: true,
};
