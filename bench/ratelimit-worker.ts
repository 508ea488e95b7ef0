/**
 * The client side of bench/ratelimit.ts, in a process of its own so that the sandbox's work (in the
 * parent) does not compete with the client's on one event loop, as with the real, remote service.
 * A licensing client whose limiter is local, or shares its budget through Redis when `redisUrl` is set.
 * Prints JSON lines ({"event":"ready"}, {"event":"done",…}), waits for a line on stdin before sending,
 * so several processes start together, and for another before it stops, so none stops while another still sends.
 *   node --import tsx bench/ratelimit-worker.ts '<config as JSON>'
 */
import { createLicensingClient, type RateLimiter } from '../src/kernel/licensing/index.js';
import { createBottleneckLimiter } from '../src/kernel/licensing/limiter/limiter-bottleneck.js';
import { createRedisConnections } from '../src/kernel/services/redis.js';

export interface BenchWorkerConfig {
  sandboxUrl: string;
  token: string;
  /** Used only to warm up: the sandbox counts each token separately, so it spends none of `token`'s budget. */
  warmupToken: string;
  redisUrl?: string;
  id: string;
  limit: number;
  windowMs: number;
  marginMs: number;
  count: number;
}

const config: BenchWorkerConfig = JSON.parse(process.argv[2] ?? '{}');
const print = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main(): Promise<void> {
  // "After idle" is not "cold": warm the client, undici and bottleneck's Redis path (JIT, sockets) on a
  // limiter id and a token of its own, so the measured run starts from an idle but warm process.
  const warmLimiter = createBottleneckLimiter({
    limit: config.limit,
    windowMs: config.windowMs,
    marginMs: config.marginMs,
    reservedInteractive: 5,
    maxQueue: 1_000,
    redis: config.redisUrl === undefined ? undefined : createRedisConnections(config.redisUrl, 'license-desk-bench:'),
    id: `${config.id}:warmup:${process.pid}`,
  });
  const warm = createLicensingClient({
    baseUrl: config.sandboxUrl,
    token: config.warmupToken,
    limiter: warmLimiter,
    cacheTtlMs: 0,
  });
  await Promise.all(Array.from({ length: 10 }, () => warm.licenses.list()));
  await warm.close();

  // Built here rather than by the client so the benchmark can wait for Redis before the clock starts.
  const limiter = createBottleneckLimiter({
    limit: config.limit,
    windowMs: config.windowMs,
    marginMs: config.marginMs,
    reservedInteractive: 5,
    maxQueue: 1_000,
    redis: config.redisUrl === undefined ? undefined : createRedisConnections(config.redisUrl, 'license-desk-bench:'),
    id: config.id,
  });
  // Records when each request leaves the limiter for undici: "sent", as the client sees it.
  const sentAt: number[] = [];
  const recording: RateLimiter = {
    ...limiter,
    schedule: (priority, fn) =>
      limiter.schedule(priority, () => {
        sentAt.push(Date.now());
        return fn();
      }),
  };
  const client = createLicensingClient({
    baseUrl: config.sandboxUrl,
    token: config.token,
    limiter: recording,
    cacheTtlMs: 0,
  });
  await limiter.ready();
  print({ event: 'ready' });
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  process.stdin.pause();
  const startedAt = Date.now();
  const outcomes = await Promise.allSettled(Array.from({ length: config.count }, () => client.licenses.list()));
  print({
    event: 'done',
    startedAt,
    at: Date.now(),
    sentAt,
    ok: outcomes.filter((o) => o.status === 'fulfilled').length,
    failed: outcomes.filter((o) => o.status === 'rejected').map((o) => String(o.reason)),
  });
  // Stay up until every worker is done, as a replica does: a process that stops leaves its held slots
  // taken in Redis until their expiration (docs/rate-limiting.md, "Restarts"), which would charge the
  // other worker for a restart that is not part of this workload.
  await new Promise<void>((resolve) => {
    process.stdin.resume();
    process.stdin.once('data', () => resolve());
  });
  await client.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    print({ event: 'error', message: String(error) });
    process.exit(1);
  },
);
