/**
 * The audit table (docs/records.md, "The audit trail"): one append-only trail for every process that
 * uses the database. Each row is the whole entry as JSON (`body`) plus the columns it is found by:
 * when (`at`, newest first for App Home), the license, the pool and the student's e-mail (the history
 * of one of them). Rows are only ever added, and deleted by age (AUDIT_RETENTION_DAYS).
 */
import type { Insertable, Kysely } from 'kysely';
import { type AuditEntry, readAuditEntry } from '../domain/audit-entry.js';
import type { AuditTable, Database } from './schema.js';

/** The facts of an entry a row is made of; an imported line may carry an action this version does not know. */
export type AuditFacts = Record<string, unknown> & Pick<AuditEntry, 'at' | 'actor'>;

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A masked address (`a***@contoso.com`, as the old audit file kept it) finds nobody: no search column. */
const MASKED = /\*\*\*/;

/** `at` as UTC ISO text (so that the column sorts by time, whatever offset the entry was written with). */
function utc(at: string): string {
  const t = Date.parse(at);
  return Number.isNaN(t) ? at : new Date(t).toISOString();
}

export function auditRow(entry: AuditEntry | AuditFacts): Insertable<AuditTable> {
  const e = entry as AuditFacts;
  const email = text(e.studentEmail);
  return {
    at: utc(e.at),
    actor: e.actor,
    action: String(e.action),
    outcome: String(e.outcome),
    pool_id: text(e.poolId),
    license_id: text(e.licenseId),
    student_email: email && !MASKED.test(email) ? email.toLowerCase() : null,
    requester: text(e.requester),
    body: JSON.stringify(entry),
  };
}

export async function appendAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db.insertInto('audit').values(auditRow(entry)).execute();
}

/** Rows per INSERT: 10 columns each, far below either database's limit on parameters. */
const INSERT_BATCH = 500;

/** Appends entries in their order (call it inside a transaction to make them one). */
export async function appendAuditMany(
  db: Kysely<Database>,
  entries: readonly (AuditEntry | AuditFacts)[],
): Promise<void> {
  for (let i = 0; i < entries.length; i += INSERT_BATCH) {
    await db
      .insertInto('audit')
      .values(entries.slice(i, i + INSERT_BATCH).map(auditRow))
      .execute();
  }
}

/**
 * The newest `limit` entries, newest first (by `at`, then by the order they were added), through
 * the `audit_at` index. An entry this version cannot show (an action added by a newer one) is left out.
 */
export async function newestAudit(db: Kysely<Database>, limit: number): Promise<AuditEntry[]> {
  const n = Math.max(0, Math.floor(limit));
  if (n === 0) return [];
  const rows = await db
    .selectFrom('audit')
    .select('body')
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(n * 2)
    .execute();
  return rows.flatMap((r) => readAuditEntry(r.body) ?? []).slice(0, n);
}

/** Rows per DELETE: a first run over years of entries never holds the writer for long. */
const DELETE_BATCH = 5000;

/** Deletes the entries older than `before`, in batches; returns how many went. */
export async function deleteAuditBefore(db: Kysely<Database>, before: Date): Promise<number> {
  const cutoff = before.toISOString();
  let total = 0;
  for (;;) {
    const batch = db.selectFrom('audit').select('id').where('at', '<', cutoff).orderBy('at').limit(DELETE_BATCH);
    const result = await db.deleteFrom('audit').where('id', 'in', batch).executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    total += deleted;
    if (deleted < DELETE_BATCH) return total;
  }
}

export async function countAudit(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('audit')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
