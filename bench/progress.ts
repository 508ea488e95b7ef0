/**
 * npm run bench:progress — the daily progress pass at scale, printed, not asserted.
 *
 * 1. One pass over 50,000 licenses (1,000 pools, 25,000 students holding two each) against the
 *    sandbox's seeded big account (buildScaleData, run in a child process as bench:scale runs it, so
 *    that only the app's work counts against its event loop), recorded in
 *    SQLite in a temporary directory, with the licensing window scaled 60x (25 requests per 1 s) and
 *    the default PROGRESS_BUDGET_SHARE of 0.2. Printed: requests, the minutes they take at the real
 *    25 a minute × 0.2, the longest event-loop stall (perf_hooks.monitorEventLoopDelay; goal < 50 ms;
 *    the sandbox runs in this process too, so its work counts against it), memory growth (RSS and heap
 *    after a GC; goal < 50 MB), and the wait of interactive reads made every 400 ms meanwhile (p50/p99).
 * 2. A simulated year: 365 daily passes over the store (YEAR_LICENSES licenses, default 5,000; 3 % of
 *    them change each day), printing history rows (one per change) against 365 × licenses.
 *
 * `npm run bench:progress -- 20000 5000` runs 20,000 licenses and a year over 5,000.
 * Run with --expose-gc (the npm script does) so memory baselines start from a collected heap.
 */

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openRecords } from '../src/kernel/db/open.js';
import { createLicensingClient } from '../src/kernel/licensing/index.js';
import { createProgressStore } from '../src/progress/db/store.js';
import type { ProgressObservation } from '../src/progress/domain/progress.js';
import { createProgressPass } from '../src/progress/services/progress-pass.js';

const LIMIT = 25;
const WINDOW_MS = 1_000;
const SHARE = 0.2;
const POOLS = 1_000;
const [argLicenses, argYear] = process.argv.slice(2).map(Number);
const LICENSES = argLicenses && argLicenses > 0 ? argLicenses : 50_000;
const YEAR_LICENSES = argYear && argYear > 0 ? argYear : 5_000;
const DAILY_CHANGE = 0.03;

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/**
 * The sandbox seeded big (buildScaleData, the in-process sandbox's seed) in a child process, as
 * bench:scale runs it: its own work (building 1,000 pools' counts on every pools read) would otherwise
 * count as a stall of the app's event loop.
 */
