import { InputMapper } from './input';
import { bindInput } from './pageInput';
import type { ClientEvent } from './protocol';

function setup(format: { width: number; height: number } | null = { width: 1280, height: 720 }) {
  const canvas = document.createElement('canvas');
  canvas.tabIndex = 0;
  document.body.appendChild(canvas);
  // a 640x480 element: the 16:9 picture is 640x360, with 60 px bars above and below
  canvas.getBoundingClientRect = () => ({ left: 100, top: 50, width: 640, height: 480, right: 740, bottom: 530, x: 100, y: 50, toJSON: () => ({}) });
  const sent: ClientEvent[] = [];
  const target = { input: new InputMapper(), format, send: (e: ClientEvent | null) => void (e && sent.push(e)) };
  const unbind = bindInput(canvas, target);
  return { canvas, sent, unbind };
}

const pointer = (type: string, init: { clientX: number; clientY: number; button?: number; movementX?: number; movementY?: number }) => {
  const e = new MouseEvent(type, { bubbles: true, cancelable: true, clientX: init.clientX, clientY: init.clientY, button: init.button ?? 0 });
  Object.defineProperty(e, 'pointerType', { value: 'mouse' });
  Object.defineProperty(e, 'pointerId', { value: 1 });
  Object.defineProperty(e, 'movementX', { value: init.movementX ?? 0 });
  Object.defineProperty(e, 'movementY', { value: init.movementY ?? 0 });
  return e;
};

describe('bindInput', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('keys on the focused canvas go to the game and are kept from the page', () => {
    const { canvas, sent, unbind } = setup();
    const down = new KeyboardEvent('keydown', { code: 'Space', key: ' ', bubbles: true, cancelable: true });
    canvas.dispatchEvent(down);
    expect(down.defaultPrevented).toBe(true);
    const esc = new KeyboardEvent('keydown', { code: 'Escape', key: 'Escape', bubbles: true, cancelable: true });
    canvas.dispatchEvent(esc);
    expect(esc.defaultPrevented).toBe(false);
    canvas.dispatchEvent(new KeyboardEvent('keyup', { code: 'Space', key: ' ', bubbles: true, cancelable: true }));
    expect(sent).toEqual([
      { kind: 'key', code: 'Space', down: true },
      { kind: 'key', code: 'Escape', down: true },
      { kind: 'key', code: 'Space', down: false },
    ]);
    unbind();
  });

  it('a click maps the canvas point to the picture: move, press, release', () => {
    const { canvas, sent, unbind } = setup();
    // the centre of the element is the centre of the picture
    canvas.dispatchEvent(pointer('pointerdown', { clientX: 420, clientY: 290 }));
    canvas.dispatchEvent(pointer('pointerup', { clientX: 420, clientY: 290 }));
    expect(sent).toEqual([
      { kind: 'move', x: 640, y: 360 },
      { kind: 'button', button: 0, down: true },
      { kind: 'button', button: 0, down: false },
    ]);
    // on the bar above the picture: no move, the button still counts
    sent.length = 0;
    canvas.dispatchEvent(pointer('pointermove', { clientX: 420, clientY: 60 }));
    expect(sent).toEqual([]);
    canvas.dispatchEvent(pointer('pointermove', { clientX: 100, clientY: 110 }));
    expect(sent).toEqual([{ kind: 'move', x: 0, y: 0 }]);
    unbind();
  });

  it('the wheel scrolls the game, not the page; the right button is the game\'s', () => {
    const { canvas, sent, unbind } = setup();
    const wheel = new WheelEvent('wheel', { deltaY: 100, deltaMode: 0, bubbles: true, cancelable: true });
    canvas.dispatchEvent(wheel);
    expect(wheel.defaultPrevented).toBe(true);
    const menu = new MouseEvent('contextmenu', { bubbles: true, cancelable: true });
    canvas.dispatchEvent(menu);
    expect(menu.defaultPrevented).toBe(true);
    expect(sent).toEqual([{ kind: 'wheel', dx: 0, dy: 1 }]);
    unbind();
  });

  it('losing focus releases what is held; unbinding stops listening', () => {
    const { canvas, sent, unbind } = setup();
    canvas.dispatchEvent(new KeyboardEvent('keydown', { code: 'KeyW', bubbles: true, cancelable: true }));
    canvas.dispatchEvent(pointer('pointerdown', { clientX: 420, clientY: 290, button: 2 }));
    sent.length = 0;
    canvas.dispatchEvent(new FocusEvent('blur'));
    expect(sent).toEqual([
      { kind: 'key', code: 'KeyW', down: false },
      { kind: 'button', button: 2, down: false },
    ]);
    unbind();
    sent.length = 0;
    canvas.dispatchEvent(new KeyboardEvent('keydown', { code: 'KeyW', bubbles: true, cancelable: true }));
    expect(sent).toEqual([]);
  });

  it('before the picture\'s format is known nothing is mapped', () => {
    const { canvas, sent, unbind } = setup(null);
    canvas.dispatchEvent(pointer('pointermove', { clientX: 420, clientY: 290 }));
    expect(sent).toEqual([]);
    unbind();
  });
});
