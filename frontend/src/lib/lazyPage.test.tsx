import { describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_KEY, CHUNK_RELOAD_MS, reloadForFailedChunk } from './lazyPage';
import { errorStatusCode } from '../app/RouteErrorBoundary';

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
}

describe('page chunks', () => {
  // core-platform.md §2.2: a failed page chunk reloads the page, at most once per 60 s
  it('reloads once per 60 s when a page chunk fails', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(reloadForFailedChunk(storage, 1_000_000, reload)).toBe(true);
    expect(storage.getItem(CHUNK_RELOAD_KEY)).toBe('1000000');
    expect(reloadForFailedChunk(storage, 1_000_000 + CHUNK_RELOAD_MS - 1, reload)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reloadForFailedChunk(storage, 1_000_000 + CHUNK_RELOAD_MS, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
    // no storage (privacy mode): still reloads
    expect(reloadForFailedChunk(null, 5, reload)).toBe(true);
  });

  // core-platform.md §2.2: the error page's status is statusCode, else status, else response.status, else 500
  it('takes the error page status from the error', () => {
    expect(errorStatusCode({ statusCode: 404, status: 400 })).toBe(404);
    expect(errorStatusCode({ status: 403 })).toBe(403);
    expect(errorStatusCode({ response: { status: 502 } })).toBe(502);
    expect(errorStatusCode(new Error('boom'))).toBe(500);
    expect(errorStatusCode(null)).toBe(500);
  });
});
