/**
 * Several processes sharing one budget through Redis (ratelimit.md, "Several processes sharing one
 * budget"): two limiters in separate processes, one of them killed mid-run, and Redis flushed mid-run.
 * Needs a Redis: REDIS_TEST_URL (CI) or a redis-server binary (test/support/redis.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../local/sandbox/index.js';
import { createBottleneckLimiter } from '../../src/kernel/licensing/limiter/limiter-bottleneck.js';
import { createRedisConnections } from '../../src/kernel/services/redis.js';
import type { WorkerConfig } from '../support/limiter-worker.js';
import { sendThroughLimiter } from '../support/limiter-worker.js';
import { redisSkipReason, startTestRedis, type TestRedis } from '../support/redis.js';
import { maxInRollingWindow } from '../support/rolling-window.js';

const LIMIT = 10;

/**
 * The tests share one sandbox, whose rate limit remembers the previous test's requests: wait until a
 * window has passed since the last one the sandbox saw, so each test starts from an empty window.
 */
async function freshWindow(sandbox: RunningSandbox): Promise<void> {
  const last = sandbox.requests.at(-1)?.at ?? 0;
  await sleep(Math.max(0, last + WINDOW_MS + MARGIN_MS - Date.now()));
  sandbox.clearRequests();
}

const WINDOW_MS = 1_000;
const MARGIN_MS = 50;
const EDGE_MS = 5;
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const WORKER = fileURLToPath(new URL('../support/limiter-worker.ts', import.meta.url));

interface WorkerEvent {
  event: string;
  at?: number;
  status?: number;
  ok?: number;
  message?: string;
}

interface Worker {
  events: WorkerEvent[];
  waitFor(predicate: (events: WorkerEvent[]) => boolean, timeoutMs: number): Promise<void>;
  go(): void;
  exited: Promise<number | null>;
  child: ChildProcess;
}

const workers: Worker[] = [];

