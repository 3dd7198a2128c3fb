// Membership as the header shows it (commerce.md §2.2, §4.7). The membership in use comes from
// the server (profile.member_info.using). Apart from lib/member.ts (the user centre's rules): the
// header is on the home page, whose scripts carry every module it imports whole.

/** The carrier-partner memberships (commerce.md §6). */
export const isCarrierMember = (using: string | null | undefined): boolean => using === 'tyvip' || using === 'tyschvip';

/** vip or vvip ('hvip' is vvip, §4.7). */
export const isPlatformMember = (using: string | null | undefined): boolean => using === 'vip' || using === 'vvip' || using === 'hvip';

/** The header member button (commerce.md §2.2): what it reads and what it does. */
export interface MemberButton {
  label: '立即登录' | '查看' | '续费会员' | '开通会员';
  action: 'login' | 'carrier' | 'buy';
  /** the member category the purchase opens on: the user's vvip, else vip */
  category: 'vip' | 'vvip';
  /** the button's style class */
  style: 'vip' | 'vvip';
}

export function memberButton(loggedIn: boolean, using: string | null | undefined): MemberButton {
  const vvip = using === 'vvip' || using === 'hvip' || using === 'tyvip';
  const style = vvip ? 'vvip' : 'vip';
  const category = using === 'vvip' || using === 'hvip' ? 'vvip' : 'vip';
  if (!loggedIn) return { label: '立即登录', action: 'login', category, style };
  if (isCarrierMember(using)) return { label: '查看', action: 'carrier', category, style };
  if (isPlatformMember(using)) return { label: '续费会员', action: 'buy', category, style };
  return { label: '开通会员', action: 'buy', category, style };
}
