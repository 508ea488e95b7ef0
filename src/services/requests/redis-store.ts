/**
 * Requests shared by several replicas through Redis (REDIS_URL): one hash, field = request id, value =
 * the request as JSON. Every change is a compare-and-swap on the whole value (a Lua script: set only
 * if the value is still the one read), retried on a conflict, so two replicas never both decide a
 * request and no change overwrites another. Behind the same RequestStore interface as the file store.
 */
import { Redis } from 'ioredis';
import {
  applyDecision,
  type CourseRequest,
  type DecideResult,
  prunable,
  type RequestStore,
} from '../../domain/requests.js';

const SWAP = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0`;

const MAX_TRIES = 20;

export interface RedisRequestStore extends RequestStore {
  close(): Promise<void>;
}

export function createRedisRequestStore(url: string, key = 'license-desk:requests'): RedisRequestStore {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  // Errors surface on the calls; an idle connection's error event must not crash the process.
  redis.on('error', () => undefined);
  const parse = (raw: string | null): CourseRequest | undefined =>
    raw ? (JSON.parse(raw) as CourseRequest) : undefined;
  const swap = async (id: string, before: string, after: string) =>
    (await redis.eval(SWAP, 1, key, id, before, after)) === 1;

  /** Reads, changes and swaps until no other replica changed the request in between. */
  async function change<T>(id: string, step: (r: CourseRequest) => { next?: CourseRequest; result: T }, missing: T) {
    for (let i = 0; i < MAX_TRIES; i++) {
      const raw = await redis.hget(key, id);
      const r = parse(raw);
      if (!raw || !r) return missing;
      const { next, result } = step(r);
      if (!next || (await swap(id, raw, JSON.stringify(next)))) return result;
    }
    throw new Error(`course request ${id} kept changing under us; try again`);
  }

  const all = async () =>
    Object.values(await redis.hgetall(key))
      .map((raw) => parse(raw))
      .filter((r): r is CourseRequest => r !== undefined)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));

  return {
    async get(id) {
      return parse(await redis.hget(key, id));
    },
    async put(request) {
      await redis.hset(key, request.id, JSON.stringify(request));
    },
    update(id, fn) {
      return change<CourseRequest | undefined>(
        id,
        (r) => {
          const next = structuredClone(r);
          fn(next);
          return { next, result: next };
        },
        undefined,
      );
    },
    async byRequester(userId) {
      return (await all()).filter((r) => r.requester === userId);
    },
    async byStatus(status) {
      return (await all()).filter((r) => r.status === status);
    },
    decide(id, decision) {
      return change<DecideResult>(
        id,
        (r) => {
          if (r.status !== 'pending') return { result: { ok: false, reason: 'already', request: r } };
          const next = applyDecision(r, decision);
          return { next, result: { ok: true, request: next } };
        },
        { ok: false, reason: 'not-found' },
      );
    },
    async prune(now) {
      // Only final requests are dropped, and a final request never changes again: no swap needed.
      const ids = prunable(await all(), now);
      if (ids.length === 0) return 0;
      return redis.hdel(key, ...ids);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
