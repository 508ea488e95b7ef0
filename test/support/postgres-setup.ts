/**
 * vitest global setup: one private PostgreSQL for the whole run (test/support/postgres.ts), unless
 * PG_TEST_URL names one. Under CI=true a PostgreSQL that cannot be had fails the run, never a quiet skip.
 */
import type { TestProject } from 'vitest/node';
import { type PrivatePostgres, postgresBin, startPrivatePostgres } from './postgres.js';

let server: PrivatePostgres | undefined;

export async function setup(project: TestProject): Promise<void> {
  if (process.env.PG_TEST_URL?.trim()) {
    project.provide('postgresUrl', process.env.PG_TEST_URL.trim());
    project.provide('postgresSkip', undefined);
    return;
  }
  let skip: string | undefined;
  if (!postgresBin()) skip = 'no PostgreSQL: set PG_TEST_URL or apt-get install postgresql';
  else {
    try {
      server = await startPrivatePostgres();
    } catch (error) {
      skip = `a private PostgreSQL could not be started: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  if (skip && process.env.CI === 'true') throw new Error(`CI=true but ${skip}`);
  project.provide('postgresUrl', server?.url);
  project.provide('postgresSkip', skip);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
