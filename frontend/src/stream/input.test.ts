import { containRect, DOM_DELTA_LINE, DOM_DELTA_PAGE, DOM_DELTA_PIXEL, InputMapper, keyAction, pictureScale, toPicture } from './input';

const key = (code: string, extra: Partial<{ ctrlKey: boolean; metaKey: boolean; repeat: boolean }> = {}) => ({
  code,
  ctrlKey: false,
  metaKey: false,
  repeat: false,
  ...extra,
});

describe('canvas to picture', () => {
  it('a 16:9 picture in a wider box has bars left and right', () => {
    const r = containRect({ left: 0, top: 50, width: 2000, height: 720 }, 1280, 720);
    expect(r).toEqual({ left: 360, top: 50, width: 1280, height: 720 });
  });

  it('a 16:9 picture on a phone (390 wide) has bars above and below', () => {
    const box = { left: 0, top: 100, width: 390, height: 600 };
    const r = containRect(box, 1280, 720);
    expect(r.width).toBe(390);
    expect(r.height).toBeCloseTo(219.375);
    expect(r.top).toBeCloseTo(100 + (600 - 219.375) / 2);
    // the picture's corners and centre
    expect(toPicture(0, r.top, box, 1280, 720)).toEqual({ x: 0, y: 0 });
    expect(toPicture(389.99, r.top + r.height - 0.01, box, 1280, 720)).toEqual({ x: 1279, y: 719 });
    expect(toPicture(195, r.top + r.height / 2, box, 1280, 720)).toEqual({ x: 640, y: 360 });
    // on the bars: nothing
    expect(toPicture(195, 120, box, 1280, 720)).toBeNull();
    expect(toPicture(195, r.top + r.height, box, 1280, 720)).toBeNull();
  });

  it('scales a point of a half-size canvas to picture pixels', () => {
    const box = { left: 10, top: 20, width: 640, height: 360 };
    expect(toPicture(10 + 320, 20 + 180, box, 1280, 720)).toEqual({ x: 640, y: 360 });
    expect(toPicture(10 + 100.2, 20 + 50.7, box, 1280, 720)).toEqual({ x: 200, y: 101 });
    expect(pictureScale(box, 1280, 720)).toBe(2);
  });

  it('no picture yet: no point', () => {
    expect(toPicture(5, 5, { left: 0, top: 0, width: 100, height: 100 }, 0, 0)).toBeNull();
  });
});

describe('keys', () => {
  it('game keys are sent and kept from the browser', () => {
    for (const code of ['KeyW', 'ArrowUp', 'Space', 'Tab', 'Enter', 'F1', 'ControlLeft', 'Backspace']) {
      expect(keyAction(key(code))).toEqual({ send: true, preventDefault: true });
    }
    // Ctrl with a game key (crouch and jump) stays the game's
    expect(keyAction(key('Space', { ctrlKey: true }))).toEqual({ send: true, preventDefault: true });
  });

  it('Escape reaches the game but is never prevented (it leaves pointer lock and full screen)', () => {
    expect(keyAction(key('Escape'))).toEqual({ send: true, preventDefault: false });
  });

  it('browser keys and shortcuts stay the browser\'s; repeats are not sent', () => {
    expect(keyAction(key('F11'))).toEqual({ send: false, preventDefault: false });
    expect(keyAction(key('F12'))).toEqual({ send: false, preventDefault: false });
    expect(keyAction(key('KeyW', { ctrlKey: true }))).toEqual({ send: false, preventDefault: false });
    expect(keyAction(key('KeyC', { metaKey: true }))).toEqual({ send: false, preventDefault: false });
    expect(keyAction(key('KeyA', { repeat: true }))).toEqual({ send: false, preventDefault: true });
    expect(keyAction(key(''))).toEqual({ send: false, preventDefault: false });
  });
});

describe('InputMapper', () => {
  it('sends each press once and only releases of what it pressed', () => {
    const m = new InputMapper();
    expect(m.key('KeyA', false)).toBeNull();
    expect(m.key('KeyA', true)).toEqual({ kind: 'key', code: 'KeyA', down: true });
    expect(m.key('KeyA', true)).toBeNull();
    expect(m.key('KeyA', false)).toEqual({ kind: 'key', code: 'KeyA', down: false });
    expect(m.button(0, true)).toEqual({ kind: 'button', button: 0, down: true });
    expect(m.button(3, true)).toBeNull(); // back button: not the game's
    expect(m.button(0, false)).toEqual({ kind: 'button', button: 0, down: false });
  });

  it('releases everything held when focus goes', () => {
    const m = new InputMapper();
    m.key('KeyW', true);
    m.key('ShiftLeft', true);
    m.button(2, true);
    expect(m.releaseAll()).toEqual([
      { kind: 'key', code: 'KeyW', down: false },
      { kind: 'key', code: 'ShiftLeft', down: false },
      { kind: 'button', button: 2, down: false },
    ]);
    expect(m.releaseAll()).toEqual([]);
  });

  it('a new connection forgets what was held without sending', () => {
    const m = new InputMapper();
    m.key('KeyW', true);
    m.forget();
    expect(m.releaseAll()).toEqual([]);
    expect(m.key('KeyW', true)).not.toBeNull();
  });

  it('wheel: one notch is one step whatever the delta mode; touchpad pixels add up', () => {
    const m = new InputMapper();
    expect(m.wheel(0, 100, DOM_DELTA_PIXEL)).toEqual({ kind: 'wheel', dx: 0, dy: 1 });
    expect(m.wheel(0, -3, DOM_DELTA_LINE)).toEqual({ kind: 'wheel', dx: 0, dy: -3 });
    expect(m.wheel(0, 1, DOM_DELTA_PAGE)).toEqual({ kind: 'wheel', dx: 0, dy: 3 });
    expect(m.wheel(30, 0, DOM_DELTA_PIXEL)).toBeNull();
    expect(m.wheel(30, 0, DOM_DELTA_PIXEL)).toBeNull();
    expect(m.wheel(45, 0, DOM_DELTA_PIXEL)).toEqual({ kind: 'wheel', dx: 1, dy: 0 });
  });

  it('relative motion in picture pixels, fractions carried', () => {
    const m = new InputMapper();
    expect(m.delta(1, 0, 0.5)).toBeNull();
    expect(m.delta(1, 0, 0.5)).toEqual({ kind: 'delta', dx: 1, dy: 0 });
    expect(m.delta(-3, 5, 2)).toEqual({ kind: 'delta', dx: -6, dy: 10 });
  });

  it('absolute moves to the same pixel are sent once', () => {
    const m = new InputMapper();
    expect(m.move({ x: 3, y: 4 })).toEqual({ kind: 'move', x: 3, y: 4 });
    expect(m.move({ x: 3, y: 4 })).toBeNull();
    expect(m.move({ x: 4, y: 4 })).toEqual({ kind: 'move', x: 4, y: 4 });
  });
});
