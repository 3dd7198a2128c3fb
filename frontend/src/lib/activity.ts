// Activity config (commerce.md §3 "Activity config", §4.13): an activity's status from its
// startTime and endTime ('YYYY-MM-DD HH:mm:ss', read as UTC+8) against the server's sys_time.

/** 0 not started, 1 ongoing, 2 ended. */
export const ActivityStatus = {
  NOT_STARTED: 0,
  ONGOING: 1,
  ENDED: 2,
} as const;
export type ActivityStatusCode = (typeof ActivityStatus)[keyof typeof ActivityStatus];

/** While the config loads, the data fetch retries this often (commerce.md §9). */
export const ACTIVITY_CONFIG_RETRY_MS = 100;

/** 'YYYY-MM-DD HH:mm:ss' (or 'YYYY-MM-DD') in UTC+8 as unix ms; null if malformed. */
export function parseCst(s: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(s.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, se] = m.slice(1).map((x) => Number(x ?? 0));
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || se > 59) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi, se) - 8 * 3600 * 1000;
  // a day past the month's end is refused rather than rolled over
  if (new Date(ms + 8 * 3600 * 1000).getUTCDate() !== d) return null;
  return ms;
}

/** The status at `sysTime` (ms); malformed or reversed times read as ended (disabled). */
export function activityStatus(startTime: string, endTime: string, sysTime: number): ActivityStatusCode {
  const s = parseCst(startTime);
  const e = parseCst(endTime);
  if (s === null || e === null || s >= e) return ActivityStatus.ENDED;
  if (sysTime < s) return ActivityStatus.NOT_STARTED;
  if (sysTime < e) return ActivityStatus.ONGOING;
  return ActivityStatus.ENDED;
}

/** The activity is disabled at 0 or 2. */
export const activityDisabled = (status: number): boolean => status !== ActivityStatus.ONGOING;
