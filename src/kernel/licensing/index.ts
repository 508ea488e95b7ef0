/**
 * The licensing client (design.md section 3): createLicensingClient wires the request core,
 * the limiter, the read cache and the pagination helper into one resource object per namespace.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Agent, type Dispatcher } from 'undici';
import { createReadCache } from './cache.js';
import { createCoursesResource } from './courses.js';
import { isLicensingError, StoppedError } from './errors.js';
import { createLicensesResource } from './licenses.js';
import { createBottleneckLimiter } from './limiter/limiter-bottleneck.js';
import type { RateLimiter } from './limiter.js';
import { createAllowedDomainsResource, createMeResource } from './me.js';
import { createPaginator } from './paginate.js';
import { createPoolsResource } from './pools.js';
import { createRequester, DEFAULT_TIMEOUTS, type Requester, requestDeadlineMs, type Timeouts } from './request.js';
import type { ResourceDeps } from './resource-deps.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
import { createStudentsResource } from './students.js';
import type { LicensingClient, LicensingClientOptions } from './types.js';

export * from './errors.js';
export type { LimiterStats, Priority, RateLimiter } from './limiter.js';
export { createUnlimitedLimiter } from './limiter.js';
export type { CallOptions, LicensingClient, LicensingClientOptions, Logger } from './types.js';

/** ratelimit.md, suggested production values. */
export const DEFAULT_RATE_LIMIT = {
  limit: 25,
  windowMs: 60_000,
  marginMs: 1_000,
  reservedInteractive: 5,
  maxQueue: 200,
};
export const DEFAULT_CACHE_TTL_MS = 30_000;
/** In `dataDir`: the send times of the last window (docs/rate-limiting.md, "Restarts"). */
export const SENDS_FILE = 'licensing-sends.json';
export const DEFAULT_PAGE_SIZE = 100;

function buildLimiter(opts: LicensingClientOptions, timeouts: Timeouts): RateLimiter {
  if (opts.limiter) return opts.limiter;
  const rl = opts.rateLimit ?? {};
  const windowMs = rl.windowMs ?? DEFAULT_RATE_LIMIT.windowMs;
  const marginMs = rl.marginMs ?? DEFAULT_RATE_LIMIT.marginMs;
  // The limit is per token (licensing-api-extras.md): processes share a Redis budget only with the same
  // token (and API URL: the Redis connections' prefix hashes both). The id is a hash, never the token.
  const tokenHash = createHash('sha256').update(opts.token).digest('hex').slice(0, 16);
  return createBottleneckLimiter({
    limit: rl.limit ?? DEFAULT_RATE_LIMIT.limit,
    windowMs,
    marginMs,
    reservedInteractive: rl.reservedInteractive ?? DEFAULT_RATE_LIMIT.reservedInteractive,
    maxQueue: rl.maxQueue ?? DEFAULT_RATE_LIMIT.maxQueue,
    redis: rl.redis,
    id: rl.id ?? (rl.redis ? `${rl.redis.prefix}limiter` : `license-desk:${tokenHash}`),
    logger: opts.logger,
    // ratelimit.md: a job's expiration must outlast the longest request (our overall deadline) plus the
    // held window, or a live job's slot could be handed out twice.
    jobExpirationMs: requestDeadlineMs(timeouts) + windowMs + marginMs + 5_000,
    // A restarted process starts with its predecessor's recent sends holding their slots.
    sendsFile: opts.dataDir === undefined ? undefined : join(opts.dataDir, SENDS_FILE),
  });
}

export function createLicensingClient(opts: LicensingClientOptions): LicensingClient {
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...definedOnly(opts.timeouts ?? {}) };
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...definedOnly(opts.retry ?? {}) };
  // An owned Agent carries the connect timeout; an injected dispatcher keeps its own, and the request
  // core's overall deadline still bounds every request.
  const ownsDispatcher = opts.dispatcher === undefined;
  const dispatcher: Dispatcher =
    opts.dispatcher ??
    new Agent({
      connect: { timeout: timeouts.connectMs },
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
    });
  const limiter = buildLimiter(opts, timeouts);
  let sandbox = false;
  const onSandboxAnswer = () => {
    if (sandbox) return;
    sandbox = true;
    opts.logger?.warn(
      'the licensing service is a sandbox (it says so in every answer): its data is not real, and every reply carries the Sandbox marker',
      { baseUrl: opts.baseUrl },
    );
  };
  const send = createRequester({
    baseUrl: opts.baseUrl,
    token: opts.token,
    dispatcher,
    timeouts,
    limiter,
    retry,
    logger: opts.logger,
    onSandboxAnswer,
  });
  // Once close() began, a failure that the stop caused (a request dropped from the limiter's queue,
  // or one in flight cut off) becomes StoppedError, so callers can say why instead of "went wrong".
  let closing = false;
  const request: Requester = async (spec, callOptions) => {
    const endpoint = `${spec.method} ${spec.template}`;
    if (closing) throw new StoppedError({ endpoint });
    try {
      return await send(spec, callOptions);
    } catch (error) {
      if (!closing) throw error;
      if (!isLicensingError(error)) throw new StoppedError({ endpoint, cause: error });
      if (error.kind === 'connection' || error.kind === 'timeout') {
        throw new StoppedError({ endpoint, outcomeUnknown: error.outcomeUnknown, cause: error });
      }
      throw error;
    }
  };
  const cache = createReadCache({ ttlMs: opts.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS });
  const paginator = createPaginator({ pageSize: opts.pageSize ?? DEFAULT_PAGE_SIZE, logger: opts.logger });
  const deps: ResourceDeps = { request, cache, paginator };

  return {
    me: createMeResource(deps),
    allowedDomains: createAllowedDomainsResource(deps),
    courses: createCoursesResource(deps),
    pools: createPoolsResource(deps, opts.logger),
    licenses: createLicensesResource(deps),
    students: createStudentsResource(deps),
    pageSize: () => paginator.pageSize(),
    isSandbox: () => sandbox,
    invalidateCache: () => cache.clear(),
    limiter,
    async close(options = {}) {
      closing = true;
      cache.clear();
      // The limiter drops what waits in its queue at once, then waits for the requests in flight.
      const stopped = limiter.stop();
      // Destroying an owned dispatcher ends those in flight now (an injected one is left to its owner).
      if (options.abort && ownsDispatcher) await dispatcher.destroy();
      await stopped;
      if (ownsDispatcher && !options.abort) await dispatcher.close();
    },
  };
}

/** exactOptionalPropertyTypes: `{ attempts: undefined }` must not override a default. */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
