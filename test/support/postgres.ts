/**
 * A PostgreSQL for the store tests. With PG_TEST_URL set, that server is used; otherwise, when
 * Debian's PostgreSQL binaries are installed (apt-get install postgresql), the vitest global setup
 * (test/support/postgres-setup.ts) starts one private server for the whole run on a free port of
 * 127.0.0.1 and a socket in a temporary directory, and stops it afterwards; otherwise the
 * PostgreSQL tests skip with `postgresSkipReason`. Each test gets a database of its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { freePort } from './ports.js';
import { until } from './until.js';

/** Where Debian keeps a PostgreSQL's programs (initdb and postgres are not on PATH there). */
export function postgresBin(): string | undefined {
  const onPath = spawnSync('initdb', ['--version'], { stdio: 'ignore' }).status === 0;
  if (onPath) {
    const found = spawnSync('sh', ['-c', 'dirname "$(readlink -f "$(command -v initdb)")"'], { encoding: 'utf8' });
    return found.stdout.trim() || undefined;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = join(root, v, 'bin');
    if (existsSync(join(bin, 'initdb'))) return bin;
  }
  return undefined;
}

/** initdb refuses to run as root: as root the server runs as the `postgres` user Debian's package made. */
function asServerUser(bin: string, args: string[]): { cmd: string; args: string[] } {
  if (process.getuid?.() !== 0) return { cmd: bin, args };
  return { cmd: 'runuser', args: ['-u', 'postgres', '--', bin, ...args] };
}

export interface PrivatePostgres {
  url: string;
  stop(): Promise<void>;
}

/** Starts a throwaway server (trust authentication, no fsync: test data only). */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('no PostgreSQL binaries (apt-get install postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'license-desk-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const run = (name: string, args: string[]) => {
    const c = asServerUser(join(bin, name), args);
    const r = spawnSync(c.cmd, c.args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr || r.stdout}`);
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  const c = asServerUser(join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  ]);
  const child = spawn(c.cmd, c.args, { stdio: 'ignore', detached: false });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const { default: pg } = await import('pg');
  let refused: unknown;
  try {
    await until(
      'PostgreSQL to accept connections',
      async () => {
        if (child.exitCode !== null) throw new Error(`postgres exited (${child.exitCode})`);
        const client = new pg.Client({ connectionString: url });
        try {
          await client.connect();
          await client.end();
          return true;
        } catch (error) {
          refused = error;
          await client.end().catch(() => undefined);
          return false;
        }
      },
      20_000,
      100,
    );
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${String(refused ?? error)}`);
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        // SIGINT: "fast shutdown" (the connections are cut, no waiting for clients).
        child.kill('SIGINT');
        await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | undefined;
    postgresSkip: string | undefined;
  }
}

/** The server's URL for this run, or undefined when there is none (see postgresSkipReason). */
export function postgresServerUrl(): string | undefined {
  return process.env.PG_TEST_URL?.trim() || inject('postgresUrl');
}

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresSkipReason(): string | undefined {
  if (postgresServerUrl()) return undefined;
  return inject('postgresSkip') ?? 'no PostgreSQL: set PG_TEST_URL or apt-get install postgresql';
}

/** Runs one statement on the run's server as its administrator (outside any test database). */
export async function postgresAdmin(sql: string): Promise<void> {
  const server = postgresServerUrl();
  if (!server) throw new Error(postgresSkipReason());
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database on the run's server; its URL. */
export async function freshPostgresDatabase(): Promise<string> {
  const server = postgresServerUrl();
  if (!server) throw new Error(postgresSkipReason());
  const name = `ld_${randomBytes(6).toString('hex')}`;
  await postgresAdmin(`create database ${name}`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The database refuses new connections and its open ones are ended, as when it goes away. */
export async function cutOffDatabase(name: string): Promise<void> {
  await postgresAdmin(`alter database ${name} with allow_connections false`);
  await postgresAdmin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);
}

/** The database takes connections again after cutOffDatabase. */
export const letDatabaseBackIn = (name: string): Promise<void> =>
  postgresAdmin(`alter database ${name} with allow_connections true`);
