// In-car mode's replacement for new windows (core-platform.md §4.14): a head unit shows the car
// action dialog, a QR code the driver's phone opens, where a browser would open a window.
import { isInCar } from './browserCheck';
import type { CarAction } from './dialogs';

export const CAR_ACTION_DESC = '请使用手机扫码打开';

/** Opens `url` in a new window, or in a car the car action dialog with its QR code. */
export function openOutside(ui: { showCarAction(action: CarAction): void }, url: string, title: string, userAgent = navigator.userAgent): void {
  if (isInCar(userAgent)) {
    ui.showCarAction({ title, url: new URL(url, window.location.origin).href, desc: CAR_ACTION_DESC });
    return;
  }
  window.open(url, '_blank', 'noopener');
}
