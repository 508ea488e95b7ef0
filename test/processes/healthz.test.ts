/**
 * GET /healthz of the real app (src/main.ts in a child process) on PostgreSQL and Redis: each part's
 * state as JSON, 200 while the database answers, 503 once it does not, Redis down reported but not
 * fatal, and never a host, user or password in the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoData, startSandbox } from '../../local/sandbox/index.js';
import type { RunningSandbox } from '../../local/sandbox/types.js';
import { TEST_BOT_TOKEN } from '../support/app-harness.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { cutOffDatabase, freshPostgresDatabase, letDatabaseBackIn, postgresSkipReason } from '../support/postgres.js';
import { freePort, privateRedisSkipReason, startPrivateRedis, type TestRedis } from '../support/redis.js';
import { localAppEnv, type MainProcess, runMain } from '../support/run-main.js';
import { until } from '../support/until.js';

const SECRET = 'healthz0signing0secret0for0tests';
const BOT = TEST_BOT_TOKEN;
const PASSWORD = 'pg-s3cret-pw';

const skip = postgresSkipReason() ?? privateRedisSkipReason;

describe.skipIf(skip !== undefined)('/healthz of the running app', () => {
  let slack: FakeSlack;
  let sandbox: RunningSandbox;
  let redis: TestRedis;
  let main: MainProcess;
  let base: string;
  let dbName: string;

  beforeAll(async () => {
    slack = await startFakeSlack({ botToken: BOT });
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0, seed: buildDemoData(new Date()), rateLimit: false });
    redis = await startPrivateRedis(await freePort());
    // The test server trusts every local user: the password is there only to be kept out of the answer.
    const url = new URL(await freshPostgresDatabase());
    url.password = PASSWORD;
    dbName = url.pathname.slice(1);
    main = runMain(
      localAppEnv(
        {
          slackApiUrl: slack.apiUrl,
          sandboxUrl: sandbox.url,
          sandboxToken: sandbox.adminToken,
          botToken: BOT,
          signingSecret: SECRET,
        },
        { REDIS_URL: redis.url, DATABASE_URL: url.toString() },
      ),
    );
    const [, port] = await main.waitFor(/"message":"License Desk started".*?"port":(\d+)/, 30_000);
    base = `http://127.0.0.1:${port}`;
  }, 60_000);
  afterAll(async () => {
    main?.child.kill('SIGKILL');
    await main?.exited;
    await redis?.close();
    await sandbox?.close();
    await slack?.close();
  });

  const health = async () => {
    const res = await fetch(`${base}/healthz`);
    const text = await res.text();
    for (const secret of [PASSWORD, dbName, redis.url, sandbox.adminToken, BOT]) expect(text).not.toContain(secret);
    return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
  };

  it('both up: 200, the database and Redis each say so', async () => {
    expect(await health()).toEqual({
      status: 200,
      body: { ok: true, sandbox: true, database: { state: 'up', dialect: 'postgres' }, redis: { state: 'up' } },
    });
  });

  it('Redis gone: still 200 (the app serves on), Redis down; the log says why once', async () => {
    await redis.close();
    const seen = await health();
    expect(seen).toEqual({
      status: 200,
      body: { ok: true, sandbox: true, database: { state: 'up', dialect: 'postgres' }, redis: { state: 'down' } },
    });
    await health();
    const lines = main
      .output()
      .stdout.split('\n')
      .filter((l) => l.includes('"message":"health: redis is down"'));
    expect(lines).toHaveLength(1);
  });

  it('the database refusing connections: 503, database down', async () => {
    await cutOffDatabase(dbName);
    // The pool may still hold a connection the server has not closed yet: ask until the answer changes.
    let seen = await health();
    const answers503 = async () => {
      seen = await health();
      return seen.status === 503;
    };
    // The assertion below says what it answered instead.
    await until('/healthz to answer 503', answers503, 20_000, 200).catch(() => undefined);
    expect(seen).toEqual({
      status: 503,
      body: { ok: false, sandbox: true, database: { state: 'down', dialect: 'postgres' }, redis: { state: 'down' } },
    });
    await letDatabaseBackIn(dbName);
  }, 30_000);
});
