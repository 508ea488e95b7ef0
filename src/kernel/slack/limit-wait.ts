/**
 * How long an interactive licensing call waits for the rate limit right now, for the first "working"
 * message or loading view to say so (blocks/limit-wait.ts); undefined when the wait is too short to mention.
 */
import { LIMIT_WAIT_SHOWN_MS, type LimitWait } from '../blocks/limit-wait.js';
import type { AppDeps } from './deps.js';

const MINUTE_MS = 60_000;

export function limitWait(deps: Pick<AppDeps, 'licensing'>): LimitWait | undefined {
  const limiter = deps.licensing.limiter;
  const waitMs = limiter.estimateWaitMs('interactive');
  if (!(waitMs >= LIMIT_WAIT_SHOWN_MS)) return undefined;
  const stats = limiter.stats();
  if (!Number.isFinite(stats.configuredLimit)) return undefined;
  return { waitMs, limit: stats.configuredLimit, windowMs: stats.windowMs ?? MINUTE_MS };
}
