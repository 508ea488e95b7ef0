/**
 * vitest global setup of the projects whose tests need PostgreSQL (`postgres`, `app`, `processes` in
 * vitest.config.ts): one private PostgreSQL (test/support/postgres.ts), unless PG_TEST_URL names one.
 * vitest runs a project's global setup only when that project has files in the run, so `npm run
 * test:fast` starts none; when both projects run, they share the one server. Under CI=true a
 * PostgreSQL that cannot be had fails the run, never a quiet skip.
 */
import type { TestProject } from 'vitest/node';
import { type PrivatePostgres, postgresBin, startPrivatePostgres } from './postgres.js';

interface Shared {
  users: number;
  started: Promise<{ server?: PrivatePostgres; skip?: string }>;
}

// Each project loads this file on its own; the main process is one, so the server is kept there.
const KEY = Symbol.for('license-desk.test.postgres');
const holder = globalThis as { [KEY]?: Shared };

async function start(): Promise<{ server?: PrivatePostgres; skip?: string }> {
  if (!postgresBin()) return { skip: 'no PostgreSQL: set PG_TEST_URL or apt-get install postgresql' };
  try {
    return { server: await startPrivatePostgres() };
  } catch (error) {
    return {
      skip: `a private PostgreSQL could not be started: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

export async function setup(project: TestProject): Promise<void> {
  if (process.env.PG_TEST_URL?.trim()) {
    project.provide('postgresUrl', process.env.PG_TEST_URL.trim());
    project.provide('postgresSkip', undefined);
    return;
  }
  holder[KEY] ??= { users: 0, started: start() };
  const shared = holder[KEY];
  shared.users += 1;
  const { server, skip } = await shared.started;
  if (skip && process.env.CI === 'true') throw new Error(`CI=true but ${skip}`);
  project.provide('postgresUrl', server?.url);
  project.provide('postgresSkip', skip);
}

export async function teardown(): Promise<void> {
  const shared = holder[KEY];
  if (!shared) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  delete holder[KEY];
  await (await shared.started).server?.stop();
}
