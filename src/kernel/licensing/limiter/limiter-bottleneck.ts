/**
 * The RateLimiter the client uses by default: bottleneck 2.19.5 behind our own interface, following
 * the facts measured in docs/ratelimit.md.
 *
 * - Held slot: `maxConcurrent: limit`, and every job keeps its slot until windowMs + marginMs after its
 *   fn settled, so at most `limit` requests start in any rolling window. That is the strictest of the
 *   server algorithms (fixed window, sliding log, token bucket), the only strategy that stayed at 0 × 429
 *   with jittery latency, and it behaves the same with Redis. The caller's promise settles with fn.
 * - No minTime and no reservoir: after idle, a burst of `limit` requests goes out at once.
 * - Priorities reorder the queue but cannot free a taken slot, so background work goes through a second
 *   limiter capped at limit − reservedInteractive held slots: an interactive request finds headroom.
 * - A 429 costs a short pause and a probe (limiter-backoff.ts): jobs drained during the pause give their
 *   slot back unused and wait; then one request goes alone, and when it comes back without a 429 the
 *   rest follow at full pace. Only 429s that repeat while we keep under our limit lower it
 *   (limiter-adaptive.ts).
 * - Every send is logged for a window; with sendsFile the log survives a restart, and a new process
 *   starts with its predecessor's recent sends holding their slots (limiter-sends.ts).
 * - With redis, both limiters live in Redis under a shared id, so several processes share one budget
 *   (held slots survive a restart there until their expiration). While Redis is unreachable, requests
 *   fail at once with RateBudgetUnavailableError.
 *
 * The parts, each a module with its own state (docs/rate-limiting.md, "The parts"): the wait queue
 * and shedding (limiter-queue.ts), the 429 gate (limiter-gate.ts over limiter-backoff.ts), the adaptive
 * limit (limiter-adaptive.ts), held slots and stop (limiter-holds.ts), Redis readiness
 * (limiter-readiness.ts, limiter-redis.ts), the send log (limiter-sends.ts) and the yield patch
 * (limiter-yield.ts). This file only composes them around the two bottleneck limiters.
 */
import Bottleneck from 'bottleneck';
import { RateBudgetUnavailableError } from '../errors.js';
import type { LimiterStats, Priority, RateLimiter, RateLimitReport } from '../limiter.js';
import type { Logger, RedisSource } from '../types.js';
import { type AdaptiveLimit, createAdaptiveLimit, type LimitChange } from './limiter-adaptive.js';
import {
  type BackoffDecision,
  type BackoffPolicy,
  createBackoffPolicy,
  LOWER_WITHIN_WINDOWS,
} from './limiter-backoff.js';
import { type Clock, systemClock } from './limiter-clock.js';
import { createPauseGate, type PauseGate } from './limiter-gate.js';
import { createHolds, type Holds } from './limiter-holds.js';
import { createWaitQueue, QUEUE_ENDPOINT, type WaitQueue } from './limiter-queue.js';
import { createReadiness, type Readiness } from './limiter-readiness.js';
import { createRedisLimiterConnection, type RedisLimiterConnection } from './limiter-redis.js';
import { createSendLog, type SendLog } from './limiter-sends.js';
import { yieldWithSetImmediate } from './limiter-yield.js';

