// The system popup chain after a login (commerce.md §2.8, §4.7): the member expiry popup, then
// the card notices (near-expiry coupons, else the newest gifts), at most once per calendar day
// per user. The rules are plain functions; PopupChainStore runs them against the server.
import { makeAutoObservable, runInAction } from 'mobx';
import type { CardNotice, MemberExpire, MemberInfoView, NoticeItem } from '../../api/types';
import { memberName } from '../../lib/member';
import { beijingDayEnd, formatDate } from '../../lib/time';
import type { Api } from '../../transport/types';

export type { CardNotice, MemberExpire, NoticeItem };

/** commerce.md §9 "System popup delay". */
export const POPUP_DELAY_MS = 1000;
/** expireType of a membership that ends soon, and of one that has ended (§4.7). */
export const EXPIRE_NEAR = 4;
export const EXPIRE_LAPSED = 8;
/** The four privileges the popup lists (§2.8). */
export const EXPIRY_PRIVILEGES = ['专属时长', '会员通道', '专属挂机', '个性装扮'] as const;
/** Where the chain records the day it last ran for each user. */
export const CHAIN_KEY = 'yoo_popup_chain';

const DAY_MS = 24 * 3600 * 1000;
const MEMBERSHIPS = ['vip', 'vvip', 'hvip', 'tyvip', 'tyschvip'];

/** Near-expiry days (§4.7): floor(|end of the expiry day − now| in days). */
export const nearDays = (expiredAt: number, now: number): number => Math.floor(Math.abs(beijingDayEnd(expiredAt) - now) / DAY_MS);
/** Expired days (§4.7): ceil(|end of the expiry day − now| in days). */
export const lapsedDays = (expiredAt: number, now: number): number => Math.ceil(Math.abs(beijingDayEnd(expiredAt) - now) / DAY_MS);

/** The member expiry popup to show. */
export interface ExpiryPopup {
  expireType: number;
  days: number;
  title: string;
  message: string;
  privilegeHint: string;
  /** the membership the button renews */
  category: 'vip' | 'vvip';
}

/** The member_expire config (a JSON string of a list); a malformed one shows no popup. */
export function parseExpireConfig(raw: string | undefined): MemberExpire[] {
  try {
    const list: unknown = JSON.parse(raw ?? '[]');
    return Array.isArray(list) ? (list as MemberExpire[]).filter((c) => Array.isArray(c?.dayStep)) : [];
  } catch {
    return [];
  }
}

const categoryOf = (type: string): 'vip' | 'vvip' => (type === 'vvip' || type === 'hvip' || type === 'tyvip' ? 'vvip' : 'vip');

/**
 * Which expiry popup applies (§4.7): type 4 when the membership in use ends in a day count of
 * its dayStep and was not joined today; type 8 when none is in use and the latest lapsed one
 * ended a day count of its dayStep ago. Null when none does.
 */
export function expiryPopup(view: MemberInfoView, configs: MemberExpire[], now: number): ExpiryPopup | null {
  const info = view.member_info;
  const config = (t: number) => configs.find((c) => c.expireType === t);
  const using = info.using ? info.items.find((i) => i.type === info.using) : undefined;
  if (using) {
    const c = config(EXPIRE_NEAR);
    const days = nearDays(using.expired_at, now);
    const joinedToday = info.join_at != null && formatDate(info.join_at) === formatDate(now);
    if (!c || !c.dayStep.includes(days) || joinedToday) return null;
    const name = memberName(using.type);
    return {
      expireType: EXPIRE_NEAR,
      days,
      title: days <= 0 ? `你的${name}即将到期` : `你的${name}还剩${days}天`,
      message: c.message,
      privilegeHint: c.privilegeHint,
      category: categoryOf(using.type),
    };
  }
  const lapsed = view.previous_info.find((p) => MEMBERSHIPS.includes(p.type));
  const c = config(EXPIRE_LAPSED);
  if (!lapsed || !c) return null;
  const days = lapsedDays(lapsed.expired_at, now);
  if (!c.dayStep.includes(days)) return null;
  return {
    expireType: EXPIRE_LAPSED,
    days,
    title: `你的${memberName(lapsed.type)}已过期${days}天`,
    message: c.message,
    privilegeHint: c.privilegeHint,
    category: categoryOf(lapsed.type),
  };
}

