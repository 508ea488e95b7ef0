/**
 * npm run bench:ratelimit — prints figures, not a test (design.md section 4).
 *
 * 200 requests (GET /v1/licenses, uncached) through the licensing client against the sandbox with time
 * scaled 20x (25 per 3 s stands for 25 per minute), once per server algorithm and once with two
 * processes sharing the budget through Redis (REDIS_URL, else REDIS_TEST_URL, else a private
 * redis-server). All requests are submitted at once after idle. Goals, judged in every run (each
 * server algorithm, and the two processes sharing Redis): 0 × 429 and makespan ≤ 1.03 × the minimum
 * (docs/performance.md); and the first 25 requests sent within 100 ms. The workers stop only once all
 * are done, as replicas stay up.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type RateLimitAlgorithm, type RunningSandbox, startSandbox } from '../local/sandbox/index.js';
import { redisSkipReason, startTestRedis, type TestRedis } from '../test/support/redis.js';
import { maxInRollingWindow } from '../test/support/rolling-window.js';
import type { BenchWorkerConfig } from './ratelimit-worker.js';

const REQUESTS = 200;
const LIMIT = 25;
const WINDOW_MS = 3_000;
/** ratelimit.md suggests 1 s per 60 s window; scaled 20x. */
const MARGIN_MS = 50;
/** The last of ceil(N/L) full batches cannot start before (ceil(N/L) − 1) windows after the first. */
const MINIMUM_MS = (Math.ceil(REQUESTS / LIMIT) - 1) * WINDOW_MS;
/** The goal for every run's makespan, as a multiple of MINIMUM_MS (docs/performance.md). */
const GOAL_RATIO = 1.03;
const WORKER = fileURLToPath(new URL('./ratelimit-worker.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../', import.meta.url));

interface Figures {
  run: string;
  rejected: number;
  ok: number;
  failed: number;
  makespanMs: number;
  /** Submission to the 25th request handed to undici by the limiter (client side). */
  first25SentMs: number;
  /** Submission to the 25th arrival at the server. */
  first25Ms: number;
  maxInWindow: number;
}

async function sandboxFor(algorithm: RateLimitAlgorithm): Promise<RunningSandbox> {
  return startSandbox({
    port: 0,
    seed: 'demo',
    rateLimit: { limit: LIMIT, windowMs: WINDOW_MS, algorithm, retryAfter: false, countRejected: false },
  });
}

function figures(
  run: string,
  sandbox: RunningSandbox,
  t0: number,
  end: number,
  failed: number,
  sentAt: number[],
): Figures {
  const requests = sandbox.requests.filter((r) => r.tokenKind === 'admin');
  const arrivals = requests.map((r) => r.at).sort((a, b) => a - b);
  return {
    run,
    rejected: requests.filter((r) => r.status === 429).length,
    ok: requests.filter((r) => r.status === 200).length,
    failed,
    makespanMs: end - t0,
    first25SentMs: ([...sentAt].sort((a, b) => a - b)[LIMIT - 1] ?? Number.NaN) - t0,
    first25Ms: (arrivals[LIMIT - 1] ?? Number.NaN) - t0,
    maxInWindow: maxInRollingWindow(arrivals, WINDOW_MS),
  };
}

interface WorkerDone {
  startedAt: number;
  sentAt: number[];
  at: number;
  ok: number;
  failed: string[];
}

interface WorkerHandle {
  ready: Promise<void>;
  done: Promise<WorkerDone>;
  go(): void;
  /** Lets the worker stop (once every worker is done). */
  stop(): void;
}

