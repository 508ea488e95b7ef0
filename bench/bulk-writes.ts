/**
 * npm run bench:bulk-writes — what a 500-row bulk job writes to the database (SQLite in a temporary
 * DATA_DIR, as the app opens it: a row's move to sending is synced at once), printed, not asserted: the runner as it is (one
 * transaction per row: the row done and the next one's move to 'sending') against the same runner
 * with every row change rewriting the whole job, twice per row. Bytes are the process's own write()
 * bytes (/proc/self/io wchar, Linux) around each run, so the ratio is measured in one run on one
 * machine. The licensing API is a stub that assigns at once: only storage is timed.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BulkJob, type BulkJobStore, createBulkJobStore } from '../src/bulk/db/store.js';
import { createBulkRunner } from '../src/bulk/services/bulk-runner.js';
import { openRecords } from '../src/kernel/db/open.js';
import type { LicensingClient } from '../src/kernel/licensing/types.js';

const ROWS = 500;
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const notifier = { started: async () => undefined, progress: async () => undefined, finished: async () => undefined };

async function written(): Promise<number> {
  const io = await readFile('/proc/self/io', 'utf8');
  return Number(/wchar:\s*(\d+)/.exec(io)?.[1] ?? Number.NaN);
}

function job(id: string): BulkJob {
  return {
    version: 1,
    id,
    requester: 'U0BENCH001',
    poolId: '2007',
    courseTitle: 'Power Query Fundamentals',
    createdAt: new Date().toISOString(),
    state: 'running',
    rows: Array.from({ length: ROWS }, (_, i) => ({
      line: i + 1,
      email: `bench.student.${i + 1}@contoso.com`,
      name: `Bench Student ${i + 1}`,
      state: 'pending' as const,
    })),
    notSent: [],
  };
}

const licensing = {
  pools: {
    assign: async (_pool: string, body: { email: string }) => ({
      id: `L-${body.email}`,
      poolId: '2007',
      student: { id: 's', email: body.email, name: '' },
      start: new Date().toISOString(),
      end: new Date(Date.now() + 86_400_000).toISOString(),
      active: true,
      revokable: true,
    }),
  },
} as unknown as LicensingClient;

async function measure(label: string, wrap: (store: BulkJobStore) => BulkJobStore): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-bulk-writes-'));
  try {
    const records = await openRecords({ dataDir: dir, heartbeatMs: 0 });
    const store = wrap(createBulkJobStore(records));
    const runner = createBulkRunner({ licensing, store, logger: silent, now: () => new Date() });
    const j = job(label);
    const before = await written();
    const t = performance.now();
    await runner.start(j, notifier);
    await runner.settled(j.id);
    const ms = performance.now() - t;
    const bytes = (await written()) - before;
    console.log(
      `  ${label}: ${(bytes / 1e6).toFixed(2)} MB written, ${ms.toFixed(0)} ms (${(ms / ROWS).toFixed(2)} ms per row)`,
    );
    await runner.stop();
    await records.close();
    return bytes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`bench:bulk-writes — a ${ROWS}-row bulk job kept in the database (SQLite)`);
  const journal = await measure('one transaction per row', (s) => s);
  const whole = await measure('whole job rewritten twice per row (as before)', (s) => ({
    ...s,
    saveRows: async (j) => {
      await s.save(j);
      await s.save(j);
    },
  }));
  console.log(
    `  ratio: one transaction per row writes ${(journal / whole).toFixed(4)} of the bytes (1/${(whole / journal).toFixed(0)})`,
  );
}

await main();
