import { action, makeAutoObservable } from 'mobx';
import type { CarAction, MessageBoxOptions } from '../lib/dialogs';

export type { CarAction, MessageBoxOptions };

export type ToastType = 'success' | 'info' | 'warning' | 'error';

export interface Toast {
  id: number;
  type: ToastType;
  message: string;
}


export interface MessageBox extends Required<Pick<MessageBoxOptions, 'message' | 'confirmText' | 'cancelText'>> {
  id: number;
  title: string;
  detail?: string;
  highlights?: string[];
  /** false for alerts: only the confirm button */
  showCancel: boolean;
  resolve(ok: boolean): void;
}

/** The missed-queue message and what 'queue again' restarts. */
export interface MissedQueue {
  sessionId: string;
  gameId: number;
  gameName: string;
  nodeId?: number;
}


/**
 * The certification dialog (core-platform.md §2.15, §4.9): `skippable` adds '下次再说'
 * (CONFIRM); `queue` makes closing it give up the queue; `resolve(true)` once certified.
 */
export interface CertificationAsk {
  skippable: boolean;
  queue: boolean;
  resolve(certified: boolean): void;
}

export const TOAST_DURATION_MS = 3000;

/**
 * Interface state that is not domain data: which dialogs are open, message boxes, toasts, and the
 * navigation hook the router registers so that actions can change page.
 */
/** The login dialog's types (core-platform.md §2.3). */
export type LoginType = 'phone' | 'account' | 'qrcode' | 'wechat';

export class UiStore {
  loginOpen = false;
  /** the type the login dialog opens on (core-platform.md §2.3: 'wechat' unless asked otherwise) */
  loginType: LoginType = 'wechat';
  /** the queue dialog is large (true) or minimised into the game float (false) */
  queueDialogLarge = true;
  /** session whose ready dialog the user dismissed with 放弃 */
  readyDismissedId: string | null = null;
  missedQueue: MissedQueue | null = null;
  /** session whose corner float the user closed */
  floatClosedId: string | null = null;
  messageBoxes: MessageBox[] = [];
  carAction: CarAction | null = null;
  certification: CertificationAsk | null = null;
  toasts: Toast[] = [];
  /** the message centre's dialog (social.md §2.9) */
  messagesOpen = false;
  /** counts NEW_MESSAGE pushes: the message centre re-reads its unread counts on each */
  messageArrivals = 0;
  private nextId = 1;
  /** what the login dialog was opened for, run once the login succeeds (core-platform.md §4.13) */
  private afterLogin: (() => void) | null = null;
  private navigator: ((path: string) => void) | null = null;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor() {
    makeAutoObservable<UiStore, 'navigator' | 'timers' | 'nextId' | 'afterLogin'>(this, {
      afterLogin: false,
      navigator: false,
      timers: false,
      nextId: false,
    });
  }

  /**
   * Opens the login dialog on `type` ('wechat', the spec's default); `afterLogin` is the pending
   * callback a successful login runs.
   */
  openLogin(afterLogin?: () => void, type: LoginType = 'wechat'): void {
    this.loginOpen = true;
    this.loginType = type;
    this.afterLogin = afterLogin ?? null;
  }

  /** The header's messages entry (social.md §2.2): the message centre, or the login dialog for a guest. */
  openMessages(loggedIn: boolean): void {
    if (loggedIn) this.messagesOpen = true;
    else this.openLogin();
  }

  closeMessages(): void {
    this.messagesOpen = false;
  }

  messageArrived(): void {
    this.messageArrivals += 1;
  }

  /** Closes the login dialog; a dismissed dialog drops its pending callback. */
  closeLogin(): void {
    this.loginOpen = false;
    this.afterLogin = null;
  }

  /** The pending callback of the open login dialog, handed over once (the login succeeded). */
  takeAfterLogin(): (() => void) | null {
    const next = this.afterLogin;
    this.afterLogin = null;
    return next;
  }

  setQueueDialogLarge(large: boolean): void {
    this.queueDialogLarge = large;
  }

  dismissReady(sessionId: string): void {
    this.readyDismissedId = sessionId;
  }

  showMissedQueue(m: MissedQueue): void {
    this.missedQueue = m;
  }

  clearMissedQueue(): void {
    this.missedQueue = null;
  }

  closeFloat(sessionId: string): void {
    this.floatClosedId = sessionId;
  }

  /** Back to the logged-out look: no dialog of the previous user survives. */
  resetSession(): void {
    this.queueDialogLarge = true;
    this.readyDismissedId = null;
    this.missedQueue = null;
    this.floatClosedId = null;
    this.messagesOpen = false;
  }

  // --- message boxes: clicking outside never closes them; the promise settles on a button ---

  /** Opens the certification dialog; resolves true once certified, false when closed. */
  askCertification(opts: { skippable: boolean; queue?: boolean }): Promise<boolean> {
    return new Promise((resolve) => {
      this.certification = {
        skippable: opts.skippable,
        queue: opts.queue ?? false,
        resolve: action((certified: boolean) => {
          this.certification = null;
          resolve(certified);
        }),
      };
    });
  }

  showCarAction(a: CarAction | null): void {
    this.carAction = a;
  }

  confirm(opts: MessageBoxOptions): Promise<boolean> {
    return new Promise((resolve) => this.pushBox(opts, true, resolve));
  }

  alert(opts: MessageBoxOptions): Promise<void> {
    return new Promise((resolve) => this.pushBox(opts, false, () => resolve()));
  }

  private pushBox(opts: MessageBoxOptions, showCancel: boolean, resolve: (ok: boolean) => void): void {
    const id = this.nextId++;
    this.messageBoxes.push({
      id,
      title: opts.title ?? '提示',
      message: opts.message,
      detail: opts.detail,
      highlights: opts.highlights,
      confirmText: opts.confirmText ?? '确定',
      cancelText: opts.cancelText ?? '取消',
      showCancel,
      resolve: action((ok: boolean) => {
        this.messageBoxes = this.messageBoxes.filter((b) => b.id !== id);
        resolve(ok);
      }),
    });
  }

  // --- toasts ---

  toast(type: ToastType, message: string, durationMs = TOAST_DURATION_MS): void {
    if (!message) return;
    const id = this.nextId++;
    this.toasts.push({ id, type, message });
    const timer = setTimeout(
      action(() => {
        this.timers.delete(timer);
        this.dismissToast(id);
      }),
      durationMs,
    );
    this.timers.add(timer);
  }

  dismissToast(id: number): void {
    this.toasts = this.toasts.filter((t) => t.id !== id);
  }

  success(message: string): void {
    this.toast('success', message);
  }

  info(message: string): void {
    this.toast('info', message);
  }

  warning(message: string): void {
    this.toast('warning', message);
  }

  error(message: string): void {
    this.toast('error', message);
  }

  // --- navigation ---

  setNavigator(nav: ((path: string) => void) | null): void {
    this.navigator = nav;
  }

  navigate(path: string): void {
    if (this.navigator) this.navigator(path);
    else if (typeof window !== 'undefined') window.location.assign(path);
  }

  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