export interface BottleneckLimiterOptions {
  /** Requests allowed per window (LICENSING_RATE_LIMIT_PER_MINUTE). */
  limit: number;
  windowMs: number;
  /** Added to the window before a held slot is released (clock skew, latency on the server side). */
  marginMs: number;
  /** Held slots background work may never take. */
  reservedInteractive: number;
  /** Jobs allowed to wait; past it, QueueFullError. */
  maxQueue: number;
  /** Share one budget across processes through Redis (the app's connections, src/kernel/services/redis.ts). */
  redis?: RedisSource | undefined;
  /** Limiter id in Redis, shared by every process of one token; default `<redis.prefix>limiter`, or 'license-desk'. */
  id?: string | undefined;
  logger?: Logger | undefined;
  /**
   * After this long a job's slot is given back even if its process never released it (a process that
   * died holds its Redis slots until then). Must exceed the request timeout + windowMs + marginMs;
   * default windowMs + marginMs + 15_000.
   */
  jobExpirationMs?: number | undefined;
  /**
   * How long a job waits for Redis to become ready (at start, or a Redis that accepts connections but
   * does not answer) before it is rejected with RateBudgetUnavailableError; default 3_000.
   */
  redisReadyTimeoutMs?: number | undefined;
  /** While Redis is unreachable, how often the log summarises the reconnect attempts; default 60_000. */
  redisLogSummaryMs?: number | undefined;
  /** The pause after a single 429 without Retry-After; default windowMs / 20. */
  firstPauseMs?: number | undefined;
  /**
   * A file that keeps the send times of the last window across restarts (in DATA_DIR). Not used with
   * redis: there the held slots themselves outlive the process.
   */
  sendsFile?: string | undefined;
  /**
   * The clock of the limiter's own timers (holds, 429 pauses, the ready timeout); default the system
   * clock. Tests pass a fake one; bottleneck's internal turns of the event loop stay real.
   */
  clock?: Clock | undefined;
}

/** bottleneck priorities: 0 runs first. */
const BOTTLENECK_PRIORITY: Record<Priority, number> = { interactive: 1, background: 6 };
const DEFAULT_REDIS_ID = 'license-desk';
const STOPPED_MESSAGE = 'the rate limiter was stopped';

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

interface Entry {
  seq: number;
  priority: Priority;
  /** Not started, not failed: the request may still be sent. */
  waiting(): boolean;
  /** Runs fn and settles the caller's promise with it; never throws. */
  start(): Promise<void>;
  /** Rejects the caller if fn has not started yet; ignored afterwards. */
  fail(error: unknown): void;
}

/** A RateLimiter that can also be awaited until its datastore is usable (a no-op without Redis). */
export interface BottleneckRateLimiter extends RateLimiter {
  /** Resolves once Redis is connected and the configured limit pushed; rejects after redisReadyTimeoutMs. */
  ready(): Promise<void>;
  /**
   * True while bottleneck is still moving a job: one received but not queued yet, registered but not
   * started, or queued while a slot is free. False means nothing changes until a timer fires or a job
   * arrives: tests on a fake clock wait for that before they move the clock.
   */
  settling(): boolean;
}

export function createBottleneckLimiter(opts: BottleneckLimiterOptions): BottleneckRateLimiter {
  validate(opts);
  const p = assemble(opts);
  holdInheritedSends(p);
  p.redis?.health.onDown(() => {
    // Waiting would only end in a reconnect timeout: say it now.
    for (const entry of p.queue.entries()) entry.fail(p.budgetUnavailable());
    p.gate.retain((entry) => entry.waiting());
  });
  let stopPromise: Promise<void> | undefined;

  return {
    ready: () => p.readiness.whenReady(),
    settling: () => settling(p),
    schedule: <T>(priority: Priority, fn: () => Promise<T>): Promise<T> => enqueue(p, priority, fn),
    onRateLimited: (report: RateLimitReport): number => onRateLimited(p, report),
    onSuccess(sentAt?: number) {
      p.adaptive.recordSuccess();
      if (sentAt !== undefined && p.backoff.onSuccess(sentAt)) {
        p.log.info('rate limiter: the probe went through; back to full pace', { limit: p.adaptive.current() });
        p.gate.resume();
      }
      probeUp(p);
    },
    stats: (): LimiterStats => ({
      currentLimit: p.adaptive.current(),
      configuredLimit: opts.limit,
      windowMs: opts.windowMs,
      queued: p.queue.waiting(),
      running: p.holds.held(),
    }),
    estimateWaitMs: (priority: Priority): number =>
      p.queue.estimateWaitMs(priority, {
        held: p.holds.held(),
        pauseLeftMs: p.gate.pauseLeftMs(),
        freeInMs: p.holds.freeInMs(),
      }),
    stop(): Promise<void> {
      stopPromise ??= stop(p);
      return stopPromise;
    },
  };
}

/** How long a slot is held, when bottleneck gives a slot back on its own, and background work's share. */
interface Paces {
  holdMs: number;
  expirationMs: number;
  backgroundExpirationMs: number;
  backgroundCap(limit: number): number;
}

