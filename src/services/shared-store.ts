/**
 * The state that replicas of License Desk share when REDIS_URL is set (docs/deployment.md): one small
 * key-value interface with two implementations, in process memory (one replica; the default)
 * and on Redis (shared-store-redis.ts). Values are strings; callers keep JSON in them.
 *
 * Users: the repeat guard (claim = SET NX PX), the App Home snapshot, the alert memory and the daily
 * check's lock (the audit trail is a table of the records instead: docs/records.md). Without
 * REDIS_URL those keep what they did before (memory, DATA_DIR files); this module is only how they
 * reach Redis when it is there.
 */

import type { JsonFile } from './state-store.js';

export interface SharedStore {
  /** True when other processes see the same keys (Redis). */
  readonly shared: boolean;
  get(key: string): Promise<string | undefined>;
  /** Sets the value; with `ttlMs` it is forgotten after that long. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Sets the value only when the key is absent (SET NX PX): true when this call set it. */
  claim(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Extends a claim held with `value`; false when the key is gone or someone else holds it. */
  renew(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Deletes the key; with `value`, only while it still holds that value (a claim's owner releases it). */
  delete(key: string, value?: string): Promise<void>;
  /**
   * Read-modify-write of one value, atomic against other writers (Redis: WATCH/MULTI, retried on a
   * conflict). `change` gets the current value (undefined: absent) and returns the new one.
   */
  update(key: string, change: (value: string | undefined) => string): Promise<string>;
  close(): Promise<void>;
}

/** Every key License Desk writes starts with this, so one Redis can serve other things too. */
export const KEY_PREFIX = 'license-desk:';

/** The in-process store: one replica, nothing survives a restart (the files in DATA_DIR do that). */
export function createMemoryStore(now: () => number = Date.now): SharedStore {
  const values = new Map<string, { value: string; until: number }>();
  const live = (key: string) => {
    const hit = values.get(key);
    if (hit && hit.until <= now()) values.delete(key);
    return values.get(key);
  };
  const put = (key: string, value: string, ttlMs?: number) =>
    values.set(key, { value, until: ttlMs === undefined ? Number.POSITIVE_INFINITY : now() + ttlMs });
  return {
    shared: false,
    get: async (key) => live(key)?.value,
    async set(key, value, ttlMs) {
      put(key, value, ttlMs);
    },
    async claim(key, value, ttlMs) {
      if (live(key)) return false;
      put(key, value, ttlMs);
      return true;
    },
    async renew(key, value, ttlMs) {
      if (live(key)?.value !== value) return false;
      put(key, value, ttlMs);
      return true;
    },
    async delete(key, value) {
      if (value === undefined || live(key)?.value === value) values.delete(key);
    },
    async update(key, change) {
      const next = change(live(key)?.value);
      put(key, next);
      return next;
    },
    close: async () => undefined,
  };
}

/**
 * A JSON document in the shared store with the interface of a DATA_DIR state file (state-store.ts):
 * read() reads it afresh (another replica may have changed it), update() is atomic across replicas.
 * A value that is not what we wrote starts empty, as a corrupt file does.
 */
export function createSharedJson<T>(
  store: SharedStore,
  key: string,
  opts: { empty: () => T; parse: (value: unknown) => T | undefined },
): JsonFile<T> {
  const decode = (raw: string | undefined): T => {
    if (raw === undefined) return opts.empty();
    try {
      return opts.parse(JSON.parse(raw)) ?? opts.empty();
    } catch {
      return opts.empty();
    }
  };
  return {
    read: async () => decode(await store.get(key)),
    async update(change) {
      let result: T | undefined;
      await store.update(key, (raw) => {
        const value = decode(raw);
        change(value);
        result = value;
        return JSON.stringify(value);
      });
      return result as T;
    },
  };
}
