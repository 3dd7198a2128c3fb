/** Internet Explorer (MSIE) and IE 11 (Trident rv:11) are sent to /ie/download/ (core-platform.md §2.2). */
export function isOldBrowser(userAgent: string): boolean {
  return /MSIE|Trident.*rv:11/.test(userAgent);
}

export const OLD_BROWSER_PATH = '/ie/download/';