async function childSandbox(): Promise<{ url: string; adminToken: string; close(): Promise<void> }> {
  const adminToken = 'bench-admin-token';
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/sandbox/cli.ts'], {
    env: {
      ...process.env,
      SANDBOX_SEED: `scale:${POOLS}:${LICENSES}:0`,
      SANDBOX_PORT: '0',
      SANDBOX_RATE_LIMIT: String(LIMIT),
      SANDBOX_RATE_WINDOW_MS: String(WINDOW_MS),
      SANDBOX_ADMIN_TOKEN: adminToken,
      SANDBOX_READONLY_TOKEN: 'bench-readonly-token',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /LICENSING_API_URL=(\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return {
    url,
    adminToken,
    close: async () => {
      child.kill('SIGTERM');
    },
  };
}

async function dailyPass(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-progress-'));
  const sandbox = await childSandbox();
  const records = await openRecords({ dataDir: dir, heartbeatMs: 0 });
  const licensing = createLicensingClient({
    baseUrl: sandbox.url,
    token: sandbox.adminToken,
    rateLimit: { limit: LIMIT, windowMs: WINDOW_MS, marginMs: 50, reservedInteractive: 5 },
    logger: quiet,
  });
  try {
    await licensing.me({ priority: 'background' });
    // A running app has read its pools and students long before the day's pass (App Home, commands),
    // so zod has compiled those schemas: its first parse of a 1,000-pool list costs some 50 ms of CPU
    // in one turn, later ones about 5 ms. Read both once here, outside the figures, as the app has.
    await licensing.pools.list({ priority: 'background' });
    await licensing.students.list({ page: 1, pageSize: 1 }, { priority: 'background' });
    licensing.invalidateCache();
    gc();
    const base = process.memoryUsage();
    let peakRss = base.rss;
    // Each page's record (one transaction, committed with synchronous=FULL): its longest, to tell the
    // database's share of a stall from the rest.
    const inner = createProgressStore(records);
    let longestRecordMs = 0;
    const store = {
      ...inner,
      async record(...args: Parameters<typeof inner.record>) {
        const t0 = performance.now();
        try {
          return await inner.record(...args);
        } finally {
          longestRecordMs = Math.max(longestRecordMs, performance.now() - t0);
        }
      },
    };
    let longestPoolsMs = 0;
    const poolsList = licensing.pools.list;
    licensing.pools.list = async (o) => {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      try {
        return await poolsList(o);
      } finally {
        const c = process.cpuUsage(cpu0);
        longestPoolsMs = Math.max(longestPoolsMs, (c.user + c.system) / 1000);
        void t0;
      }
    };
    const pass = createProgressPass({
      store,
      licensing,
      records,
      logger: quiet,
      now: () => new Date(),
      rateLimit: { limit: LIMIT, windowMs: WINDOW_MS },
      share: SHARE,
    });
    // Interactive reads meanwhile: a pool read fresh every 400 ms, its wait from call to answer.
    const waits: number[] = [];
    let reading = true;
    const reader = (async () => {
      let n = 0;
      while (reading) {
        const t0 = performance.now();
        await licensing.pools.get(String(100_001 + (n++ % POOLS)), { priority: 'interactive', fresh: true });
        waits.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 400));
      }
    })();
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 250);
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    // The CPU time this process spent during the longest gap of a 2 ms timer: on a loaded machine a
    // gap can be the OS giving the process no core; the CPU part is what our code held the loop for.
    let last = performance.now();
    let lastCpu = process.cpuUsage();
    let gapMs = 0;
    let gapCpuMs = 0;
    let maxCpuMs = 0;
    const ticker = setInterval(() => {
      const t = performance.now();
      const used = process.cpuUsage(lastCpu);
      lastCpu = process.cpuUsage();
      const cpu = Math.min(t - last, (used.user + used.system) / 1000);
      maxCpuMs = Math.max(maxCpuMs, cpu);
      if (t - last > gapMs) {
        gapMs = t - last;
        gapCpuMs = cpu;
      }
      last = t;
    }, 2);
    const started = performance.now();
    const outcome = await pass.run();
    const wallMs = performance.now() - started;
    h.disable();
    clearInterval(ticker);
    reading = false;
    await reader;
    clearInterval(sampler);
    gc();
    const after = process.memoryUsage();
    if (outcome.kind !== 'done') throw new Error(`the pass did not complete: ${JSON.stringify(outcome)}`);
    const sorted = [...waits].sort((a, b) => a - b);
    const perMinute = LIMIT * SHARE;
    console.log(`Daily pass over ${LICENSES.toLocaleString('en')} licenses (every 20th revoked), ${POOLS} pools`);
    console.log(
      `  licenses recorded            ${outcome.seen.toLocaleString('en')} (history rows ${(await createProgressStore(records).historyRows()).toLocaleString('en')})`,
    );
    console.log(`  requests used                ${outcome.requests}`);
    console.log(
      `  at the real limit            ${(outcome.requests / perMinute).toFixed(1)} min (${outcome.requests} requests at ${LIMIT}/min × ${SHARE} = ${perMinute}/min)`,
    );
    console.log(`  wall time here (60x window)  ${(wallMs / 1000).toFixed(1)} s`);
    console.log(
      `  longest event-loop stall     ${(h.max / 1e6).toFixed(1)} ms (p99 ${(h.percentile(99) / 1e6).toFixed(1)} ms)`,
    );
    console.log(
      `  CPU in a gap                 longest gap ${gapMs.toFixed(0)} ms held ${gapCpuMs.toFixed(0)} ms of CPU; most CPU in any gap ${maxCpuMs.toFixed(0)} ms`,
    );
    console.log(`  pools list read (CPU)        ${longestPoolsMs.toFixed(0)} ms (1,000 pools parsed)`);
    console.log(
      `  longest page recorded (DB)   ${longestRecordMs.toFixed(1)} ms (one transaction, synchronous better-sqlite3)`,
    );
    console.log(
      `  memory growth after GC       RSS ${mb(after.rss - base.rss)}, heap ${mb(after.heapUsed - base.heapUsed)} (peak RSS +${mb(peakRss - base.rss)})`,
    );
    console.log(
      `  interactive reads meanwhile  ${waits.length}: wait p50 ${pct(sorted, 0.5).toFixed(0)} ms, p99 ${pct(sorted, 0.99).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms`,
    );
  } finally {
    await licensing.close();
    await records.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A small deterministic generator (mulberry32): the same year every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function simulatedYear(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-progress-year-'));
  const records = await openRecords({ dataDir: dir, heartbeatMs: 0 });
  const store = createProgressStore(records);
  try {
    const rand = random(42);
    const obs: ProgressObservation[] = Array.from({ length: YEAR_LICENSES }, (_, i) => ({
      licenseId: String(1_000_001 + i),
      poolId: String(100_001 + (i % POOLS)),
      courseId: String(10_001 + (i % 50)),
      studentId: String(2_000_001 + Math.floor(i / 2)),
      studentEmail: `student${Math.floor(i / 2)}@contoso.com`,
      studentName: `Student ${Math.floor(i / 2)}`,
      progress: Math.floor(rand() * 50),
      completed: null,
      start: '2026-01-05T09:00:00+00:00',
      end: '2027-01-05T23:59:59+00:00',
      active: true,
    }));
    const day0 = Date.parse('2026-01-06T03:00:00Z');
    const started = performance.now();
    let changes = 0;
    for (let d = 0; d < 365; d++) {
      const at = new Date(day0 + d * 86_400_000);
      if (d > 0) {
        const n = Math.round(YEAR_LICENSES * DAILY_CHANGE);
        for (let k = 0; k < n; k++) {
          const o = obs[Math.floor(rand() * YEAR_LICENSES)];
          if (!o || o.completed) continue;
          o.progress = Math.min(100, o.progress + 1 + Math.floor(rand() * 10));
          if (o.progress >= 100) o.completed = at.toISOString();
          changes++;
        }
      }
      // The store writes 400 observations a transaction.
      await store.record(obs, at);
    }
    const rows = await store.historyRows();
    const perDay = 365 * YEAR_LICENSES;
    console.log(
      `Simulated year: 365 daily passes over ${YEAR_LICENSES.toLocaleString('en')} licenses, ${DAILY_CHANGE * 100} % changing a day`,
    );
    console.log(
      `  history rows                 ${rows.toLocaleString('en')} (${YEAR_LICENSES.toLocaleString('en')} first sightings + ${changes.toLocaleString('en')} changes at most)`,
    );
    console.log(`  one row per license per day  ${perDay.toLocaleString('en')} (${(perDay / rows).toFixed(1)}x more)`);
    console.log(
      `  at 50,000 licenses           about ${Math.round((rows * 50_000) / YEAR_LICENSES).toLocaleString('en')} rows a year`,
    );
    console.log(`  time (365 record walks)      ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await records.close();
    await rm(dir, { recursive: true, force: true });
  }
}

console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await dailyPass();
await simulatedYear();
