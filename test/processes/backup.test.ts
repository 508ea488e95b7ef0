/**
 * `npm run backup` (src/backup.ts) as a process: settings from .env in the working directory as the
 * app reads them; with SQLite an online backup of a database a process still has open (its last
 * writes still in the WAL), opened afterwards and counted; with DATABASE_URL only the pg_dump command,
 * without the password.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runBackup } from '../../src/backup.js';
import { openRecords } from '../../src/kernel/db/open.js';
import { runCommand } from '../support/command.js';

const backup = (cwd: string, env: Record<string, string>, args: string[] = []) =>
  runCommand('backup.ts', cwd, env, args);

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('npm run backup', () => {
  it('SQLite: DATA_DIR from .env, a consistent copy while the database is open, named by time, where and how big printed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'license-desk-backup-'));
    const dataDir = join(dir, 'data');
    const records = await openRecords({ dataDir, heartbeatMs: 0 });
    try {
      for (let i = 0; i < 120; i++) {
        await records.db
          .insertInto('state')
          .values({
            key: `k${i}`,
            value: JSON.stringify({ i, pad: 'x'.repeat(200) }),
            updated_at: new Date().toISOString(),
          })
          .execute();
      }
      // The process keeps the database open, so the last writes are still in the WAL, not the file.
      expect(statSync(join(dataDir, 'license-desk.sqlite-wal')).size).toBeGreaterThan(0);
      await writeFile(join(dir, '.env'), `DATA_DIR=${dataDir}\n`);
      const run = await backup(dir, {});
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const m =
        /^Backed up (\S+) to (\S+license-desk-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.sqlite) \((\d+\.\d) KB\)\.$/m.exec(
          run.stdout,
        );
      expect(m?.[1]).toBe(join(dataDir, 'license-desk.sqlite'));
      const file = m?.[2] ?? '';
      expect(file.startsWith(join(dataDir, 'backups'))).toBe(true);
      expect(Number(m?.[3])).toBeCloseTo(statSync(file).size / 1024, 1);
      const copy = new SQLite(file, { readonly: true, fileMustExist: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(copy.prepare('select count(*) as n from state').get()).toEqual({ n: 120 });
        expect(copy.prepare("select count(*) as n from kysely_migration where name = '0005_state'").get()).toEqual({
          n: 1,
        });
      } finally {
        copy.close();
      }
    } finally {
      await records.close();
    }
  }, 30_000);

  it('into a given directory; nothing to back up is said with the path and the fix', async () => {
    dir = await mkdtemp(join(tmpdir(), 'license-desk-backup-'));
    const dataDir = join(dir, 'data');
    const none = await backup(dir, { DATA_DIR: dataDir });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`No database at ${join(dataDir, 'license-desk.sqlite')}: nothing to back up.`);
    const records = await openRecords({ dataDir, heartbeatMs: 0 });
    await records.close();
    const run = await backup(dir, { DATA_DIR: dataDir }, ['--', 'elsewhere']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`to ${join(dir, 'elsewhere', 'license-desk-')}`);
  }, 30_000);

  it('two backups in the same second: two files, the first one kept as it was', async () => {
    dir = await mkdtemp(join(tmpdir(), 'license-desk-backup-'));
    const dataDir = join(dir, 'data');
    const records = await openRecords({ dataDir, heartbeatMs: 0 });
    const at = new Date('2026-11-25T20:05:03.200Z');
    const put = (key: string) =>
      records.db.insertInto('state').values({ key, value: '{}', updated_at: at.toISOString() }).execute();
    try {
      await put('first');
      const one = await runBackup({ dataDir, now: at });
      await put('second');
      const two = await runBackup({ dataDir, now: new Date(at.getTime() + 500) });
      expect([one.code, two.code]).toEqual([0, 0]);
      expect(one.file).toBe(join(dataDir, 'backups', 'license-desk-2026-11-25T20-05-03Z.sqlite'));
      expect(two.file).toBe(join(dataDir, 'backups', 'license-desk-2026-11-25T20-05-03Z-2.sqlite'));
      expect(two.lines[0]).toContain(`to ${two.file} (`);
      const keys = (file: string) => {
        const copy = new SQLite(file, { readonly: true, fileMustExist: true });
        try {
          return copy
            .prepare<[], { key: string }>('select key from state order by key')
            .all()
            .map((r) => r.key);
        } finally {
          copy.close();
        }
      };
      expect(keys(one.file ?? '')).toEqual(['first']);
      expect(keys(two.file ?? '')).toEqual(['first', 'second']);
    } finally {
      await records.close();
    }
  }, 30_000);

  it.each([
    [
      'PostgreSQL: prints the pg_dump command without the password, writes nothing, exits 0',
      'postgres://desk:S3cretPw@db.internal:5432/license_desk',
      "'postgres://desk@db.internal:5432/license_desk'",
    ],
    [
      'PostgreSQL with the password in the query string (?password=): the pg_dump command leaves it out, other parameters kept',
      'postgres://desk@db.internal:5432/license_desk?sslmode=require&password=S3cretPw',
      "'postgres://desk@db.internal:5432/license_desk?sslmode=require'",
    ],
  ])(
    '%s',
    async (_title, databaseUrl, shown) => {
      dir = await mkdtemp(join(tmpdir(), 'license-desk-backup-'));
      const run = await backup(dir, { DATA_DIR: join(dir, 'data'), DATABASE_URL: databaseUrl });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/pg_dump --format=custom --file='license-desk-[\dT:-]+Z\.dump' /);
      expect(run.stdout).toContain(`.dump' ${shown}`);
      expect(run.stdout + run.stderr).not.toContain('S3cretPw');
      expect(existsSync(join(dir, 'data'))).toBe(false);
    },
    30_000,
  );
});
