// Per-browser identity sent with every request: the Yoo-Uuid device id and the x-org-channel
// channel id (core-platform.md §7.1). Both live in localStorage; the channel also in a cookie.

/** The few browser facilities identity needs, injectable for tests. */
export interface BrowserEnv {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  getCookies(): string;
  setCookie(cookie: string): void;
  search: string;
}

export const DEVICE_ID_KEY = 'yoo_uuid';
export const CHANNEL_KEY = 'yoo_org_channel';
export const CHANNEL_COOKIE = 'org_channel';
export const DEFAULT_CHANNEL = 'default|default|default';
export const CSRF_COOKIE = '_csrfToken';

export function browserEnv(): BrowserEnv {
  let storage: BrowserEnv['storage'];
  try {
    storage = window.localStorage;
  } catch {
    storage = null; // storage disabled (privacy mode): ids then live for this page only
  }
  return {
    storage,
    getCookies: () => document.cookie,
    setCookie: (c) => {
      document.cookie = c;
    },
    search: window.location.search,
  };
}

export function randomId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const h = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function readCookie(cookies: string, name: string): string | null {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return null;
}

/** Only header-safe channel ids are accepted (a header value must be visible ASCII). */
const CHANNEL_PART = /^[\w.-]{1,64}$/;

/**
 * The channel id: the query pid, else mafrom|mipos|ldpage when any of them is in the query (each
 * missing part becomes 'default'), else the stored value, else 'default|default|default'.
 */
export function resolveChannel(search: string, stored: string | null): string {
  const q = new URLSearchParams(search);
  const pid = q.get('pid');
  if (pid && CHANNEL_PART.test(pid)) return pid;
  const parts = ['mafrom', 'mipos', 'ldpage'].map((k) => q.get(k));
  if (parts.some((p) => p && CHANNEL_PART.test(p))) {
    return parts.map((p) => (p && CHANNEL_PART.test(p) ? p : 'default')).join('|');
  }
  if (stored && /^[\w.\-|]{1,200}$/.test(stored)) return stored;
  return DEFAULT_CHANNEL;
}

/** Device and channel ids, resolved once per page and persisted. */
export class Identity {
  private readonly env: BrowserEnv;
  private device: string | null = null;
  private channelId: string | null = null;

  constructor(env: BrowserEnv) {
    this.env = env;
  }

  deviceId(): string {
    if (this.device) return this.device;
    let id = this.env.storage?.getItem(DEVICE_ID_KEY) ?? null;
    if (!id) {
      id = randomId();
      this.env.storage?.setItem(DEVICE_ID_KEY, id);
    }
    this.device = id;
    return id;
  }

  channel(): string {
    if (this.channelId) return this.channelId;
    const stored = this.env.storage?.getItem(CHANNEL_KEY) ?? readCookie(this.env.getCookies(), CHANNEL_COOKIE);
    const id = resolveChannel(this.env.search, stored);
    this.env.storage?.setItem(CHANNEL_KEY, id);
    this.env.setCookie(`${CHANNEL_COOKIE}=${encodeURIComponent(id)}; path=/; max-age=${365 * 24 * 3600}; samesite=lax`);
    this.channelId = id;
    return id;
  }

  /** The CSRF token is read at every call: it changes at each login. */
  csrfToken(): string | null {
    return readCookie(this.env.getCookies(), CSRF_COOKIE);
  }
}
