/**
 * Cache keys and what each write invalidates. Every write changes pool counts,
 * which show in the pools list, the pool, `me` (license totals) and the courses (totals per course).
 */
import type { ReadCache } from './cache.js';

export const cacheKeys = {
  me: 'me',
  /** The account's allowed e-mail domains (from GET /v1/me): no write changes them, so no write drops them. */
  allowedDomains: 'allowed-domains',
  courses: 'courses',
  course: (id: string) => `course:${id}`,
  pools: 'pools',
  pool: (id: string) => `pool:${id}`,
} as const;

/** Invalidates after a write; `poolId` undefined means "unknown pool": every pool entry goes. */
export function invalidateForWrite(cache: ReadCache, poolId: string | undefined): void {
  cache.invalidate(
    (key) =>
      key === cacheKeys.me ||
      key === cacheKeys.courses ||
      key.startsWith('course:') ||
      key === cacheKeys.pools ||
      (poolId === undefined ? key.startsWith('pool:') : key === cacheKeys.pool(poolId)),
  );
}

/**
 * Runs a write and invalidates afterwards, also when it failed: a failed write may still have been
 * applied (outcomeUnknown), and the next read must go to the server either way.
 */
export async function withInvalidation<T>(
  cache: ReadCache,
  run: () => Promise<T>,
  poolIdOf: (result: T | undefined) => string | undefined,
): Promise<T> {
  let result: T | undefined;
  try {
    result = await run();
    return result;
  } finally {
    invalidateForWrite(cache, poolIdOf(result));
  }
}
