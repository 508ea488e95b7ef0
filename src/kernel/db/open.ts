/**
 * Opens the database License Desk keeps its records in (docs/records.md) and brings its schema up to
 * date: SQLite in DATA_DIR by default (one process), PostgreSQL when DATABASE_URL is set (required for
 * several replicas). A database that cannot be read, is damaged, or fails to migrate stops the start
 * with one sentence that names it and says what to do: the app never starts empty over lost records.
 *
 * Each driver is loaded only by the mode that uses it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  Kysely,
  type LogEvent,
  type MigrationProvider,
  type MigrationResultSet,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
} from 'kysely';
import { diskFullSentence, isDiskFull } from './disk-full.js';
import { type Dialect, migrations } from './migrations.js';
import type { Database } from './schema.js';
import { redactDatabaseUrl } from './url.js';

export type { Dialect };

export interface Records {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** The SQLite file, or the PostgreSQL URL without its password: how a sentence names the database. */
  readonly where: string;
  /** This process's id among those that use the database (an intent names the process that sent it). */
  readonly instance: string;
  /**
   * Runs `fn` (which commits a transaction of its own) with every commit on disk before it returns: a
   * licensing write's intent must survive a power cut before the write is sent. SQLite commits with
   * `synchronous = NORMAL` otherwise (a kill loses nothing; a power cut may lose the last commits,
   * never corrupt the file; docs/records.md, "Durability"); PostgreSQL commits every transaction to
   * disk anyway.
   */
  durably<T>(fn: () => Promise<T>): Promise<T>;
  /** undefined when a trivial query answers; otherwise one sentence (for /healthz and the log). */
  health(): Promise<string | undefined>;
  close(): Promise<void>;
}

/** A database the app must not start on; `message` is the sentence for the operator. */
export class DatabaseProblem extends Error {
  override readonly name = 'DatabaseProblem';
}

export interface OpenOptions {
  dataDir: string;
  /** postgres:// or postgresql://; unset: SQLite in dataDir. */
  databaseUrl?: string;
  /** How often this process says it is alive (instances.seen_at); 0: never after the first time. */
  heartbeatMs?: number;
  now?: () => Date;
  /**
   * Kysely's `log` hook: every query (BEGIN and COMMIT included) with its `queryDurationMillis`.
   * Unset in the app; benchmarks sum the database time of one use case with it (bench/store.ts).
   */
  log?: (event: LogEvent) => void;
}

export const SQLITE_FILE = 'license-desk.sqlite';
export const HEARTBEAT_MS = 15_000;

const reason = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/**
 * Why the SQLite file could not be opened, in a sentence that says what to do. Only SQLite's own
 * answers (or its quick_check) make it "damaged": a driver that fails to load (better-sqlite3 built for
 * another Node, its files gone) is no fault of the file, and telling an operator to restore a backup
 * for it would be wrong.
 */
export function sqliteOpenProblem(where: string, error: unknown, opened: boolean): DatabaseProblem {
  const code = (error as { code?: string }).code ?? '';
  if (isDiskFull(error)) return new DatabaseProblem(diskFullSentence(`file ${where}`));
  if (code === 'SQLITE_CANTOPEN' || (!opened && /^E[A-Z]+$/.test(code))) {
    return new DatabaseProblem(
      `The database file ${where} cannot be opened (${reason(error)}): check that DATA_DIR exists and this user may read and write it`,
    );
  }
  if (!opened && !code.startsWith('SQLITE_')) {
    return new DatabaseProblem(
      `SQLite could not be started for ${where} (${reason(error)}): the better-sqlite3 driver did not load, and the file was not touched. Run npm ci (it builds the driver for this Node version) and start again`,
    );
  }
  return new DatabaseProblem(
    `The database file ${where} is damaged (${reason(error)}): restore it from a backup (npm run backup makes one) or move it aside to start with no records; License Desk does not start over lost records`,
  );
}

/** The statement a ROLLBACK with no transaction left becomes (see openSqlite). */
const NOTHING_TO_ROLL_BACK = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

async function openSqlite(
  dataDir: string,
  log?: (event: LogEvent) => void,
): Promise<{ db: Kysely<Database>; where: string }> {
  const where = resolve(join(dataDir, SQLITE_FILE));
  const { default: SQLite } = await import('better-sqlite3');
  const fresh = !existsSync(where);
  // An existing file of 0 bytes is not a new database: the records it held are gone (a disk that filled,
  // a copy cut short). Only its write-ahead log could still hold them.
  if (!fresh && statSync(where).size === 0 && !(existsSync(`${where}-wal`) && statSync(`${where}-wal`).size > 0)) {
    throw new DatabaseProblem(
      `The database file ${where} is empty (0 bytes), so the records it held are gone: restore it from a backup (npm run backup makes one), or delete the file to start with no records; License Desk does not start over lost records`,
    );
  }
  let handle: import('better-sqlite3').Database | undefined;
  try {
    mkdirSync(dataDir, { recursive: true });
    handle = new SQLite(where);
    // A damaged file often opens; the first read of a page, or this check, finds it out.
    const check = handle.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(String(check));
    handle.pragma('journal_mode = WAL');
    // A commit is in the write-ahead log when it returns, so a killed process loses none; it is synced
    // to disk at checkpoints, and at once for what must survive a power cut (Records.durably).
    handle.pragma('synchronous = NORMAL');
    handle.pragma('busy_timeout = 5000');
    handle.pragma('foreign_keys = ON');
  } catch (error) {
    handle?.close();
    throw sqliteOpenProblem(where, error, handle !== undefined);
  }
  if (fresh) handle.pragma('auto_vacuum = INCREMENTAL');
  const sqlite = handle;
  // SQLite ends a transaction by itself when a statement in it fails with SQLITE_FULL (and a few other
  // errors): Kysely's ROLLBACK then finds none, and its "cannot rollback - no transaction is active"
  // would take the place of the real cause. Such a ROLLBACK has nothing left to do: it does nothing.
  const database = {
    close: () => sqlite.close(),
    prepare: (text: string) =>
      /^\s*rollback\s*;?\s*$/i.test(text) && !sqlite.inTransaction ? NOTHING_TO_ROLL_BACK : sqlite.prepare(text),
  };
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database }), ...(log ? { log } : {}) }),
    where,
  };
}

