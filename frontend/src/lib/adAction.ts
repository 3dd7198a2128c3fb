// Ad-click actions that open purchases (commerce.md §2.15): an ad or a page URL carries
// target_type and target_value; this turns them into what to open. Pure: the runner
// (features/activity/AdActionRunner) carries the action out.
import { sectionKey, type MemberCategory, type PurchaseType } from './purchase';

/** What an ad or URL asks for. */
export type AdAction =
  | { kind: 'purchase'; type: PurchaseType; category?: MemberCategory }
  /** the purchase list of a section the dialog has no type of (daily and night packages) */
  | { kind: 'section'; section: string }
  | { kind: 'goodsCode'; goodsCode: string }
  | { kind: 'dialog'; dialog: 'message' | 'liveDetail' };

/**
 * The section ad a purchase is made through (commerce.md §2.15): the order carries its id, and
 * the ad hears when its pay times ran out (70109) or an order was made through it (which counts
 * against them, paid or payable).
 */
export interface AdRef {
  id: number;
  outOfPayTimes(): void;
  ordered(): void;
}

/** An action and whether it asks for a login first (need_login). */
export interface AdRequest {
  action: AdAction;
  needLogin: boolean;
  /** the ad clicked, when the action buys a goods through it */
  ad?: AdRef;
}

/** The code of a section ad's purchase beyond its pay times (commerce.md §8). */
export const AD_OUT_OF_PAY_TIMES = 70109;

/** The delay before a URL's action runs (commerce.md §9 "URL action delay"). */
export const URL_ACTION_DELAY_MS = 1000;

/** Target types of §2.15. */
export const TargetType = {
  ACTION: 3,
  JSON: 4,
  GOODS_CODE: 5,
} as const;

/** The packages the purchase dialog lists by section (commerce.md §2.1's deep link). */
const PACKAGE_SECTIONS: Record<string, string> = {
  buyDailyPackage: 'shop_card_day',
  buyNightPackage: 'shop_card_night',
};

/** Section keys ads use that differ from the shop's own. */
const SECTION_ALIASES: Record<string, string> = { shop_hvip: 'shop_vvip' };

/** The purchase types and member categories the dialog opens, whose sections ads can name. */
const SECTION_TYPES: ReadonlyArray<[PurchaseType, MemberCategory]> = [
  ['coin', 'vip'],
  ['yoodo', 'vip'],
  ['time', 'vip'],
  ['queue', 'vip'],
  ['member', 'vip'],
  ['member', 'vvip'],
];

/**
 * The purchase a section key opens: the inverse of the dialog's own type → section mapping
 * (`sectionKey`), so that the two cannot disagree; the package sections open their list.
 */
export function purchaseOfSection(key: string): AdAction | null {
  const k = SECTION_ALIASES[key] ?? key;
  for (const [type, category] of SECTION_TYPES) {
    if (sectionKey(type, category) === k) {
      return type === 'member' ? { kind: 'purchase', type, category } : { kind: 'purchase', type };
    }
  }
  if (Object.values(PACKAGE_SECTIONS).includes(k)) return { kind: 'section', section: k };
  return null;
}

function actionByName(name: string): AdAction | null {
  switch (name) {
    case 'buyCoin':
      return { kind: 'purchase', type: 'coin' };
    case 'buyMember':
      return { kind: 'purchase', type: 'member' };
    case 'buyDailyPackage':
    case 'buyNightPackage':
      return { kind: 'section', section: PACKAGE_SECTIONS[name] };
    case 'openMessageDialog':
      return { kind: 'dialog', dialog: 'message' };
    case 'liveDetailDialog':
      return { kind: 'dialog', dialog: 'liveDetail' };
    default:
      return null;
  }
}

/** The section key of a type-4 JSON value `{type: 'goods', ...}` (its key under any usual name). */
function sectionOfJson(value: string): string | null {
  let v: unknown;
  try {
    v = JSON.parse(value);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (o.type !== 'goods') return null;
  for (const field of ['section_key', 'sectionKey', 'key', 'value']) {
    if (typeof o[field] === 'string' && o[field]) return o[field];
  }
  return null;
}

const truthy = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 'true';

/**
 * The action of (target_type, target_value) (commerce.md §2.15): 3 an action name, 4 a JSON
 * value of type goods naming a section, 5 a goods code. Anything else, or a value it does not
 * know, is null (nothing happens).
 */
export function parseAdAction(targetType: unknown, targetValue: unknown, needLogin: unknown = false): AdRequest | null {
  const type = Number(targetType);
  const value = typeof targetValue === 'string' ? targetValue.trim() : '';
  if (!value) return null;
  let action: AdAction | null = null;
  if (type === TargetType.ACTION) action = actionByName(value);
  else if (type === TargetType.JSON) {
    const key = sectionOfJson(value);
    action = key ? purchaseOfSection(key) : null;
  } else if (type === TargetType.GOODS_CODE) action = /^[\w.-]{1,64}$/.test(value) ? { kind: 'goodsCode', goodsCode: value } : null;
  return action ? { action, needLogin: truthy(needLogin) } : null;
}

/** The action a page URL's query carries (target_type, target_value, need_login). */
export function adActionOfSearch(search: string): AdRequest | null {
  const q = new URLSearchParams(search);
  if (!q.has('target_type')) return null;
  return parseAdAction(q.get('target_type'), q.get('target_value'), q.get('need_login'));
}

/** Whether an ad's item may be clicked (type-4 items are not, §2.15). */
export const isClickableAd = (targetType: unknown): boolean => Number(targetType) !== TargetType.JSON;

/** The query without the action's parameters (so a reload does not run it again). */
export function searchWithoutAction(search: string): string {
  const q = new URLSearchParams(search);
  for (const k of ['target_type', 'target_value', 'need_login']) q.delete(k);
  const s = q.toString();
  return s ? `?${s}` : '';
}
