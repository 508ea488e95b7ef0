/**
 * `npm run backup [-- <directory>]`: a consistent copy of the records while License Desk runs
 * (docs/deployment.md). With SQLite (the default) it uses SQLite's online backup of
 * DATA_DIR/license-desk.sqlite into `<directory>` (default DATA_DIR/backups/) under a timestamped name
 * of its own (a second backup within the same second gets `-2`), and prints where and how big. With
 * DATABASE_URL the records are in PostgreSQL: it prints the pg_dump command to use instead (without
 * the password) and runs nothing. DATA_DIR and DATABASE_URL are read and checked as the app reads
 * them (the environment, then .env in the working directory); the other settings play no part.
 */
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readCommandStorage } from './kernel/config/config.js';
import { isDiskFull } from './kernel/db/disk-full.js';
import { SQLITE_FILE } from './kernel/db/open.js';
import { redactDatabaseUrl } from './kernel/db/url.js';

export interface BackupResult {
  /** 0: done (or the pg_dump command printed); 1: nothing could be backed up. */
  code: 0 | 1;
  /** What to print, line by line (stdout when code is 0, stderr otherwise). */
  lines: string[];
  /** The backup file written (SQLite only). */
  file?: string;
  bytes?: number;
}

/** `2026-11-25T20-05-03Z`: sorts as it reads, and is a valid file name everywhere. */
export function backupStamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A backup file name of its own: `license-desk-<stamp>.sqlite`, or `…-2.sqlite`, `…-3.sqlite` when a
 * backup of the same second has it. The name is taken by creating the file (empty: SQLite's backup
 * fills it), so two backups at once never write to one file.
 */
function reserveName(directory: string, stamp: string): string {
  for (let n = 1; ; n++) {
    const file = join(directory, `license-desk-${stamp}${n === 1 ? '' : `-${n}`}.sqlite`);
    try {
      closeSync(openSync(file, 'wx'));
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** The pg_dump command for DATABASE_URL, with no password in it (pg_dump asks, or reads PGPASSWORD or ~/.pgpass). */
export function pgDumpCommand(databaseUrl: string, file: string): string {
  return `pg_dump --format=custom --file='${file}' '${redactDatabaseUrl(databaseUrl, 'drop')}'`;
}

export async function runBackup(opts: {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** Where the backup goes; default DATA_DIR/backups. */
  directory?: string | undefined;
  now?: Date;
}): Promise<BackupResult> {
  const stamp = backupStamp(opts.now ?? new Date());
  if (opts.databaseUrl) {
    return {
      code: 0,
      lines: [
        'The records are in PostgreSQL (DATABASE_URL): back them up with pg_dump, for example:',
        `  ${pgDumpCommand(opts.databaseUrl, `license-desk-${stamp}.dump`)}`,
        'pg_dump asks for the password (or reads PGPASSWORD or ~/.pgpass); restore with pg_restore --dbname=<url> <file>.',
        'Nothing was written by this command.',
      ],
    };
  }
  const source = resolve(opts.dataDir, SQLITE_FILE);
  if (!existsSync(source)) {
    return {
      code: 1,
      lines: [
        `No database at ${source}: nothing to back up. License Desk creates it at its first start; check DATA_DIR (or .env) names the directory the app uses.`,
      ],
    };
  }
  const directory = resolve(opts.directory ?? join(opts.dataDir, 'backups'));
  let file = join(directory, `license-desk-${stamp}.sqlite`);
  const { default: SQLite } = await import('better-sqlite3');
  let db: import('better-sqlite3').Database | undefined;
  let reserved = false;
  try {
    mkdirSync(directory, { recursive: true });
    file = reserveName(directory, stamp);
    reserved = true;
    db = new SQLite(source, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    // SQLite's online backup: a consistent copy even while the app writes (it starts over when it must).
    await db.backup(file);
  } catch (error) {
    db?.close();
    db = undefined;
    // Nothing half-written is left under a backup's name.
    if (reserved) rmSync(file, { force: true });
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    if (isDiskFull(error)) {
      return {
        code: 1,
        lines: [
          `The backup of ${source} to ${file} failed: the disk is full (${reason}). Free some room on the disk of ${directory}, or name a directory on another disk (npm run backup -- <directory>), then run npm run backup again`,
        ],
      };
    }
    return {
      code: 1,
      lines: [
        `The backup of ${source} to ${file} failed (${reason}): check that ${directory} is writable and has room, then run npm run backup again`,
      ],
    };
  } finally {
    db?.close();
  }
  const bytes = statSync(file).size;
  return {
    code: 0,
    file,
    bytes,
    lines: [
      `Backed up ${source} to ${file} (${size(bytes)}).`,
      'To restore: stop License Desk, copy that file over the database file (removing its -wal and -shm files), start it again.',
    ],
  };
}

async function main(): Promise<number> {
  const config = readCommandStorage();
  if (!config.ok) {
    process.stderr.write(`${config.text}\n`);
    return 1;
  }
  const args = process.argv.slice(2).filter((a) => a !== '--');
  if (args.length > 1 || args[0]?.startsWith('-')) {
    process.stderr.write('usage: npm run backup [-- <directory>]  (default: DATA_DIR/backups)\n');
    return 2;
  }
  const result = await runBackup({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    directory: args[0],
  });
  (result.code === 0 ? process.stdout : process.stderr).write(`${result.lines.join('\n')}\n`);
  return result.code;
}

const invokedDirectly = process.argv[1] !== undefined && /backup\.[jt]s$/.test(process.argv[1]);
if (invokedDirectly) process.exitCode = await main();