function paces(opts: BottleneckLimiterOptions): Paces {
  const holdMs = opts.windowMs + opts.marginMs;
  const expirationMs = opts.jobExpirationMs ?? holdMs + 15_000;
  return {
    holdMs,
    expirationMs,
    // A background job holds its background slot while it waits in the main queue behind interactive
    // work, so its own expiration must also cover that wait (bounded by the queue length).
    backgroundExpirationMs: expirationMs + Math.ceil(Math.max(1, opts.maxQueue) / opts.limit) * holdMs,
    backgroundCap: (limit: number) => Math.max(1, limit - opts.reservedInteractive),
  };
}

/** The two bottleneck limiters: every job goes through `main`; background work first through `background`. */
interface Limiters {
  main: Bottleneck;
  background: Bottleneck;
  /** With Redis: connected and the configured limit pushed. */
  setup: Promise<void> | undefined;
  applyLimit(change: LimitChange): void;
}

/** Everything one limiter is made of, shared by the steps below. */
interface Parts {
  opts: BottleneckLimiterOptions;
  log: Logger;
  now: () => number;
  pace: Paces;
  life: { stopping: boolean; seq: number };
  adaptive: AdaptiveLimit;
  backoff: BackoffPolicy;
  queue: WaitQueue<Entry>;
  holds: Holds;
  gate: PauseGate<Entry>;
  redis: RedisLimiterConnection | undefined;
  sends: SendLog;
  limiters: Limiters;
  readiness: Readiness;
  budgetUnavailable(): RateBudgetUnavailableError;
}

function assemble(opts: BottleneckLimiterOptions): Parts {
  const log = opts.logger ?? silentLogger;
  const clock = opts.clock ?? systemClock;
  const now = () => clock.now();
  const pace = paces(opts);
  const life = { stopping: false, seq: 0 };
  const adaptive = createAdaptiveLimit({ configured: opts.limit, windowMs: opts.windowMs, now });
  const backoff = createBackoffPolicy({ windowMs: opts.windowMs, firstPauseMs: opts.firstPauseMs, now });
  const queue = createWaitQueue<Entry>({
    maxQueue: opts.maxQueue,
    limit: () => adaptive.current(),
    backgroundCap: pace.backgroundCap,
    holdMs: pace.holdMs,
  });
  const holds = createHolds(clock);
  // Parked jobs go through submit() again when the pause ends or the probe answers.
  const gate = createPauseGate<Entry>({ backoff, clock, resubmit: (entry) => submit(parts, entry) });
  const redis: RedisLimiterConnection | undefined =
    opts.redis === undefined
      ? undefined
      : createRedisLimiterConnection(opts.redis, log, { summaryEveryMs: opts.redisLogSummaryMs });
  const id = opts.id ?? (opts.redis ? `${opts.redis.prefix}limiter` : DEFAULT_REDIS_ID);
  const sends = createSendLog({
    keepMs: pace.holdMs,
    now,
    file: redis === undefined ? opts.sendsFile : undefined,
    budget: id,
    logger: log,
  });
  const budgetUnavailable = () =>
    new RateBudgetUnavailableError(redis?.health.reason() ?? 'unknown', { endpoint: QUEUE_ENDPOINT });
  const limiters = createLimiters({ id, redis, log, limit: opts.limit, pace, life });
  // An entry waiting here is also in the queue, which a Redis failure fails at once (see health.onDown).
  const readiness = createReadiness({
    setup: limiters.setup,
    clock,
    timeoutMs: opts.redisReadyTimeoutMs ?? 3_000,
    isDown: () => redis?.health.isDown() ?? false,
    unavailable: budgetUnavailable,
    timedOut: (ms) => new RateBudgetUnavailableError(`no answer within ${ms} ms`, { endpoint: QUEUE_ENDPOINT }),
  });
  const parts: Parts = {
    opts,
    log,
    now,
    pace,
    life,
    adaptive,
    backoff,
    queue,
    holds,
    gate,
    redis,
    sends,
    limiters,
    readiness,
    budgetUnavailable,
  };
  return parts;
}

