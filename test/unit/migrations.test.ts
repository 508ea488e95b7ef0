/**
 * The migrations folder (src/kernel/db/migrations): each migration file is listed in the index under
 * its own file name, in the order of the names, and the list holds no other. A file added and not
 * listed, or listed under another name, would never run, or would run under a name no database knows.
 * And a migration that has shipped never changes: the SQL each sends, up and down on both engines, is
 * kept beside the tests (test/fixtures/migrations/), written the first time a migration is run here.
 */
import { readdirSync } from 'node:fs';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { runSchema } from '../../src/kernel/db/migrations/columns.js';
import { type Dialect, MIGRATION_NAMES, migrations } from '../../src/kernel/db/migrations/index.js';

const folder = new URL('../../src/kernel/db/migrations/', import.meta.url);
const files = readdirSync(folder)
  .filter((f) => /^\d{4}_[a-z0-9_]+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();

describe('the migrations, one file each', () => {
  it('lists every migration file under its file name, in order, and nothing else', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(MIGRATION_NAMES).toEqual(files);
  });

  it('holds only migration files besides the index and the column kit', () => {
    const others = readdirSync(folder).filter((f) => !/^\d{4}_[a-z0-9_]+\.ts$/.test(f));
    expect(others.sort()).toEqual(['columns.ts', 'index.ts']);
  });

  it('numbers them in order without reusing a number (0008 was never used)', () => {
    const numbers = MIGRATION_NAMES.map((n) => Number(n.slice(0, 4)));
    expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
    expect(numbers).not.toContain(8);
  });
});

/** A database that runs nothing and keeps the SQL it is sent. */
function recorder(dialect: Dialect) {
  const sent: string[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: a migration sees the database as it was then.
  const db = new Kysely<any>({
    dialect: {
      createAdapter: () => (dialect === 'sqlite' ? new SqliteAdapter() : new PostgresAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => (dialect === 'sqlite' ? new SqliteIntrospector(k) : new PostgresIntrospector(k)),
      createQueryCompiler: () => (dialect === 'sqlite' ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
    },
    log: (event) => {
      sent.push(`${event.query.sql}; ${JSON.stringify(event.query.parameters)}`);
    },
  });
  return { db, sent };
}

describe('a shipped migration never changes', () => {
  it.each(MIGRATION_NAMES)('%s sends the SQL it sent when it shipped, up and down, on both engines', async (name) => {
    const lines: string[] = [];
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const { db, sent } = recorder(dialect);
      const step = migrations(dialect)[name];
      await step?.up(db);
      lines.push(`-- ${dialect} up`, ...sent.splice(0));
      await step?.down?.(db);
      lines.push(`-- ${dialect} down`, ...sent.splice(0));
    }
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot(`../fixtures/migrations/${name}.txt`);
  });

  it('refuses schema text it cannot read, naming the line', async () => {
    const { db } = recorder('sqlite');
    await expect(runSchema(db, 'sqlite', 'tabel requests (id text)')).rejects.toThrow(
      'Not a table or index line in a migration: tabel requests (id text)',
    );
    await expect(runSchema(db, 'sqlite', 'table requests (id varchar)')).rejects.toThrow(
      'Unknown column type in a migration: id varchar',
    );
  });
});
