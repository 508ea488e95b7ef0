/**
 * A Redis for the shared-budget tests. CI starts one and exports REDIS_TEST_URL; otherwise, when a
 * `redis-server` binary is on PATH, a private one is started on a free port of 127.0.0.1 without
 * persistence and stopped afterwards; otherwise the tests are skipped with `redisSkipReason`.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './ports.js';
import { until } from './until.js';

export { freePort };

const envUrl = process.env.REDIS_TEST_URL?.trim() || undefined;
const hasBinary = envUrl === undefined && spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/** Why the Redis tests cannot run here, or undefined when they can. */
export const redisSkipReason: string | undefined =
  envUrl !== undefined || hasBinary
    ? undefined
    : 'no Redis: set REDIS_TEST_URL or put redis-server on PATH (apt-get install redis-server)';

// CI provides Redis (.ci/run); there, a missing one is a failure, never a quiet skip.
if (redisSkipReason !== undefined && process.env.CI === 'true') {
  throw new Error(`CI=true but ${redisSkipReason}`);
}

export interface TestRedis {
  url: string;
  /** True when this helper started the server (so FLUSHALL touches nobody else). */
  private: boolean;
  /** Runs one command on a short-lived connection to `url` (default: this server's default database). */
  command(name: string, args?: (string | number)[], url?: string): Promise<unknown>;
  /**
   * A URL whose database the tests may wipe: on a private server any; on a shared one (REDIS_TEST_URL)
   * a database of this worker's own (`db` picks one of its three), so a flush there touches nobody
   * else's keys.
   */
  scratchUrl(db: number): string;
  /** FLUSHALL on a private server; FLUSHDB of the URL's database on a shared one. */
  flush(url: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * On a shared server (REDIS_TEST_URL) test files run side by side (vitest.config.ts), and a file
 * flushes its database between tests: each worker gets databases of its own. Its slot (0 to 3) is
 * its VITEST_POOL_ID, unique among the workers running at once; its default database is the slot,
 * and its scratch databases are three of 4 to 15.
 */
const SLOTS = 4;
const slot = (Number(process.env.VITEST_POOL_ID) || 0) % SLOTS;

function withDatabase(url: string, db: number): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

export async function startTestRedis(): Promise<TestRedis> {
  if (envUrl !== undefined) return connect(withDatabase(envUrl, slot), false, async () => {});
  if (!hasBinary) throw new Error(redisSkipReason);
  return startPrivateRedis(await freePort());
}

/** Why a private redis-server cannot be started here (even with REDIS_TEST_URL set), or undefined. */
export const privateRedisSkipReason: string | undefined =
  hasBinary || spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0
    ? undefined
    : 'no redis-server on PATH (apt-get install redis-server)';

/** A private redis-server on `port` (e.g. one a test first used while nothing listened there). */
export async function startPrivateRedis(port: number): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'license-desk-redis-'));
  const child: ChildProcess = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 3_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `redis://127.0.0.1:${port}`;
  try {
    await waitForPing(url);
  } catch (error) {
    await stop();
    throw error;
  }
  return connect(url, true, stop);
}

function connect(url: string, isPrivate: boolean, stop: () => Promise<void>): TestRedis {
  const command = async (name: string, args: (string | number)[] = [], target = url): Promise<unknown> => {
    const client = new Redis(target, { maxRetriesPerRequest: 1, lazyConnect: true });
    try {
      await client.connect();
      return await client.call(name, ...args);
    } finally {
      client.disconnect();
    }
  };
  return {
    url,
    private: isPrivate,
    command,
    scratchUrl(db) {
      return isPrivate ? url : withDatabase(url, SLOTS + slot * 3 + (db % 3));
    },
    async flush(target) {
      await command(isPrivate ? 'FLUSHALL' : 'FLUSHDB', [], target);
    },
    close: stop,
  };
}

async function waitForPing(url: string): Promise<void> {
  await until(
    `redis-server to answer on ${url}`,
    async () => {
      const client = new Redis(url, { maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
      client.on('error', () => {});
      try {
        await client.connect();
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        client.disconnect();
      }
    },
    10_000,
    50,
  );
}
