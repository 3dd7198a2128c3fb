import { mergeSummaries, PendingReports } from './pendingReport';

const a = { playedSecs: 30, latencyP50Ms: 20, latencyP95Ms: 40, fps: 30, drops: 2, reconnects: 1 };
const b = { playedSecs: 10, latencyP50Ms: 40, latencyP95Ms: 90, fps: 26, drops: 1, reconnects: 0 };

describe('pending quality reports', () => {
  it('merges two stretches of a session, weighted by time played', () => {
    expect(mergeSummaries(a, b)).toEqual({ playedSecs: 40, latencyP50Ms: 25, latencyP95Ms: 90, fps: 29, drops: 3, reconnects: 2 });
    const none = { ...a, playedSecs: 0 };
    expect(mergeSummaries(none, { ...b, playedSecs: 0 }).fps).toBe(28);
  });

  it('keeps, merges and hands out each session once; bad storage contents are ignored', () => {
    const m = new Map<string, string>();
    const storage = { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
    const p = new PendingReports(storage);
    p.save('7', a);
    p.save('7', b);
    p.save('8', b);
    expect(p.ids().sort()).toEqual(['7', '8']);
    expect(p.take('7')).toEqual(mergeSummaries(a, b));
    expect(p.take('7')).toBeNull();
    m.set('yoo_pending_quality', 'not json');
    expect(p.take('8')).toBeNull();
    expect(new PendingReports(null).take('8')).toBeNull();
  });
});