function startWorker(config: WorkerConfig): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(config)], {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const events: WorkerEvent[] = [];
  const listeners = new Set<() => void>();
  let buffer = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') events.push(JSON.parse(line));
    for (const listener of listeners) listener();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  exited.then(() => {
    for (const listener of listeners) listener();
  });
  const worker: Worker = {
    events,
    child,
    exited,
    go: () => child.stdin?.write('go\n'),
    waitFor(predicate, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (predicate(events)) {
            clearTimeout(timer);
            listeners.delete(check);
            resolve();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            clearTimeout(timer);
            listeners.delete(check);
            reject(new Error(`worker exited (${child.exitCode ?? child.signalCode}): ${stderr.slice(-2_000)}`));
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`worker timed out; events: ${JSON.stringify(events.slice(-5))}; ${stderr.slice(-2_000)}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
  };
  workers.push(worker);
  return worker;
}

const count = (events: WorkerEvent[], name: string) => events.filter((e) => e.event === name).length;

describe.skipIf(redisSkipReason !== undefined)(
  `limiter shared through Redis${redisSkipReason === undefined ? '' : ` (skipped: ${redisSkipReason})`}`,
  () => {
    let redis: TestRedis;
    let sandbox: RunningSandbox;

    beforeAll(async () => {
      redis = await startTestRedis();
      sandbox = await startSandbox({
        port: 0,
        seed: 'demo',
        // The strictest rule: at most LIMIT arrivals in any rolling window.
        rateLimit: {
          limit: LIMIT,
          windowMs: WINDOW_MS,
          algorithm: 'sliding-log',
          retryAfter: false,
          countRejected: false,
        },
      });
    });

    afterAll(async () => {
      for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
      await sandbox?.close();
      await redis?.close();
    });

    const workerConfig = (id: string, requests: number, extra: Partial<WorkerConfig> = {}): WorkerConfig => ({
      redisUrl: redis.url,
      id,
      limit: LIMIT,
      windowMs: WINDOW_MS,
      marginMs: MARGIN_MS,
      sandboxUrl: sandbox.url,
      token: sandbox.adminToken,
      count: requests,
      waitForGo: true,
      ...extra,
    });

    it('two processes share one budget: 0 × 429 and at most the limit in any window', async () => {
      await freshWindow(sandbox);
      const id = `license-desk-test:${randomUUID()}`;
      const a = startWorker(workerConfig(id, 30));
      const b = startWorker(workerConfig(id, 30));
      await Promise.all([a, b].map((w) => w.waitFor((e) => count(e, 'ready') === 1, 20_000)));
      const t0 = Date.now();
      a.go();
      b.go();
      await Promise.all([a, b].map((w) => w.waitFor((e) => count(e, 'done') === 1, 30_000)));
      expect(await a.exited).toBe(0);
      expect(await b.exited).toBe(0);
      const makespan = Date.now() - t0;

      expect(a.events.find((e) => e.event === 'done')?.ok).toBe(30);
      expect(b.events.find((e) => e.event === 'done')?.ok).toBe(30);
      expect(sandbox.requests.filter((r) => r.status === 429)).toHaveLength(0);
      expect(sandbox.requests).toHaveLength(60);
      expect(
        maxInRollingWindow(
          sandbox.requests.map((r) => r.at),
          WINDOW_MS - EDGE_MS,
        ),
      ).toBeLessThanOrEqual(LIMIT);
      // Sharing, not taking turns for the whole run: both sent within the first two windows.
      for (const w of [a, b]) {
        const firstSent = w.events.find((e) => e.event === 'sent')?.at ?? Number.POSITIVE_INFINITY;
        expect(firstSent - t0).toBeLessThan(2 * (WINDOW_MS + MARGIN_MS) + 500);
      }
      // 60 at 10 per window: 5 windows of waiting at least.
      expect(makespan).toBeGreaterThanOrEqual(5 * WINDOW_MS);
    });

    it('a process killed mid-run gives its capacity back within the job expiration', async () => {
      await freshWindow(sandbox);
      const id = `license-desk-test:${randomUUID()}`;
      // bottleneck counts a job's expiration from its start, not from the request's send, so the
      // expiration must cover start-to-send lag plus latency on top of the window; production has
      // ~30 s of slack on a 60 s window, and this 1 s window needs seconds under CI's load.
      const jobExpirationMs = WINDOW_MS + MARGIN_MS + 3_000;
      const doomed = startWorker(workerConfig(id, 40, { jobExpirationMs }));
      const survivor = startWorker(workerConfig(id, 10, { jobExpirationMs }));
      await Promise.all([doomed, survivor].map((w) => w.waitFor((e) => count(e, 'ready') === 1, 20_000)));
      doomed.go();
      // The doomed process takes every slot, then dies holding them (no release will ever come).
      await doomed.waitFor((e) => count(e, 'response') >= LIMIT, 10_000);
      doomed.child.kill('SIGKILL');
      await doomed.exited;
      const killedAt = Date.now();
      const lastDoomedSend = Math.max(...doomed.events.filter((e) => e.event === 'sent').map((e) => e.at ?? 0));
      survivor.go();
      await survivor.waitFor((e) => count(e, 'done') === 1, 20_000);
      expect(await survivor.exited).toBe(0);

      expect(survivor.events.find((e) => e.event === 'done')?.ok).toBe(10);
      const firstSurvivorSend = survivor.events.find((e) => e.event === 'sent')?.at ?? Number.POSITIVE_INFINITY;
      // The dead process's slots are reclaimed once they expire (plus a heartbeat), not held forever...
      expect(firstSurvivorSend - killedAt).toBeLessThan(jobExpirationMs + 2_000);
      // ...and not before a window has passed since its requests.
      expect(firstSurvivorSend - lastDoomedSend).toBeGreaterThanOrEqual(WINDOW_MS - EDGE_MS);
      expect(sandbox.requests.filter((r) => r.status === 429)).toHaveLength(0);
    });

    it('a restarted process (the old one stopped cleanly) draws no 429: the held slots outlive it in Redis', async () => {
      await freshWindow(sandbox);
      const id = `license-desk-test:${randomUUID()}`;
      const jobExpirationMs = WINDOW_MS + MARGIN_MS + 1_500;
      const old = startWorker(workerConfig(id, LIMIT, { jobExpirationMs }));
      await old.waitFor((e) => count(e, 'ready') === 1, 20_000);
      old.go();
      // It sends a full window's worth, then stops its limiter and exits.
      expect(await old.exited).toBe(0);
      const successor = startWorker(workerConfig(id, LIMIT, { jobExpirationMs }));
      await successor.waitFor((e) => count(e, 'ready') === 1, 20_000);
      successor.go();
      await successor.waitFor((e) => count(e, 'done') === 1, 20_000);
      expect(await successor.exited).toBe(0);

      expect(successor.events.find((e) => e.event === 'done')?.ok).toBe(LIMIT);
      expect(sandbox.requests.filter((r) => r.status === 429)).toHaveLength(0);
      const lastOld = Math.max(...old.events.filter((e) => e.event === 'response').map((e) => e.at ?? 0));
      const firstNew = Math.min(...successor.events.filter((e) => e.event === 'sent').map((e) => e.at ?? 0));
      expect(firstNew - lastOld).toBeGreaterThanOrEqual(WINDOW_MS - EDGE_MS);
    });

    it('recovers after Redis is flushed mid-run (Redis 7 error prefix fixed at runtime)', async () => {
      await freshWindow(sandbox);
      const id = `license-desk-test:${randomUUID()}`;
      const url = redis.scratchUrl(5);
      const limiter = createBottleneckLimiter({
        limit: LIMIT,
        windowMs: WINDOW_MS,
        marginMs: MARGIN_MS,
        reservedInteractive: 2,
        maxQueue: 500,
        redis: createRedisConnections(url, 'license-desk-test:'),
        id,
      });
      try {
        await limiter.ready();
        let answered = 0;
        let flushed: Promise<void> | undefined;
        const results = await Promise.all(
          Array.from({ length: 30 }, () =>
            sendThroughLimiter(limiter, {
              url: sandbox.url,
              token: sandbox.adminToken,
              windowMs: WINDOW_MS,
              onResponse: () => {
                answered++;
                if (answered === 12) flushed = redis.flush(url);
              },
            }),
          ),
        );
        await flushed;
        expect(results.filter((r) => r.status !== 200)).toEqual([]);
        expect(sandbox.requests.filter((r) => r.status === 200)).toHaveLength(30);
        // The flush forgot the held slots, so a few 429s may follow it; the limiter itself must recover.
        expect(sandbox.requests.filter((r) => r.status === 429).length).toBeLessThanOrEqual(LIMIT);
        // It re-created its keys in Redis and keeps working.
        expect(await redis.command('EXISTS', [`b_${id}_settings`], url)).toBe(1);
        await expect(limiter.schedule('background', async () => 'after')).resolves.toBe('after');
      } finally {
        await limiter.stop();
      }
    });
  },
);
