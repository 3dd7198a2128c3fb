// Browser side effects the stores ask for (fullscreen, notifications), behind an interface so that
// tests run the stores without a browser: RootStore gets `browserEffects()` in main.tsx and
// `noEffects` (or a recording fake) in tests.
import { randomId } from '../transport/identity';
import { browserReadyNotifier, type ReadyNotifier } from './readyNotice';

export interface BrowserEffects {
  /** leave fullscreen (the ready dialog and a server-ended game) */
  exitFullscreen(): void;
  /** ask for notification permission; called from the click that starts a game */
  requestNotificationPermission(): void;
  /** the boarding reminder of a READY session, de-duplicated across tabs */
  readyReminder(sessionId: string): void;
}

export const noEffects: BrowserEffects = {
  exitFullscreen: () => undefined,
  requestNotificationPermission: () => undefined,
  readyReminder: () => undefined,
};

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

export function browserEffects(): BrowserEffects {
  let notifier: ReadyNotifier | null = null;
  return {
    exitFullscreen,
    requestNotificationPermission,
    readyReminder: (sessionId) => {
      notifier ??= browserReadyNotifier(randomId());
      void notifier.notify(sessionId);
    },
  };
}
