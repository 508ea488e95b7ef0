/**
 * npm run bench:digest (npx tsx bench/digest.ts [licenses] [pools]) — the weekly digest's computation
 * on SQLite after a simulated year, printed, not asserted (docs/digest.md, "Figures"):
 *   - 50,000 licenses in 500 pools of 50 courses; every day of the year 3 % of the licenses move on
 *     (one history row each, as the daily pass writes), a few complete; each pool's seats per day;
 *   - then the digest for today, RUNS times: the progress store's reads (the holders counted per
 *     pool, the first 25 of each names list, completions of the week, 30 days of pool usage) and the
 *     assembly, with the pools list given as the licensing client's cache would hand it over. p50 and
 *     p99 (goal: under 200 ms). DIGEST_BENCH_PARTS=1 also times each read once.
 * The rows are written straight into the tables in large transactions (the daily pass's own speed is
 * not what is measured here).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleDigest, computeDigest, nameLists } from '../src/digest/services/digest.js';
import { openRecords } from '../src/kernel/db/open.js';
import type { Pool } from '../src/kernel/domain/types.js';
import { createProgressStore } from '../src/progress/db/store.js';
import { DEFAULT_PROGRESS_THRESHOLDS } from '../src/progress/domain/progress.js';

const LICENSES = Number(process.argv[2] ?? 50_000);
const POOLS = Number(process.argv[3] ?? 500);
const COURSES = Math.max(1, Math.round(POOLS / 10));
const DAYS = 365;
const CHANGE_SHARE = 0.03;
const RUNS = 50;
const DAY = 86_400_000;
const now = new Date();
const dayIso = (d: number) => new Date(now.getTime() - (DAYS - d) * DAY).toISOString();

/** A small deterministic generator, so that two runs fill the same store. */
let seed = 42;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-digest-'));
  const records = await openRecords({ dataDir: dir, heartbeatMs: 0 });
  const started = performance.now();
  const perPool = Math.ceil(LICENSES / POOLS);
  const pools: Pool[] = Array.from({ length: POOLS }, (_, i) => ({
    id: String(10_000 + i),
    start: dayIso(0),
    end: new Date(now.getTime() + (20 + ((i * 7) % 400)) * DAY).toISOString(),
    transferable: i % 3 === 0,
    licenses: perPool + 10,
    assignedLicenses: 0,
    availableLicenses: perPool + 10,
    course: { id: String(1 + (i % COURSES)), title: `Course ${1 + (i % COURSES)}: data modeling part ${i % COURSES}` },
  }));
  // Each license: its pool, the day it was assigned, its progress as it moves.
  const progress = new Float64Array(LICENSES);
  const assignedDay = new Int32Array(LICENSES);
  const completedAt: (string | null)[] = new Array(LICENSES).fill(null);
  const changedAt: string[] = new Array(LICENSES);
  for (let i = 0; i < LICENSES; i++) assignedDay[i] = Math.floor(rand() * DAYS);
  const history: {
    license_id: string;
    pool_id: string;
    student_email: string;
    progress: number;
    completed: string | null;
    at: string;
  }[] = [];
  const usage: {
    pool_id: string;
    day: string;
    licenses: number;
    assigned: number;
    available: number;
    transferable: number;
    pool_end: string;
  }[] = [];
  const poolOf = (i: number) => pools[i % POOLS] as Pool;
  const email = (i: number) => `student${i}@school.example`;
  for (let d = 0; d < DAYS; d++) {
    const at = dayIso(d);
    const assignedToday = new Map<string, number>();
    for (let i = 0; i < LICENSES; i++) {
      if (assignedDay[i] === d) {
        const p = poolOf(i);
        assignedToday.set(p.id, (assignedToday.get(p.id) ?? 0) + 1);
        history.push({
          license_id: String(i),
          pool_id: p.id,
          student_email: email(i),
          progress: 0,
          completed: null,
          at,
        });
        changedAt[i] = at;
      }
    }
    // 3 % of the licenses move on each day (those already assigned and not completed).
    const moves = Math.floor(LICENSES * CHANGE_SHARE);
    for (let k = 0; k < moves; k++) {
      const i = Math.floor(rand() * LICENSES);
      if ((assignedDay[i] ?? DAYS) >= d || completedAt[i] !== null) continue;
      const next = Math.min(100, (progress[i] ?? 0) + 1 + Math.floor(rand() * 20));
      progress[i] = next;
      if (next >= 100) completedAt[i] = at;
      changedAt[i] = at;
      history.push({
        license_id: String(i),
        pool_id: poolOf(i).id,
        student_email: email(i),
        progress: next,
        completed: completedAt[i] ?? null,
        at,
      });
    }
    for (const [poolId, n] of assignedToday) {
      const p = pools.find((x) => x.id === poolId) as Pool;
      p.assignedLicenses += n;
      p.availableLicenses -= n;
      usage.push({
        pool_id: p.id,
        day: at.slice(0, 10),
        licenses: p.licenses,
        assigned: p.assignedLicenses,
        available: p.availableLicenses,
        transferable: p.transferable ? 1 : 0,
        pool_end: p.end,
      });
    }
  }
  const current = Array.from({ length: LICENSES }, (_, i) => ({
    license_id: String(i),
    pool_id: poolOf(i).id,
    course_id: poolOf(i).course.id,
    student_id: String(100_000 + i),
    student_email: email(i),
    student_name: `Student ${i}`,
    progress: progress[i] ?? 0,
    completed: completedAt[i] ?? null,
    license_start: dayIso(assignedDay[i] ?? 0),
    license_end: poolOf(i).end,
    active: 1,
    first_seen_at: dayIso(assignedDay[i] ?? 0),
    changed_at: changedAt[i] ?? dayIso(0),
    seen_at: now.toISOString(),
  }));
  const insert = async <T extends 'license_progress' | 'progress_history' | 'pool_usage'>(
    table: T,
    rows: readonly object[],
  ): Promise<void> => {
    for (let i = 0; i < rows.length; i += 20_000) {
      await records.db.transaction().execute(async (trx) => {
        const slice = rows.slice(i, i + 20_000);
        for (let j = 0; j < slice.length; j += 500) {
          // The rows were built above for this very table; Kysely cannot follow the generic table name.
          await trx
            .insertInto(table)
            .values(slice.slice(j, j + 500) as never)
            .execute();
        }
      });
    }
  };
  await insert('license_progress', current);
  await insert('progress_history', history);
  await insert('pool_usage', usage);
  const filled = performance.now() - started;
  const store = createProgressStore(records);
  const sources = { licensing: { pools: { list: async () => pools } } as never, store };
  // Warm-up, then the runs.
  const first = await computeDigest(sources, now);
  if (process.env.DIGEST_BENCH_PARTS === '1') {
    // Each names list as computeDigest reads it: from the first pools that hold 25 of it, as counted.
    const specs = nameLists(first, await store.standingCounts(now, DEFAULT_PROGRESS_THRESHOLDS), 25);
    const listed = (i: number) => () => {
      const spec = specs[i];
      if (!spec) throw new Error('no such list');
      return store.listHolders({ ...spec, limit: 25, now, thresholds: DEFAULT_PROGRESS_THRESHOLDS });
    };
    for (const [name, f] of [
      ['holders (all rows; no longer read by the digest)', () => store.holders()],
      ['standingCounts', () => store.standingCounts(now, DEFAULT_PROGRESS_THRESHOLDS)],
      ...specs.map((spec, i) => [`listHolders ${spec.standing} (${spec.pools.size} pools)`, listed(i)] as const),
      ['completedBetween', () => store.completedBetween(new Date(now.getTime() - 7 * DAY), now)],
      ['poolUsage', () => store.poolUsage(new Date(now.getTime() - 30 * DAY))],
      [
        'assembleDigest (no reads)',
        async () => {
          const [counts, completions, usage] = await Promise.all([
            store.standingCounts(now, DEFAULT_PROGRESS_THRESHOLDS),
            store.completedBetween(new Date(now.getTime() - 7 * DAY), now),
            store.poolUsage(new Date(now.getTime() - 30 * DAY)),
          ]);
          const t0 = performance.now();
          assembleDigest({ pools, counts, completions, usage, now });
          console.log('  of which the assembly', (performance.now() - t0).toFixed(1), 'ms');
        },
      ],
    ] as const) {
      const t0 = performance.now();
      await f();
      console.log(name, (performance.now() - t0).toFixed(1), 'ms');
    }
  }
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    await computeDigest(sources, now);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)] ?? 0;
  console.log(
    JSON.stringify(
      {
        licenses: LICENSES,
        pools: POOLS,
        courses: COURSES,
        historyRows: history.length,
        poolUsageRows: usage.length,
        fillSeconds: Number((filled / 1000).toFixed(1)),
        digest: {
          runs: RUNS,
          p50Ms: Number(pct(50).toFixed(1)),
          p99Ms: Number(pct(99).toFixed(1)),
          maxMs: Number((times.at(-1) ?? 0).toFixed(1)),
          goalMs: 200,
        },
        found: {
          holders: first.totals.holders,
          completedThisWeek: first.totals.completedThisWeek,
          stalled: first.totals.stalled,
          notStarted: first.totals.notStarted,
          endingSoon: first.endingSoon.length,
          listed: first.names ? Object.values(first.names).map((l) => `${l.listed.length}/${l.total}`) : [],
        },
        loadAverage: loadavg()[0]?.toFixed(1),
      },
      null,
      2,
    ),
  );
  await records.close();
  await rm(dir, { recursive: true, force: true });
}

await main();
