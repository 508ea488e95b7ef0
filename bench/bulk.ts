/**
 * npm run bench:bulk — figures for bulk assignment, printed, not asserted:
 *  1. makespan of a 100-row bulk job (the real runner, persisting each row to SQLite in a temporary DATA_DIR)
 *     against the sandbox with a scaled window (25 requests per 3 s: a minute scaled 20x), compared
 *     with the theoretical minimum, target ≤ 1.10;
 *  2. latency of interactive licensing calls sent during the job, against the same call when idle,
 *     target: at most one limiter slot (about one request's latency), never a window.
 *
 * Theoretical minimum: background work may hold L − R slots (R = 5 reserved for interactive work,
 * ratelimit.md "Priorities need headroom"), each for a window W after its request, so N writes need
 * ceil(N / (L − R)) windows and the last one cannot start before (ceil(N / (L − R)) − 1) · W; add one
 * request's latency. The minimum with the whole budget L (no reservation) is printed too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDemoData, startSandbox } from '../local/sandbox/index.js';
import type { BulkJob } from '../src/bulk/db/store.js';
import { createBulkJobStore } from '../src/bulk/db/store.js';
import { createBulkRunner } from '../src/bulk/services/bulk-runner.js';
import { openRecords } from '../src/kernel/db/open.js';
import { createLicensingClient } from '../src/kernel/licensing/index.js';

const L = 25;
const W = 3000;
const R = 5;
const N = 100;
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f = (n: number) => `${n.toFixed(1)} ms`;

async function main(): Promise<void> {
  const data = buildDemoData(new Date());
  const pool = data.pools.find((p) => p.id === '2007');
  if (pool) pool.licenses = N + 10;
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, seed: data, rateLimit: { limit: L, windowMs: W } });
  const licensing = createLicensingClient({
    baseUrl: sandbox.url,
    token: sandbox.adminToken,
    rateLimit: { limit: L, windowMs: W, marginMs: 50, reservedInteractive: R },
    logger: silent,
  });
  const dir = await mkdtemp(join(tmpdir(), 'bench-bulk-'));
  const records = await openRecords({ dataDir: dir, heartbeatMs: 0 });
  try {
    // Idle latency of one interactive read (fresh: no cache), the yardstick for "one slot".
    const idle: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await licensing.pools.list({ priority: 'interactive', fresh: true });
      idle.push(performance.now() - t);
    }
    await sleep(W + 200); // the idle probes' slots are free again

    const runner = createBulkRunner({
      licensing,
      store: createBulkJobStore(records),
      logger: silent,
      now: () => new Date(),
    });
    const job: BulkJob = {
      version: 1,
      id: 'bench-job',
      requester: 'U0BENCH001',
      poolId: '2007',
      courseTitle: 'Power Query Fundamentals',
      createdAt: new Date().toISOString(),
      state: 'running',
      rows: Array.from({ length: N }, (_, i) => ({
        line: i + 1,
        email: `bench${i + 1}@contoso.com`,
        state: 'pending' as const,
      })),
      notSent: [],
    };
    const notifier = {
      started: async () => undefined,
      progress: async () => undefined,
      finished: async () => undefined,
    };
    sandbox.clearRequests();
    const t0 = Date.now();
    await runner.start(job, notifier);
    // Interactive calls at several points of the job, each while the background slots are full.
    const during: number[] = [];
    const probes = (async () => {
      for (const after of [10, 30, 50, 70, 90]) {
        while (sandbox.requests.filter((r) => r.method === 'POST').length < after) await sleep(5);
        const t = performance.now();
        await licensing.pools.list({ priority: 'interactive', fresh: true });
        during.push(performance.now() - t);
      }
    })();
    await runner.settled(job.id);
    const makespan = Date.now() - t0;
    await probes;
    const writes = sandbox.requests.filter((r) => r.method === 'POST');
    const rejected = sandbox.requests.filter((r) => r.status === 429).length;
    const assigned = job.rows.filter((r) => r.outcome === 'assigned').length;
    const latency = idle.reduce((a, b) => a + b, 0) / idle.length;
    const minBackground = (Math.ceil(N / (L - R)) - 1) * W + latency;
    const minFull = (Math.ceil(N / L) - 1) * W + latency;

    console.log(
      `bench:bulk — ${N} rows, sandbox and client at ${L} requests per ${W} ms (a minute scaled 20x), ${R} slots reserved for interactive work`,
    );
    console.log(`  assigned ${assigned}/${N}, assign requests ${writes.length}, 429s ${rejected}`);
    console.log(
      `  makespan ${f(makespan)} (first to last write ${f((writes.at(-1)?.at ?? 0) - (writes[0]?.at ?? 0))})`,
    );
    console.log(
      `  theoretical minimum with the background share (${L - R} per window): ${f(minBackground)} -> ratio ${(makespan / minBackground).toFixed(3)} (target <= 1.10)`,
    );
    console.log(
      `  for reference, minimum with the whole budget (${L} per window, no reservation): ${f(minFull)} -> ratio ${(makespan / minFull).toFixed(3)}`,
    );
    console.log(`  interactive call when idle: ${idle.map(f).join(', ')} (one request's latency)`);
    console.log(
      `  interactive call during the job: ${during.map(f).join(', ')}; max ${f(Math.max(...during))} vs a window of ${W} ms (target: about one request, never a window)`,
    );
    await runner.stop();
  } finally {
    await records.close();
    await licensing.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