function createLimiters(o: {
  id: string;
  redis: RedisLimiterConnection | undefined;
  log: Logger;
  limit: number;
  pace: Paces;
  life: { stopping: boolean };
}): Limiters {
  const { redis, log, pace } = o;
  const options = redisOptions(redis, pace.expirationMs);
  const build = (suffix: string, maxConcurrent: number) =>
    new Bottleneck({ id: `${o.id}${suffix}`, maxConcurrent, ...options });
  const main = build('', o.limit);
  const background = build(':background', pace.backgroundCap(o.limit));
  for (const limiter of [main, background]) {
    if (redis === undefined) {
      const problem = yieldWithSetImmediate(limiter);
      if (problem !== undefined) log.debug('rate limiter: kept bottleneck local yield (slower bursts)', { problem });
    }
    limiter.on('error', (error: unknown) => {
      // After stop() the Redis connection is closed on purpose before the holds end (see stop()); while
      // Redis is down, its health has said so once already.
      if (o.life.stopping || redis?.health.isDown())
        log.debug('rate limiter: bottleneck error', { error: String(error) });
      else log.warn('rate limiter: bottleneck error', { error: String(error) });
    });
  }
  const setLimit = (limit: number) =>
    Promise.all([
      main.updateSettings({ maxConcurrent: limit }),
      background.updateSettings({ maxConcurrent: pace.backgroundCap(limit) }),
    ]);
  // Constructor options are ignored once the limiter's keys exist in Redis: push the configured limit.
  const setup: Promise<void> | undefined =
    redis === undefined
      ? undefined
      : Promise.all([main.ready(), background.ready()])
          .then(() => setLimit(o.limit))
          .then(() => undefined);
  setup?.catch((error: unknown) => log.error('rate limiter: Redis setup failed', { error: String(error) }));
  const applyLimit = (change: LimitChange) => {
    setLimit(change.to).catch((error: unknown) =>
      log.warn('rate limiter: could not apply the new limit', { error: String(error) }),
    );
  };
  return { main, background, setup, applyLimit };
}

function redisOptions(redis: RedisLimiterConnection | undefined, expirationMs: number): Bottleneck.ConstructorOptions {
  if (redis === undefined) return {};
  return {
    datastore: 'ioredis',
    connection: redis.connection,
    // Never clearDatastore on a shared id: it would wipe the other processes' held slots.
    clearDatastore: false,
    // Expired slots of a dead process are reclaimed when a script runs, at the latest on a
    // heartbeat: keep that well under the expiration (bottleneck's default is 5 s).
    heartbeatInterval: Math.min(5_000, Math.max(100, Math.floor(expirationMs / 10))),
  };
}

/** Holds a slot for each send of a predecessor (from sendsFile) until its slot would have been released. */
function holdInheritedSends(p: Parts): void {
  for (const send of p.sends.inherited) {
    const remaining = send.until - p.now();
    if (remaining <= 0) continue;
    const release = p.holds.take();
    p.limiters.main
      .schedule({ priority: 0, expiration: p.pace.expirationMs }, () => p.holds.hold(remaining))
      .catch(() => undefined)
      .finally(release);
  }
  if (p.sends.inherited.length > 0) {
    p.log.info('rate limiter: holding the slots of requests sent before the restart', {
      inherited: p.sends.inherited.length,
      limit: p.opts.limit,
    });
  }
}

function probeUp(p: Parts): void {
  const change = p.adaptive.maybeProbe();
  if (change === undefined) return;
  p.limiters.applyLimit(change);
  p.log.info(`rate limiter: no 429 for a while, raising the limit from ${change.from} to ${change.to}`, {
    ...change,
    configuredLimit: p.opts.limit,
  });
}

/** A caller's request: it waits in the queue until Redis is ready, then goes to bottleneck. */
function enqueue<T>(p: Parts, priority: Priority, fn: () => Promise<T>): Promise<T> {
  if (p.life.stopping) return Promise.reject(new Error(STOPPED_MESSAGE));
  if (p.redis?.health.isDown()) return Promise.reject(p.budgetUnavailable());
  const refusal = p.queue.refusal();
  if (refusal !== undefined) return Promise.reject(refusal);
  probeUp(p);
  return new Promise<T>((resolve, reject) => {
    const entry = createEntry(p, priority, fn, resolve, reject);
    p.queue.enter(entry);
    p.readiness.whenReady().then(
      () => submit(p, entry),
      (error: unknown) => entry.fail(error),
    );
  });
}

