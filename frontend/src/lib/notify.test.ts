import { describe, expect, it } from 'vitest';
import { isInCar } from './browserCheck';
import { parseSharedReport, playInCurrentWindow, QUALITY_REPORT_MESSAGE } from './notify';

describe('where the play page opens (core-platform.md §2.1, §4.14)', () => {
  const desktop = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

  // a new window by default; the current one when the setting says so or in a car
  it('opens a new window unless the setting or in-car mode says otherwise', () => {
    expect(playInCurrentWindow(desktop, null)).toBe(false);
    expect(playInCurrentWindow(desktop, '0')).toBe(false);
    expect(playInCurrentWindow(desktop, '1')).toBe(true);
    expect(playInCurrentWindow(`${desktop} LiBrowser/2.0`, null)).toBe(true);
    expect(isInCar('Mozilla/5.0 Car-AliOS')).toBe(true);
    expect(isInCar(desktop)).toBe(false);
  });
});

describe('parseSharedReport', () => {
  const summary = { playedSecs: 61, latencyP50Ms: 20, latencyP95Ms: 45, fps: 29.9, drops: 3, reconnects: 1 };

  it('takes a play window\'s report', () => {
    expect(parseSharedReport({ type: QUALITY_REPORT_MESSAGE, report: { sessionId: '7', gameName: '超级企鹅', endReason: 'host_lost', summary } })).toEqual({
      sessionId: '7',
      gameName: '超级企鹅',
      endReason: 'host_lost',
      summary,
    });
    expect(parseSharedReport({ type: QUALITY_REPORT_MESSAGE, report: { sessionId: '7', gameName: '', summary } })?.endReason).toBeNull();
  });

  it('refuses anything else a page might post', () => {
    expect(parseSharedReport(null)).toBeNull();
    expect(parseSharedReport('hello')).toBeNull();
    expect(parseSharedReport({ type: 'other', report: { sessionId: '7', gameName: '', summary } })).toBeNull();
    expect(parseSharedReport({ type: QUALITY_REPORT_MESSAGE, report: { sessionId: 7, gameName: '', summary } })).toBeNull();
    expect(parseSharedReport({ type: QUALITY_REPORT_MESSAGE, report: { sessionId: '7', gameName: '', summary: { ...summary, fps: 'x' } } })).toBeNull();
    expect(parseSharedReport({ type: QUALITY_REPORT_MESSAGE, report: { sessionId: '7', gameName: '', summary: { ...summary, drops: Infinity } } })).toBeNull();
  });
});
