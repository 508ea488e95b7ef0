/**
 * The shared store on Redis (REDIS_URL): what the replicas of License Desk must share within a second
 * besides the rate budget (docs/deployment.md): the repeat guard and caches.
 * One connection of its own from the app's Redis connections (redis.ts), named so in CLIENT LIST; every
 * key starts with their prefix (one per deployment). A call while Redis is down fails after a few
 * reconnect attempts; its callers say what they do then (most fall back to what this process knows).
 */
import type { Logger } from '../licensing/types.js';
import type { RedisConnections } from './redis.js';
import type { SharedStore } from './shared-store.js';

// Deletes or extends a key only while it holds the caller's value: a claim expired and taken by
// another replica is never released or renewed by the one that lost it.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;

export function createRedisStore(connections: RedisConnections, logger: Logger): SharedStore {
  const client = connections.connect('license-desk-shared', { maxRetriesPerRequest: 3 });
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
  const k = (key: string) => `${connections.prefix}${key}`;

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
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
