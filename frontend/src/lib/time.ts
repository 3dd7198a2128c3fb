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

// Beijing time (UTC+8), the server's business clock: the one place the browser converts between
// instants (ms) and Beijing wall-clock days and texts. China has one time zone and no daylight
// saving, so the offset is a constant; no other file holds it.

/** UTC+8 in ms. */
const BEIJING_OFFSET_MS = 8 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

/** A Beijing wall-clock time (month 1–12). */
export interface BeijingTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The Beijing wall clock at `ms`. */
export function beijingTime(ms: number): BeijingTime {
  const d = new Date(ms + BEIJING_OFFSET_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
}

/** The instant (ms) of a Beijing wall-clock time (month 1–12; out-of-range parts roll over as Date.UTC's do). */
export function beijingMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - BEIJING_OFFSET_MS;
}

/** The first millisecond of the Beijing day of `ms` (00:00:00.000). */
export function beijingDayStart(ms: number): number {
  return Math.floor((ms + BEIJING_OFFSET_MS) / DAY_MS) * DAY_MS - BEIJING_OFFSET_MS;
}

/** The last millisecond of the Beijing day of `ms` (23:59:59.999). */
export function beijingDayEnd(ms: number): number {
  return beijingDayStart(ms) + DAY_MS - 1;
}

/** 'YYYY-MM-DD' of a time in ms, in Beijing time. */
export function formatDate(ms: number): string {
  const t = beijingTime(ms);
  return `${t.year}-${pad(t.month)}-${pad(t.day)}`;
}

/** 'YYYY-MM-DD HH:mm' of a time in ms, in Beijing time. */
export function formatDateTime(ms: number): string {
  const t = beijingTime(ms);
  return `${formatDate(ms)} ${pad(t.hour)}:${pad(t.minute)}`;
}

/** 'YYYY-MM-DD HH:mm:ss' of a time in ms, in Beijing time. */
export function formatDateTimeSeconds(ms: number): string {
  return `${formatDateTime(ms)}:${pad(beijingTime(ms).second)}`;
}

/** 'YYYY/M/D HH:mm:ss' of a time in ms, in Beijing time (the zh-CN locale's way of writing it). */
export function formatSlashDateTime(ms: number): string {
  const t = beijingTime(ms);
  return `${t.year}/${t.month}/${t.day} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
}

/**
 * 'YYYY-MM-DD HH:mm:ss' (or 'YYYY-MM-DD', midnight) read as Beijing time, in ms; null when
 * malformed or not a real time (a day past the month's end is refused rather than rolled over).
 */
export function parseBeijing(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, se] = m.slice(1).map((x) => Number(x ?? 0));
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || se > 59) return null;
  const ms = beijingMs(y, mo, d, h, mi, se);
  if (beijingTime(ms).day !== d) return null;
  return ms;
}
