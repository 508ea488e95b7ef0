/**
 * "Changes things once": a double click or a repeated submission reaches us twice, seconds apart,
 * and Slack never deduplicates interactions (platform.md section 2.2). The first claim of a key
 * (view id or message ts + action + target) wins; repeats within the TTL are refused.
 *
 * Per process, in memory: two processes behind a load balancer each keep their own keys, and a
 * restart forgets them. Slack delivers both clicks of a double click to the same Request URL within
 * a second, so in practice one process sees both; the licensing API's own rules (already enrolled,
 * no longer active) catch the rest.
 */

export interface OnceGuard {
  /** True for the first claim of `key` within the TTL; false for a repeat. */
  claim(key: string): boolean;
  /** Lets the key be claimed again (after a clear failure, so the person may simply try again). */
  release(key: string): void;
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
