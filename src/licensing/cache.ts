/**
 * The read cache for pools, pool, me and courses (issue 3): a short TTL, concurrent identical reads
 * coalesced into one request, invalidation by writes. At 25 requests a minute every saved request
 * is time a person in Slack does not wait. Errors are never cached.
 */

export interface ReadCacheOptions {
  /** 0 disables the cache entirely (no storage, no coalescing). */
  ttlMs: number;
  /** Injectable clock in ms (design.md section 4: no global fake timers). */
  now?: () => number;
}

export interface ReadCache {
  /** `fresh` skips a stored value and any request already in flight; its result still refreshes the cache. */
  read<T>(key: string, load: () => Promise<T>, fresh?: boolean): Promise<T>;
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
  const inflight = new Map<string, Promise<unknown>>();

  // Callers get their own copy: a caller that edits a returned pool must not edit the cache.
  const copy = <T>(value: T): T => structuredClone(value);

  function load<T>(key: string, loader: () => Promise<T>): Promise<T> {
    const promise: Promise<T> = loader().then(
      (value) => {
        // Store only if no write invalidated this key (and no fresher read replaced us) meanwhile.
        if (inflight.get(key) === promise) {
          inflight.delete(key);
          entries.set(key, { value, expiresAt: now() + options.ttlMs });
        }
        return value;
      },
      (error: unknown) => {
        if (inflight.get(key) === promise) inflight.delete(key);
        throw error;
      },
    );
    inflight.set(key, promise);
    return promise;
  }

  return {
    async read<T>(key: string, loader: () => Promise<T>, fresh = false): Promise<T> {
      if (options.ttlMs <= 0) return loader();
      if (!fresh) {
        const entry = entries.get(key);
        if (entry && now() < entry.expiresAt) return copy(entry.value as T);
        const pending = inflight.get(key);
        if (pending) return copy((await pending) as T);
      }
      return copy(await load(key, loader));
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
