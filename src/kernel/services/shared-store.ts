/**
 * The state that replicas of License Desk share when REDIS_URL is set (docs/deployment.md): one small
 * key-value interface with two implementations, in process memory (one replica; the default)
 * and on Redis (shared-store-redis.ts). Values are strings; callers keep JSON in them.
 *
 * Users: the repeat guard (claim = SET NX PX) and the App Home snapshot. Nothing here is a record: records live in the database
 * (docs/records.md), and a Redis lost empty costs only what docs/deployment.md says.
 */

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
  close(): Promise<void>;
}

/** The in-process store: one replica, nothing survives a restart (the records are in the database). */
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
    close: async () => undefined,
  };
}