function startWorker(config: BenchWorkerConfig): WorkerHandle {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(config)], {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let buffer = '';
  let onReady: () => void = () => {};
  let onDone: (d: WorkerDone) => void = () => {};
  let onError: (e: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready`)));
  });
  const done = new Promise<WorkerDone>((resolve, reject) => {
    onDone = resolve;
    onError = reject;
  });
  child.once('exit', (code) => onError(new Error(`worker exited with ${code}`)));
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      const event = JSON.parse(line);
      if (event.event === 'ready') onReady();
      else if (event.event === 'done') onDone(event);
      else if (event.event === 'error') onError(new Error(event.message));
    }
  });
  return { ready, done, go: () => child.stdin.write('go\n'), stop: () => child.stdin.end('stop\n') };
}

/** One run: a fresh sandbox, `processes` client processes splitting the requests, all started together. */
async function run(label: string, algorithm: RateLimitAlgorithm, processes: number, redisUrl?: string) {
  const sandbox = await sandboxFor(algorithm);
  try {
    const config: BenchWorkerConfig = {
      sandboxUrl: sandbox.url,
      token: sandbox.adminToken,
      warmupToken: sandbox.readOnlyToken,
      ...(redisUrl === undefined ? {} : { redisUrl }),
      // A fresh id per run: never inherit held slots or settings from an earlier run.
      id: `license-desk-bench:${randomUUID()}`,
      limit: LIMIT,
      windowMs: WINDOW_MS,
      marginMs: MARGIN_MS,
      count: REQUESTS / processes,
    };
    const workers = Array.from({ length: processes }, () => startWorker(config));
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.go();
    const results = await Promise.all(workers.map((w) => w.done));
    for (const w of workers) w.stop();
    const t0 = Math.min(...results.map((r) => r.startedAt));
    const end = Math.max(...results.map((r) => r.at));
    for (const failure of results.flatMap((r) => r.failed).slice(0, 3)) console.log(`  failure: ${failure}`);
    const failed = results.reduce((n, r) => n + r.failed.length, 0);
    return figures(
      label,
      sandbox,
      t0,
      end,
      failed,
      results.flatMap((r) => r.sentAt),
    );
  } finally {
    await sandbox.close();
  }
}

function print(f: Figures): void {
  const ratio = f.makespanMs / MINIMUM_MS;
  console.log(
    [
      f.run.padEnd(34),
      `429s ${String(f.rejected).padStart(3)}`,
      `ok ${String(f.ok).padStart(3)}/${REQUESTS}`,
      `failed ${f.failed}`,
      `makespan ${(f.makespanMs / 1000).toFixed(2).padStart(6)} s = ${ratio.toFixed(3)} × min`,
      `first ${LIMIT} sent ${String(f.first25SentMs).padStart(4)} ms, arrived ${String(f.first25Ms).padStart(4)} ms`,
      `max in any ${WINDOW_MS} ms: ${f.maxInWindow}`,
    ].join('  |  '),
  );
}

async function main(): Promise<void> {
  console.log(`Rate limiter benchmark: ${REQUESTS} requests, server limit ${LIMIT} per ${WINDOW_MS} ms (20x scale).`);
  console.log('Through the licensing client (createLicensingClient, GET /v1/licenses, cache off) and its');
  console.log(`bottleneck limiter (held slot, margin ${MARGIN_MS} ms); all requests submitted at once after idle,`);
  console.log('from client processes of their own (bench/ratelimit-worker.ts), the sandbox in this one.');
  console.log(
    `Minimum makespan = (ceil(${REQUESTS}/${LIMIT}) − 1) × W = ${MINIMUM_MS / 1000} s: under "at most ${LIMIT} in any W" the last batch cannot start earlier (its latency is ignored).`,
  );
  console.log(
    'Makespan = submission to the last caller settled. First 25: submission to the 25th request handed to undici by the limiter (sent), and to its arrival at the server (arrived).',
  );
  console.log('Each run starts idle but warm (a warm-up with the read-only token, counted apart by the sandbox).');
  console.log('');
  const all: Figures[] = [];
  for (const algorithm of ['fixed-window', 'sliding-log', 'token-bucket'] as const) {
    const f = await run(algorithm, algorithm, 1);
    print(f);
    all.push(f);
  }

  const envUrl = process.env.REDIS_URL?.trim() || undefined;
  let redis: TestRedis | undefined;
  try {
    if (envUrl === undefined && redisSkipReason !== undefined) {
      console.log(`2 processes + Redis: skipped (${redisSkipReason})`);
    } else {
      redis = envUrl === undefined ? await startTestRedis() : undefined;
      const f = await run('2 processes + Redis (sliding-log)', 'sliding-log', 2, envUrl ?? redis?.url);
      print(f);
      all.push(f);
    }
  } finally {
    await redis?.close();
  }

  console.log('');
  const ratio = (f: Figures) => f.makespanMs / MINIMUM_MS;
  const ratios = all.map(ratio);
  console.log(
    `Makespan ÷ minimum, per run: ${all.map((f) => `${f.run} ${ratio(f).toFixed(3)}`).join(', ')}; range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}`,
  );
  const checks = [
    ['0 × 429 (and no failed request) in every run', all.every((f) => f.rejected === 0 && f.failed === 0)],
    [`makespan ≤ ${GOAL_RATIO} × minimum in every run`, all.every((f) => ratio(f) <= GOAL_RATIO)],
    [`first ${LIMIT} sent within 100 ms in every run`, all.every((f) => f.first25SentMs <= 100)],
  ] as const;
  for (const [name, ok] of checks) console.log(`${ok ? 'met    ' : 'MISSED '} ${name}`);
  for (const f of all.filter((f) => ratio(f) > GOAL_RATIO || f.rejected > 0 || f.failed > 0)) {
    console.log(`        missed by: ${f.run} (${ratio(f).toFixed(3)} × min, ${f.rejected} × 429, ${f.failed} failed)`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
