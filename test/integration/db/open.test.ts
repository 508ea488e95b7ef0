/**
 * The database opens and migrates up and down, on both engines (a store suite: only testDatabases()
 * cases here; the damaged or unreachable databases are in open-refused.test.ts).
 */
import { type Kysely, Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES, migrations } from '../../../src/db/migrations.js';
import { testDatabases } from '../../support/records.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

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
});
