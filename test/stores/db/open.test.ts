/**
 * The database opens and migrates up and down, on both engines (a store suite: only testDatabases()
 * cases here; the damaged or unreachable databases are in open-refused.test.ts).
 */
import { type Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MIGRATION_NAMES, migrations } from '../../../src/kernel/db/migrations/index.js';
import { cleanupsAfterEach } from '../../support/cleanups.js';
import { testDatabases } from '../../support/records.js';

const cleanups = cleanupsAfterEach();

describe.each(testDatabases())('the database on $dialect', ({ dialect, skip, open }) => {
  it.skipIf(skip !== undefined)(
    'is migrated to the latest schema at open, and every migration goes down and up again',
    async () => {
      const t = await open();
      cleanups.push(t.close);
      const tables = (await t.records.db.introspection.getTables()).map((x) => x.name).sort();
      expect(tables).toEqual(
        expect.arrayContaining([
          'audit',
          'bulk_jobs',
          'bulk_rows',
          'instances',
          'intents',
          'outbox',
          'requests',
          'state',
        ]),
      );
      // biome-ignore lint/suspicious/noExplicitAny: the migrator sees the database without schema.ts.
      const db = t.records.db as unknown as Kysely<any>;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(dialect) } });
      for (const _ of MIGRATION_NAMES) {
        const down = await migrator.migrateDown();
        expect(down.error).toBeUndefined();
      }
      const left = (await db.introspection.getTables()).map((x) => x.name);
      expect(left.filter((n) => !n.startsWith('kysely_'))).toEqual([]);
      const up = await migrator.migrateToLatest();
      expect(up.error).toBeUndefined();
      expect(up.results?.map((r) => r.migrationName)).toEqual(MIGRATION_NAMES);
    },
  );

  it.skipIf(skip !== undefined)(
    'one open reclaim round per pool: the migration claims the pools of the rounds still open, the oldest round first',
    async () => {
      const t = await open();
      cleanups.push(t.close);
      // biome-ignore lint/suspicious/noExplicitAny: the migrator sees the database without schema.ts.
      const db = t.records.db as unknown as Kysely<any>;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(dialect) } });
      expect((await migrator.migrateTo('0011_progress_standing')).error).toBeUndefined();
      // Two open rounds of pool 2003, as two Starts at once used to write them, and a closed one of 2001.
      const round = (id: string, created: string, state: string) => ({
        id,
        admin: 'U0MGR00001',
        pool_id: null,
        policy: 'list',
        state,
        created_at: created,
        remind_at: '2026-11-29T10:00:00.000Z',
        deadline_at: '2026-12-02T10:00:00.000Z',
        not_in_slack: 0,
      });
      await db
        .insertInto('reclaim_rounds')
        .values([
          round('rr-late', '2026-11-25T10:00:01.500Z', 'open'),
          round('rr-first', '2026-11-25T10:00:00.000Z', 'open'),
          round('rr-closed', '2026-11-01T10:00:00.000Z', 'closed'),
        ])
        .execute();
      const ask = (id: string, roundId: string, poolId: string) => ({
        id,
        round_id: roundId,
        license_id: `L-${id}`,
        pool_id: poolId,
        course_title: 'Optimizing DAX',
        slack_user: 'U0ANN00001',
        student_email: 'ann@contoso.com',
        student_name: 'Ann',
        standing: 'stalled',
        progress: 40,
        since: '2026-09-01T10:00:00.000Z',
        since_watched: 1,
        state: 'asked',
      });
      await db
        .insertInto('reclaim_asks')
        .values([ask('a1', 'rr-late', '2003'), ask('a2', 'rr-first', '2003'), ask('a3', 'rr-closed', '2001')])
        .execute();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await db.selectFrom('reclaim_open_pools').selectAll().execute()).toEqual([
        { pool_id: '2003', round_id: 'rr-first' },
      ]);
    },
  );
});