async function openPostgres(
  url: string,
  log?: (event: LogEvent) => void,
): Promise<{ db: Kysely<Database>; where: string }> {
  // Shown in the log and in every sentence about the database: never with its password (src/kernel/db/url.ts).
  const where = redactDatabaseUrl(url);
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  // A connection that fails later (the server restarts) is reported by the query that needed it.
  pool.on('error', () => undefined);
  // So is one that ends while a flow holds it between two queries (a transaction waiting on the
  // licensing service): without a listener of its own, that client's error would end the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseProblem(
      `The database at ${where} could not be reached (${reason(error)}): check DATABASE_URL and that PostgreSQL runs and accepts this user`,
    );
  }
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) }), where };
}

function provider(dialect: Dialect): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}

/**
 * Whether the database has run exactly the migrations this version knows, in the order Kysely's
 * migrator runs them: one read, where the migrator would first look the tables up one by one (the
 * larger part of opening an up-to-date database). Anything else (a fresh database, a migration to
 * run, one this version does not know, another order) is the migrator's to do or to refuse.
 */
async function upToDate(db: Kysely<Database>, dialect: Dialect): Promise<boolean> {
  let rows: { name: string; timestamp: string }[];
  try {
    rows = (await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration`.execute(db))
      .rows;
  } catch {
    return false;
  }
  // The migrator's own order of what ran: by time, then by name.
  const ran = rows
    .sort((a, b) =>
      a.timestamp === b.timestamp
        ? a.name.localeCompare(b.name)
        : new Date(a.timestamp).getTime() - new Date(b.timestamp).getTime(),
    )
    .map((r) => r.name);
  const known = Object.keys(migrations(dialect)).sort();
  return ran.length === known.length && ran.every((name, i) => name === known[i]);
}

/** Runs every migration not yet run (under the migrator's lock on PostgreSQL). */
export async function migrate(db: Kysely<Database>, dialect: Dialect): Promise<MigrationResultSet> {
  if (await upToDate(db, dialect)) return { results: [] };
  return new Migrator({ db, provider: provider(dialect) }).migrateToLatest();
}

export async function openRecords(opts: OpenOptions): Promise<Records> {
  const dialect: Dialect = opts.databaseUrl ? 'postgres' : 'sqlite';
  const { db, where } = opts.databaseUrl
    ? await openPostgres(opts.databaseUrl, opts.log)
    : await openSqlite(opts.dataDir, opts.log);
  let result: MigrationResultSet;
  try {
    result = await migrate(db, dialect);
  } catch (error) {
    result = { error };
  }
  if (result.error) {
    await db.destroy().catch(() => undefined);
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    const text = reason(result.error);
    if (isDiskFull(result.error))
      throw new DatabaseProblem(diskFullSentence(dialect === 'sqlite' ? `file ${where}` : where));
    if (/previously executed migration .* is missing/i.test(text)) {
      throw new DatabaseProblem(
        `The database ${where} was written by a newer License Desk (${text}): run that version, or restore a backup made by this one`,
      );
    }
    throw new DatabaseProblem(
      `Bringing the database ${where} up to date failed${failed ? ` at ${failed}` : ''} (${text}): nothing was changed by the failed step; restore a backup or fix the cause and start again`,
    );
  }
  const now = opts.now ?? (() => new Date());
  const instance = `i${randomBytes(6).toString('hex')}`;
  const stamp = now().toISOString();
  try {
    await db.insertInto('instances').values({ id: instance, started_at: stamp, seen_at: stamp }).execute();
  } catch (error) {
    await db.destroy().catch(() => undefined);
    if (isDiskFull(error)) throw new DatabaseProblem(diskFullSentence(dialect === 'sqlite' ? `file ${where}` : where));
    throw error;
  }
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  const beat =
    heartbeatMs > 0
      ? setInterval(() => {
          void db
            .updateTable('instances')
            .set({ seen_at: now().toISOString() })
            .where('id', '=', instance)
            .execute()
            .catch(() => undefined);
        }, heartbeatMs)
      : undefined;
  beat?.unref();
  let closed = false;
  // How many durable transactions are running: the first sets FULL before its BEGIN, the last one
  // back to NORMAL after its COMMIT (the pragma cannot change inside a transaction; Kysely runs it
  // on the one connection between transactions, in the order issued).
  let durable = 0;
  return {
    db,
    dialect,
    where,
    instance,
    async durably(fn) {
      if (dialect !== 'sqlite') return fn();
      if (durable++ === 0) await sql`pragma synchronous = FULL`.execute(db);
      try {
        return await fn();
      } finally {
        if (--durable === 0) await sql`pragma synchronous = NORMAL`.execute(db).catch(() => undefined);
      }
    },
    async health() {
      try {
        await db.selectFrom('instances').select('id').limit(1).execute();
        return undefined;
      } catch (error) {
        return `the database ${where} does not answer (${reason(error)})`;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (beat) clearInterval(beat);
      await db
        .deleteFrom('instances')
        .where('id', '=', instance)
        .execute()
        .catch(() => undefined);
      await db.destroy();
    },
  };
}
