/**
 * The Redis side of the limiter: one ioredis connection shared by both bottleneck limiters, with the
 * small runtime fix bottleneck 2.19.5 needs on Redis 7 (ratelimit.md, "Several processes sharing one
 * budget"). The connection comes from the app's one Redis factory (src/kernel/services/redis.ts), passed in as
 * a RedisSource: this layer never reads REDIS_URL.
 */
import Bottleneck from 'bottleneck';
import type { Logger, RedisSource } from '../types.js';

/**
 * The error names bottleneck's Lua scripts raise and its RedisDatastore compares with `===` (or
 * `indexOf(...) === 0` for OVERWEIGHT). Redis 7 prefixes script errors with `ERR `, so the comparison
 * fails and, after a flush, a Redis restart without persistence or a pause longer than clientTimeout,
 * the limiter never re-initialises its keys or re-registers: every later job fails for good (fixed
 * upstream after 2.19.5, but never released).
 */
const BOTTLENECK_SCRIPT_ERRORS = /^ERR ((?:SETTINGS_KEY_NOT_FOUND|UNKNOWN_CLIENT|OVERWEIGHT)\b.*)$/s;

type ScriptCallback = (err: unknown, replies: unknown) => void;

/** Strips Redis 7's `ERR ` from bottleneck's own script errors; other errors are left as they are. */
export function normalizeScriptError(err: unknown): unknown {
  if (err instanceof Error) {
    const match = BOTTLENECK_SCRIPT_ERRORS.exec(err.message);
    if (match?.[1] !== undefined) err.message = match[1];
  }
  return err;
}

/**
 * Wraps the callback every bottleneck script call goes through (`__scriptArgs__`, which appends the
 * callback to the script's arguments) on this one connection object, so the fix touches nothing global.
 * Returns false when the method is missing (another bottleneck version): the caller logs it.
 */
export function patchScriptErrors(connection: object): boolean {
  const original: unknown = Reflect.get(connection, '__scriptArgs__');
  if (typeof original !== 'function') return false;
  const patched = function (this: unknown, name: unknown, id: unknown, args: unknown, cb: ScriptCallback): unknown {
    const wrapped: ScriptCallback = (err, replies) => cb(err == null ? err : normalizeScriptError(err), replies);
    return Reflect.apply(original, this, [name, id, args, wrapped]);
  };
  return Reflect.set(connection, '__scriptArgs__', patched);
}

/**
 * What the limiter knows about Redis (docs/rate-limiting.md, "Redis"). While it is unreachable the shared
 * budget is too, so requests are refused at once instead of waiting on reconnects; and the log says so
 * once, then a summary at the first reconnect attempt after each `summaryEveryMs`, then once more when it
 * is back (ioredis retries every few hundred ms, at most every 2 s, and both of bottleneck's connections
 * report each attempt).
 */
export interface RedisHealth {
  /** True from the first connection failure until Redis is ready again. */
  isDown(): boolean;
  /** The last connection error, for the caller's error message (never the URL: it may hold a password). */
  reason(): string;
  /** Called each time Redis goes from reachable (or not yet known) to unreachable. */
  onDown(listener: () => void): void;
}

export interface RedisLimiterConnection {
  connection: Bottleneck.IORedisConnection;
  health: RedisHealth;
  close(): Promise<void>;
}

export interface RedisConnectionOptions {
  /** How often "still unreachable" is summarised; default 60_000. */
  summaryEveryMs?: number | undefined;
  now?: () => number;
}

/** Errors about the connection itself (as opposed to a command Redis refused). */
function isConnectionError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (typeof Reflect.get(error, 'code') === 'string') return true;
  const name = String(Reflect.get(error, 'name'));
  const message = String(Reflect.get(error, 'message'));
  return name === 'MaxRetriesPerRequestError' || /connect|connection|closed|socket/i.test(message);
}

/**
 * Closes both connections: QUIT lets pending replies arrive; when Redis is unreachable it may never
 * answer, so after a short grace the sockets are simply closed.
 */
