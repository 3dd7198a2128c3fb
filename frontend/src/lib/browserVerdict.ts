// The browser check of a game start (core-platform.md §5.5, §4.4 step 3), by the user agent. A
// module of its own, loaded when a start is asked for: the home page never needs it.
import type { OwnAppMarker } from '../api/types';
import { isInCar } from './browserCheck';

export type BrowserVerdict =
  /** the game may start */
  | { kind: 'ok' }
  /** the main Chromium-based browser at 70–71: '继续游戏' goes on */
  | { kind: 'warn'; message: string }
  /** the game cannot run here */
  | { kind: 'block'; message: string };

export const BLOCK_MESSAGE = '您当前浏览器版本较低，游戏无法运行';
export const WARN_MESSAGE = '您当前浏览器版本较低，可能会影响游戏体验';
export const WARN_CONTINUE = '继续游戏';

/**
 * The product's own apps' web views: the app runs the game. The markers are the server's
 * (`OwnAppMarker` of the OpenAPI document): a marker missing here or unknown there fails to compile.
 */
const OWN_APP_MARKERS: Record<OwnAppMarker, true> = { agentWeb: true, slyAndroid: true, leyou_ios: true };
const OWN_APP = new RegExp(Object.keys(OWN_APP_MARKERS).join('|'), 'i');
/** Domestic dual-core browsers, whose Chromium core is not the one the user sees. */
const DUAL_CORE = /QQBrowser|MetaSr|SE 2\.X|360SE|360EE|LBBROWSER|2345Explorer|Maxthon|BIDUBrowser|UBrowser|TheWorld/i;
/** Phones and tablets (§5.5: not a car browser). */
const MOBILE = /phone|pad|pod|iPhone|iPod|iOS|iPad|Android|Mobile|BlackBerry|IEMobile|MQQBrowser|JUC|Fennec|wOSBrowser|BrowserNG|WebOS|Symbian|Windows Phone/i;

function major(userAgent: string, pattern: RegExp): number | null {
  const m = pattern.exec(userAgent);
  return m ? Number(m[1]) : null;
}

/** A phone or tablet; a car browser never is (§5.5, §4.14). */
export function isMobile(userAgent: string): boolean {
  return !isInCar(userAgent) && MOBILE.test(userAgent);
}

/**
 * The verdict for a desktop start. Skipped (ok) in the environments that run games their own way:
 * the product's apps, phones and tablets, and car head units.
 */
export function browserVerdict(userAgent: string): BrowserVerdict {
  const block: BrowserVerdict = { kind: 'block', message: BLOCK_MESSAGE };
  if (OWN_APP.test(userAgent) || isMobile(userAgent) || isInCar(userAgent)) return { kind: 'ok' };
  if (/MSIE|Trident/.test(userAgent)) return block;
  if (DUAL_CORE.test(userAgent)) return block;
  // the platform vendor's Chromium-based browser (its legacy engine reads `Edge/`)
  if (/Edge\/\d+/.test(userAgent)) return block;
  const edge = major(userAgent, /Edg\/(\d+)/);
  if (edge !== null) return edge < 79 ? block : { kind: 'ok' };
  if (/Firefox\/\d+|Gecko\/\d{8}/.test(userAgent) && !/like Gecko/.test(userAgent)) return block;
  if (/OPR\/|Opera/.test(userAgent)) return block;
  const chrome = major(userAgent, /(?:Chrome|Chromium|HeadlessChrome)\/(\d+)/);
  if (chrome === null) return block; // desktop Safari and every other browser
  if (chrome < 70) return block;
  if (chrome <= 71) return { kind: 'warn', message: WARN_MESSAGE };
  return { kind: 'ok' };
}
