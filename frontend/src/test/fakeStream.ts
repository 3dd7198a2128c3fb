// Stand-ins for the stream's browser facilities: a game host's WebSocket the test drives by hand
// (it speaks the real protobuf frames), a WebCodecs decoder that "decodes" every chunk into a
// picture on the next microtask and can be made to fail, and the codec check.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  ClientFrameSchema,
  ConfigSchema,
  HostFrameSchema,
  NoticeSchema,
  PongSchema,
  VideoSchema,
  type ClientFrame,
  type HostFrame,
} from '../gen/stream_pb';
import type { DecodedPicture, DecoderEnv, DecoderLike } from '../stream/decoder';
import type { StreamSocketLike } from '../stream/streamClient';
import type { CodecSupportEnv } from '../stream/support';

/** The message of each ClientFrame case. */
type SentBodies = { [B in ClientFrame['body'] as NonNullable<B['case']>]: NonNullable<B['value']> };

export class FakeHostSocket implements StreamSocketLike {
  binaryType = 'blob';
  readyState = 0;
  bufferedAmount = 0;
  onopen: StreamSocketLike['onopen'] = null;
  onclose: StreamSocketLike['onclose'] = null;
  onerror: StreamSocketLike['onerror'] = null;
  onmessage: StreamSocketLike['onmessage'] = null;
  readonly sent: ClientFrame[] = [];
  closedByClient = false;

  constructor(readonly url: string) {}

  send(data: Uint8Array): void {
    this.sent.push(fromBinary(ClientFrameSchema, data));
  }

  close(): void {
    this.closedByClient = true;
    this.readyState = 3;
  }

  /** What the page sent, by kind. */
  sentOf<K extends keyof SentBodies>(kind: K): SentBodies[K][] {
    return this.sent.filter((f) => f.body.case === kind).map((f) => f.body.value as SentBodies[K]);
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  frame(body: HostFrame['body']): void {
    const bytes = toBinary(HostFrameSchema, create(HostFrameSchema, { body }));
    const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    this.onmessage?.({ data: buf } as MessageEvent);
  }

  config(opts: { codec?: string; width?: number; height?: number; fps?: number; input?: boolean } = {}): void {
    this.frame({
      case: 'config',
      value: create(ConfigSchema, {
        codec: opts.codec ?? 'avc1.42E01F',
        width: opts.width ?? 1280,
        height: opts.height ?? 720,
        fps: opts.fps ?? 30,
        input: opts.input ?? true,
      }),
    });
  }

  video(seq: number, key = false, size = 1000): void {
    this.frame({
      case: 'video',
      value: create(VideoSchema, { key, seq: BigInt(seq), captureUs: BigInt(seq * 33_333), data: new Uint8Array(size) }),
    });
  }

  pong(clientMs: number): void {
    this.frame({ case: 'pong', value: create(PongSchema, { clientMs }) });
  }

  notice(code: number, text: string): void {
    this.frame({ case: 'notice', value: create(NoticeSchema, { code, text }) });
  }

  /** The host (or the network) closes the connection. */
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
}

export class FakePicture implements DecodedPicture {
  closed = false;
  constructor(
    readonly displayWidth: number,
    readonly displayHeight: number,
    readonly timestamp: number,
  ) {}

  close(): void {
    this.closed = true;
  }
}

export class FakeDecoder implements DecoderLike {
  state = 'unconfigured';
  decodeQueueSize = 0;
  config: VideoDecoderConfig | null = null;
  readonly chunks: EncodedVideoChunkInit[] = [];
  /** hold decoded pictures instead of outputting them (to build a backlog) */
  hold = false;

  constructor(private readonly init: { output(frame: DecodedPicture): void; error(e: unknown): void }) {}

  configure(config: VideoDecoderConfig): void {
    this.config = config;
    this.state = 'configured';
  }

  decode(chunk: EncodedVideoChunk): void {
    const c = chunk as unknown as EncodedVideoChunkInit;
    this.chunks.push(c);
    if (this.hold) {
      this.decodeQueueSize++;
      return;
    }
    void Promise.resolve().then(() => {
      if (this.state === 'configured') this.init.output(new FakePicture(this.config?.codedWidth ?? 0, this.config?.codedHeight ?? 0, Number(c.timestamp)));
    });
  }

  /** The decoder fails as a real one does: it closes itself and calls error. */
  failNow(): void {
    this.state = 'closed';
    this.init.error(new Error('decode error'));
  }

  close(): void {
    this.state = 'closed';
  }
}

export class FakeDecoderEnv implements DecoderEnv {
  readonly decoders: FakeDecoder[] = [];
  clock = 0;

  createDecoder(init: { output(frame: DecodedPicture): void; error(e: unknown): void }): DecoderLike {
    const d = new FakeDecoder(init);
    this.decoders.push(d);
    return d;
  }

  createChunk(init: EncodedVideoChunkInit): EncodedVideoChunk {
    return init as unknown as EncodedVideoChunk;
  }

  now(): number {
    return this.clock;
  }

  get last(): FakeDecoder {
    return this.decoders[this.decoders.length - 1];
  }
}

/** A browser with WebCodecs that supports the codecs listed. */
export function codecsSupporting(...codecs: string[]): CodecSupportEnv & { asked: VideoDecoderConfig[] } {
  const asked: VideoDecoderConfig[] = [];
  return {
    asked,
    secureContext: true,
    isConfigSupported: async (c) => {
      asked.push(c);
      return { supported: codecs.includes(c.codec) };
    },
  };
}
