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

/** Compiles only when `RootStore` provides `T` (it is assignable to it). */
type Provides<T> = RootStore extends T ? true : false;
type Check<T extends true> = T;

/** The root store provides every feature's interface: a type-only check, nothing at run time. */
export type ProvidedToFeatures = [
  Check<Provides<ActivityStores>>,
  Check<Provides<AuthStores>>,
  Check<Provides<BackpackStores>>,
  Check<Provides<BillStores>>,
  Check<Provides<CatalogueStores>>,
  Check<Provides<CouponStores>>,
  Check<Provides<CouponGroupStores>>,
  Check<Provides<ExclusiveStores>>,
  Check<Provides<GameStores>>,
  Check<Provides<HelpStores>>,
  Check<Provides<HomeStores>>,
  Check<Provides<IdentityStores>>,
  Check<Provides<LayoutStores>>,
  Check<Provides<LiveStores>>,
  Check<Provides<MemberStores>>,
  Check<Provides<MessageStores>>,
  Check<Provides<MissionStores>>,
  Check<Provides<PackageStores>>,
  Check<Provides<PlaytimeStores>>,
  Check<Provides<PurchaseStores>>,
  Check<Provides<UserStores>>,
];
