/** Internet Explorer (MSIE) and IE 11 (Trident rv:11) are sent to /ie/download/ (core-platform.md §2.2). */
export function isOldBrowser(userAgent: string): boolean {
  return /MSIE|Trident.*rv:11/.test(userAgent);
}

export const OLD_BROWSER_PATH = '/ie/download/';

/** In-car mode (core-platform.md §4.14), by the user-agent strings the spec names (LiBrowser, Car-AliOS). */
export function isInCar(userAgent: string): boolean {
  return /LiBrowser|Car-AliOS/.test(userAgent);
}
