// What the interface state's dialogs are opened with (kernel/uiStore.ts shows them); here so that
// helpers of lib/ can build them without the ui store.

export interface MessageBoxOptions {
  title?: string;
  message: string;
  /** a second line under the message */
  detail?: string;
  /** parts of the message shown highlighted (the forbidden alert's filled values) */
  highlights?: string[];
  confirmText?: string;
  cancelText?: string;
}

/** core-platform.md §2.14 / §4.14: what a car head unit shows instead of opening a new window. */
export interface CarAction {
  title: string;
  /** the address the QR code carries, opened on the phone that scans it */
  url: string;
  desc: string;
}
