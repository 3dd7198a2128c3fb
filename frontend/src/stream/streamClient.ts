// One WebSocket to a game host's stream endpoint: binary protobuf frames both ways (stream.proto),
// decoded into HostEvents for the session and encoded from ClientEvents. A client is one
// connection: after a close the session makes a new one with a fresh ticket.
import { decodeHostFrame, encodeClientFrame, type ClientEvent, type HostEvent } from './protocol';

/** The subset of the browser WebSocket used (a fake implements it in tests). */
export interface StreamSocketLike {
  binaryType: string;
  readonly readyState: number;
  readonly bufferedAmount: number;
  onopen: ((ev: Event) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  send(data: Uint8Array): void;
  close(code?: number): void;
}

export type StreamSocketFactory = (url: string) => StreamSocketLike;

const OPEN = 1;
/**
 * Input queued in the socket beyond which motion is not sent: a stalled link would otherwise
 * deliver seconds of stale pointer moves at once. Keys and buttons are always sent.
 */
export const MAX_BUFFERED_INPUT_BYTES = 64 * 1024;

/**
 * `{streamUrl}/stream?ticket=`: the host's address as the platform gave it (http(s) or ws(s)),
 * in the WebSocket scheme.
 */
export function streamSocketUrl(streamUrl: string, ticket: string): string {
  const base = streamUrl.replace(/\/+$/, '').replace(/^http(s?):\/\//i, (_m, s: string) => `ws${s}://`);
  return `${base}/stream?ticket=${encodeURIComponent(ticket)}`;
}

export interface StreamClientHandlers {
  onOpen(): void;
  /** one host message and its size on the wire */
  onEvent(event: HostEvent, bytes: number): void;
  /** the connection ended (not called after `close()`); `opened`: it was ever open */
  onClose(info: { code: number; opened: boolean }): void;
}

function toBytes(data: unknown): Uint8Array | null {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return null;
}

export class StreamClient {
  private ws: StreamSocketLike | null;
  private opened = false;

  constructor(url: string, create: StreamSocketFactory, handlers: StreamClientHandlers) {
    const ws = create(url);
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.opened = true;
      handlers.onOpen();
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      const bytes = toBytes(ev.data);
      if (!bytes) return;
      const event = decodeHostFrame(bytes);
      if (event) handlers.onEvent(event, bytes.byteLength);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      handlers.onClose({ code: typeof ev?.code === 'number' ? ev.code : 1006, opened: this.opened });
    };
    ws.onerror = () => {
      // a close event follows
    };
  }

  get isOpen(): boolean {
    return this.ws !== null && this.ws.readyState === OPEN;
  }

  /** Sends one message; false when the connection is not open (or motion was shed). */
  send(event: ClientEvent): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== OPEN) return false;
    const motion = event.kind === 'move' || event.kind === 'delta' || event.kind === 'wheel';
    if (motion && ws.bufferedAmount > MAX_BUFFERED_INPUT_BYTES) return false;
    ws.send(encodeClientFrame(event));
    return true;
  }

  /** Closes without telling the handlers (the session chose to). */
  close(): void {
    const ws = this.ws;
    this.ws = null;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onerror = null;
    ws.onclose = null;
    try {
      ws.close(1000);
    } catch {
      // already closing
    }
  }
}
