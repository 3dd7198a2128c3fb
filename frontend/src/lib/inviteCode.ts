// The invite code a landing page carries into registration (commerce.md §2.16): kept in the
// browser until the login that registers the user sends it.

const KEY = 'yoo_invite_code';

/** Keeps a landing page's invite code (well-formed ones only). */
export function keepInviteCode(code: string | null | undefined): void {
  const c = (code ?? '').trim();
  if (!/^[0-9A-Za-z]{8}$/.test(c)) return;
  try {
    localStorage.setItem(KEY, c.toUpperCase());
  } catch {
    // storage disabled: the invite is lost, the registration is not
  }
}

/** The kept invite code, '' when none. */
export function keptInviteCode(): string {
  try {
    return localStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

/** Forgets the code once a login has sent it. */
export function forgetInviteCode(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
