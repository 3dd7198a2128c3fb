import type { PushChannel } from './types';

/** How long a failed load of the socket's code waits before it is tried again. */
export const LAZY_RETRY_MS = 5_000;

/**
 * A push channel whose code (the socket and the protobuf runtime) is loaded on the first open,
 * so the first page load does not carry it. Opens and closes asked meanwhile are kept: the last
 * one wins once the code is there. A failed load is retried after 5 s while still wanted.
 */
export class LazyPushChannel implements PushChannel {
  private inner: PushChannel | null = null;
  private wanted = false;
  private loading = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private readonly load: () => Promise<PushChannel>;

  constructor(load: () => Promise<PushChannel>) {
    this.load = load;
  }

  get isOpen(): boolean {
    return this.inner?.isOpen ?? false;
  }

  open(): void {
    this.wanted = true;
    if (this.inner) this.inner.open();
    else this.startLoad();
  }

  close(): void {
    this.wanted = false;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.inner?.close();
  }

  watchRoom(ddRid: number, epoch: string, afterOffset: number): void {
    // before the code is there the socket is not open: its onOpen sends the watch
    this.inner?.watchRoom(ddRid, epoch, afterOffset);
  }

  unwatchRoom(ddRid: number): void {
    this.inner?.unwatchRoom(ddRid);
  }

  private startLoad(): void {
    if (this.loading || this.retry) return;
    this.loading = true;
    this.load().then(
      (channel) => {
        this.loading = false;
        this.inner = channel;
        if (this.wanted) channel.open();
      },
      () => {
        this.loading = false;
        if (!this.wanted) return;
        this.retry = setTimeout(() => {
          this.retry = null;
          if (this.wanted) this.startLoad();
        }, LAZY_RETRY_MS);
      },
    );
  }
}
