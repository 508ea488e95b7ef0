/**
 * The waitlist shared by replicas through Redis (REDIS_URL): one list per pool of JSON entries
 * (`<prefix>:waitlist:pool:<poolId>`) and a set of the pools with a line (`<prefix>:waitlist:pools`).
 * A change is a compare-and-set: WATCH the keys, read, apply the change, write in MULTI/EXEC, and try
 * again when another replica changed them meanwhile. The lock of a pool's seatFreed is a key set with
 * NX and an expiry, renewed while held and deleted only by its holder, so one freed seat is given once
 * across replicas (docs/waitlist.md).
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { parseLines, type WaitlistLines } from '../domain/waitlist.js';
import type { Logger } from '../licensing/types.js';
import type { PoolLock, WaitlistStore } from './waitlist.js';

/** ioredis, loaded by the first connection (REDIS_URL only): a start without Redis skips its modules. */
const loadRedis = () => (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis;

export interface RedisWaitlist {
  store: WaitlistStore;
  lock: PoolLock;
  close(): Promise<void>;
}

export interface RedisWaitlistOptions {
  url: string;
  logger: Logger;
  /** Key prefix; default 'license-desk'. */
  prefix?: string;
  /** How long a lock lives unless renewed; default 60 s (renewed every third of it while held). */
  lockTtlMs?: number;
  /** How long a seatFreed waits for another replica's run of the same pool; default 30 s. */
  lockWaitMs?: number;
}

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

export function createRedisWaitlist(opts: RedisWaitlistOptions): RedisWaitlist {
  const prefix = `${opts.prefix ?? 'license-desk'}:waitlist`;
  const poolsKey = `${prefix}:pools`;
  const poolKey = (poolId: string) => `${prefix}:pool:${poolId}`;
  const lockKey = (poolId: string) => `${prefix}:lock:${poolId}`;
  const ttl = opts.lockTtlMs ?? 60_000;
  const lockWaitMs = opts.lockWaitMs ?? 30_000;
  const Redis = loadRedis();
  const redis = new Redis(opts.url, {
    maxRetriesPerRequest: 5,
    connectTimeout: 3_000,
    connectionName: 'license-desk-waitlist',
  });
  redis.on('error', (error: unknown) => opts.logger.warn('waitlist: Redis error', { error: String(error) }));
  // WATCH belongs to a connection: this process's changes take turns on it.
  let chain: Promise<unknown> = Promise.resolve();

  async function readAll(): Promise<WaitlistLines> {
    const pools = (await redis.smembers(poolsKey)).sort();
    if (pools.length === 0) return {};
    const pipeline = redis.pipeline();
    for (const p of pools) pipeline.lrange(poolKey(p), 0, -1);
    const answers = (await pipeline.exec()) ?? [];
    const raw: Record<string, unknown[]> = {};
    pools.forEach((p, i) => {
      const [error, items] = answers[i] ?? [null, []];
      if (error) throw error;
      raw[p] = (items as string[]).flatMap((item) => {
        try {
          return [JSON.parse(item) as unknown];
        } catch {
          return [];
        }
      });
    });
    return parseLines(raw) ?? {};
  }

  async function compareAndSet<T>(change: (lines: WaitlistLines) => T): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      await redis.watch(poolsKey);
      const pools = await redis.smembers(poolsKey);
      if (pools.length > 0) await redis.watch(...pools.map(poolKey));
      const before = await readAll();
      const after = structuredClone(before);
      const result = change(after);
      const touched = new Set([...Object.keys(before), ...Object.keys(after)]);
      const multi = redis.multi();
      for (const p of touched) {
        const was = JSON.stringify(before[p] ?? []);
        const now = JSON.stringify(after[p] ?? []);
        if (was === now) continue;
        multi.del(poolKey(p));
        const line = after[p] ?? [];
        if (line.length > 0) {
          multi.rpush(poolKey(p), ...line.map((e) => JSON.stringify(e)));
          multi.sadd(poolsKey, p);
        } else {
          multi.srem(poolsKey, p);
        }
      }
      const done = await multi.exec();
      if (done !== null) return result;
      if (attempt >= 20) throw new Error('the waitlist kept changing under this change (20 tries)');
    }
  }

  const store: WaitlistStore = {
    read: readAll,
    update(change) {
      const next = chain.then(() => compareAndSet(change));
      chain = next.catch(() => undefined);
      return next;
    },
  };

  const lock: PoolLock = {
    async run(poolId, fn) {
      const key = lockKey(poolId);
      const token = randomUUID();
      const deadline = Date.now() + lockWaitMs;
      while ((await redis.set(key, token, 'PX', ttl, 'NX')) !== 'OK') {
        if (Date.now() > deadline) {
          throw new Error(`another replica has been giving seats of pool ${poolId} for over ${lockWaitMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const renew = setInterval(() => {
        redis.eval(RENEW, 1, key, token, String(ttl)).catch(() => undefined);
      }, ttl / 3);
      renew.unref();
      try {
        return await fn();
      } finally {
        clearInterval(renew);
        await redis.eval(RELEASE, 1, key, token).catch((error: unknown) => {
          opts.logger.warn('waitlist: could not release the pool lock; it expires on its own', {
            poolId,
            error: String(error),
          });
        });
      }
    },
  };

  return {
    store,
    lock,
    async close() {
      await chain.catch(() => undefined);
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
