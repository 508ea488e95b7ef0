/**
 * The one place License Desk connects to Redis (REDIS_URL): every part that needs Redis asks these
 * connections for one of its own (named so in CLIENT LIST), and every key it writes starts with
 * `prefix`, one per licensing account (redisPrefix), so two deployments on one Redis never see each
 * other's state. What Redis still holds is only what the replicas must share within a second
 * (docs/deployment.md): the licensing rate budget, the repeat guard, caches such as the App Home
 * snapshot. Records live in the database (docs/records.md).
 *
 * ioredis is loaded by the first call (REDIS_URL only): a start without Redis skips its modules.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';

export interface RedisConnections {
  /** What every key starts with, e.g. `license-desk:3f2a…:`. */
  readonly prefix: string;
  /** The ioredis class (bottleneck takes it beside a connection). */
  readonly Redis: typeof Redis;
  /** A new connection, closed by close(); its errors are the caller's to watch (an 'error' listener is set). */
  connect(name: string, options?: RedisOptions): Redis;
  /** undefined when Redis answers PING within `timeoutMs`; otherwise one sentence without the URL. */
  health(timeoutMs?: number): Promise<string | undefined>;
  /** Closes every connection made here (QUIT, then a disconnect after a short grace). */
  close(): Promise<void>;
}

/**
 * The key prefix of one deployment: the app's name and a hash of the licensing API's URL and token
 * (the account), never the token itself. Replicas of one deployment share it; the in-process sandbox,
 * whose URL and token are new at each start, gets one of its own each time.
 */
export function redisPrefix(licensingUrl: string, token: string): string {
  const hash = createHash('sha256')
    .update(`${licensingUrl.replace(/\/+$/, '')}\n${token}`)
    .digest('hex');
  return `license-desk:${hash.slice(0, 16)}:`;
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function createRedisConnections(url: string, prefix: string): RedisConnections {
  const RedisClass = (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis;
  const made = new Set<Redis>();
  let probe: Redis | undefined;
  const connect = (name: string, options: RedisOptions = {}): Redis => {
    const client = new RedisClass(url, { connectTimeout: 3_000, ...options, connectionName: name });
    // Without a listener ioredis prints every failed attempt; each user watches what it needs.
    client.on('error', () => undefined);
    made.add(client);
    return client;
  };
  return {
    prefix,
    Redis: RedisClass,
    connect,
    async health(timeoutMs = 1_000) {
      // A PING waits in the offline queue while the connection (re)connects, and fails at a failed attempt.
      probe ??= connect('license-desk-health', { maxRetriesPerRequest: 0 });
      let timer: NodeJS.Timeout | undefined;
      try {
        const answer = await Promise.race([
          probe.ping(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return answer === 'PONG' ? undefined : `Redis answered PING with ${String(answer)}`;
      } catch (error) {
        return `Redis does not answer (${reason(error).split('\n')[0]})`;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      const all = [...made];
      made.clear();
      await Promise.all(
        all.map(
          (client) =>
            new Promise<void>((resolve) => {
              const force = setTimeout(() => {
                client.disconnect();
                resolve();
              }, 1_000);
              client.quit().then(
                () => {
                  clearTimeout(force);
                  resolve();
                },
                () => {
                  clearTimeout(force);
                  client.disconnect();
                  resolve();
                },
              );
            }),
        ),
      );
    },
  };
}
