// Activity config (commerce.md §3 "Activity config", §4.13): an activity's status from its
// startTime and endTime ('YYYY-MM-DD HH:mm:ss', read as Beijing time) against the server's sys_time.
import { parseBeijing } from './time';

/** 0 not started, 1 ongoing, 2 ended. */
export const ActivityStatus = {
  NOT_STARTED: 0,
  ONGOING: 1,
  ENDED: 2,
} as const;
export type ActivityStatusCode = (typeof ActivityStatus)[keyof typeof ActivityStatus];

/** While the config loads, the data fetch retries this often (commerce.md §9). */
export const ACTIVITY_CONFIG_RETRY_MS = 100;

/** The status at `sysTime` (ms); malformed or reversed times read as ended (disabled). */
export function activityStatus(startTime: string, endTime: string, sysTime: number): ActivityStatusCode {
  const s = parseBeijing(startTime);
  const e = parseBeijing(endTime);
  if (s === null || e === null || s >= e) return ActivityStatus.ENDED;
  if (sysTime < s) return ActivityStatus.NOT_STARTED;
  if (sysTime < e) return ActivityStatus.ONGOING;
  return ActivityStatus.ENDED;
}

/** The activity is disabled at 0 or 2. */
export const activityDisabled = (status: number): boolean => status !== ActivityStatus.ONGOING;
