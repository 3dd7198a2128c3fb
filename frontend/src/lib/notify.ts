// Browser side effects of the ready dialog (core-platform.md §2.10): leave fullscreen and send a
// desktop notification, at most once in 3 s across tabs (with a 0-300 ms jitter so that tabs
// opening at the same moment do not all notify).

const NOTICE_KEY = 'yoo_ready_notice_at';

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

export function notifyReady(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const jitter = Math.floor(Math.random() * 300);
  setTimeout(() => {
    try {
      const last = Number(window.localStorage.getItem(NOTICE_KEY) ?? 0);
      if (Date.now() - last < 3000) return;
      window.localStorage.setItem(NOTICE_KEY, String(Date.now()));
    } catch {
      // no storage: notify anyway
    }
    try {
      new Notification('登机提醒', { body: '游戏已准备就绪，请返回网站确认启动', icon: '/favicon.svg' });
    } catch {
      // blocked
    }
  }, jitter);
}
