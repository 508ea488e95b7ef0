/**
 * `/licenses history`'s reads on both databases: the audit entries about an e-mail (any case), a
 * member (actor, requester, their e-mail), or an id (license and pool), newest first, ten a page by
 * keyset on the row id both ways, within a window of days; and the export of every page as CSV.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { searchAudit } from '../../../src/history/db/store.js';
import { exportHistory, HISTORY_CSV_HEADER, readHistoryPage } from '../../../src/history/services/history.js';
import { appendAuditMany } from '../../../src/kernel/db/audit.js';
import type { AuditEntry } from '../../../src/kernel/domain/audit-entry.js';
import { cleanupsAfterEach } from '../../support/cleanups.js';
import { parseCsv } from '../../support/csv.js';
import { testDatabases } from '../../support/records.js';

const cleanups = cleanupsAfterEach();

const T0 = Date.parse('2026-11-01T00:00:00Z');
const HOUR = 3_600_000;

/** Entry `i` of a trail an hour apart: odd ones about ada (license 4001, pool 2001), even ones about others. */
function entry(i: number, extra: Partial<AuditEntry> = {}): AuditEntry {
  return {
    at: new Date(T0 + i * HOUR).toISOString(),
    actor: i % 3 === 0 ? 'U0MGR00001' : 'U0MGR00002',
    action: 'extend',
    outcome: 'done',
    ...(i % 2 === 1
      ? { licenseId: '4001', poolId: '2001', studentEmail: i % 4 === 1 ? 'Ada@Contoso.com' : 'ada@contoso.com' }
      : { licenseId: `40${10 + i}`, poolId: '2002', studentEmail: `other${i}@contoso.com` }),
    previousEndDate: '2026-12-31',
    endDate: `2027-01-${String((i % 28) + 1).padStart(2, '0')}`,
    ...extra,
  };
}

