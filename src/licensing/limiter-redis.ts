/**
 * The Redis side of the limiter: one ioredis connection shared by both bottleneck limiters, with the
 * small runtime fix bottleneck 2.19.5 needs on Redis 7 (ratelimit.md, "Several processes sharing one
 * budget").
 */
import Bottleneck from 'bottleneck';
import { Redis } from 'ioredis';
import type { Logger } from './types.js';

/**
 * The error names bottleneck's Lua scripts raise and its RedisDatastore compares with `===` (or
 * `indexOf(...) === 0` for OVERWEIGHT). Redis 7 prefixes script errors with `ERR `, so the comparison
 * fails and, after a flush, a Redis restart without persistence or a pause longer than clientTimeout,
 * the limiter never re-initialises its keys or re-registers: every later job fails for good (upstream
 * PRs #215 and #222, never released).
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

export interface RedisLimiterConnection {
  connection: Bottleneck.IORedisConnection;
  close(): Promise<void>;
}

export function createRedisLimiterConnection(redisUrl: string, logger: Logger): RedisLimiterConnection {
  const client = new Redis(redisUrl, {
    // Fail a script call after a few reconnect attempts instead of queueing it for long: the job then
    // rejects with a clear error rather than hanging while Redis is away.
    maxRetriesPerRequest: 5,
    connectionName: 'license-desk-limiter',
  });
  const connection = new Bottleneck.IORedisConnection({ client, Redis });
  connection.on('error', (error: unknown) => {
    logger.warn('rate limiter: Redis connection error', { error: String(error) });
  });
  if (!patchScriptErrors(connection)) {
    logger.warn('rate limiter: could not apply the Redis 7 error-prefix fix; recovery after a flush may fail');
  }
  let closed: Promise<void> | undefined;
  return {
    connection,
    close() {
      // QUIT lets pending replies arrive; when Redis is unreachable it may never answer, so after a
      // short grace the sockets are simply closed.
      closed ??= new Promise<void>((resolve) => {
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
      return closed;
    },
  };
}
