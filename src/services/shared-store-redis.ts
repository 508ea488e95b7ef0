/**
 * The shared store on Redis (REDIS_URL): what the replicas of License Desk share besides the rate
 * budget (docs/deployment.md). One connection of its own, named so in CLIENT LIST. Every key starts
 * with KEY_PREFIX. A call while Redis is down fails after a few reconnect attempts; its callers say
 * what they do then (most fall back to what this process knows).
 */
import { Redis } from 'ioredis';
import type { Logger } from '../licensing/types.js';
import { KEY_PREFIX, type SharedStore } from './shared-store.js';

// Deletes or extends a key only while it holds the caller's value: a claim expired and taken by
// another replica is never released or renewed by the one that lost it.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const UPDATE_TRIES = 20;

export function createRedisStore(redisUrl: string, logger: Logger): SharedStore {
  const client = new Redis(redisUrl, {
    maxRetriesPerRequest: 3,
    connectTimeout: 3_000,
    connectionName: 'license-desk-shared',
  });
  let down = false;
  client.on('error', (error: unknown) => {
    if (down) return;
    down = true;
    logger.warn('shared state: Redis is unreachable; each replica falls back to what it knows', {
      error: error instanceof Error ? error.message : String(error),
    });
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info('shared state: Redis is back');
  });
  const k = (key: string) => `${KEY_PREFIX}${key}`;
  let watcher: Redis | undefined;
  let updates: Promise<unknown> = Promise.resolve();

  return {
    shared: true,
    get: async (key) => (await client.get(k(key))) ?? undefined,
    async set(key, value, ttlMs) {
      if (ttlMs === undefined) await client.set(k(key), value);
      else await client.set(k(key), value, 'PX', Math.max(1, Math.round(ttlMs)));
    },
    async claim(key, value, ttlMs) {
      return (await client.set(k(key), value, 'PX', Math.max(1, Math.round(ttlMs)), 'NX')) === 'OK';
    },
    async renew(key, value, ttlMs) {
      return (await client.eval(RENEW, 1, k(key), value, Math.max(1, Math.round(ttlMs)))) === 1;
    },
    async delete(key, value) {
      if (value === undefined) await client.del(k(key));
      else await client.eval(RELEASE, 1, k(key), value);
    },
    update(key, change) {
      // Optimistic: WATCH the key, compute, MULTI/EXEC; EXEC answers null when another writer came
      // first, and the change is computed again. WATCH belongs to a connection: one of its own, used
      // by one update at a time.
      const next = updates.then(async () => {
        if (!watcher) {
          watcher = client.duplicate({ connectionName: 'license-desk-shared-update' });
          watcher.on('error', () => undefined);
        }
        for (let i = 0; i < UPDATE_TRIES; i++) {
          await watcher.watch(k(key));
          const value = change((await watcher.get(k(key))) ?? undefined);
          if ((await watcher.multi().set(k(key), value).exec()) !== null) return value;
        }
        throw new Error(`shared state: ${key} kept changing under ${UPDATE_TRIES} attempts to update it`);
      });
      updates = next.catch(() => undefined);
      return next;
    },
    async close() {
      await client.quit().catch(() => client.disconnect());
      await watcher?.quit().catch(() => watcher?.disconnect());
    },
  };
}
