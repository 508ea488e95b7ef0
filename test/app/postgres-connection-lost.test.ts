/**
 * PostgreSQL ends a connection License Desk holds between two statements of a transaction (a restart,
 * a failover, an administrator): the transaction fails with an error its caller handles, and nothing
 * reaches the process as an uncaught exception, which would stop License Desk (docs/records.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRecords, type Records } from '../../src/kernel/db/open.js';
import { freshPostgresDatabase, postgresServerUrl, postgresSkipReason } from '../support/postgres.js';

const skip = postgresSkipReason();

describe.skipIf(skip !== undefined)('a PostgreSQL connection ended under a transaction', () => {
  let records: Records;
  let dir: string;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pg-lost-'));
    records = await openRecords({ dataDir: dir, databaseUrl: await freshPostgresDatabase(), heartbeatMs: 0 });
    process.on('uncaughtException', onUncaught);
  }, 60_000);
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await records?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function terminate(pid: number): Promise<void> {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: postgresServerUrl() });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
  }

  it('fails the transaction, not the process, and the next statement gets a new connection', async () => {
    const outcome = await records.db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        await terminate(Number(rows[0]?.pid));
        // The server's notice of the end arrives on the idle, checked-out connection.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await sql`select 1`.execute(trx);
        return 'committed';
      })
      .catch((error: unknown) => `failed: ${String(error)}`);
    expect(outcome).toMatch(/^failed: /);
    expect(uncaught).toEqual([]);
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(records.db);
    expect(rows[0]?.one).toBe(1);
  });
});
