/**
 * The history feature's queries (docs/history.md): entries about a student, a license,
 * a pool or a person, found in the `audit` table through its (column, id) indexes. The table and its
 * writer are the kernel's (src/kernel/db/audit.ts); this only reads it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../kernel/db/schema.js';
import { type AuditEntry, readAuditEntry } from '../../kernel/domain/audit-entry.js';

/** The columns an entry is found by (each has an index on it and `id`: 0003_audit, 0009_audit_search). */
export type AuditSearchColumn = 'student_email' | 'license_id' | 'pool_id' | 'actor' | 'requester';

/** One column's value; `student_email` is compared in lower case (how it is stored). */
export interface AuditMatch {
  column: AuditSearchColumn;
  value: string;
}

export interface AuditSearch {
  /** An entry is found when any of them matches. */
  matches: readonly AuditMatch[];
  /** UTC ISO: only entries at or after it. */
  since?: string;
  /** Keyset, towards older entries: only rows added before row `before` (id < before). */
  before?: number;
  /** Keyset, towards newer entries: only rows added after row `after` (id > after), the nearest first. */
  after?: number;
  /** Only entries about these pools (a pool admin's scope); entries that name no pool are then left out. */
  pools?: readonly string[];
  limit: number;
}

export interface AuditHit {
  /** The row's id: the order it was added, and the page's cursor. */
  id: number;
  entry: AuditEntry;
}

export interface AuditFound {
  /** Newest first. */
  hits: AuditHit[];
  more: boolean;
  /** The ids of the page's newest and oldest rows, shown or not: the cursors of the pages beside it. */
  newest: number | undefined;
  oldest: number | undefined;
}

/**
 * Entries about a subject, newest first (by `id`, the order they were added), a page at a time:
 * one query per column through its (column, id) index, merged, so each reads at most `limit + 1`
 * rows (plus those `since` leaves out). `more`: there are rows beyond this page in the direction
 * asked (older ones without `after`, newer ones with it). An entry this version cannot show is
 * left out of the page (it may then hold fewer than `limit`).
 */
export async function searchAudit(db: Kysely<Database>, search: AuditSearch): Promise<AuditFound> {
  const limit = Math.max(1, Math.floor(search.limit));
  const newer = search.after !== undefined;
  const seen = new Map<number, string>();
  const pools = search.pools;
  if (pools?.length === 0) return { hits: [], more: false, newest: undefined, oldest: undefined };
  for (const m of search.matches) {
    const value = m.column === 'student_email' ? m.value.toLowerCase() : m.value;
    let q = db.selectFrom('audit').select(['id', 'body']).where(m.column, '=', value);
    if (search.since !== undefined) q = q.where('at', '>=', search.since);
    if (search.before !== undefined) q = q.where('id', '<', search.before);
    if (search.after !== undefined) q = q.where('id', '>', search.after);
    if (pools) q = q.where('pool_id', 'in', [...pools]);
    const rows = await q
      .orderBy('id', newer ? 'asc' : 'desc')
      .limit(limit + 1)
      .execute();
    for (const r of rows) seen.set(Number(r.id), r.body);
  }
  const ids = [...seen.keys()].sort((a, b) => (newer ? a - b : b - a));
  const page = ids.slice(0, limit);
  if (newer) page.reverse();
  const hits = page.flatMap((id) => {
    const entry = readAuditEntry(seen.get(id) ?? '');
    return entry ? [{ id, entry }] : [];
  });
  return { hits, more: ids.length > limit, newest: page[0], oldest: page.at(-1) };
}
