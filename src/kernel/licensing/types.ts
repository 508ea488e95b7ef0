/**
 * The licensing client's public face (createLicensingClient in src/kernel/licensing/index.ts returns it).
 * Every method is one line over the single request core; errors are LicensingError subclasses.
 */
import type { Dispatcher } from 'undici';
import type { AssignRequest, Course, License, ListQuery, Me, Pool, Student } from '../domain/types.js';
import type { Priority, RateLimiter } from './limiter.js';

/**
 * Where the limiter gets its Redis connection: the app's one Redis factory (src/kernel/services/redis.ts
 * `createRedisConnections`) fits it. `prefix` starts every key of this deployment.
 */
export interface RedisSource {
  readonly prefix: string;
  readonly Redis: typeof import('ioredis').Redis;
  connect(name: string, options?: import('ioredis').RedisOptions): import('ioredis').Redis;
}

export interface CallOptions {
  /** Default 'interactive'. */
  priority?: Priority;
  /** Skip the read cache for this call (the result still refreshes the cache). */
  fresh?: boolean;
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface LicensingClientOptions {
  /** Base URL without /v1, e.g. https://www.sqlbi.com/api/licensing */
  baseUrl: string;
  token: string;
  dispatcher?: Dispatcher;
  /** undici timeouts in ms; defaults connect 5_000, headers 10_000, body 10_000. */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /** Pacing; when omitted a bottleneck limiter is built from `rateLimit`. */
  limiter?: RateLimiter;
  rateLimit?: {
    /** LICENSING_RATE_LIMIT_PER_MINUTE, default 25 (per windowMs). */
    limit?: number;
    /** Default 60_000. A single 429 without Retry-After pauses for a twentieth of it, then probes. */
    windowMs?: number;
    marginMs?: number;
    /** Slots kept free of background work for interactive requests; default 5. */
    reservedInteractive?: number;
    /** Requests allowed to wait; past it, QueueFullError. Default 200. */
    maxQueue?: number;
    /** Share one budget across processes through Redis (the app's connections, src/kernel/services/redis.ts). */
    redis?: RedisSource;
    /** Limiter id in Redis; default `<redis.prefix>limiter` (the prefix hashes URL and token, never shows them). */
    id?: string;
  };
  retry?: { attempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  /**
   * DATA_DIR: where the limiter keeps the send times of the last window, so that a restarted process does
   * not spend what its predecessor already spent (not used with `rateLimit.redis`). None: memory only.
   */
  dataDir?: string | undefined;
  /** Read cache TTL for pools, pool, me and courses; default 30_000; 0 disables. */
  cacheTtlMs?: number;
  /** Page size the all-pages helper asks for; default 100 (falls back to 10 if refused). */
  pageSize?: number;
  logger?: Logger;
}

export interface LicensingClient {
  me(opts?: CallOptions): Promise<Me>;
  /** me's allowed e-mail domains for transferable licenses, cached apart: writes do not drop them. */
  allowedDomains(opts?: CallOptions): Promise<string[]>;
  courses: {
    list(opts?: CallOptions): Promise<Course[]>;
    get(id: string, opts?: CallOptions): Promise<Course>;
  };
  pools: {
    list(opts?: CallOptions): Promise<Pool[]>;
    get(id: string, opts?: CallOptions): Promise<Pool>;
    licenses(id: string, query?: ListQuery, opts?: CallOptions): Promise<License[]>;
    /** Every page of the pool's licenses. */
    allLicenses(id: string, query?: { includeInactive?: boolean }, opts?: CallOptions): Promise<License[]>;
    assign(id: string, body: AssignRequest, opts?: CallOptions): Promise<License>;
  };
  licenses: {
    list(query?: ListQuery, opts?: CallOptions): Promise<License[]>;
    /** Every page. */
    all(query?: { includeInactive?: boolean }, opts?: CallOptions): Promise<License[]>;
    /** Never cached: always a fresh read. */
    get(id: string, opts?: CallOptions): Promise<License>;
    changeEndDate(id: string, endDate: string, opts?: CallOptions): Promise<License>;
    revoke(id: string, opts?: CallOptions): Promise<void>;
  };
  students: {
    list(query?: ListQuery, opts?: CallOptions): Promise<Student[]>;
    /** Every page. */
    all(query?: { includeInactive?: boolean }, opts?: CallOptions): Promise<Student[]>;
    /** One student by e-mail or id, never cached; NotFoundError when there is none (or the endpoint is missing). */
    find(
      query: { email: string } | { id: string },
      opts?: CallOptions & { includeInactive?: boolean },
    ): Promise<Student>;
  };
  /** The page size the all-pages walks ask for now (lowered to 10 once the server refused the larger one). */
  pageSize(): number;
  /** Drops every cached read. */
  invalidateCache(): void;
  /** True once an answer said the service is a sandbox (x-licensing-sandbox: 1). Optional for test fakes. */
  isSandbox?(): boolean;
  readonly limiter: RateLimiter;
  /**
   * Stops the client: later calls, and calls still queued in the limiter, fail with StoppedError.
   * `abort: true` also ends the requests in flight at once (StoppedError, outcomeUnknown for a
   * write) instead of waiting for their answers: for a shutdown whose time is up.
   */
  close(options?: { abort?: boolean }): Promise<void>;
}
