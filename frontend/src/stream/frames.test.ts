import { FrameGate, KEY_REQUEST_INTERVAL_MS, MAX_DECODE_BACKLOG } from './frames';

describe('FrameGate', () => {
  it('starts at a key frame and then passes every frame in order', () => {
    const g = new FrameGate();
    expect(g.accept({ key: false, seq: 1 }, 0, 0)).toEqual({ decode: false, requestKey: true });
    expect(g.accept({ key: true, seq: 2 }, 0, 10)).toEqual({ decode: true, requestKey: false });
    for (let s = 3; s < 10; s++) expect(g.accept({ key: false, seq: s }, 0, s * 33).decode).toBe(true);
    expect(g.dropped).toBe(1);
  });

  it('a gap before a delta frame waits for the next key frame and asks for one, at most twice a second', () => {
    const g = new FrameGate();
    g.accept({ key: true, seq: 10 }, 0, 0);
    // frames 11-12 never came: 13 cannot be decoded
    expect(g.accept({ key: false, seq: 13 }, 0, 1000)).toEqual({ decode: false, requestKey: true });
    expect(g.accept({ key: false, seq: 14 }, 0, 1033)).toEqual({ decode: false, requestKey: false });
    expect(g.accept({ key: false, seq: 15 }, 0, 1000 + KEY_REQUEST_INTERVAL_MS)).toEqual({ decode: false, requestKey: true });
    expect(g.accept({ key: true, seq: 16 }, 0, 1600)).toEqual({ decode: true, requestKey: false });
    expect(g.accept({ key: false, seq: 17 }, 0, 1633).decode).toBe(true);
    // 2 missed in the gap, 13, 14 and 15 skipped
    expect(g.dropped).toBe(5);
  });

  it('a gap that ends at a key frame (the host dropped for a slow page) only counts the loss', () => {
    const g = new FrameGate();
    g.accept({ key: true, seq: 1 }, 0, 0);
    expect(g.accept({ key: true, seq: 31 }, 0, 1000)).toEqual({ decode: true, requestKey: false });
    expect(g.dropped).toBe(29);
  });

  it('a decoder that falls behind skips to a key frame', () => {
    const g = new FrameGate();
    g.accept({ key: true, seq: 1 }, 0, 0);
    expect(g.accept({ key: false, seq: 2 }, MAX_DECODE_BACKLOG, 33).decode).toBe(true);
    expect(g.accept({ key: false, seq: 3 }, MAX_DECODE_BACKLOG + 1, 66)).toEqual({ decode: false, requestKey: true });
    expect(g.accept({ key: false, seq: 4 }, 0, 99).decode).toBe(false);
    expect(g.accept({ key: true, seq: 5 }, 0, 130).decode).toBe(true);
  });

  it('never decodes backwards, and a new connection forgets the old numbering', () => {
    const g = new FrameGate();
    g.accept({ key: true, seq: 100 }, 0, 0);
    expect(g.accept({ key: false, seq: 100 }, 0, 1).decode).toBe(false);
    expect(g.accept({ key: false, seq: 99 }, 0, 2).decode).toBe(false);
    g.reset(true);
    expect(g.waitingForKey).toBe(true);
    expect(g.accept({ key: true, seq: 500 }, 0, 3).decode).toBe(true);
    expect(g.dropped).toBe(0);
  });

  it('a lost decoder asks for a key frame, rate-limited', () => {
    const g = new FrameGate();
    g.accept({ key: true, seq: 1 }, 0, 0);
    expect(g.lost(1000)).toBe(true);
    expect(g.lost(1100)).toBe(false);
    expect(g.accept({ key: false, seq: 2 }, 0, 1200).decode).toBe(false);
  });
});
