// Product types of commerce.md §9 (values of the contract), apart from the purchase dialog's
// rules so that the queue's retention reads them without the dialog's code.

/** Product types of commerce.md §9 the client distinguishes. */
export const ProductType = {
  TIME: 2,
  QUEUE: 3,
  VIP: 4,
  VVIP: 5,
  SUBSCRIPTION: 6,
  GIFT_1: 10,
  GIFT_2: 11,
  YOODO: 12,
  VIP_NEW: 14,
  VVIP_NEW: 15,
  VIP_UPGRADE: 21,
  NIGHT_PACKAGE: 22,
  DAILY_PACKAGE: 27,
} as const;

/** The VVIP product types (commerce.md §9). */
export const isVvipProduct = (t: number): boolean => t === ProductType.VVIP || t === ProductType.VVIP_NEW;
/** The member product types (commerce.md §9). */
export const isMemberProduct = (t: number): boolean =>
  t === ProductType.VIP || t === ProductType.VIP_NEW || isVvipProduct(t);

