/**
 * Opening the database: the log hook the benchmarks use, SQLite's durability (what is synced at once), and the databases the app must not start on
 * (damaged, emptied or foreign SQLite files, a PostgreSQL that does not answer, a newer schema), each
 * refused with a sentence that names it. Engine-free: not a store suite (those run on both engines).
 */
import { existsSync, mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  DatabaseProblem,
  openRecords,
  type Records,
  SQLITE_FILE,
  sqliteOpenProblem,
} from '../../../src/kernel/db/open.js';
import { cleanupsAfterEach } from '../../support/cleanups.js';
import { until } from '../../support/until.js';

const cleanups = cleanupsAfterEach();

describe('the log hook (benchmarks)', () => {
  it('is told every query with its duration, BEGIN and COMMIT included', async () => {
    const d = mkdtempSync(join(tmpdir(), 'license-desk-db-'));
    const seen: { sql: string; ms: number }[] = [];
    const records = await openRecords({
      dataDir: d,
      heartbeatMs: 0,
      log: (event) => seen.push({ sql: event.query.sql, ms: event.queryDurationMillis }),
    });
    cleanups.push(async () => {
      await records.close();
      rmSync(d, { recursive: true, force: true });
    });
    seen.length = 0;
    await records.db.transaction().execute((trx) => trx.selectFrom('instances').select('id').execute());
    expect(seen.map((q) => q.sql.split(' ')[0]?.toLowerCase())).toEqual(['begin', 'select', 'commit']);
    for (const q of seen) expect(q.ms).toBeGreaterThanOrEqual(0);
  });
});

describe('a database the app must not start on', () => {
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'license-desk-db-'));
    cleanups.push(async () => rmSync(d, { recursive: true, force: true }));
    return d;
  };

  it('a truncated SQLite file stops the start with its name and what to do', async () => {
    const dataDir = dir();
    const records = await openRecords({ dataDir, heartbeatMs: 0 });
    // Enough pages that half the file cuts through them (one transaction: a commit per row took seconds).
    await records.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 2000; i++) {
        await trx
          .insertInto('state')
          .values({ key: `k${i}`, value: 'x'.repeat(300), updated_at: 'now' })
          .execute();
      }
    });
    await records.close();
    const file = join(dataDir, SQLITE_FILE);
    truncateSync(file, Math.floor(statSync(file).size / 2));
    const opening = openRecords({ dataDir, heartbeatMs: 0 });
    await expect(opening).rejects.toBeInstanceOf(DatabaseProblem);
    await expect(opening).rejects.toThrow(`The database file ${file} is damaged`);
    await expect(opening).rejects.toThrow(/restore it from a backup/);
    // Nothing was put in its place.
    expect(statSync(file).size).toBeGreaterThan(0);
  });

  it('an emptied file (0 bytes) stops the start: it is not a new database', async () => {
    const dataDir = dir();
    const records = await openRecords({ dataDir, heartbeatMs: 0 });
    await records.close();
    writeFileSync(join(dataDir, SQLITE_FILE), '');
    await expect(openRecords({ dataDir, heartbeatMs: 0 })).rejects.toThrow(
      `The database file ${join(dataDir, SQLITE_FILE)} is empty (0 bytes)`,
    );
  });

  it('a file that is not a database stops the start', async () => {
    const dataDir = dir();
    writeFileSync(join(dataDir, SQLITE_FILE), 'these are not the records you are looking for\n'.repeat(40));
    await expect(openRecords({ dataDir, heartbeatMs: 0 })).rejects.toThrow(/is damaged \(file is not a database\)/);
  });

  it('a PostgreSQL that does not answer is named without its password', async () => {
    const opening = openRecords({
      dataDir: dir(),
      databaseUrl: 'postgres://desk:hunter2-secret@127.0.0.1:1/records',
      heartbeatMs: 0,
    });
    await expect(opening).rejects.toThrow(
      /The database at postgres:\/\/desk:\*\*\*@127\.0\.0\.1:1\/records could not be reached/,
    );
    await expect(opening).rejects.not.toThrow(/hunter2/);
  });

  it('a database written by a newer License Desk is refused, not changed', async () => {
    const dataDir = dir();
    const records = await openRecords({ dataDir, heartbeatMs: 0 });
    await records.db
      .insertInto('kysely_migration' as never)
      .values({ name: '9999_future', timestamp: new Date().toISOString() } as never)
      .execute();
    await records.close();
    await expect(openRecords({ dataDir, heartbeatMs: 0 })).rejects.toThrow(/was written by a newer License Desk/);
    expect(existsSync(join(dataDir, SQLITE_FILE))).toBe(true);
  });
});

describe('durability on SQLite', () => {
  const level = async (records: Records) =>
    Number((await sql<{ synchronous: number }>`pragma synchronous`.execute(records.db)).rows[0]?.synchronous);

  it('commits sync at once inside durably() (FULL), at checkpoints outside it (NORMAL), also when two overlap', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'license-desk-db-'));
    const records = await openRecords({ dataDir, heartbeatMs: 0 });
    onTestFinished(async () => {
      await records.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const NORMAL = 1;
    const FULL = 2;
    expect(await level(records)).toBe(NORMAL);
    let releaseFirst = () => {};
    const first = records.durably(async () => {
      const seen = await level(records);
      await new Promise<void>((r) => {
        releaseFirst = r;
      });
      return seen;
    });
    await until('the first durable write running with FULL', async () => (await level(records)) === FULL);
    // A second durable write while the first is still running keeps FULL for both.
    const second = records.durably(() => level(records));
    expect(await second).toBe(FULL);
    expect(await level(records)).toBe(FULL);
    releaseFirst();
    expect(await first).toBe(FULL);
    expect(await level(records)).toBe(NORMAL);
    // A failing one sets it back too.
    await expect(
      records.durably(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await level(records)).toBe(NORMAL);
  });
});

describe('what a failed SQLite open is called', () => {
  const file = '/srv/desk/license-desk.sqlite';
  const withCode = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

  it('a driver that did not load is not a damaged file: no backup to restore, npm ci to run', () => {
    const problem = sqliteOpenProblem(file, withCode('Could not locate the bindings file. Tried:\n → …'), false);
    expect(problem).toBeInstanceOf(DatabaseProblem);
    expect(problem.message).toContain('the better-sqlite3 driver did not load, and the file was not touched');
    expect(problem.message).toContain('npm ci');
    expect(problem.message).not.toMatch(/damaged|backup/);
  });

  it("SQLite's own refusal of the file is damage; a folder it cannot reach is a path to check", () => {
    expect(sqliteOpenProblem(file, withCode('file is not a database', 'SQLITE_NOTADB'), true).message).toMatch(
      /is damaged \(file is not a database\): restore it from a backup/,
    );
    expect(
      sqliteOpenProblem(file, withCode('database disk image is malformed', 'SQLITE_CORRUPT'), false).message,
    ).toMatch(/is damaged/);
    expect(
      sqliteOpenProblem(file, withCode("EACCES: permission denied, mkdir '/srv/desk'", 'EACCES'), false).message,
    ).toMatch(/cannot be opened .*check that DATA_DIR exists/);
    expect(sqliteOpenProblem(file, withCode('unable to open database file', 'SQLITE_CANTOPEN'), false).message).toMatch(
      /cannot be opened/,
    );
  });
});