function disconnect(connection: Bottleneck.IORedisConnection): Promise<void> {
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => {
      void connection.disconnect(false);
      resolve();
    }, 1_000);
    connection.disconnect(true).then(
      () => {
        clearTimeout(force);
        resolve();
      },
      () => {
        clearTimeout(force);
        void connection.disconnect(false);
        resolve();
      },
    );
  });
}

export function createRedisLimiterConnection(
  source: RedisSource,
  logger: Logger,
  opts: RedisConnectionOptions = {},
): RedisLimiterConnection {
  const now = opts.now ?? Date.now;
  const summaryEveryMs = opts.summaryEveryMs ?? 60_000;
  const Redis = source.Redis;
  const client = source.connect('license-desk-limiter', {
    // Fail a script call after a few reconnect attempts instead of queueing it for long; the limiter
    // also refuses new work at once while Redis is known to be down (RedisHealth).
    maxRetriesPerRequest: 5,
    // A Redis host that does not answer at all is known to be down after this, not after ioredis's 10 s.
    connectTimeout: 3_000,
  });
  let closing = false;
  let down = false;
  let downSince = 0;
  let lastReason = 'not connected yet';
  let attempts = 0;
  let attemptsSinceSummary = 0;
  let summarisedAt = 0;
  const downListeners: (() => void)[] = [];

  const markDown = (error: unknown) => {
    lastReason = error instanceof Error ? error.message : String(error);
    if (down || closing) return;
    down = true;
    downSince = now();
    summarisedAt = downSince;
    attempts = 0;
    attemptsSinceSummary = 0;
    logger.warn(
      'rate limiter: Redis is unreachable, and with it the shared licensing rate budget; licensing requests are refused until it is back',
      { error: lastReason },
    );
    for (const listener of downListeners) listener();
  };

  // While Redis is away, ioredis tries to reconnect (every 2 s at most): those attempts are summarised
  // at the first one after each `summaryEveryMs`, so no timer of its own is needed.
  const summarise = () => {
    if (!down || closing || now() - summarisedAt < summaryEveryMs) return;
    const seconds = Math.round(summaryEveryMs / 1000);
    logger.warn(
      `rate limiter: Redis still unreachable: ${attemptsSinceSummary} reconnect attempts in the last ${seconds === 60 ? 'minute' : `${seconds} s`}`,
      { attempts: attemptsSinceSummary, downForSec: Math.round((now() - downSince) / 1000), error: lastReason },
    );
    summarisedAt = now();
    attemptsSinceSummary = 0;
  };

  client.on('ready', () => {
    if (down) {
      down = false;
      logger.info(
        `rate limiter: Redis is reachable again after ${Math.round((now() - downSince) / 1000)} s (${attempts} reconnect attempts); licensing requests go out again`,
        { attempts, downForSec: Math.round((now() - downSince) / 1000) },
      );
    }
  });
  client.on('reconnecting', () => {
    attempts++;
    attemptsSinceSummary++;
    summarise();
  });
  client.on('close', () => {
    if (!closing) markDown(new Error('the connection to Redis closed'));
  });
  // bottleneck re-emits every error of its two connections (commands and pub/sub) here.
  const connection = new Bottleneck.IORedisConnection({ client, Redis });
  connection.on('error', (error: unknown) => {
    if (closing) return;
    // Before the connection is ready, every error (refused, reset, something that does not speak Redis,
    // a wrong password) comes back on each reconnect attempt: it is the connection's.
    if (client.status !== 'ready' || isConnectionError(error)) return markDown(error);
    logger.warn('rate limiter: Redis error', { error: String(error) });
  });
  if (!patchScriptErrors(connection)) {
    logger.warn('rate limiter: could not apply the Redis 7 error-prefix fix; recovery after a flush may fail');
  }
  let closed: Promise<void> | undefined;
  return {
    connection,
    health: {
      isDown: () => down,
      reason: () => lastReason,
      onDown: (listener) => downListeners.push(listener),
    },
    close() {
      closing = true;
      closed ??= disconnect(connection);
      return closed;
    },
  };
}
