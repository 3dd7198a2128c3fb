import { describe, expect, it } from 'vitest';
import { isInCar } from './browserCheck';
import { playInCurrentWindow } from './notify';

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
