// The stream of one game session on the play page: tickets, the connection, decoding, pings,
// reconnects, input and the figures. It owns everything between "the page wants the picture" and
// "the page is done"; the page gives it a canvas to draw on and page events to send, and reads
// its observable phase, message and figures. Every browser facility arrives through StreamDeps,
// so tests drive it with fakes and fake timers.
import { makeAutoObservable } from 'mobx';
import { decoderConfig, VideoPipeline, type DecodedPicture, type DecoderEnv, type PictureFormat } from './decoder';
import { InputMapper } from './input';
import type { ClientEvent, HostEvent } from './protocol';
import { ReconnectPolicy, type ReconnectOptions } from './reconnect';
import { StreamStats, type LiveFigures, type QualitySummary } from './stats';
import { StreamClient, streamSocketUrl, type StreamSocketFactory } from './streamClient';
import { checkCodecSupport, type CodecSupportEnv } from './support';

/** A Ping this often: the round trip the overlay and the report show, and a keep-alive. */
export const PING_INTERVAL_MS = 1000;
/** Video held while the codec check of a new Config runs (about two seconds at 30 fps). */
export const MAX_PENDING_VIDEO = 60;

export const CONNECTING_MESSAGE = '正在连接游戏画面...';
export const RECONNECTING_MESSAGE = '连接中断，正在重新连接...';
export const LOST_MESSAGE = '与游戏主机的连接已断开';
export const ENDED_MESSAGE = '游戏已结束';

/**
 * connecting: no picture yet; playing: pictures arrive; reconnecting: the stream dropped and a
 * retry waits; lost: the retries ran out (the player may try again); unavailable: this session
 * has no stream (its machine is not a game host's); unsupported: this browser cannot decode it;
 * ended: the host said the session is over.
 */
export type StreamPhase = 'connecting' | 'playing' | 'reconnecting' | 'lost' | 'unavailable' | 'unsupported' | 'ended';

/** Where to connect: the host's address and a short-lived ticket (from the platform). */
export interface StreamGrant {
  streamUrl: string;
  ticket: string;
}

export interface StreamDeps {
  /** a fresh ticket for this session */
  ticket(): Promise<StreamGrant>;
  /** whether a refused ticket means no stream will come (rather than a passing failure) */
  isFinalRefusal(error: unknown): boolean;
  createWebSocket: StreamSocketFactory;
  decoder: DecoderEnv;
  codecs: CodecSupportEnv;
  /** a monotonic clock in ms (performance.now) */
  now(): number;
}

/** Draws decoded pictures (the page's canvas). */
export interface PictureSink {
  draw(picture: DecodedPicture): void;
}

export interface StreamSessionOptions {
  reconnect?: ReconnectOptions;
  /** a ticket already in hand (the confirm answer's), used for the first connection only */
  grant?: StreamGrant | null;
  /**
   * Whether this page's input goes to the host, asked at every event; without it the host's
   * Config decides. A room's viewer sends while the room names them controller (the host drops
   * input from anyone else whatever the page does).
   */
  allowInput?: () => boolean;
}

const EMPTY_FIGURES: LiveFigures = { fps: 0, kbps: 0, rttMs: null, dropped: 0, width: 0, height: 0 };

export class StreamSession {
  phase: StreamPhase = 'connecting';
  /** what the page says over the picture, null while it plays */
  message: string | null = CONNECTING_MESSAGE;
  /** the picture's size, from the host's Config */
  format: PictureFormat | null = null;
  /** the host takes this page's input (the session's player) */
  inputAllowed = false;
  /** the overlay's figures, refreshed every second */
  figures: LiveFigures = EMPTY_FIGURES;
  /** the host's last Notice */
  notice: { code: number; text: string } | null = null;

