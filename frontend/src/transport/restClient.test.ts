import { describe, expect, it } from 'vitest';
import { ApiError, ErrorCode } from './apiError';
import { DEFAULT_CHANNEL, Identity, resolveChannel, type BrowserEnv } from './identity';
import { RestClient, type FetchLike } from './restClient';
import type { EnvelopeInfo } from './types';

interface Sent {
  url: string;
  init: RequestInit;
}

function memoryEnv(opts: { cookies?: string; search?: string } = {}) {
  const store = new Map<string, string>();
  const set: string[] = [];
  const env: BrowserEnv = {
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
    getCookies: () => opts.cookies ?? '',
    setCookie: (c) => void set.push(c),
    search: opts.search ?? '',
  };
  return { env, store, set, setCookies: (c: string) => (opts.cookies = c) };
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function client(reply: (s: Sent) => Response, opts: { cookies?: string; search?: string } = {}) {
  const sent: Sent[] = [];
  const mem = memoryEnv(opts);
  const fetch: FetchLike = async (url, init) => {
    const s = { url, init };
    sent.push(s);
    return reply(s);
  };
  const rest = new RestClient({ fetch, identity: new Identity(mem.env) });
  return { rest, sent, mem };
}

const headersOf = (s: Sent) => s.init.headers as Record<string, string>;

describe('RestClient', () => {
  it('sends a submit\'s Idempotency-Key when given, and none otherwise', async () => {
    const { rest, sent } = client(() => jsonResponse(200, { code: 0, message: 'ok', data: null }));
    await rest.post('/api/payment/goods', { goods_id: 1, goods_num: 1, pay_method: 'wechat' }, { idempotencyKey: 'k-1' });
    await rest.post('/api/payment/goods', { goods_id: 1, goods_num: 1, pay_method: 'wechat' });
    expect(headersOf(sent[0])['Idempotency-Key']).toBe('k-1');
    expect(headersOf(sent[1])['Idempotency-Key']).toBeUndefined();
  });

  it('returns data of a code-0 envelope and sends JSON with credentials same-origin', async () => {
    const { rest, sent } = client(() => jsonResponse(200, { code: 0, message: 'ok', data: { a: 1 }, ts: 1700000000 }));
    await expect(rest.post('/api/passport/login/sendcode', { phone: '13800000000' })).resolves.toEqual({ a: 1 });
    expect(sent[0].url).toBe('/api/passport/login/sendcode');
    expect(sent[0].init.method).toBe('POST');
    expect(sent[0].init.credentials).toBe('same-origin');
    expect(sent[0].init.keepalive).toBe(true);
    expect(sent[0].init.body).toBe('{"phone":"13800000000"}');
    expect(headersOf(sent[0])['content-type']).toBe('application/json');
  });

  it('reads the envelope whatever the HTTP status and throws ApiError with code, message and data', async () => {
    const { rest } = client(() =>
      jsonResponse(409, { code: 130116, message: '您当前正在运行其他游戏', data: { id: 7, gameName: '原神' }, ts: 1 }),
    );
    const err = await rest.post('/api/japi/yoo/game/start', { gameId: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 130116, message: '您当前正在运行其他游戏', data: { id: 7, gameName: '原神' } });
  });

  it('turns a 401 envelope into ApiError 20119 and tells listeners the code, ts, message and data', async () => {
    const { rest } = client(() => jsonResponse(401, { code: 20119, message: '登录已失效，请重新登录', data: null, ts: 1700000123 }));
    const seen: EnvelopeInfo[] = [];
    rest.subscribe((i) => seen.push(i));
    await expect(rest.get('/api/user/profile')).rejects.toMatchObject({ code: ErrorCode.NOT_LOGGED_IN });
    expect(seen).toEqual([{ path: '/api/user/profile', code: 20119, ts: 1700000123, message: '登录已失效，请重新登录', data: null }]);
  });

  it('reports a body that is not an envelope, or a network failure, as a network ApiError', async () => {
    const { rest } = client(() => new Response('<html>bad gateway</html>', { status: 502 }));
    await expect(rest.get('/api/user/profile')).rejects.toMatchObject({ code: ErrorCode.NETWORK, data: { status: 502 } });
    const failing = new RestClient({
      fetch: async () => {
        throw new TypeError('failed to fetch');
      },
      identity: new Identity(memoryEnv().env),
    });
    await expect(failing.get('/api/user/profile')).rejects.toMatchObject({ code: ErrorCode.NETWORK });
  });

  it('sends x-skip-csrf without a _csrfToken cookie and x-csrf-token once the cookie exists', async () => {
    const ok = () => jsonResponse(200, { code: 0, message: '', data: null, ts: 1 });
    const { rest, sent, mem } = client(ok, { cookies: 'other=1' });
    await rest.post('/api/japi/yoo/game/floatBall', {});
    expect(headersOf(sent[0])['x-skip-csrf']).toBe('true');
    expect(headersOf(sent[0])['x-csrf-token']).toBeUndefined();
    mem.setCookies('other=1; _csrfToken=tok%2Babc; yoo=2');
    await rest.post('/api/japi/yoo/game/move', {});
    expect(headersOf(sent[1])['x-csrf-token']).toBe('tok+abc');
    expect(headersOf(sent[1])['x-skip-csrf']).toBeUndefined();
  });

  it('sends one random Yoo-Uuid kept in storage and the default channel in header, storage and cookie', async () => {
    const { rest, sent, mem } = client(() => jsonResponse(200, { code: 0, data: null }));
    await rest.get('/api/user/profile');
    await rest.get('/api/web/v1/game/list', { page: 2, keyword: '', page_size: undefined });
    const uuid = headersOf(sent[0])['Yoo-Uuid'];
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(headersOf(sent[1])['Yoo-Uuid']).toBe(uuid);
    expect(mem.store.get('yoo_uuid')).toBe(uuid);
    expect(headersOf(sent[0])['x-org-channel']).toBe(DEFAULT_CHANNEL);
    expect(mem.store.get('yoo_org_channel')).toBe(DEFAULT_CHANNEL);
    expect(mem.set[0]).toContain('org_channel=default%7Cdefault%7Cdefault');
    expect(sent[1].url).toBe('/api/web/v1/game/list?page=2');
    expect(sent[1].init.body).toBeUndefined();
  });
});

describe('resolveChannel', () => {
  it('prefers the query pid, then mafrom|mipos|ldpage with defaults, then the stored value', () => {
    expect(resolveChannel('?pid=baidu01', 'stored|a|b')).toBe('baidu01');
    expect(resolveChannel('?mafrom=bili&ldpage=land', 'stored|a|b')).toBe('bili|default|land');
    expect(resolveChannel('', 'stored|a|b')).toBe('stored|a|b');
    expect(resolveChannel('', null)).toBe('default|default|default');
    expect(resolveChannel('?pid=%E4%B8%AD', null)).toBe('default|default|default');
  });
});
