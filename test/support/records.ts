/**
 * The databases a store's tests run on: SQLite in a temporary DATA_DIR, and PostgreSQL (a fresh
 * database on the run's server, test/support/postgres.ts) unless none can be had here, when those
 * cases skip with the reason.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRecords, type Records } from '../../src/db/open.js';
import { freshPostgresDatabase, postgresSkipReason } from './postgres.js';

export interface TestDatabase {
  dialect: 'sqlite' | 'postgres';
  /** Why this database's cases skip here, or undefined. */
  skip: string | undefined;
  /** A new, migrated, empty database; `dataDir` is the directory a SQLite one lives in. */
  open(): Promise<{ records: Records; dataDir: string; databaseUrl?: string; close(): Promise<void> }>;
}

export function testDatabases(): TestDatabase[] {
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
      skip: postgresSkipReason(),
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
