/**
 * Sends requests to the sandbox through a limiter, retrying 429s through the limiter as the client
 * core does (a retry is a new job; the limiter holds it back per its 429 policy).
 *
 * Imported by the tests and the benchmark for `sendThroughLimiter`; run as a child process for the
 * two-process Redis cases:
 *   node --import tsx test/support/limiter-worker.ts '<WorkerConfig as JSON>'
 * It prints one JSON line per event on stdout ({"event":"ready"}, {"event":"sent","at":…},
 * {"event":"response","at":…,"status":…}, {"event":"done",…}) and exits 0, or prints
 * {"event":"error","message":…} and exits 1.
 */
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { createBottleneckLimiter } from '../../src/kernel/licensing/limiter/limiter-bottleneck.js';
import type { Priority, RateLimiter } from '../../src/kernel/licensing/limiter.js';
import { createRedisConnections } from '../../src/kernel/services/redis.js';

export interface SendOptions {
  /** Sandbox base URL (without /v1). */
  url: string;
  token: string;
  priority?: Priority;
  /** Backoff after a 429 without Retry-After starts at one window (ratelimit.md). */
  windowMs: number;
  maxAttempts?: number;
  onSent?: (at: number) => void;
  onResponse?: (at: number, status: number) => void;
}

export interface SendResult {
  status: number;
  attempts: number;
}

/** One logical request: GET /v1/pools, resubmitted through the limiter after each 429. */
export async function sendThroughLimiter(limiter: RateLimiter, opts: SendOptions): Promise<SendResult> {
  const maxAttempts = opts.maxAttempts ?? 8;
  for (let attempt = 1; ; attempt++) {
    let sentAt = Date.now();
    const { status, retryAfter } = await limiter.schedule(opts.priority ?? 'interactive', async () => {
      sentAt = Date.now();
      opts.onSent?.(sentAt);
      const res = await request(`${opts.url}/v1/pools`, {
        headers: { authorization: `Bearer ${opts.token}` },
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      await res.body.dump();
      const header = res.headers['retry-after'];
      return { status: res.statusCode, retryAfter: typeof header === 'string' ? Number(header) : Number.NaN };
    });
    opts.onResponse?.(Date.now(), status);
    if (status !== 429) {
      limiter.onSuccess(sentAt);
      return { status, attempts: attempt };
    }
    const retryAfterMs = Number.isFinite(retryAfter) ? retryAfter * 1000 : undefined;
    const pauseMs = limiter.onRateLimited({ sentAt, retryAfterMs });
    if (attempt >= maxAttempts) return { status, attempts: attempt };
    // The limiter parks every job until its pause ends and lets one probe through, so the retry can be
    // submitted at once; a limiter without a 429 policy needs the wait here.
    if (pauseMs === undefined) {
      await new Promise((resolve) => setTimeout(resolve, retryAfterMs ?? opts.windowMs * 2 ** (attempt - 1)));
    }
  }
}

export interface WorkerConfig {
  redisUrl: string;
  id: string;
  limit: number;
  windowMs: number;
  marginMs: number;
  jobExpirationMs?: number;
  sandboxUrl: string;
  token: string;
  count: number;
  /** Submit the requests only once a line arrives on stdin (lets a test start two workers together). */
  waitForGo?: boolean;
}

function firstLineOnStdin(): Promise<void> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      if (!chunk.toString().includes('\n')) return;
      process.stdin.off('data', onData);
      process.stdin.pause();
      resolve();
    };
    process.stdin.on('data', onData);
  });
}

async function runWorker(config: WorkerConfig): Promise<void> {
  const print = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
  const limiter = createBottleneckLimiter({
    limit: config.limit,
    windowMs: config.windowMs,
    marginMs: config.marginMs,
    reservedInteractive: 0,
    maxQueue: 10_000,
    redis: createRedisConnections(config.redisUrl, 'license-desk-test:'),
    id: config.id,
    jobExpirationMs: config.jobExpirationMs,
  });
  // Wait for Redis (and the pushed settings) before the clock starts.
  await limiter.ready();
  print({ event: 'ready', at: Date.now() });
  if (config.waitForGo) await firstLineOnStdin();
  print({ event: 'go', at: Date.now() });
  const results = await Promise.all(
    Array.from({ length: config.count }, () =>
      sendThroughLimiter(limiter, {
        url: config.sandboxUrl,
        token: config.token,
        windowMs: config.windowMs,
        onSent: (at) => print({ event: 'sent', at }),
        onResponse: (at, status) => print({ event: 'response', at, status }),
      }),
    ),
  );
  print({ event: 'done', at: Date.now(), ok: results.filter((r) => r.status === 200).length });
  await limiter.stop();
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const config: WorkerConfig = JSON.parse(process.argv[2] ?? '{}');
  runWorker(config).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stdout.write(`${JSON.stringify({ event: 'error', message: String(error) })}\n`);
      process.exit(1);
    },
  );
}