  readonly input = new InputMapper();
  private readonly stats = new StreamStats();
  private readonly pipeline: VideoPipeline;
  private readonly policy: ReconnectPolicy;
  private readonly deps: StreamDeps;
  private readonly allowInput: (() => boolean) | null;
  private client: StreamClient | null = null;
  private sink: PictureSink | null = null;
  private grant: StreamGrant | null;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** bumped at every connect and at stop: late answers of an older attempt give up */
  private generation = 0;
  private started = false;
  private stopped = false;
  /** a Config of the current connection was applied (the next one is a format change) */
  private configuredHere = false;
  /** the codec check of a Config runs; video waits in `pending` */
  private checking = false;
  private pending: HostEvent[] = [];
  /** the current connection showed a picture */
  private picturedHere = false;
  /** a connection that had shown pictures dropped; the next picture is a reconnect */
  private droppedAfterPlay = false;
  private readonly supported = new Map<string, string | null>();

  constructor(deps: StreamDeps, opts: StreamSessionOptions = {}) {
    this.deps = deps;
    this.grant = opts.grant ?? null;
    this.allowInput = opts.allowInput ?? null;
    this.policy = new ReconnectPolicy(() => void this.connect(), opts.reconnect);
    this.pipeline = new VideoPipeline(deps.decoder, {
      onPicture: (p) => this.onPicture(p),
      onKeyFrameNeeded: () => this.client?.send({ kind: 'keyFrame' }),
    });
    makeAutoObservable<
      StreamSession,
      | 'stats'
      | 'pipeline'
      | 'policy'
      | 'deps'
      | 'allowInput'
      | 'client'
      | 'sink'
      | 'grant'
      | 'timer'
      | 'generation'
      | 'started'
      | 'stopped'
      | 'configuredHere'
      | 'checking'
      | 'pending'
      | 'picturedHere'
      | 'droppedAfterPlay'
      | 'supported'
    >(this, {
      input: false,
      stats: false,
      pipeline: false,
      policy: false,
      deps: false,
      allowInput: false,
      client: false,
      sink: false,
      grant: false,
      timer: false,
      generation: false,
      started: false,
      stopped: false,
      configuredHere: false,
      checking: false,
      pending: false,
      picturedHere: false,
      droppedAfterPlay: false,
      supported: false,
    });
  }

  /** Whether the page should show the picture area (not a status line or a message only). */
  get hasStream(): boolean {
    return this.phase === 'connecting' || this.phase === 'playing' || this.phase === 'reconnecting' || this.phase === 'lost';
  }

  /** The player may press 重新连接. */
  get canRetry(): boolean {
    return this.phase === 'lost';
  }

  /** Reconnects after the stream dropped and came back. */
  get reconnects(): number {
    return this.stats.reconnects;
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.timer = setInterval(() => this.tick(), PING_INTERVAL_MS);
    void this.connect();
  }

  /** The canvas that shows the pictures (null when it goes). */
  attach(sink: PictureSink | null): void {
    this.sink = sink;
  }

  /** Sends page input (already mapped) when this page's input reaches the game. */
  send(event: ClientEvent | null): void {
    const allowed = this.allowInput ? this.allowInput() : this.inputAllowed;
    if (!event || !allowed || !this.client) return;
    this.client.send(event);
  }

  /** 重新连接 after the page gave up. */
  retry(): void {
    if (this.stopped || this.phase !== 'lost') return;
    this.phase = 'reconnecting';
    this.message = RECONNECTING_MESSAGE;
    this.policy.restart();
  }

  /** Ends the stream for good; the quality summary when a picture was ever shown. */
  stop(): QualitySummary | null {
    if (!this.stopped) {
      this.stopped = true;
      this.generation++;
      this.policy.cancel();
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
      this.client?.close();
      this.client = null;
      this.pipeline.close();
      this.sink = null;
    }
    return this.stats.played ? this.stats.summary(this.deps.now(), this.pipeline.gate.dropped) : null;
  }

