import { percentile, StreamStats, WINDOW_MS } from './stats';

describe('percentile', () => {
  it('is the nearest rank of the sorted samples', () => {
    const s = [50, 10, 40, 20, 30, 60, 70, 80, 90, 100];
    expect(percentile(s, 50)).toBe(50);
    expect(percentile(s, 95)).toBe(100);
    expect(percentile(s, 90)).toBe(90);
    expect(percentile(s, 0)).toBe(10);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNull();
    expect(s).toEqual([50, 10, 40, 20, 30, 60, 70, 80, 90, 100]); // input left alone
  });

  it('p95 of 1..100 is 95, p50 is 50', () => {
    const s = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(s, 50)).toBe(50);
    expect(percentile(s, 95)).toBe(95);
  });
});

describe('StreamStats', () => {
  it('the live figures cover the last second', () => {
    const st = new StreamStats();
    for (let i = 0; i < 60; i++) {
      st.picture(i * 33.4);
      st.bytes(12_500, i * 33.4); // 30 x 12.5 kB a second = 3 Mbit/s
    }
    const f = st.live(60 * 33.4, 4, { width: 1280, height: 720 });
    expect(f.fps).toBeGreaterThanOrEqual(29);
    expect(f.fps).toBeLessThanOrEqual(30);
    expect(f.kbps).toBeGreaterThanOrEqual(2900);
    expect(f.kbps).toBeLessThanOrEqual(3000);
    expect(f.dropped).toBe(4);
    expect(f.rttMs).toBeNull();
    // nothing for a second: the window empties
    expect(st.live(60 * 33.4 + WINDOW_MS, 4, { width: 1280, height: 720 }).fps).toBe(0);
  });

  it('the summary: time from the first picture, average frame rate, round-trip percentiles', () => {
    const st = new StreamStats();
    expect(st.played).toBe(false);
    st.picture(5000);
    for (let i = 1; i <= 300; i++) st.picture(5000 + i * 40); // 25 fps for 12 s
    for (let i = 1; i <= 20; i++) st.rtt(i); // 1..20 ms
    st.rtt(-5); // a clock jump: dropped
    st.reconnected();
    const r = st.summary(5000 + 12_000 + 499, 7);
    expect(st.played).toBe(true);
    expect(r).toEqual({ playedSecs: 12, latencyP50Ms: 10, latencyP95Ms: 19, fps: 25, drops: 7, reconnects: 1 });
    expect(st.live(17_000, 7, { width: 1, height: 1 }).rttMs).toBe(20);
  });

  it('keeps a bounded sample of round trips that stays representative', () => {
    let seed = 1;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const st = new StreamStats({ maxSamples: 100, random });
    // 10,000 samples, half 10 ms then half 30 ms: the median lands between the two
    for (let i = 0; i < 5000; i++) st.rtt(10);
    for (let i = 0; i < 5000; i++) st.rtt(30);
    st.picture(0);
    const r = st.summary(1000, 0);
    expect(r.latencyP95Ms).toBe(30);
    expect([10, 30]).toContain(r.latencyP50Ms);
  });
});
