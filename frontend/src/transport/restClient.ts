import { ApiError, ErrorCode, NETWORK_ERROR_MESSAGE } from './apiError';
import type { BodyOf, DataOf, PathOf, QueryOf } from '../api/types';
import type { Api, EnvelopeListener, PostOptions, Query } from './types';
import type { Identity } from './identity';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface RestClientConfig {
  fetch: FetchLike;
  identity: Pick<Identity, 'deviceId' | 'channel' | 'csrfToken'>;
  /** prefix of every path; '' means same origin */
  baseUrl?: string;
}

interface Envelope {
  code: number;
  message?: string;
  data?: unknown;
  ts?: number;
}

function isEnvelope(v: unknown): v is Envelope {
  return typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'number';
}

export function buildQuery(query?: Query): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/**
 * The fetch wrapper of API.md "Conventions": JSON bodies, the identity and CSRF headers, and the
 * `{code, message, data, ts}` envelope parsed whatever the HTTP status.
 */
export class RestClient implements Api {
  private readonly cfg: RestClientConfig;
  private readonly listeners = new Set<EnvelopeListener>();

  constructor(cfg: RestClientConfig) {
    this.cfg = cfg;
  }

  subscribe(listener: EnvelopeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get<P extends PathOf<'get'>>(path: P, query?: QueryOf<P>): Promise<DataOf<P, 'get'>> {
    return this.request<DataOf<P, 'get'>>('GET', path + buildQuery(query as Query | undefined));
  }

  post<P extends PathOf<'post'>>(path: P, body?: BodyOf<P>, options?: PostOptions): Promise<DataOf<P, 'post'>> {
    return this.request<DataOf<P, 'post'>>('POST', path, body ?? {}, options);
  }

  headers(hasBody: boolean): Record<string, string> {
    const id = this.cfg.identity;
    const h: Record<string, string> = {
      accept: 'application/json',
      'Yoo-Uuid': id.deviceId(),
      'x-org-channel': id.channel(),
    };
    const csrf = id.csrfToken();
    if (csrf) h['x-csrf-token'] = csrf;
    else h['x-skip-csrf'] = 'true';
    if (hasBody) h['content-type'] = 'application/json';
    return h;
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown, options?: PostOptions): Promise<T> {
    const hasBody = method === 'POST';
    const headers = this.headers(hasBody);
    if (options?.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    let res: Response;
    try {
      res = await this.cfg.fetch((this.cfg.baseUrl ?? '') + path, {
        method,
        headers,
        body: hasBody ? JSON.stringify(body ?? {}) : undefined,
        credentials: 'same-origin',
        // a call made as a page goes (a play window that closes itself after the game: its exit
        // and its quality report) still reaches the server; the bodies are far below the 64 KB
        // browsers allow such requests
        keepalive: hasBody,
      });
    } catch {
      throw new ApiError(ErrorCode.NETWORK, NETWORK_ERROR_MESSAGE, null);
    }
    let parsed: unknown;
    try {
      parsed = await res.json();
    } catch {
      parsed = undefined;
    }
    if (!isEnvelope(parsed)) {
      // Not our envelope (a proxy error page, an empty body): report the HTTP status.
      throw new ApiError(ErrorCode.NETWORK, NETWORK_ERROR_MESSAGE, { status: res.status });
    }
    const cleanPath = path.split('?')[0];
    for (const l of this.listeners) l({ path: cleanPath, code: parsed.code, ts: parsed.ts, message: parsed.message, data: parsed.data });
    if (parsed.code !== 0) {
      throw new ApiError(parsed.code, parsed.message ?? '', parsed.data ?? null);
    }
    return (parsed.data ?? null) as T;
  }
}
