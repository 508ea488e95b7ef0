/**
 * "Changes things once": a double click or a repeated submission reaches us twice, seconds apart,
 * and Slack never deduplicates interactions (platform.md section 2.2). The first claim of a key
 * (view id or message ts + action + target) wins; repeats within the TTL are refused.
 *
 * Without REDIS_URL, per process, in memory: a restart forgets the keys. With REDIS_URL the replicas
 * share them (createSharedOnceGuard: SET NX PX), since a load balancer may hand the two clicks of a
 * double click to two replicas (docs/deployment.md). The licensing API's own rules (already
 * enrolled, no longer active) catch the rest.
 */
import type { Logger } from '../licensing/types.js';
import type { SharedStore } from './shared-store.js';

export interface OnceGuard {
  /** True for the first claim of `key` within the TTL; false for a repeat. Await it: the shared guard answers later. */
  claim(key: string): boolean | Promise<boolean>;
  /** Lets the key be claimed again (after a clear failure, so the person may simply try again). */
  release(key: string): void | Promise<void>;
}

export interface OnceGuardOptions {
  /** How long a key is remembered; default 15 minutes (a view lives at most as long as it is open). */
  ttlMs?: number;
  /** Keys kept at most; the oldest go first. Default 10_000. */
  max?: number;
  now?: () => number;
}

export function createOnceGuard(options: OnceGuardOptions = {}): OnceGuard {
  const ttl = options.ttlMs ?? 15 * 60_000;
  const max = options.max ?? 10_000;
  const now = options.now ?? Date.now;
  // Insertion order is age order: the oldest keys are first.
  const keys = new Map<string, number>();

  function sweep(at: number): void {
    for (const [key, until] of keys) {
      if (until > at && keys.size <= max) break;
      keys.delete(key);
    }
  }

  return {
    claim(key) {
      const at = now();
      sweep(at);
      const until = keys.get(key);
      if (until !== undefined && until > at) return false;
      keys.delete(key);
      keys.set(key, at + ttl);
      return true;
    },
    release(key) {
      keys.delete(key);
    },
  };
}

/**
 * The repeat guard shared by the replicas: the first SET NX PX of a key wins across all of them. When
 * Redis cannot be reached the claim falls back to this process's own guard (logged): a double click
 * split across two replicas may then get through to the licensing API, whose rules refuse the repeat;
 * refusing every change while Redis is down would be worse.
 */
export function createSharedOnceGuard(
  store: SharedStore,
  logger: Logger,
  options: Pick<OnceGuardOptions, 'ttlMs'> = {},
): OnceGuard {
  const ttl = options.ttlMs ?? 15 * 60_000;
  const local = createOnceGuard({ ttlMs: ttl });
  const key = (k: string) => `once:${k}`;
  return {
    async claim(k) {
      try {
        const won = await store.claim(key(k), '1', ttl);
        // Kept locally too, so that a Redis outage right after does not forget this process's own claims.
        if (won) local.claim(k);
        return won;
      } catch (error) {
        logger.warn('repeat guard: shared state unreachable, this replica decides alone', { error: String(error) });
        return local.claim(k);
      }
    },
    async release(k) {
      local.release(k);
      await store.delete(key(k)).catch((error: unknown) => {
        logger.warn('repeat guard: could not release a claim in the shared state', { error: String(error) });
      });
    },
  };
}
