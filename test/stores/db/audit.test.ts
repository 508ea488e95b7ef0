/**
 * The audit table on both databases: the audit log appends every entry (the whole entry as JSON and
 * its search columns), App Home's read gives the newest first with a limit (also what another process
 * on the same database wrote), AUDIT_RETENTION_DAYS deletes by age, and the audit files of an older
 * version are imported once, oldest first, in one transaction that a corrupt line refuses whole.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditFileAt, importAuditFiles } from '../../../src/history/services/audit-import.js';
import { startAuditRetention } from '../../../src/history/services/audit-retention.js';
import { countAudit, deleteAuditBefore, newestAudit } from '../../../src/kernel/db/audit.js';
import { DatabaseProblem, openRecords } from '../../../src/kernel/db/open.js';
import type { AuditEntry } from '../../../src/kernel/domain/audit-entry.js';
import { createAuditLog } from '../../../src/kernel/services/audit.js';
import { cleanupsAfterEach } from '../../support/cleanups.js';
import { testDatabases } from '../../support/records.js';
import { watchingLogger } from '../../support/watching-logger.js';

const cleanups = cleanupsAfterEach();

const entry = (at: string, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  at,
  actor: 'U0MGR00001',
  action: 'assign',
  outcome: 'done',
  ...extra,
});

const lines = (...entries: unknown[]) =>
  `${entries.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n')}\n`;

describe.each(testDatabases())('the audit table on $dialect', ({ dialect, skip, open }) => {
  const opened = async () => {
    const t = await open();
    cleanups.push(t.close);
    return t;
  };

  it.skipIf(skip !== undefined)(
    'the audit log appends each entry whole, with its search columns; the log line stays masked',
    async () => {
      const { records } = await opened();
      const logger = watchingLogger();
      const audit = createAuditLog({ logger, records });
      const e = entry('2026-11-21T10:00:00+01:00', {
        action: 'revoke',
        poolId: '101',
        licenseId: '4001',
        studentName: 'Ada Lovelace',
        studentEmail: 'Ada.Lovelace@Contoso.com',
        requester: 'U0REQ00001',
        detail: 'ada.lovelace@contoso.com asked for it',
      });
      await audit.record(e);
      const rows = await records.db.selectFrom('audit').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        at: '2026-11-21T09:00:00.000Z',
        actor: 'U0MGR00001',
        action: 'revoke',
        outcome: 'done',
        pool_id: '101',
        license_id: '4001',
        student_email: 'ada.lovelace@contoso.com',
        requester: 'U0REQ00001',
      });
      expect(JSON.parse(rows[0]?.body ?? '')).toEqual(e);
      expect(await audit.recent(1)).toEqual([e]);
      const logged = JSON.stringify(logger.lines.filter((l) => l.message === 'audit'));
      expect(logged).toContain('A***@Contoso.com');
      expect(logged).not.toMatch(/ada\.lovelace@/i);
    },
  );

  it.skipIf(skip !== undefined)(
    'a database that does not answer: the entry is in the log line, a warning says the row is missing, the caller goes on',
    async () => {
      const { dataDir, databaseUrl } = await opened();
      const gone = await openRecords({ dataDir, ...(databaseUrl ? { databaseUrl } : {}), heartbeatMs: 0 });
      await gone.close();
      const logger = watchingLogger();
      const audit = createAuditLog({ logger, records: gone });
      await expect(audit.record(entry('2026-11-21T10:00:00.000Z', { licenseId: '4001' }))).resolves.toBeUndefined();
      expect(logger.lines.map((l) => [l.level, l.message])).toEqual([
        ['info', 'audit'],
        ['warn', 'could not write the audit entry to the database; the log line above holds it'],
      ]);
    },
  );

  it.skipIf(skip !== undefined)(
    'reads the newest entries first with a limit, those of another process on the database too',
    async () => {
      const { records, dataDir, databaseUrl } = await opened();
      const other = await openRecords({ dataDir, ...(databaseUrl ? { databaseUrl } : {}), heartbeatMs: 0 });
      cleanups.push(() => other.close());
      const here = createAuditLog({ logger: watchingLogger(), records });
      const there = createAuditLog({ logger: watchingLogger(), records: other });
      for (let i = 0; i < 12; i += 1) {
        const log = i % 2 === 0 ? here : there;
        await log.record(entry(`2026-11-21T10:${String(i).padStart(2, '0')}:00.000Z`, { licenseId: String(4000 + i) }));
      }
      // Two entries in the same millisecond: the one added last is the newer.
      await here.record(entry('2026-11-21T11:00:00.000Z', { licenseId: 'first' }));
      await there.record(entry('2026-11-21T11:00:00.000Z', { licenseId: 'second' }));
      expect((await there.recent(4)).map((e) => e.licenseId)).toEqual(['second', 'first', '4011', '4010']);
      expect((await here.recent(100)).length).toBe(14);
      expect(await here.recent(0)).toEqual([]);
      // An action a newer version added is kept in the table but not shown by this one.
      await records.db
        .insertInto('audit')
        .values({
          at: '2026-11-21T12:00:00.000Z',
          actor: 'U0MGR00001',
          action: 'teleported',
          outcome: 'done',
          pool_id: null,
          license_id: null,
          student_email: null,
          requester: null,
          body: JSON.stringify(entry('2026-11-21T12:00:00.000Z', { action: 'teleported' as never })),
        })
        .execute();
      expect((await newestAudit(records.db, 2)).map((e) => e.licenseId)).toEqual(['second', 'first']);
    },
  );

  it.skipIf(skip !== undefined)(
    'AUDIT_RETENTION_DAYS deletes the entries older than that, and only those',
    async () => {
      const { records } = await opened();
      const audit = createAuditLog({ logger: watchingLogger(), records });
      const now = new Date('2026-11-21T12:00:00.000Z');
      for (const day of [1, 5, 29, 31, 400]) {
        await audit.record(entry(new Date(now.getTime() - day * 86_400_000).toISOString(), { licenseId: `d${day}` }));
      }
      const logger = watchingLogger();
      const retention = startAuditRetention({ records, days: 30, logger, now: () => now });
      cleanups.push(async () => retention.stop());
      expect(await retention.run()).toBe(2);
      expect((await audit.recent(10)).map((e) => e.licenseId)).toEqual(['d1', 'd5', 'd29']);
      expect(logger.lines.find((l) => l.message.includes('AUDIT_RETENTION_DAYS'))?.fields).toMatchObject({
        deleted: 2,
        days: 30,
      });
      expect(await retention.run()).toBe(0);
      // More than one batch.
      const many = Array.from({ length: 12_000 }, (_, i) =>
        entry(`2020-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`),
      );
      await records.db.transaction().execute(async (trx) => {
        for (let i = 0; i < many.length; i += 500) {
          await trx
            .insertInto('audit')
            .values(
              many.slice(i, i + 500).map((e) => ({
                at: e.at,
                actor: e.actor,
                action: e.action,
                outcome: e.outcome,
                pool_id: null,
                license_id: null,
                student_email: null,
                requester: null,
                body: JSON.stringify(e),
              })),
            )
            .execute();
        }
      });
      expect(await deleteAuditBefore(records.db, new Date('2021-01-01T00:00:00.000Z'))).toBe(12_000);
      expect(await countAudit(records.db)).toBe(3);
    },
  );

  it.skipIf(skip !== undefined)(
    'imports the audit files once, oldest first, and moves each aside with one log line',
    async () => {
      const { records, dataDir } = await opened();
      const file = join(dataDir, 'audit.jsonl');
      writeFileSync(auditFileAt(file, 2), lines(entry('2026-01-01T00:00:00.000Z', { licenseId: 'oldest' })));
      writeFileSync(
        auditFileAt(file, 1),
        lines(
          entry('2026-02-01T00:00:00.000Z', { licenseId: 'older', studentEmail: 'a***@contoso.com' }),
          '',
          entry('2026-02-02T00:00:00.000Z', { licenseId: 'newer-version', action: 'teleported' as never }),
        ),
      );
      writeFileSync(file, lines(entry('2026-03-01T00:00:00.000Z', { licenseId: 'newest' })));
      writeFileSync(join(dataDir, 'notes.jsonl'), 'not an audit file\n');
      const logger = watchingLogger();
      const now = () => new Date('2026-11-21T12:00:00.000Z');
      const imported = await importAuditFiles({ records, dataDir, logger, now });
      expect(imported.map((f) => [f.file, f.entries])).toEqual([
        [auditFileAt(file, 2), 1],
        [auditFileAt(file, 1), 2],
        [file, 1],
      ]);
      const rows = await records.db
        .selectFrom('audit')
        .select(['id', 'license_id', 'student_email'])
        .orderBy('id')
        .execute();
      expect(rows.map((r) => r.license_id)).toEqual(['oldest', 'older', 'newer-version', 'newest']);
      // A masked address finds nobody: no search column for it.
      expect(rows[1]?.student_email).toBeNull();
      expect((await newestAudit(records.db, 10)).map((e) => e.licenseId)).toEqual(['newest', 'older', 'oldest']);
      const names = readdirSync(dataDir).sort();
      expect(names).toEqual(
        expect.arrayContaining([
          'audit.jsonl.imported-2026-11-21T12-00-00-000Z',
          'audit.1.jsonl.imported-2026-11-21T12-00-00-000Z',
          'audit.2.jsonl.imported-2026-11-21T12-00-00-000Z',
          'notes.jsonl',
        ]),
      );
      expect(existsSync(file)).toBe(false);
      const said = logger.lines.filter((l) => l.message.startsWith('audit: the audit files were imported'));
      expect(said).toHaveLength(1);
      expect(said[0]?.fields).toMatchObject({
        entries: 4,
        files: [
          { file: auditFileAt(file, 2), entries: 1 },
          { file: auditFileAt(file, 1), entries: 2 },
          { file, entries: 1 },
        ],
      });
      // Once: the next start finds no file and imports nothing.
      expect(await importAuditFiles({ records, dataDir, logger, now })).toEqual([]);
      expect(await countAudit(records.db)).toBe(4);
    },
  );

  it.skipIf(skip !== undefined)(
    'a line that is not an entry refuses the import whole, naming the file and the line',
    async () => {
      const { records, dataDir } = await opened();
      const file = join(dataDir, 'audit.jsonl');
      writeFileSync(auditFileAt(file, 1), lines(entry('2026-01-01T00:00:00.000Z'), entry('2026-01-02T00:00:00.000Z')));
      const bad = lines(entry('2026-03-01T00:00:00.000Z'), '', '{"at":"2026-03-02T00:00:00.000Z","actor":"U0MGR0');
      writeFileSync(file, bad);
      const logger = watchingLogger();
      const refused = await importAuditFiles({ records, dataDir, logger }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DatabaseProblem);
      expect((refused as Error).message).toBe(
        `The audit file ${file} cannot be imported into the database: line 3 is not an entry (it is not valid JSON); nothing was imported, so delete or fix that line (or move the file out of DATA_DIR to leave its entries out) and run npm run import-old-records again`,
      );
      expect(await countAudit(records.db)).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(bad);
      expect(existsSync(auditFileAt(file, 1))).toBe(true);

      writeFileSync(file, lines(entry('2026-03-01T00:00:00.000Z'), { at: '2026-03-02T00:00:00.000Z', actor: 'x' }));
      const notEntry = await importAuditFiles({ records, dataDir, logger }).catch((e: unknown) => e);
      expect((notEntry as Error).message).toContain(
        `${file} cannot be imported into the database: line 2 is not an entry (it is not an audit entry`,
      );
      expect(await countAudit(records.db)).toBe(0);

      // Fixed: it goes in, the rotated file's entries first.
      writeFileSync(file, lines(entry('2026-03-01T00:00:00.000Z', { licenseId: 'fixed' })));
      expect((await importAuditFiles({ records, dataDir, logger })).map((f) => f.entries)).toEqual([2, 1]);
      expect((await newestAudit(records.db, 1))[0]?.licenseId).toBe('fixed');
    },
  );

  it.skipIf(skip !== undefined || dialect !== 'sqlite')(
    "App Home's read and a license's, a pool's and a student's history go through an index",
    async () => {
      const { records } = await opened();
      const plan = async (query: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
        const { sql: text, parameters } = query.compile();
        let i = 0;
        const inline = text.replace(/\?/g, () => {
          const p = parameters[i++];
          return typeof p === 'number' ? String(p) : `'${String(p)}'`;
        });
        const rows = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${sql.raw(inline)}`.execute(records.db);
        return rows.rows.map((r) => r.detail).join(' | ');
      };
      const db = records.db;
      expect(
        await plan(db.selectFrom('audit').select('body').orderBy('at', 'desc').orderBy('id', 'desc').limit(8)),
      ).toMatch(/USING (COVERING )?INDEX audit_at/);
      for (const [column, index] of [
        ['license_id', 'audit_license'],
        ['pool_id', 'audit_pool'],
        ['student_email', 'audit_student'],
      ] as const) {
        expect(
          await plan(db.selectFrom('audit').select('body').where(column, '=', 'x').orderBy('id', 'desc').limit(50)),
        ).toMatch(new RegExp(`USING (COVERING )?INDEX ${index}`));
      }
    },
  );
});
