// From the page's keyboard, mouse and touch events to the stream's input messages: where a point
// of the canvas is in the game's picture, which keys the page keeps from the browser, wheel
// steps, relative motion under pointer lock, and the keys and buttons still held when the page
// loses focus (released, or the game would see them stuck). Pure: no DOM object is kept.
import type { ClientEvent } from './protocol';

/** A rectangle in CSS pixels. */
export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Where a picture of `picW` x `picH` is drawn inside an element `box` that shows it whole and
 * centred, keeping its aspect (CSS `object-fit: contain`).
 */
export function containRect(box: Rect, picW: number, picH: number): Rect {
  if (picW <= 0 || picH <= 0 || box.width <= 0 || box.height <= 0) return { ...box, width: 0, height: 0 };
  const scale = Math.min(box.width / picW, box.height / picH);
  const width = picW * scale;
  const height = picH * scale;
  return { left: box.left + (box.width - width) / 2, top: box.top + (box.height - height) / 2, width, height };
}

/**
 * The picture pixel under a client point, or null on the bars beside the picture. Pixels run from
 * 0 to size - 1.
 */
export function toPicture(clientX: number, clientY: number, box: Rect, picW: number, picH: number): { x: number; y: number } | null {
  const r = containRect(box, picW, picH);
  if (r.width <= 0 || r.height <= 0) return null;
  const fx = (clientX - r.left) / r.width;
  const fy = (clientY - r.top) / r.height;
  if (fx < 0 || fy < 0 || fx >= 1 || fy >= 1) return null;
  return { x: Math.min(picW - 1, Math.floor(fx * picW)), y: Math.min(picH - 1, Math.floor(fy * picH)) };
}

/** CSS pixels per picture pixel of a picture drawn in `box` (for relative motion). */
export function pictureScale(box: Rect, picW: number, picH: number): number {
  const r = containRect(box, picW, picH);
  return r.width > 0 ? picW / r.width : 1;
}

/**
 * Keys the browser keeps even while the game has focus: leaving pointer lock and full screen
 * (Escape: browsers require it and do not let a page stop it), full screen (F11) and the
 * developer tools (F12). Escape still reaches the game when nothing is locked.
 */
const BROWSER_KEYS = new Set(['F11', 'F12']);

/** Shortcuts with Ctrl or Meta that stay the browser's (closing, reloading, switching tabs). */
const BROWSER_SHORTCUTS = new Set(['KeyW', 'KeyT', 'KeyN', 'KeyR', 'Tab', 'PageUp', 'PageDown', 'KeyQ']);

export interface KeyLike {
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  repeat: boolean;
}

/** What to do with a key event while the game has focus. */
export function keyAction(e: KeyLike): { send: boolean; preventDefault: boolean } {
  if (!e.code || e.code === 'Unidentified') return { send: false, preventDefault: false };
  if (BROWSER_KEYS.has(e.code)) return { send: false, preventDefault: false };
  if (e.metaKey || (e.ctrlKey && BROWSER_SHORTCUTS.has(e.code))) return { send: false, preventDefault: false };
  // Escape is sent (menus of the game) but never prevented: the browser leaves pointer lock and
  // full screen with it
  if (e.code === 'Escape') return { send: !e.repeat, preventDefault: false };
  // the X server repeats held keys itself: a browser's repeats would double them
  return { send: !e.repeat, preventDefault: true };
}

/** MouseEvent.button values the stream carries (left, middle, right). */
export function streamButton(button: number): number | null {
  return button === 0 || button === 1 || button === 2 ? button : null;
}

/** WheelEvent.deltaMode */
export const DOM_DELTA_PIXEL = 0;
export const DOM_DELTA_LINE = 1;
export const DOM_DELTA_PAGE = 2;
/** Pixels per wheel step: one notch of a mouse wheel in Chromium and Firefox. */
export const WHEEL_PIXELS_PER_STEP = 100;
/** Steps per page (deltaMode page). */
export const WHEEL_STEPS_PER_PAGE = 3;

/**
 * Input of one connection: turns page events into messages, remembering what is held and the
 * fractions of wheel and relative motion not sent yet.
 */
export class InputMapper {
  private readonly keys = new Set<string>();
  private readonly buttons = new Set<number>();
  private wheelX = 0;
  private wheelY = 0;
  private restX = 0;
  private restY = 0;
  private lastMove: { x: number; y: number } | null = null;

  key(code: string, down: boolean): ClientEvent | null {
    if (down) {
      if (this.keys.has(code)) return null;
      this.keys.add(code);
    } else {
      // a key released that was pressed before the game had focus is not the game's
      if (!this.keys.delete(code)) return null;
    }
    return { kind: 'key', code, down };
  }

  button(button: number, down: boolean): ClientEvent | null {
    const b = streamButton(button);
    if (b === null) return null;
    if (down) {
      if (this.buttons.has(b)) return null;
      this.buttons.add(b);
    } else if (!this.buttons.delete(b)) return null;
    return { kind: 'button', button: b, down };
  }

  /** An absolute move to a picture pixel; nothing when it is where the last one was. */
  move(p: { x: number; y: number }): ClientEvent | null {
    if (this.lastMove && this.lastMove.x === p.x && this.lastMove.y === p.y) return null;
    this.lastMove = { x: p.x, y: p.y };
    return { kind: 'move', x: p.x, y: p.y };
  }

  /**
   * Relative motion under pointer lock: CSS pixels times `scale` (picture pixels per CSS pixel),
   * the fractions carried to the next event.
   */
  delta(movementX: number, movementY: number, scale: number): ClientEvent | null {
    this.restX += movementX * scale;
    this.restY += movementY * scale;
    const dx = Math.trunc(this.restX);
    const dy = Math.trunc(this.restY);
    if (dx === 0 && dy === 0) return null;
    this.restX -= dx;
    this.restY -= dy;
    this.lastMove = null;
    return { kind: 'delta', dx, dy };
  }

  /** A wheel event in whole steps (positive: down / right); fractions wait for the next event. */
  wheel(deltaX: number, deltaY: number, deltaMode: number): ClientEvent | null {
    const per = deltaMode === DOM_DELTA_LINE ? 1 : deltaMode === DOM_DELTA_PAGE ? 1 / WHEEL_STEPS_PER_PAGE : WHEEL_PIXELS_PER_STEP;
    this.wheelX += deltaX / per;
    this.wheelY += deltaY / per;
    const dx = Math.trunc(this.wheelX);
    const dy = Math.trunc(this.wheelY);
    if (dx === 0 && dy === 0) return null;
    this.wheelX -= dx;
    this.wheelY -= dy;
    return { kind: 'wheel', dx, dy };
  }

  /** The page lost focus (or the connection changes): release everything still held. */
  releaseAll(): ClientEvent[] {
    const out: ClientEvent[] = [];
    for (const code of this.keys) out.push({ kind: 'key', code, down: false });
    for (const b of this.buttons) out.push({ kind: 'button', button: b, down: false });
    this.keys.clear();
    this.buttons.clear();
    this.wheelX = this.wheelY = this.restX = this.restY = 0;
    return out;
  }

  /**
   * A new connection: the host released what the old one held when it closed, so nothing is
   * held any more and nothing needs sending.
   */
  forget(): void {
    this.releaseAll();
    this.lastMove = null;
  }
}
