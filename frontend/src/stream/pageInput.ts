// The page side of input: listens on the stream's canvas (keyboard while it has focus, pointer
// and wheel over it, relative motion under pointer lock), maps each event with InputMapper and
// hands the message to the session. The canvas is focusable (tabindex) so that the keys go to it
// and not to the page; losing focus releases what is held.
import { InputMapper, keyAction, pictureScale, toPicture } from './input';
import type { ClientEvent } from './protocol';

export interface InputTarget {
  readonly input: InputMapper;
  /** the picture's size (null before the first Config) */
  readonly format: { width: number; height: number } | null;
  send(event: ClientEvent | null): void;
}

/** Attaches the listeners; returns the function that removes them. */
export function bindInput(canvas: HTMLElement, target: InputTarget, doc: Document = document): () => void {
  const box = () => {
    const r = canvas.getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  };
  const locked = () => doc.pointerLockElement === canvas;
  const pointAt = (e: { clientX: number; clientY: number }) => {
    const f = target.format;
    return f ? toPicture(e.clientX, e.clientY, box(), f.width, f.height) : null;
  };
  const moveTo = (e: PointerEvent) => {
    if (locked()) {
      const f = target.format;
      if (!f) return;
      target.send(target.input.delta(e.movementX, e.movementY, pictureScale(box(), f.width, f.height)));
      return;
    }
    const p = pointAt(e);
    if (p) target.send(target.input.move(p));
  };

  const onKey = (e: KeyboardEvent) => {
    const down = e.type === 'keydown';
    const a = keyAction(e);
    if (a.preventDefault) e.preventDefault();
    if (!down) {
      // a release is sent whatever the key: InputMapper only releases what it pressed
      target.send(target.input.key(e.code, false));
      return;
    }
    if (a.send) target.send(target.input.key(e.code, true));
  };
  const onPointerDown = (e: PointerEvent) => {
    canvas.focus({ preventScroll: true });
    if (e.pointerType !== 'mouse') e.preventDefault(); // no emulated mouse or scrolling after a touch
    try {
      canvas.setPointerCapture(e.pointerId);
    } catch {
      // a synthetic pointer
    }
    moveTo(e);
    target.send(target.input.button(e.button, true));
  };
  const onPointerUp = (e: PointerEvent) => {
    moveTo(e);
    target.send(target.input.button(e.button, false));
  };
  const onPointerMove = (e: PointerEvent) => moveTo(e);
  const onWheel = (e: WheelEvent) => {
    e.preventDefault(); // the page must not scroll under the game
    target.send(target.input.wheel(e.deltaX, e.deltaY, e.deltaMode));
  };
  const onContextMenu = (e: Event) => e.preventDefault(); // the right button is the game's
  const onBlur = () => {
    for (const ev of target.input.releaseAll()) target.send(ev);
  };

  canvas.addEventListener('keydown', onKey);
  canvas.addEventListener('keyup', onKey);
  canvas.addEventListener('pointerdown', onPointerDown);
  canvas.addEventListener('pointerup', onPointerUp);
  canvas.addEventListener('pointercancel', onPointerUp);
  canvas.addEventListener('pointermove', onPointerMove);
  canvas.addEventListener('wheel', onWheel, { passive: false });
  canvas.addEventListener('contextmenu', onContextMenu);
  canvas.addEventListener('blur', onBlur);
  return () => {
    onBlur();
    canvas.removeEventListener('keydown', onKey);
    canvas.removeEventListener('keyup', onKey);
    canvas.removeEventListener('pointerdown', onPointerDown);
    canvas.removeEventListener('pointerup', onPointerUp);
    canvas.removeEventListener('pointercancel', onPointerUp);
    canvas.removeEventListener('pointermove', onPointerMove);
    canvas.removeEventListener('wheel', onWheel);
    canvas.removeEventListener('contextmenu', onContextMenu);
    canvas.removeEventListener('blur', onBlur);
  };
}

/** Draws each decoded picture on the canvas at the picture's own size (CSS scales it). */
export function canvasSink(canvas: HTMLCanvasElement): { draw(picture: { displayWidth: number; displayHeight: number; close(): void }): void } {
  let ctx: CanvasRenderingContext2D | null = null;
  return {
    draw(picture) {
      try {
        if (canvas.width !== picture.displayWidth || canvas.height !== picture.displayHeight) {
          canvas.width = picture.displayWidth;
          canvas.height = picture.displayHeight;
          ctx = null;
        }
        // desynchronized: the picture reaches the screen without waiting for the page's frame
        ctx ??= canvas.getContext('2d', { alpha: false, desynchronized: true });
        // a decoded picture is a VideoFrame, which the canvas draws directly
        ctx?.drawImage(picture as unknown as VideoFrame, 0, 0);
      } finally {
        picture.close();
      }
    },
  };
}
