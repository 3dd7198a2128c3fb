const pad = (n: number) => String(n).padStart(2, '0');

/** HH:MM:SS of a number of seconds (negative counts as 0). */
export function formatHMS(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** MM:SS of a number of seconds. */
export function formatMS(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${pad(Math.floor(s / 60))}:${pad(s % 60)}`;
}

/**
 * Play time of a number of minutes (core-platform.md §9, commerce.md §9): minutes rounded up,
 * 60 rolled into the next hour, exactly one hour shown as 60 minutes: 'Y分钟' or 'X小时Y分钟'.
 */
export function formatPlayTime(minutes: number | undefined): string {
  const raw = Number(minutes);
  const m = Math.max(0, Math.ceil(Number.isFinite(raw) ? raw : 0));
  if (m <= 60) return `${m}分钟`;
  return `${Math.floor(m / 60)}小时${m % 60}分钟`;
}

/** China has one time zone and no daylight saving: UTC+8. */
const CHINA_OFFSET_MS = 8 * 3600 * 1000;

/** 'YYYY-MM-DD HH:mm' of a time in ms, in UTC+8 (the server's business time zone). */
export function formatDateTime(ms: number): string {
  const d = new Date(ms + CHINA_OFFSET_MS);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}