function createEntry<T>(
  p: Parts,
  priority: Priority,
  fn: () => Promise<T>,
  resolve: (value: T) => void,
  reject: (error: unknown) => void,
): Entry {
  let state: 'waiting' | 'started' | 'failed' = 'waiting';
  const entry: Entry = {
    seq: p.life.seq++,
    priority,
    waiting: () => state === 'waiting',
    async start() {
      if (state !== 'waiting') return;
      state = 'started';
      p.queue.leave(entry);
      try {
        resolve(await p.holds.inFlight(fn));
      } catch (error) {
        reject(error);
      }
    },
    fail(error) {
      if (state !== 'waiting') {
        p.log.debug('rate limiter: job error after its request started', { error: String(error) });
        return;
      }
      state = 'failed';
      p.queue.leave(entry);
      reject(failure(p, error));
    },
  };
  return entry;
}

/** Hands an entry to bottleneck: interactive work straight to main, background work through its own cap. */
function submit(p: Parts, entry: Entry) {
  if (p.life.stopping) return entry.fail(new Error(STOPPED_MESSAGE));
  if (p.redis?.health.isDown()) return entry.fail(p.budgetUnavailable());
  if (!p.gate.admits(entry)) return p.gate.park(entry);
  const { main, background } = p.limiters;
  const { expirationMs, backgroundExpirationMs } = p.pace;
  const job =
    entry.priority === 'interactive'
      ? main.schedule({ priority: BOTTLENECK_PRIORITY.interactive, expiration: expirationMs }, () => runEntry(p, entry))
      : background.schedule({ priority: BOTTLENECK_PRIORITY.background, expiration: backgroundExpirationMs }, () =>
          main.schedule({ priority: BOTTLENECK_PRIORITY.background, expiration: expirationMs }, () =>
            runEntry(p, entry),
          ),
        );
  job.catch((error: unknown) => {
    entry.fail(error);
    p.gate.probeSettled(entry);
  });
}

/** The body of a bottleneck job: from here until it returns, the entry holds a slot. */
async function runEntry(p: Parts, entry: Entry): Promise<void> {
  if (p.life.stopping) throw new Error(STOPPED_MESSAGE);
  // Failed while it waited (Redis went down): nothing to send, the slot goes back at once.
  if (!entry.waiting()) return;
  if (!p.gate.admits(entry)) {
    // Nothing was sent, so the slot goes back at once; the entry waits for the pause or the probe.
    p.gate.park(entry);
    return;
  }
  const release = p.holds.take();
  const answered = p.sends.record(p.now(), p.now() + p.pace.expirationMs);
  try {
    await entry.start();
    answered(p.now() + p.pace.holdMs);
    if (p.gate.isProbe(entry)) {
      // The caller reports the probe's answer (onSuccess / onRateLimited) in the microtasks that follow
      // its settling; after them, whatever the answer was, the next step can be taken.
      await new Promise<void>((resolve) => setImmediate(resolve));
      p.gate.probeSettled(entry);
    }
    await p.holds.hold(p.pace.holdMs);
  } finally {
    release();
  }
}

/** What the caller of a job that never started is told. */
function failure(p: Parts, error: unknown): unknown {
  if (p.life.stopping) return new Error(STOPPED_MESSAGE, { cause: error });
  if (error instanceof RateBudgetUnavailableError) return error;
  if (p.redis?.health.isDown()) return p.budgetUnavailable();
  if (p.redis !== undefined) {
    const detail = error instanceof Error ? error.message : String(error);
    return new Error(`rate limiter: could not schedule through Redis (${detail})`, { cause: error });
  }
  return error;
}

function onRateLimited(p: Parts, report: RateLimitReport): number {
  const limit = p.adaptive.current();
  const decision = p.backoff.onRateLimited({
    sentAt: report.sentAt,
    retryAfterMs: report.retryAfterMs,
    ownSendsInWindow: p.sends.countBetween(report.sentAt - p.opts.windowMs, report.sentAt),
    limit,
  });
  if (!decision.fresh) return decision.pauseMs;
  const change = p.adaptive.recordRateLimited(decision.lower);
  if (change !== undefined) p.limiters.applyLimit(change);
  logRateLimited(p, decision, change, {
    inARow: decision.level,
    pauseMs: decision.pauseMs,
    retryAfterMs: report.retryAfterMs,
    limit: change?.to ?? limit,
    configuredLimit: p.opts.limit,
  });
  p.gate.rearm();
  return decision.pauseMs;
}

