// Password rules of core-platform.md §5.2, with the messages word for word, and the transform a
// password travels in (base64 of its UTF-8; the server decodes it and keeps only a hash).

export const PASSWORD_MAX_LENGTH = 16;

export const PasswordMessages = {
  LOGIN_EMPTY: '密码不能为空',
  NEW_EMPTY: '登录密码不能为空',
  PATTERN: '密码8-16位，需包含数字、字母和特殊字符',
  CONFIRM_EMPTY: '确认登录密码不能为空',
  MISMATCH: '两次密码设置不一致',
  PLACEHOLDER: '请设置8-16位包含数字、字母和字符的密码',
} as const;

/** 8–16 of letters, digits and ~!@#$%^&*_?. with at least one of each kind. */
const STRONG = /^(?=.*[A-Za-z])(?=.*\d)(?=.*[~!@#$%^&*_?.])[A-Za-z\d~!@#$%^&*_?.]{8,16}$/;

export function isStrongPassword(p: string): boolean {
  return STRONG.test(p);
}

/** The login password's problem, or null. */
export function validateLoginPassword(p: string): string | null {
  return p ? null : PasswordMessages.LOGIN_EMPTY;
}

/** The new password's problem, or null. */
export function validateNewPassword(p: string): string | null {
  if (!p) return PasswordMessages.NEW_EMPTY;
  return isStrongPassword(p) ? null : PasswordMessages.PATTERN;
}

/** The confirm field's problem, or null. */
export function validateConfirmPassword(confirm: string, password: string): string | null {
  if (!confirm) return PasswordMessages.CONFIRM_EMPTY;
  if (!isStrongPassword(confirm)) return PasswordMessages.PATTERN;
  return confirm === password ? null : PasswordMessages.MISMATCH;
}

/** The password as it is sent: base64 of its UTF-8. */
export function encodePassword(p: string): string {
  const bytes = new TextEncoder().encode(p);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/**
 * Where the login route goes after a login (§2.2): callbackUrl when it is a path of this site,
 * else '/'. No scheme, no host, no protocol-relative '//' or backslash tricks.
 */
export function safeCallbackUrl(raw: string | null | undefined): string {
  if (!raw) return '/';
  const v = raw.trim();
  if (!v.startsWith('/') || v.startsWith('//') || v.includes('\\') || [...v].some((c) => c.charCodeAt(0) < 0x20)) return '/';
  try {
    const u = new URL(v, window.location.origin);
    if (u.origin !== window.location.origin) return '/';
    if (u.pathname === '/login') return '/';
    return `${u.pathname}${u.search}${u.hash}`;
  } catch {
    return '/';
  }
}
