/**
 * Which course each pool is of, for the roles given on one course's pools: the pool list read through
 * the licensing client (paced by its limiter like every read) and kept a few minutes, so a role check
 * costs no licensing request. A pool added to a course is covered within that time
 * (docs/roles-and-approvals.md, "Caches").
 */
import type { Pool } from '../../kernel/domain/types.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';

export const POOL_INDEX_TTL_MS = 5 * 60_000;

export interface PoolIndex {
  /** The pool list, from the cache unless `fresh` (a give checks the pools as they are now). */
  pools(fresh?: boolean): Promise<Pool[]>;
  /** The course of each pool, from the cached list; an empty map when the list cannot be read (fail closed). */
  courses(): Promise<Map<string, string>>;
}

export function createPoolIndex(p: {
  licensing: Pick<LicensingClient, 'pools'>;
  logger: Logger;
  now?: () => number;
  ttlMs?: number;
}): PoolIndex {
  const now = p.now ?? Date.now;
  const ttl = p.ttlMs ?? POOL_INDEX_TTL_MS;
  let cached: { at: number; value: Promise<Pool[]> } | undefined;

  function pools(fresh = false): Promise<Pool[]> {
    if (!fresh && cached && now() - cached.at < ttl) return cached.value;
    const value = p.licensing.pools.list(fresh ? { fresh: true } : {});
    const entry = { at: now(), value };
    cached = entry;
    value.catch(() => {
      if (cached === entry) cached = undefined;
    });
    return value;
  }

  return {
    pools,
    async courses() {
      try {
        return new Map((await pools()).map((pool) => [pool.id, pool.course.id]));
      } catch (error) {
        p.logger.warn('roles: the pool list could not be read; course scopes cover no pool for now', {
          error: String(error),
        });
        return new Map();
      }
    },
  };
}
