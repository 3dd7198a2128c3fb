// What a purchase dialog is opened with: the argument of every `openPurchase` (the purchase
// feature's store reads it; any page may pass it).
import type { Goods } from '../api/types';
import type { AdRef } from './adAction';
import type { MemberCategory } from './purchase';

/** What a dialog is opened with (commerce.md §4.1). */
export interface PurchasePayload {
  /** member: the category shown first; defaults to the user's (vvip when vvip, else vip) */
  category?: MemberCategory;
  /** member_special: show the 标准会员 / 高级会员 tabs */
  showTab?: boolean;
  /** yoodo_time_useup, subscription: the game */
  gameId?: number;
  /** detail mode: the product opened on */
  goods?: Goods;
  /** list mode: a section the type has none of (the daily and night packages, commerce.md §2.15) */
  section?: string;
  /** the section ad it is bought through (its order carries the ad's id, commerce.md §2.15) */
  ad?: AdRef;
}
