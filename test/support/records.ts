/**
 * The databases a store's tests run on: SQLite in a temporary DATA_DIR, and PostgreSQL (a fresh
 * database on the run's server, test/support/postgres.ts) unless none can be had here, when those
 * cases skip with the reason. A vitest project may narrow them with `provide: { databases: [...] }`
 * (vitest.config.ts: `in-process` runs the SQLite cases, `postgres` the same files' PostgreSQL ones).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { openRecords, type Records } from '../../src/kernel/db/open.js';
import { freshPostgresDatabase, postgresSkipReason } from './postgres.js';

export interface TestDatabase {
  dialect: 'sqlite' | 'postgres';
  /** Why this database's cases skip here, or undefined. */
  skip: string | undefined;
  /** A new, migrated, empty database; `dataDir` is the directory a SQLite one lives in. */
  open(): Promise<{ records: Records; dataDir: string; databaseUrl?: string; close(): Promise<void> }>;
}

export type Dialect = TestDatabase['dialect'];

declare module 'vitest' {
  export interface ProvidedContext {
    /** The engines this project's store tests run on; both when not given. */
    databases: Dialect[] | undefined;
  }
}

export function testDatabases(): TestDatabase[] {
  const wanted = inject('databases') ?? ['sqlite', 'postgres'];
  return allDatabases().filter((d) => wanted.includes(d.dialect));
}

function allDatabases(): TestDatabase[] {
  return [
    {
      dialect: 'sqlite',
      skip: undefined,
      async open() {
        const dataDir = mkdtempSync(join(tmpdir(), 'license-desk-db-'));
        const records = await openRecords({ dataDir, heartbeatMs: 0 });
        return {
          records,
          dataDir,
          async close() {
            await records.close();
            rmSync(dataDir, { recursive: true, force: true });
          },
        };
      },
    },
    {
      dialect: 'postgres',
      get skip() {
        return postgresSkipReason();
      },
      async open() {
        const dataDir = mkdtempSync(join(tmpdir(), 'license-desk-db-'));
        const databaseUrl = await freshPostgresDatabase();
        const records = await openRecords({ dataDir, databaseUrl, heartbeatMs: 0 });
        return {
          records,
          dataDir,
          databaseUrl,
          async close() {
            await records.close();
            rmSync(dataDir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
}
