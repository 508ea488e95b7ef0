/**
 * The read cache for pools, pool, me and courses: a short TTL, concurrent identical reads
 * coalesced into one request, invalidation by writes. At 25 requests a minute every saved request
 * is time a person in Slack does not wait. Errors are never cached.
 */

import type { Priority } from './limiter.js';

export interface ReadCacheOptions {
  /** 0 disables the cache entirely (no storage, no coalescing). */
  ttlMs: number;
  /** Injectable clock in ms (design.md section 4: no global fake timers). */
  now?: () => number;
}

export interface ReadOptions {
  /** Skips a stored value and any request already in flight; the result still refreshes the cache. */
  fresh?: boolean | undefined;
  /** An interactive read does not join a background one in flight, which may wait behind the background cap. */
  priority?: Priority | undefined;
}

export interface ReadCache {
  read<T>(key: string, load: () => Promise<T>, opts?: ReadOptions): Promise<T>;
  /** Drops the keys that match, and makes reads in flight for them not store their (maybe stale) result. */
  invalidate(match: string | ((key: string) => boolean)): void;
  clear(): void;
  /** Number of stored, unexpired values (for tests and diagnostics). */
  size(): number;
}

interface Entry {
  value: unknown;
  expiresAt: number;
}

export function createReadCache(options: ReadCacheOptions): ReadCache {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const inflight = new Map<string, { promise: Promise<unknown>; priority: Priority }>();

  // Callers get their own copy: a caller that edits a returned pool must not edit the cache.
  const copy = <T>(value: T): T => structuredClone(value);

  function load<T>(key: string, loader: () => Promise<T>, priority: Priority): Promise<T> {
    const promise: Promise<T> = loader().then(
      (value) => {
        // Store only if no write invalidated this key (and no fresher read replaced us) meanwhile.
        if (inflight.get(key)?.promise === promise) {
          inflight.delete(key);
          entries.set(key, { value, expiresAt: now() + options.ttlMs });
        }
        return value;
      },
      (error: unknown) => {
        if (inflight.get(key)?.promise === promise) inflight.delete(key);
        throw error;
      },
    );
    inflight.set(key, { promise, priority });
    return promise;
  }

  return {
    async read<T>(key: string, loader: () => Promise<T>, opts: ReadOptions = {}): Promise<T> {
      if (options.ttlMs <= 0) return loader();
      const priority = opts.priority ?? 'interactive';
      if (!opts.fresh) {
        const entry = entries.get(key);
        if (entry && now() < entry.expiresAt) return copy(entry.value as T);
        const pending = inflight.get(key);
        if (pending && !(pending.priority === 'background' && priority === 'interactive')) {
          return copy((await pending.promise) as T);
        }
      }
      return copy(await load(key, loader, priority));
    },
    invalidate(match) {
      const hit = typeof match === 'string' ? (key: string) => key === match : match;
      for (const key of [...entries.keys()]) if (hit(key)) entries.delete(key);
      for (const key of [...inflight.keys()]) if (hit(key)) inflight.delete(key);
    },
    clear() {
      entries.clear();
      inflight.clear();
    },
    size() {
      const t = now();
      let n = 0;
      for (const entry of entries.values()) if (t < entry.expiresAt) n++;
      return n;
    },
  };
}
