// Membership rules of the user centre, the member pages and the popups (commerce.md §2.4, §4.7).
// The header's button is lib/memberButton.ts (on the home page); its helpers are re-exported.

export { isCarrierMember, isPlatformMember, memberButton, type MemberButton } from './memberButton';
import { formatDate } from './time';

const DAY_MS = 24 * 3600 * 1000;

/** The display names of memberships and packages (commerce.md §6). */
const MEMBER_NAMES: Record<string, string> = {
  vip: '标准VIP',
  vvip: '高级VVIP',
  hvip: '高级VVIP',
  tyvip: '合作伙伴会员',
  tyschvip: '合作伙伴校园会员',
  daily: '白天畅玩包',
  night: '夜间畅玩包',
};

export const memberName = (type: string | null | undefined): string => (type ? (MEMBER_NAMES[type] ?? type) : '普通用户');

/** Days to expiry (§4.7): whole days rounded up from now; 0 reads 今天. */
export function daysToExpiry(expiredAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiredAt - now) / DAY_MS));
}

/** Days since expiry (§4.7): whole days rounded down. */
export function daysSinceExpiry(expiredAt: number, now: number): number {
  return Math.max(0, Math.floor((now - expiredAt) / DAY_MS));
}

export interface MemberItemLike {
  type: string;
  expired_at: number;
}

export interface MemberStatus {
  kind: 'expired' | 'near' | 'active' | 'none';
  text: string;
}

const MEMBERSHIPS = ['vip', 'vvip', 'hvip', 'tyvip', 'tyschvip'];

/**
 * The user-centre membership status line (commerce.md §2.4, §4.7), by priority: a lapsed
 * membership (when none is in use) N > 0 days ago; near expiry (ceil days, 0 reads 今天); the
 * membership in use and its expiry; else the invitation.
 */
export function memberStatus(
  info: { using?: string | null; items: MemberItemLike[]; near_expiration: boolean },
  previous: MemberItemLike[],
  now: number,
): MemberStatus {
  const lapsed = previous.find((p) => MEMBERSHIPS.includes(p.type));
  if (!info.using && lapsed && daysSinceExpiry(lapsed.expired_at, now) > 0) {
    return { kind: 'expired', text: `你的${memberName(lapsed.type)}已过期 ${daysSinceExpiry(lapsed.expired_at, now)} 天` };
  }
  const using = info.items.find((i) => i.type === info.using) ?? info.items[0];
  if (info.near_expiration && using) {
    const n = daysToExpiry(info.items[0].expired_at, now);
    return { kind: 'near', text: `${memberName(using.type)} ${n === 0 ? '今天' : `${n}天后`} 即将到期` };
  }
  if (using) return { kind: 'active', text: `${memberName(using.type)} ${formatDate(using.expired_at)} 到期` };
  return { kind: 'none', text: '您还不是会员，开通会员享受专属特权~' };
}

/** The member grant dialog's hours (§4.8): round(minutes / 60), at least 1. */
export const grantHours = (minutes: number): number => Math.max(1, Math.round(minutes / 60));
