/**
 * npm run bench:history (npx tsx bench/history.ts [rows]) — `/licenses history`'s first page at
 * 1,000,000 audit rows on SQLite, printed, not asserted (goal: p50 and p99 < 50 ms):
 *   - the table is migrated by openRecords (so it has exactly the app's indexes, 0009_audit_search
 *     included), closed, filled through one better-sqlite3 prepared INSERT, 50,000 rows a transaction,
 *     and opened again as the app opens it;
 *   - the first page (services/history.ts readHistoryPage: ten entries, newest first) of a student's
 *     e-mail, a license id (looked for as a license and as a pool), a pool id, a member, and a pool
 *     within the last 30 days: p50 / p99 / max over 200 runs (after 10 not counted), a different
 *     subject each run, with the CPU time beside the wall time (a busy machine makes one wait for a core);
 *   - page 5 of a pool, reached by Next's cursor.
 * Entries are spread over the last three years: 40,000 students, 250,000 licenses, 150 pools, 12 admins.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { readHistoryPage, sinceOf } from '../src/history/services/history.js';
import { auditRow } from '../src/kernel/db/audit.js';
import { openRecords, SQLITE_FILE } from '../src/kernel/db/open.js';
import type { AuditEntry } from '../src/kernel/domain/audit-entry.js';
import type { HistorySubject } from '../src/kernel/domain/history.js';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const PER_TRANSACTION = 50_000;
const RUNS = 200;
const DAY = 86_400_000;
const SPAN = 3 * 365 * DAY;
const now = Date.now();
const STUDENTS = 40_000;
const LICENSES = 250_000;
const POOLS = 150;

const ACTIONS: AuditEntry['action'][] = ['assign', 'recycle', 'extend', 'revoke', 'requested', 'approved'];
const OUTCOMES: AuditEntry['outcome'][] = ['done', 'done', 'done', 'done', 'refused', 'failed'];

function entry(i: number): AuditEntry {
  const student = i % STUDENTS;
  const action = ACTIONS[i % ACTIONS.length] ?? 'assign';
  const outcome = OUTCOMES[(i >> 3) % OUTCOMES.length] ?? 'done';
  return {
    at: new Date(now - SPAN + Math.floor((i / ROWS) * SPAN)).toISOString(),
    actor: `U0ADMIN${String(i % 12).padStart(3, '0')}`,
    action,
    outcome,
    poolId: String(2001 + (i % POOLS)),
    licenseId: String(100_000 + (i % LICENSES)),
    courseTitle: 'Mastering DAX',
    studentName: `Student ${student}`,
    studentEmail: `Student.${student}@Contoso.com`,
    ...(action === 'requested' || action === 'approved'
      ? { requester: `U0REQ${String(student).padStart(6, '0')}` }
      : {}),
    ...(action === 'extend' ? { previousEndDate: '2026-12-31', endDate: '2027-03-31' } : {}),
    ...(outcome === 'refused' ? { detail: 'The licensing service refused this: the pool has no free seat.' } : {}),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function timed(label: string, run: (n: number) => Promise<number>): Promise<void> {
  for (let i = 0; i < 10; i += 1) await run(i);
  const times: number[] = [];
  const cpu: number[] = [];
  let shown = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    shown += await run(i + 10);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  console.log(
    `${label}: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms, max ${(times.at(-1) ?? 0).toFixed(2)} ms; CPU p50 ${percentile(cpu, 50).toFixed(2)} ms, p99 ${percentile(cpu, 99).toFixed(2)} ms (${RUNS} runs, ${(shown / RUNS).toFixed(1)} entries a page)`,
  );
}

async function main(): Promise<void> {
  console.log(
    `Load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${availableParallelism()} cores.`,
  );
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-history-'));
  try {
    // Migrated as the app does, then filled directly: one prepared statement, big transactions.
    await (await openRecords({ dataDir, heartbeatMs: 0 })).close();
    const raw = new Sqlite(join(dataDir, SQLITE_FILE));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = OFF');
    const insert = raw.prepare(
      'insert into audit (at, actor, action, outcome, pool_id, license_id, student_email, requester, body) values (@at, @actor, @action, @outcome, @pool_id, @license_id, @student_email, @requester, @body)',
    );
    const fill = raw.transaction((from: number, to: number) => {
      for (let i = from; i < to; i += 1) insert.run(auditRow(entry(i)));
    });
    const started = performance.now();
    for (let from = 0; from < ROWS; from += PER_TRANSACTION) fill(from, Math.min(ROWS, from + PER_TRANSACTION));
    const insertS = (performance.now() - started) / 1000;
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    console.log(
      `Filled ${ROWS.toLocaleString('en')} audit rows in ${insertS.toFixed(1)} s (${Math.round(ROWS / insertS).toLocaleString('en')} rows/s, ${PER_TRANSACTION.toLocaleString('en')} a transaction, the app's 6 indexes on).`,
    );

    const records = await openRecords({ dataDir, heartbeatMs: 0 });
    try {
      const { db } = records;
      const first = (subject: HistorySubject, days?: number) => async () =>
        (
          await readHistoryPage(db, {
            subject,
            page: 1,
            ...(days ? { days, since: sinceOf(days, new Date()) as string } : {}),
          })
        ).items.length;
      /** A different subject each run, spread over all of them. */
      const spread = (n: number, of: number) => (n * 7919) % of;
      console.log('First page of /licenses history (10 entries, newest first), goal p50 and p99 < 50 ms:');
      await timed("  a student's e-mail (any case)", (n) =>
        first({ kind: 'email', email: `STUDENT.${spread(n, STUDENTS)}@contoso.com` })(),
      );
      await timed('  a license id (as a license and as a pool)', (n) =>
        first({ kind: 'id', id: String(100_000 + spread(n, LICENSES)) })(),
      );
      await timed('  a pool id (as a license and as a pool)', (n) =>
        first({ kind: 'id', id: String(2001 + spread(n, POOLS)) })(),
      );
      await timed('  a member (actor, requester, e-mail)', (n) =>
        first({ kind: 'user', userId: `U0ADMIN${String(n % 12).padStart(3, '0')}`, email: 'nobody@contoso.com' })(),
      );
      await timed('  a pool id, last 30 days', (n) => first({ kind: 'id', id: String(2001 + spread(n, POOLS)) }, 30)());
      await timed('  a pool id, pages 1 to 5 by Next (5 reads together)', async (n) => {
        const subject: HistorySubject = { kind: 'id', id: String(2001 + spread(n, POOLS)) };
        let page = await readHistoryPage(db, { subject, page: 1 });
        for (let p = 2; p <= 5; p += 1)
          page = await readHistoryPage(db, { subject, page: p, before: page.oldestId ?? 0 });
        return page.items.length;
      });
    } finally {
      await records.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