/** One line per decision; the stale 429s of the same burst add nothing. */
function logRateLimited(
  p: Parts,
  decision: BackoffDecision,
  change: LimitChange | undefined,
  fields: Record<string, unknown>,
): void {
  if (change !== undefined) {
    p.log.warn(
      `rate limiter: ${decision.recent} × 429 within ${LOWER_WITHIN_WINDOWS} windows although we kept under our limit; lowering the limit from ${change.from} to ${change.to}, pausing ${decision.pauseMs} ms, then one request to probe`,
      { ...fields, from: change.from, to: change.to },
    );
  } else if (decision.level === 1) {
    p.log.info(
      `rate limiter: 429 from the licensing API; pausing ${decision.pauseMs} ms, then one request to probe`,
      fields,
    );
  } else {
    p.log.warn(
      `rate limiter: ${decision.level} × 429 in a row; pausing ${decision.pauseMs} ms, then one request to probe`,
      fields,
    );
  }
}

/** See BottleneckRateLimiter.settling (bottleneck's public counts(): RECEIVED, QUEUED, RUNNING, EXECUTING). */
function settling(p: Parts): boolean {
  const limit = p.adaptive.current();
  return moving(p.limiters.main, limit) || moving(p.limiters.background, p.pace.backgroundCap(limit));
}

function moving(limiter: Bottleneck, capacity: number): boolean {
  const counts = limiter.counts();
  const taken = (counts.RUNNING ?? 0) + (counts.EXECUTING ?? 0);
  return (counts.RECEIVED ?? 0) > 0 || (counts.RUNNING ?? 0) > 0 || ((counts.QUEUED ?? 0) > 0 && taken < capacity);
}

async function stop(p: Parts): Promise<void> {
  p.life.stopping = true;
  p.holds.endNewHolds();
  for (const entry of p.gate.close()) entry.fail(new Error(STOPPED_MESSAGE));
  // Drops what still waits in bottleneck; its stop() then waits for executing jobs (fn or hold).
  const stopped = Promise.all([
    p.limiters.background.stop({ dropWaitingJobs: true, dropErrorMessage: STOPPED_MESSAGE }),
    p.limiters.main.stop({ dropWaitingJobs: true, dropErrorMessage: STOPPED_MESSAGE }),
  ]).catch((error: unknown) => p.log.debug('rate limiter: stop', { error: String(error) }));
  await p.holds.whenNoneInFlight();
  // Close Redis before the holds end, so their slots stay taken in Redis until they expire: a
  // request sent less than a window ago still counts at the server (ratelimit.md, "Other pitfalls").
  // bottleneck can only expire a job a fixed time after it started, so those slots stay taken up to
  // the request timeout longer than their hold: a process still sharing the budget waits for them
  // (docs/rate-limiting.md, "Two processes, one budget").
  await Promise.all([p.redis?.close(), p.sends.flush()]);
  p.holds.cut();
  await stopped;
}

function validate(opts: BottleneckLimiterOptions): void {
  const check = (ok: boolean, what: string) => {
    if (!ok) throw new RangeError(`createBottleneckLimiter: ${what}`);
  };
  check(Number.isInteger(opts.limit) && opts.limit >= 1, 'limit must be an integer >= 1');
  check(Number.isFinite(opts.windowMs) && opts.windowMs > 0, 'windowMs must be > 0');
  check(Number.isFinite(opts.marginMs) && opts.marginMs >= 0, 'marginMs must be >= 0');
  check(
    Number.isInteger(opts.reservedInteractive) && opts.reservedInteractive >= 0,
    'reservedInteractive must be >= 0',
  );
  check(Number.isInteger(opts.maxQueue) && opts.maxQueue >= 0, 'maxQueue must be an integer >= 0');
  if (opts.jobExpirationMs !== undefined) {
    check(opts.jobExpirationMs > opts.windowMs + opts.marginMs, 'jobExpirationMs must exceed windowMs + marginMs');
  }
}
