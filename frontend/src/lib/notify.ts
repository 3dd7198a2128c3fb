// Browser side effects the stores ask for (fullscreen, notifications), behind an interface so that
// tests run the stores without a browser: RootStore gets `browserEffects()` in main.tsx and
// `noEffects` (or a recording fake) in tests.
import { randomId } from '../transport/identity';
import { isInCar } from './browserCheck';
import type { ReadyNotifier } from './readyNotice';
import type { ShownQualityReport } from '../stream/stats';

export interface BrowserEffects {
  /** leave fullscreen (the ready dialog and a server-ended game) */
  exitFullscreen(): void;
  /** ask for notification permission; called from the click that starts a game */
  requestNotificationPermission(): void;
  /** the boarding reminder of a READY session, de-duplicated across tabs */
  readyReminder(sessionId: string): void;
  /**
   * The window the play page opens in (core-platform.md §2.1: a new window unless the setting
   * says this one; in-car mode always this one). Called from the click itself, before any await:
   * browsers allow a new window only there. Null means this window (also when a popup blocker
   * refused).
   */
  openPlayWindow(): PlayWindow | null;
  /** Closes this window when the site opened it for the play page; false when it stays open. */
  closePlayWindow(): boolean;
  /** A play window hands a finished game's quality report to the window that opened it. */
  shareQualityReport(report: ShownQualityReport): void;
  /** Reports handed over by a play window this window opened; returns an unsubscribe. */
  onQualityReport(listener: (report: ShownQualityReport) => void): () => void;
  /** The browser's user agent, for the start's browser check (§5.5); absent skips the check. */
  userAgent?: string;
}

/** A window opened for the play page before its address is known. */
export interface PlayWindow {
  go(path: string): void;
  close(): void;
}

/** The name of the play page's window: a second '进入游戏' or '返回游戏' reuses it. */
export const PLAY_WINDOW_NAME = 'yoo_game_play';
/** localStorage flag: '1' opens the play page in the current window */
export const PLAY_IN_CURRENT_WINDOW_KEY = 'yoo_play_in_current_window';

export const noEffects: BrowserEffects = {
  exitFullscreen: () => undefined,
  requestNotificationPermission: () => undefined,
  readyReminder: () => undefined,
  openPlayWindow: () => null,
  closePlayWindow: () => false,
  shareQualityReport: () => undefined,
  onQualityReport: () => () => undefined,
};

/** The message a play window posts to its opener. */
export const QUALITY_REPORT_MESSAGE = 'yoo-quality-report';

/** A handed-over report, checked field by field (a message is any page's to send). */
export function parseSharedReport(data: unknown): ShownQualityReport | null {
  if (!data || typeof data !== 'object') return null;
  const m = data as { type?: unknown; report?: unknown };
  if (m.type !== QUALITY_REPORT_MESSAGE || !m.report || typeof m.report !== 'object') return null;
  const r = m.report as Partial<ShownQualityReport>;
  const s = r.summary as Partial<QualityFields> | undefined;
  if (typeof r.sessionId !== 'string' || typeof r.gameName !== 'string' || !s) return null;
  const endReason = typeof r.endReason === 'string' ? r.endReason : null;
  const fields: (keyof QualityFields)[] = ['playedSecs', 'latencyP50Ms', 'latencyP95Ms', 'fps', 'drops', 'reconnects'];
  if (!fields.every((f) => typeof s[f] === 'number' && Number.isFinite(s[f]))) return null;
  return { sessionId: r.sessionId, gameName: r.gameName, endReason, summary: { ...(s as QualityFields) } };
}

type QualityFields = ShownQualityReport['summary'];

export function exitFullscreen(): void {
  try {
    if (typeof document !== 'undefined' && document.fullscreenElement && document.exitFullscreen) {
      void document.exitFullscreen().catch(() => undefined);
    }
  } catch {
    // not supported
  }
}

export function requestNotificationPermission(): void {
  try {
    if (typeof Notification !== 'undefined' && Notification.permission === 'default') {
      void Notification.requestPermission().catch(() => undefined);
    }
  } catch {
    // not supported
  }
}

/** Whether the play page opens in the current window: the per-browser setting, or in-car mode. */
export function playInCurrentWindow(userAgent: string, setting: string | null): boolean {
  return setting === '1' || isInCar(userAgent);
}

function openPlayWindow(): PlayWindow | null {
  let setting: string | null;
  try {
    setting = window.localStorage.getItem(PLAY_IN_CURRENT_WINDOW_KEY);
  } catch {
    setting = null;
  }
  if (playInCurrentWindow(navigator.userAgent, setting)) return null;
  let w: Window | null;
  try {
    // a blank window now (the click's permission); its address once the confirm answers
    w = window.open('', PLAY_WINDOW_NAME);
  } catch {
    w = null;
  }
  if (!w) return null;
  const win = w;
  return {
    go: (path) => {
      try {
        if (win.location.pathname + win.location.search !== path) win.location.href = path;
      } catch {
        win.location.href = path;
      }
      win.focus();
    },
    close: () => win.close(),
  };
}

function shareQualityReport(report: ShownQualityReport): void {
  try {
    if (window.name !== PLAY_WINDOW_NAME || !window.opener) return;
    (window.opener as Window).postMessage({ type: QUALITY_REPORT_MESSAGE, report }, window.location.origin);
  } catch {
    // the opener navigated elsewhere: the report stays in the history
  }
}

function onQualityReport(listener: (report: ShownQualityReport) => void): () => void {
  const handler = (ev: MessageEvent) => {
    if (ev.origin !== window.location.origin) return;
    const report = parseSharedReport(ev.data);
    if (report) listener(report);
  };
  window.addEventListener('message', handler);
  return () => window.removeEventListener('message', handler);
}

function closePlayWindow(): boolean {
  if (window.name !== PLAY_WINDOW_NAME || !window.opener) return false;
  window.close();
  return true;
}

export function browserEffects(): BrowserEffects {
  // The reminder's code (the cross-tab de-duplication) is a chunk of its own: the home page's
  // first load does not need it (scripts/check-bundle.mjs). The click that starts a game fetches
  // it ahead, so the first READY seldom waits for it; a tab that did not start the game fetches
  // it on its first READY, a delay the reminder's own 0-300 ms jitter already tolerates.
  let notifier: Promise<ReadyNotifier> | null = null;
  const loadNotifier = (): Promise<ReadyNotifier> => {
    if (!notifier) {
      const loading = import('./readyNotice').then((m) => m.browserReadyNotifier(randomId()));
      notifier = loading;
      // a chunk that failed to load is tried again on the next reminder
      loading.catch(() => {
        if (notifier === loading) notifier = null;
      });
    }
    return notifier;
  };
  return {
    exitFullscreen,
    requestNotificationPermission: () => {
      requestNotificationPermission();
      void loadNotifier();
    },
    readyReminder: (sessionId) => {
      loadNotifier().then(
        (n) => void n.notify(sessionId),
        () => undefined,
      );
    },
    openPlayWindow,
    closePlayWindow,
    shareQualityReport,
    onQualityReport,
    userAgent: navigator.userAgent,
  };
}