describe.each(testDatabases())('the history of a subject on $dialect', ({ dialect, skip, open }) => {
  const opened = async (entries: AuditEntry[]) => {
    const t = await open();
    cleanups.push(t.close);
    await t.records.db.transaction().execute((trx) => appendAuditMany(trx, entries));
    return t.records.db;
  };

  it.skipIf(skip !== undefined)(
    'an e-mail in any case: its entries only, newest first, ten a page, Next and Previous by keyset',
    async () => {
      const all = Array.from({ length: 50 }, (_, i) => entry(i));
      const db = await opened(all);
      const ada = all.filter((_, i) => i % 2 === 1).reverse();
      expect(ada).toHaveLength(25);
      const subject = { kind: 'email', email: 'ADA@contoso.COM' } as const;
      const p1 = await readHistoryPage(db, { subject, page: 1 });
      expect(p1.items.map((h) => h.entry)).toEqual(ada.slice(0, 10));
      expect(p1).toMatchObject({ page: 1, hasNewer: false, hasOlder: true });
      const p2 = await readHistoryPage(db, { subject, page: 2, before: p1.oldestId ?? 0 });
      expect(p2.items.map((h) => h.entry)).toEqual(ada.slice(10, 20));
      expect(p2).toMatchObject({ page: 2, hasNewer: true, hasOlder: true });
      const p3 = await readHistoryPage(db, { subject, page: 3, before: p2.oldestId ?? 0 });
      expect(p3.items.map((h) => h.entry)).toEqual(ada.slice(20));
      expect(p3).toMatchObject({ page: 3, hasNewer: true, hasOlder: false });
      // Back from page 3 to page 2 by its newest row, and from there to the first page.
      const back = await readHistoryPage(db, { subject, page: 2, after: p3.newestId ?? 0 });
      expect(back.items.map((h) => h.entry)).toEqual(ada.slice(10, 20));
      expect(back).toMatchObject({ page: 2, hasNewer: true, hasOlder: true });
      const first = await readHistoryPage(db, { subject, page: 1, after: back.newestId ?? 0 });
      expect(first.items.map((h) => h.entry)).toEqual(ada.slice(0, 10));
      expect(first).toMatchObject({ page: 1, hasNewer: false });
    },
  );

  it.skipIf(skip !== undefined)('a window of days leaves the older entries out', async () => {
    const all = Array.from({ length: 50 }, (_, i) => entry(i));
    const db = await opened(all);
    // Since entry 40's moment: ada's entries 41, 43 … 49.
    const since = new Date(T0 + 40 * HOUR).toISOString();
    const page = await readHistoryPage(db, { subject: { kind: 'email', email: 'ada@contoso.com' }, since, page: 1 });
    expect(page.items.map((h) => h.entry.at)).toEqual([49, 47, 45, 43, 41].map((i) => entry(i).at));
    expect(page.hasOlder).toBe(false);
  });

  it.skipIf(skip !== undefined)(
    'an id is looked for as a license and as a pool, each entry once; a member as actor, requester and e-mail',
    async () => {
      const db = await opened([
        entry(1, { licenseId: '7007', poolId: '2001' }),
        entry(2, { licenseId: '4100', poolId: '7007' }),
        entry(3, { licenseId: '7007', poolId: '7007' }),
        entry(4, { licenseId: '4200', poolId: '2003' }),
        entry(5, { actor: 'U0ADA00001', action: 'requested', studentEmail: 'x@y.org' }),
        entry(6, { action: 'approved', requester: 'U0ADA00001', studentEmail: 'x@y.org' }),
        entry(7, { studentEmail: 'Ada.Member@Contoso.com' }),
        entry(8, { action: 'future-action' as AuditEntry['action'], actor: 'U0ADA00001' }),
      ]);
      const byId = await searchAudit(db, {
        matches: [
          { column: 'license_id', value: '7007' },
          { column: 'pool_id', value: '7007' },
        ],
        limit: 10,
      });
      expect(byId.hits.map((h) => h.entry.at)).toEqual([3, 2, 1].map((i) => entry(i).at));
      const member = await readHistoryPage(db, {
        subject: { kind: 'user', userId: 'U0ADA00001', email: 'ada.member@contoso.com' },
        page: 1,
      });
      // Entry 8 is by the member but of an action this version cannot show: left out.
      expect(member.items.map((h) => h.entry.at)).toEqual([7, 6, 5].map((i) => entry(i).at));
      const nobody = await readHistoryPage(db, { subject: { kind: 'id', id: '9999' }, page: 1 });
      expect(nobody).toMatchObject({ items: [], hasOlder: false, hasNewer: false });
    },
  );

  it.skipIf(skip !== undefined)('Export writes every page, newest first, with the actors named', async () => {
    const all = Array.from({ length: 1203 }, (_, i) =>
      entry(i, i === 5 ? { detail: 'The pool, "2001", is full' } : {}),
    );
    const db = await opened(all);
    const asked: string[] = [];
    const result = await exportHistory(
      db,
      { subject: { kind: 'id', id: '2001' } },
      {
        now: new Date('2026-11-25T10:00:00Z'),
        nameOf: async (id) => {
          asked.push(id);
          return id === 'U0MGR00001' ? 'Dana Lee' : undefined;
        },
      },
    );
    cleanups.push(result.discard);
    const rows = parseCsv(readFileSync(result.file, 'utf8').replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual([...HISTORY_CSV_HEADER]);
    const ada = all.filter((_, i) => i % 2 === 1).reverse();
    expect(result.rows).toBe(ada.length);
    expect(rows.slice(1).map((r) => r[0])).toEqual(ada.map((e) => e.at));
    const first = rows[1] ?? [];
    const e = ada[0] as AuditEntry;
    expect(first).toEqual([
      e.at,
      e.actor,
      e.actor === 'U0MGR00001' ? 'Dana Lee' : '',
      'end date changed',
      'done',
      '4001',
      '2001',
      e.studentEmail,
      '2026-12-31',
      e.endDate,
      '',
    ]);
    expect(rows.find((r) => r[0] === entry(5).at)?.[10]).toBe('The pool, "2001", is full');
    // Each actor's name is asked for once.
    expect(asked.sort()).toEqual(['U0MGR00001', 'U0MGR00002']);
    expect(result.filename).toBe('license-history-2026-11-25.csv');
  });

  it.skipIf(skip !== undefined)("a member's history reads through the indexes 0009_audit_search adds", async () => {
    const t = await open();
    cleanups.push(t.close);
    const { db } = t.records;
    if (dialect === 'sqlite') {
      const names = await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'index' and tbl_name = 'audit'`.execute(db);
      expect(names.rows.map((r) => r.name)).toEqual(expect.arrayContaining(['audit_actor', 'audit_requester']));
      const plan = await sql<{
        detail: string;
      }>`explain query plan select id, body from audit where actor = 'U1' order by id desc limit 11`.execute(db);
      expect(plan.rows.map((r) => r.detail).join(' ')).toContain('audit_actor');
    } else {
      const names = await sql<{
        indexname: string;
      }>`select indexname from pg_indexes where tablename = 'audit'`.execute(db);
      expect(names.rows.map((r) => r.indexname)).toEqual(expect.arrayContaining(['audit_actor', 'audit_requester']));
    }
  });
});
