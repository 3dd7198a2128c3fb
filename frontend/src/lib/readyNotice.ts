// The boarding reminder of the ready dialog (core-platform.md §2.10, §9): a browser notification
// '登机提醒', shown by one tab only when several tabs of the site see the same READY.
//
// De-duplication, for one session id:
// 1. Wait a random jitter of 0-300 ms, so that tabs which saw the push at the same moment wake
//    at different moments.
// 2. If a claim for this session made less than 3 s ago is known (localStorage, or a message on
//    the BroadcastChannel 'yoo-ready', or this tab's own), stay silent.
// 3. Otherwise claim it: write {id, at, tab} to localStorage and post it on the channel.
// 4. Wait SETTLE_MS for claims that crossed ours on the way; if another tab's claim for the same
//    session is older (or as old with a smaller tab id), stay silent; else notify.
// Step 4 settles the case that steps 1-2 cannot: two tabs that woke within the time a storage
// write or a channel message needs to reach the other. `readyNotice.test.ts` drives two tabs.

export const READY_NOTICE_TITLE = '登机提醒';
export const READY_NOTICE_BODY = '游戏已准备就绪，请返回网站确认启动';
export const READY_CHANNEL = 'yoo-ready';
export const READY_STORAGE_KEY = 'yoo_ready_notice';
export const DEDUP_WINDOW_MS = 3000;
export const JITTER_MS = 300;
export const SETTLE_MS = 60;

/** One tab's claim to notify for a session. */
export interface ReadyClaim {
  id: string;
  at: number;
  tab: string;
}

/** The part of BroadcastChannel the notifier uses. */
export interface ClaimChannel {
  postMessage(message: ReadyClaim): void;
  onmessage: ((ev: { data: unknown }) => void) | null;
  close(): void;
}

/** The browser facilities of the notifier, injectable for tests. */
export interface ReadyNoticeEnv {
  now(): number;
  random(): number;
  sleep(ms: number): Promise<void>;
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  channel: ClaimChannel | null;
  /** 'granted', 'denied', 'default' or 'unsupported' */
  permission(): string;
  show(title: string, body: string): void;
  /** this tab's id (tie-break of simultaneous claims) */
  tabId: string;
}

function parseClaim(v: unknown): ReadyClaim | null {
  if (!v || typeof v !== 'object') return null;
  const c = v as Partial<ReadyClaim>;
  if (typeof c.id !== 'string' || typeof c.at !== 'number' || typeof c.tab !== 'string') return null;
  return { id: c.id, at: c.at, tab: c.tab };
}

/** a wins over b: made first, or at the same moment by the smaller tab id */
function beats(a: ReadyClaim, b: ReadyClaim): boolean {
  return a.at < b.at || (a.at === b.at && a.tab < b.tab);
}

export class ReadyNotifier {
  private readonly env: ReadyNoticeEnv;
  /** claims seen on the channel and made here, per session id (the earliest kept) */
  private readonly seen = new Map<string, ReadyClaim[]>();

  constructor(env: ReadyNoticeEnv) {
    this.env = env;
    if (env.channel) {
      env.channel.onmessage = (ev) => {
        const claim = parseClaim(ev.data);
        if (claim) this.remember(claim);
      };
    }
  }

  private remember(claim: ReadyClaim): void {
    const list = (this.seen.get(claim.id) ?? []).filter((c) => this.env.now() - c.at < DEDUP_WINDOW_MS * 2);
    list.push(claim);
    this.seen.set(claim.id, list);
  }

  private stored(): ReadyClaim | null {
    try {
      const raw = this.env.storage?.getItem(READY_STORAGE_KEY);
      return raw ? parseClaim(JSON.parse(raw)) : null;
    } catch {
      return null;
    }
  }

  /** Claims for this session made within the window, from every source. */
  private recentClaims(id: string, now: number): ReadyClaim[] {
    const all = [...(this.seen.get(id) ?? [])];
    const s = this.stored();
    if (s) all.push(s);
    return all.filter((c) => c.id === id && now - c.at < DEDUP_WINDOW_MS && now - c.at >= -DEDUP_WINDOW_MS);
  }

  /** Shows the boarding reminder for a session unless another tab does; true when this tab did. */
  async notify(sessionId: string): Promise<boolean> {
    const env = this.env;
    if (env.permission() !== 'granted') return false;
    await env.sleep(Math.floor(env.random() * JITTER_MS));
    if (this.recentClaims(sessionId, env.now()).length > 0) return false;

    const mine: ReadyClaim = { id: sessionId, at: env.now(), tab: env.tabId };
    this.remember(mine);
    try {
      env.storage?.setItem(READY_STORAGE_KEY, JSON.stringify(mine));
    } catch {
      // no storage: the channel alone de-duplicates
    }
    try {
      env.channel?.postMessage(mine);
    } catch {
      // channel closed
    }

    await env.sleep(SETTLE_MS);
    const rivals = this.recentClaims(sessionId, env.now()).filter((c) => c.tab !== mine.tab);
    if (rivals.some((c) => beats(c, mine))) return false;
    try {
      env.show(READY_NOTICE_TITLE, READY_NOTICE_BODY);
    } catch {
      return false; // blocked by the browser
    }
    return true;
  }

  dispose(): void {
    this.env.channel?.close();
  }
}

/** The notifier of this browser tab: localStorage, BroadcastChannel and window.Notification. */
export function browserReadyNotifier(tabId: string): ReadyNotifier {
  let storage: ReadyNoticeEnv['storage'];
  try {
    storage = window.localStorage;
  } catch {
    storage = null;
  }
  let channel: ClaimChannel | null = null;
  try {
    if (typeof BroadcastChannel !== 'undefined') channel = new BroadcastChannel(READY_CHANNEL) as unknown as ClaimChannel;
  } catch {
    channel = null;
  }
  return new ReadyNotifier({
    now: () => Date.now(),
    random: () => Math.random(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    storage,
    channel,
    permission: () => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission),
    show: (title, body) => {
      new Notification(title, { body, icon: '/favicon.svg' });
    },
    tabId,
  });
}
