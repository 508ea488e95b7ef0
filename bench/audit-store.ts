/**
 * npm run bench:audit-store (npx tsx bench/audit-store.ts [rows]) — the audit table on SQLite at
 * 1,000,000 entries, printed, not asserted:
 *   - the insert rate (batches of 500 rows, 20,000 rows a transaction), as an import of old files does;
 *   - App Home's recent changes (the newest RECENT_CHANGES entries through the `audit_at` index):
 *     p50 and p99 over 200 runs (goal: p99 <= 10 ms);
 *   - one license's and one student's history (the newest 50, through their indexes): p50 and p99;
 *   - the database's size per 100,000 entries (after a WAL checkpoint);
 *   - AUDIT_RETENTION_DAYS's daily delete of one day's entries.
 * The entries are spread over the last three years, a few kinds of each, with realistic text.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { RECENT_CHANGES } from '../src/digest/services/dashboard.js';
import { appendAuditMany, countAudit, deleteAuditBefore, newestAudit } from '../src/kernel/db/audit.js';
import { openRecords, SQLITE_FILE } from '../src/kernel/db/open.js';
import type { AuditEntry } from '../src/kernel/domain/audit-entry.js';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const PER_TRANSACTION = 20_000;
const RUNS = 200;
const DAY = 86_400_000;
const SPAN = 3 * 365 * DAY;
const now = Date.now();

const ACTIONS: AuditEntry['action'][] = ['assign', 'recycle', 'extend', 'revoke', 'requested', 'approved'];
const OUTCOMES: AuditEntry['outcome'][] = ['done', 'done', 'done', 'done', 'refused', 'failed'];

function entry(i: number): AuditEntry {
  const student = i % 40_000;
  const action = ACTIONS[i % ACTIONS.length] ?? 'assign';
  const outcome = OUTCOMES[(i >> 3) % OUTCOMES.length] ?? 'done';
  return {
    // Oldest first, as time goes; a few per second at the end of the range.
    at: new Date(now - SPAN + Math.floor((i / ROWS) * SPAN)).toISOString(),
    actor: `U0ADMIN${String(i % 12).padStart(3, '0')}`,
    action,
    outcome,
    poolId: String(2001 + (i % 150)),
    licenseId: String(100_000 + (i % 250_000)),
    courseTitle: 'Mastering DAX',
    studentName: `Student ${student}`,
    studentEmail: `student.${student}@contoso.com`,
    ...(action === 'extend' ? { previousEndDate: '2026-12-31', endDate: '2027-03-31' } : {}),
    ...(outcome === 'refused' ? { detail: 'The licensing service refused this: the pool has no free seat.' } : {}),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function timed(label: string, run: () => Promise<unknown>): Promise<void> {
  const times: number[] = [];
  // A few runs first, not counted: the pages a running app reads often are in the cache.
  for (let i = 0; i < 10; i += 1) await run();
  // The CPU time of this process too: on a busy machine the wall time includes waiting for a core.
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  console.log(
    `${label}: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms, max ${(times.at(-1) ?? 0).toFixed(2)} ms; CPU p50 ${percentile(cpu, 50).toFixed(2)} ms, p99 ${percentile(cpu, 99).toFixed(2)} ms (${RUNS} runs after 10 not counted)`,
  );
}

async function main(): Promise<void> {
  console.log(
    `Load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${availableParallelism()} cores.`,
  );
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-audit-store-'));
  const records = await openRecords({ dataDir, heartbeatMs: 0 });
  try {
    const { db } = records;
    const started = performance.now();
    for (let from = 0; from < ROWS; from += PER_TRANSACTION) {
      const batch = Array.from({ length: Math.min(PER_TRANSACTION, ROWS - from) }, (_, k) => entry(from + k));
      await db.transaction().execute((trx) => appendAuditMany(trx, batch));
    }
    const insertMs = performance.now() - started;
    const count = await countAudit(db);
    console.log(
      `Inserted ${count.toLocaleString('en')} audit rows in ${(insertMs / 1000).toFixed(1)} s (${Math.round(count / (insertMs / 1000)).toLocaleString('en')} rows/s; ${PER_TRANSACTION.toLocaleString('en')} rows a transaction, 500 an INSERT).`,
    );
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
    const bytes = (await stat(join(dataDir, SQLITE_FILE))).size;
    console.log(
      `Database size: ${(bytes / 1024 / 1024).toFixed(1)} MiB, ${(((bytes / count) * 100_000) / 1024 / 1024).toFixed(1)} MiB per 100,000 entries (4 indexes included).`,
    );

    const newest = await newestAudit(db, RECENT_CHANGES);
    if (newest.length !== RECENT_CHANGES) throw new Error(`expected ${RECENT_CHANGES} entries, got ${newest.length}`);
    await timed(`App Home's recent changes (newest ${RECENT_CHANGES}, goal p99 <= 10 ms)`, () =>
      newestAudit(db, RECENT_CHANGES),
    );
    let n = 0;
    /** A different license or student each run, spread over all of them. */
    const next = () => {
      n += 7919;
      return n;
    };
    await timed("One license's history (newest 50)", () =>
      db
        .selectFrom('audit')
        .select('body')
        .where('license_id', '=', String(100_000 + (next() % 250_000)))
        .orderBy('id', 'desc')
        .limit(50)
        .execute(),
    );
    await timed("One student's history (newest 50)", () =>
      db
        .selectFrom('audit')
        .select('body')
        .where('student_email', '=', `student.${next() % 40_000}@contoso.com`)
        .orderBy('id', 'desc')
        .limit(50)
        .execute(),
    );
    // The oldest day: what a daily AUDIT_RETENTION_DAYS run deletes.
    const t0 = performance.now();
    const deleted = await deleteAuditBefore(db, new Date(now - SPAN + DAY));
    console.log(
      `Retention, one day's entries deleted: ${deleted.toLocaleString('en')} rows in ${(performance.now() - t0).toFixed(0)} ms.`,
    );
  } finally {
    await records.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
