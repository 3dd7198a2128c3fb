import { lazy, type ComponentType } from 'react';

/** sessionStorage key of the last reload caused by a page chunk that failed to load */
export const CHUNK_RELOAD_KEY = 'yoo_chunk_reload_at';
/** core-platform.md §2.2: at most one such reload per 60 s */
export const CHUNK_RELOAD_MS = 60_000;

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

/**
 * A page chunk failed to load (a new build replaced the old hashed files, or the network
 * dropped): reload the page in full, unless that already happened within the last 60 s. True
 * when a reload was started.
 */
export function reloadForFailedChunk(storage: Storage | null, now: number, reload: () => void): boolean {
  const last = Number(storage?.getItem(CHUNK_RELOAD_KEY) ?? 0);
  if (Number.isFinite(last) && last > 0 && now - last < CHUNK_RELOAD_MS) return false;
  try {
    storage?.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    // storage full or disabled: reload anyway
  }
  reload();
  return true;
}

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * React.lazy of a page exported by name: the route's code is its own chunk, loaded on the first
 * visit. A failed load reloads the page once per 60 s; otherwise the error reaches the route's
 * error boundary (the 500 page).
 */
export function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return lazy(async () => {
    try {
      const module = await load();
      return { default: module[name] as ComponentType };
    } catch (e) {
      if (reloadForFailedChunk(sessionStore(), Date.now(), () => window.location.reload())) {
        // the page is going away: render nothing meanwhile
        return new Promise<{ default: ComponentType }>(() => undefined);
      }
      throw e;
    }
  });
}