/** The card notice to show (§2.8): near-expiry coupons first, else the newest gifts. */
export type CardPopup = { kind: 'coupons'; count: number } | { kind: 'gifts'; items: NoticeItem[] };

export function cardPopup(notice: CardNotice): CardPopup | null {
  const coupons = notice.near_exp_list.filter((i) => i.card_type === 3).length;
  if (coupons > 0) return { kind: 'coupons', count: coupons };
  if (notice.newest_list.length > 0) return { kind: 'gifts', items: notice.newest_list };
  return null;
}

type DayStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** The Beijing day the chain last ran for `uid`, per the record. */
function lastRun(storage: DayStorage | null, uid: number): string | undefined {
  try {
    const record = JSON.parse(storage?.getItem(CHAIN_KEY) ?? '{}') as Record<string, string>;
    return record[String(uid)];
  } catch {
    return undefined;
  }
}

/** Records that the chain ran for `uid` on `day`; true when it had not yet run that day. */
export function claimDay(storage: DayStorage | null, uid: number, day: string): boolean {
  if (lastRun(storage, uid) === day) return false;
  let record: Record<string, string> = {};
  try {
    record = JSON.parse(storage?.getItem(CHAIN_KEY) ?? '{}') as Record<string, string>;
  } catch {
    // a damaged record is replaced
  }
  record[String(uid)] = day;
  try {
    storage?.setItem(CHAIN_KEY, JSON.stringify(record));
  } catch {
    // private mode: the chain may run again
  }
  return true;
}

/** What the chain needs besides the API. */
export interface ChainDeps {
  storage: DayStorage | null;
  /** the time now (ms): the calendar day the record keeps */
  now: () => number;
}

/** The popup chain of one tab: which popup is up, and the steps between them. */
export class PopupChainStore {
  expiry: ExpiryPopup | null = null;
  cards: CardPopup | null = null;
  private readonly api: Api;
  private readonly deps: ChainDeps;
  private isNew = false;

  constructor(api: Api, deps: ChainDeps) {
    this.api = api;
    this.deps = deps;
    makeAutoObservable<PopupChainStore, 'api' | 'deps' | 'isNew'>(this, { api: false, deps: false, isNew: false });
  }

  /**
   * Runs the chain for `uid` after a login (§4.7): once per Beijing day; the member expiry popup
   * if it applies, else straight on to the card notices. False when it already ran today.
   */
  async run(uid: number, isNew: boolean): Promise<boolean> {
    if (!claimDay(this.deps.storage, uid, formatDate(this.deps.now()))) return false;
    this.isNew = isNew;
    const popup = await this.loadExpiry();
    if (popup) {
      runInAction(() => {
        this.expiry = popup;
      });
      return true;
    }
    await this.loadCards();
    return true;
  }

  private async loadExpiry(): Promise<ExpiryPopup | null> {
    try {
      const [view, config] = await Promise.all([
        this.api.get('/api/v3/user/member/info'),
        this.api.post('/api/japi/yoo/common/config/list', { groupCode: 'common_config' }),
      ]);
      return expiryPopup(view, parseExpireConfig(config.member_expire), view.systemTime);
    } catch {
      return null;
    }
  }

  /** Reads the card notices (type=1 for a new user) and shows one if any applies. */
  async loadCards(): Promise<void> {
    try {
      const notice = await this.api.get('/api/v3/user/card/notice', this.isNew ? { type: '1' } : {});
      const popup = cardPopup(notice);
      runInAction(() => {
        this.cards = popup;
      });
    } catch {
      // the notices are a courtesy: a failed read shows nothing
    }
  }

  /** The expiry popup closed: with the close X the chain ends, otherwise the card notices follow. */
  closeExpiry(byCloseX: boolean): Promise<void> {
    this.expiry = null;
    return byCloseX ? Promise.resolve() : this.loadCards();
  }

  closeCards(): void {
    this.cards = null;
  }
}
