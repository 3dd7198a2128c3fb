// The decoding half of the stream: a WebCodecs VideoDecoder fed through the FrameGate, its
// pictures handed to whoever draws them. The decoder is behind an interface so that tests feed
// it without a browser; `browserDecoderEnv` is the real one.
import { FrameGate } from './frames';

/** The picture format a Config announces. */
export interface PictureFormat {
  codec: string;
  width: number;
  height: number;
}

/** The subset of VideoDecoder used here. */
export interface DecoderLike {
  readonly state: string;
  readonly decodeQueueSize: number;
  configure(config: VideoDecoderConfig): void;
  decode(chunk: EncodedVideoChunk): void;
  close(): void;
}

export interface DecodedPicture {
  readonly displayWidth: number;
  readonly displayHeight: number;
  close(): void;
}

export interface DecoderEnv {
  createDecoder(init: { output(frame: DecodedPicture): void; error(e: unknown): void }): DecoderLike;
  createChunk(init: EncodedVideoChunkInit): EncodedVideoChunk;
  /** a monotonic clock in ms (performance.now) */
  now(): number;
}

/** The decoder configuration for a stream: low latency, the browser picks the hardware. */
export function decoderConfig(f: PictureFormat): VideoDecoderConfig {
  return {
    codec: f.codec,
    codedWidth: f.width,
    codedHeight: f.height,
    optimizeForLatency: true,
    hardwareAcceleration: 'no-preference',
  };
}

export interface PipelineHandlers {
  /** a decoded picture; the receiver draws it and must close it */
  onPicture(picture: DecodedPicture): void;
  /** the host should send a key frame */
  onKeyFrameNeeded(): void;
}

/**
 * One decoder for one picture format. A decoder that fails is replaced by a new one with the
 * same configuration, and the gate waits for the next key frame.
 */
export class VideoPipeline {
  readonly gate = new FrameGate();
  /** pictures the decoder produced */
  decoded = 0;
  /** decoders that failed and were replaced */
  failures = 0;
  private decoder: DecoderLike | null = null;
  private format: PictureFormat | null = null;
  private closed = false;
  private readonly env: DecoderEnv;
  private readonly handlers: PipelineHandlers;

  constructor(env: DecoderEnv, handlers: PipelineHandlers) {
    this.env = env;
    this.handlers = handlers;
  }

  get configured(): PictureFormat | null {
    return this.format;
  }

  /** A Config: a new decoder when the format changed, and wait for a key frame either way. */
  configure(format: PictureFormat, newConnection: boolean): void {
    this.gate.reset(newConnection);
    const same =
      this.format !== null &&
      this.format.codec === format.codec &&
      this.format.width === format.width &&
      this.format.height === format.height &&
      this.decoder !== null &&
      this.decoder.state === 'configured';
    if (same) return;
    this.format = { ...format };
    this.replaceDecoder();
  }

  /** One access unit from the host. */
  push(video: { key: boolean; seq: number; captureUs: number; data: Uint8Array }): void {
    if (this.closed || !this.decoder || this.decoder.state !== 'configured') return;
    const verdict = this.gate.accept(video, this.decoder.decodeQueueSize, this.env.now());
    if (verdict.requestKey) this.handlers.onKeyFrameNeeded();
    if (!verdict.decode) return;
    try {
      this.decoder.decode(
        this.env.createChunk({ type: video.key ? 'key' : 'delta', timestamp: video.captureUs, data: video.data }),
      );
    } catch {
      this.fail();
    }
  }

  close(): void {
    this.closed = true;
    this.closeDecoder();
  }

  private replaceDecoder(): void {
    this.closeDecoder();
    if (!this.format) return;
    const decoder = this.env.createDecoder({
      output: (picture) => {
        if (this.closed || this.decoder !== decoder) {
          picture.close();
          return;
        }
        this.decoded++;
        this.handlers.onPicture(picture);
      },
      error: () => {
        if (this.decoder === decoder) this.fail();
      },
    });
    this.decoder = decoder;
    decoder.configure(decoderConfig(this.format));
  }

  /** The decoder broke (a corrupt frame, a lost context): a fresh one and a key frame. */
  private fail(): void {
    if (this.closed) return;
    this.failures++;
    this.replaceDecoder();
    if (this.gate.lost(this.env.now())) this.handlers.onKeyFrameNeeded();
  }

  private closeDecoder(): void {
    const d = this.decoder;
    this.decoder = null;
    if (d && d.state !== 'closed') {
      try {
        d.close();
      } catch {
        // already closed by its own error
      }
    }
  }
}

/** The browser's WebCodecs. */
export function browserDecoderEnv(): DecoderEnv {
  return {
    createDecoder: (init) => new VideoDecoder({ output: init.output, error: init.error }),
    createChunk: (init) => new EncodedVideoChunk(init),
    now: () => performance.now(),
  };
}
