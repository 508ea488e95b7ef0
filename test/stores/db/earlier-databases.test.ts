/**
 * A database an earlier version migrated opens in this one, on both engines (a store suite). The
 * databases are test/fixtures/databases: dumps of what the migrations made when they were one file
 * (src/kernel/db/migrations.ts), migrated through 0012_reclaim_open_pools.
 * They hold the names each migration is recorded under: a migration renamed, renumbered or moved out
 * of order would make the start refuse every database already in use.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MIGRATION_NAMES, migrations } from '../../../src/kernel/db/migrations/index.js';
import { type Dialect, openRecords, type Records, SQLITE_FILE } from '../../../src/kernel/db/open.js';
import { cleanupsAfterEach } from '../../support/cleanups.js';
import { freshPostgresDatabase } from '../../support/postgres.js';
import { testDatabases } from '../../support/records.js';

const cleanups = cleanupsAfterEach();

interface Ran {
  name: string;
  timestamp: string;
}

interface At {
  dataDir: string;
  databaseUrl?: string;
}

function tempDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'license-desk-db-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

/** Where a new, empty database of this engine is. */
async function empty(dialect: Dialect): Promise<At> {
  return dialect === 'sqlite'
    ? { dataDir: tempDir() }
    : { dataDir: tempDir(), databaseUrl: await freshPostgresDatabase() };
}

/**
 * A new database holding the dump `test/fixtures/databases/<dialect>-<through>.sql` and then the
 * statements `more`, not opened by the app; with the migrations it records as having run.
 */
async function restore(dialect: Dialect, through: string, more: string[] = []): Promise<{ at: At; recorded: Ran[] }> {
  const dump = readFileSync(new URL(`../../fixtures/databases/${dialect}-${through}.sql`, import.meta.url), 'utf8');
  const at = await empty(dialect);
  const read = 'select name, timestamp from kysely_migration order by name';
  if (dialect === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const file = new SQLite(join(at.dataDir, SQLITE_FILE));
    try {
      file.exec(dump);
      for (const statement of more) file.exec(statement);
      return { at, recorded: file.prepare(read).all() as Ran[] };
    } finally {
      file.close();
    }
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: at.databaseUrl });
  await client.connect();
  try {
    await client.query(dump);
    for (const statement of more) await client.query(statement);
    return { at, recorded: (await client.query<Ran>(read)).rows };
  } finally {
    await client.end();
  }
}

async function open(at: At): Promise<Records> {
  const records = await openRecords({ ...at, heartbeatMs: 0 });
  cleanups.unshift(() => records.close());
  return records;
}

// biome-ignore lint/suspicious/noExplicitAny: the migration table and the catalogs are not in schema.ts.
const anyDb = (records: Records) => records.db as unknown as Kysely<any>;

async function ran(records: Records): Promise<Ran[]> {
  return anyDb(records).selectFrom('kysely_migration').select(['name', 'timestamp']).orderBy('name').execute();
}

/** Every table, column, index and constraint, as the engine describes them. */
async function schemaOf(records: Records): Promise<unknown[]> {
  const db = anyDb(records);
  if (records.dialect === 'sqlite')
    return (
      await sql`select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_%' order by name`.execute(
        db,
      )
    ).rows;
  const columns = await sql`select table_name, column_name, data_type, is_nullable, column_default
    from information_schema.columns where table_schema = 'public' order by table_name, column_name`.execute(db);
  const indexes =
    await sql`select indexname, indexdef from pg_indexes where schemaname = 'public' order by indexname`.execute(db);
  const constraints = await sql`select conname, pg_get_constraintdef(oid) as def from pg_constraint
    where connamespace = 'public'::regnamespace order by conname`.execute(db);
  return [...columns.rows, ...indexes.rows, ...constraints.rows];
}

describe.each(testDatabases())('a database an earlier version migrated, on $dialect', ({ dialect, skip }) => {
  it.skipIf(skip !== undefined)(
    'migrated through 0012, the last of the single file, it opens: what it recorded stays, only later migrations run',
    async () => {
      const { at, recorded } = await restore(dialect, '0012');
      // The names the single file recorded, in its order: the first of today's list.
      expect(recorded.map((r) => r.name)).toEqual(MIGRATION_NAMES.slice(0, 11));
      expect(recorded.at(-1)?.name).toBe('0012_reclaim_open_pools');
      const records = await open(at);
      const now = await ran(records);
      expect(now.map((r) => r.name)).toEqual(MIGRATION_NAMES);
      expect(now.slice(0, recorded.length)).toEqual(recorded);
      // The migrator itself (not only open's shortcut for an up-to-date database) finds nothing left.
      const migrator = new Migrator({
        db: anyDb(records),
        provider: { getMigrations: async () => migrations(dialect) },
      });
      const again = await migrator.migrateToLatest();
      expect(again.error).toBeUndefined();
      expect(again.results).toEqual([]);
      expect(await ran(records)).toEqual(now);
      // Run on an empty database, the migrations make exactly the schema the earlier ones made.
      const fresh = await open(await empty(dialect));
      expect(await schemaOf(fresh)).toEqual(await schemaOf(records));
    },
  );

  it.skipIf(skip !== undefined)(
    'migrated through 0007 it migrates on: the later migrations run on its rows, the earlier stay as recorded',
    async () => {
      const { at, recorded } = await restore(dialect, '0012', [
        // Back to 0007 as an earlier version left it: what the downs of 0012 to 0009 undo.
        'drop table reclaim_open_pools',
        'drop index license_progress_standing',
        'drop table progress_returns',
        'drop index audit_requester',
        'drop index audit_actor',
        `delete from kysely_migration where name > '0007_reclaim'`,
        // A reclaim round open at the upgrade: 0012_reclaim_open_pools claims its pool.
        `insert into reclaim_rounds (id, admin, policy, state, created_at, remind_at, deadline_at, not_in_slack)
          values ('rr-1', 'U0MGR00001', 'list', 'open', '2026-11-25T10:00:00.000Z', '2026-11-29T10:00:00.000Z',
          '2026-12-02T10:00:00.000Z', 0)`,
        `insert into reclaim_asks (id, round_id, license_id, pool_id, course_title, slack_user, student_email,
          student_name, standing, progress, since, since_watched, state)
          values ('a1', 'rr-1', 'L-1', '2003', 'Optimizing DAX', 'U0ANN00001', 'ann@contoso.com', 'Ann', 'stalled',
          40, '2026-09-01T10:00:00.000Z', 1, 'asked')`,
      ]);
      expect(recorded.map((r) => r.name)).toEqual(MIGRATION_NAMES.slice(0, 7));
      const records = await open(at);
      const now = await ran(records);
      expect(now.map((r) => r.name)).toEqual(MIGRATION_NAMES);
      expect(now.slice(0, 7)).toEqual(recorded);
      expect(await anyDb(records).selectFrom('reclaim_open_pools').selectAll().execute()).toEqual([
        { pool_id: '2003', round_id: 'rr-1' },
      ]);
      const through0012 = await restore(dialect, '0012');
      expect(await schemaOf(records)).toEqual(await schemaOf(await open(through0012.at)));
    },
  );
});