  // ---------------------------------------------------------------- connection

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const gen = ++this.generation;
    this.client?.close();
    this.client = null;
    let grant: StreamGrant;
    try {
      grant = this.grant ?? (await this.deps.ticket());
    } catch (e) {
      if (gen !== this.generation || this.stopped) return;
      if (this.deps.isFinalRefusal(e)) {
        this.settle(this.stats.played ? 'lost' : 'unavailable', this.stats.played ? LOST_MESSAGE : null);
        this.policy.cancel();
        return;
      }
      this.dropped();
      return;
    }
    this.grant = null; // a ticket is good for one connection attempt
    if (gen !== this.generation || this.stopped) return;
    this.configuredHere = false;
    this.picturedHere = false;
    this.checking = false;
    this.pending = [];
    this.input.forget();
    try {
      this.client = new StreamClient(streamSocketUrl(grant.streamUrl, grant.ticket), this.deps.createWebSocket, {
        onOpen: () => undefined,
        onEvent: (event, bytes) => {
          if (gen === this.generation) this.onEvent(event, bytes);
        },
        onClose: () => {
          if (gen === this.generation) this.onClose();
        },
      });
    } catch {
      this.dropped();
    }
  }

  private onClose(): void {
    this.client = null;
    if (this.stopped || this.phase === 'ended' || this.phase === 'unsupported') return;
    this.dropped();
  }

  /** The connection (or an attempt) failed: retry later, or give up. */
  private dropped(): void {
    if (this.picturedHere) this.droppedAfterPlay = true;
    this.picturedHere = false;
    if (this.policy.schedule()) {
      if (this.phase !== 'connecting' || this.stats.played) this.settle('reconnecting', RECONNECTING_MESSAGE);
    } else {
      this.settle('lost', LOST_MESSAGE);
    }
  }

  private settle(phase: StreamPhase, message: string | null): void {
    this.phase = phase;
    this.message = message;
  }

  // ---------------------------------------------------------------- host messages

  private onEvent(event: HostEvent, bytes: number): void {
    this.stats.bytes(bytes, this.deps.now());
    switch (event.kind) {
      case 'config':
        void this.onConfig(event);
        return;
      case 'video':
        if (this.checking) {
          if (this.pending.length < MAX_PENDING_VIDEO) this.pending.push(event);
          return;
        }
        this.pipeline.push(event);
        return;
      case 'pong':
        this.stats.rtt(this.deps.now() - event.clientMs);
        return;
      case 'notice':
        this.notice = { code: event.code, text: event.text };
        this.settle('ended', event.text || ENDED_MESSAGE);
        this.policy.cancel();
        this.client?.close();
        this.client = null;
        return;
    }
  }

  private async onConfig(c: Extract<HostEvent, { kind: 'config' }>): Promise<void> {
    const gen = this.generation;
    const format: PictureFormat = { codec: c.codec, width: c.width, height: c.height };
    this.inputAllowed = c.input;
    let verdict = this.supported.get(c.codec);
    if (verdict === undefined) {
      this.checking = true;
      verdict = await checkCodecSupport(this.deps.codecs, decoderConfig(format));
      this.supported.set(c.codec, verdict);
      if (gen !== this.generation || this.stopped) return;
      this.checking = false;
    }
    this.applyConfig(format, verdict);
  }

  /** A Config whose codec was checked: decode it, or tell the player why not. */
  private applyConfig(format: PictureFormat, unsupported: string | null): void {
    if (unsupported !== null) {
      this.settle('unsupported', unsupported);
      this.policy.cancel();
      this.client?.close();
      this.client = null;
      this.pending = [];
      return;
    }
    this.format = format;
    this.pipeline.configure(format, !this.configuredHere);
    this.configuredHere = true;
    const waiting = this.pending;
    this.pending = [];
    for (const v of waiting) if (v.kind === 'video') this.pipeline.push(v);
  }

  private onPicture(picture: DecodedPicture): void {
    if (this.stopped) {
      picture.close();
      return;
    }
    this.stats.picture(this.deps.now());
    if (this.sink) this.sink.draw(picture);
    else picture.close();
    if (!this.picturedHere) {
      this.picturedHere = true;
      this.policy.succeeded();
      if (this.droppedAfterPlay) {
        this.droppedAfterPlay = false;
        this.stats.reconnected();
      }
    }
    if (this.phase !== 'playing') this.settle('playing', null);
  }

  // ---------------------------------------------------------------- every second

  private tick(): void {
    const now = this.deps.now();
    this.client?.send({ kind: 'ping', clientMs: now });
    this.figures = this.stats.live(now, this.pipeline.gate.dropped, {
      width: this.format?.width ?? 0,
      height: this.format?.height ?? 0,
    });
  }
}
