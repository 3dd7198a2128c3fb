export const PROBE_TIMEOUT_MS = 5000;

export type ProbeFetch = (input: string, init: RequestInit) => Promise<Response>;

/**
 * Node latency probe (core-platform.md §4.8): GET {url}?t={Date.now()}, timed with
 * performance.now(). Null when the node answers an error, fails, or takes more than 5 s.
 */
export async function probeNode(
  url: string,
  fetchImpl: ProbeFetch = (i, init) => fetch(i, init),
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<number | null> {
  const sep = url.includes('?') ? '&' : '?';
  const ctrl = typeof AbortController === 'function' ? new AbortController() : null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => {
      ctrl?.abort();
      resolve(null);
    }, timeoutMs);
  });
  const started = performance.now();
  const attempt = (async (): Promise<number | null> => {
    try {
      const res = await fetchImpl(`${url}${sep}t=${Date.now()}`, {
        method: 'GET',
        cache: 'no-store',
        signal: ctrl?.signal,
      });
      const text = await res.text();
      const elapsed = performance.now() - started;
      if (!res.ok) return null;
      try {
        const body = JSON.parse(text) as { code?: unknown };
        if (typeof body.code === 'number' && body.code !== 0) return null;
      } catch {
        // a plain-text pong is fine
      }
      return Math.max(1, Math.round(elapsed));
    } catch {
      return null;
    }
  })();
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
