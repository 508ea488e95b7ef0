import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The tests under test/integration that leave `npm run test:fast` (the `in-process` project) for the
 * `integration` project, with every end-to-end test (test/e2e: the whole app per file, a minute and
 * more together): those that start a process or need Redis, and those that take seconds each (a
 * licensing window of real time). A new test/integration test of either kind belongs here.
 */
const NOT_FAST = [
  'test/integration/licensing/redis-down.test.ts',
  'test/integration/licensing/redis.test.ts',
  'test/integration/sandbox/cli.test.ts',
  'test/integration/shared-state.test.ts',
  'test/integration/licensing/default-pacing.test.ts',
  'test/integration/licensing/errors.test.ts',
  'test/integration/licensing/limiter-recovery.test.ts',
  'test/integration/licensing/limiter.test.ts',
  'test/integration/sandbox/faults.test.ts',
  'test/integration/sandbox/rate-limit.test.ts',
];

export default defineConfig({
  test: {
    // One private PostgreSQL for the run when PG_TEST_URL names none (test/support/postgres.ts).
    globalSetup: ['test/support/postgres-setup.ts'],
    // `npm test` runs with --coverage (test:vitest); under CI=true (.ci/run, where Redis and Chromium are
    // always there) the floors below are checked in that same run. They are what the whole suite reached
    // there, rounded down, and for src/services one point less again (some of its branches are taken or
    // not by timing: a retry, a slow answer); raise them when coverage grows, never lower them. Without
    // CI=true they are not checked: a machine without redis-server skips the Redis tests, and with them
    // the Redis stores of src/services.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary', 'json-summary'],
      thresholds:
        process.env.CI === 'true'
          ? {
              'src/domain/**': { statements: 98, branches: 93, functions: 98, lines: 99 },
              'src/services/**': { statements: 83, branches: 73, functions: 83, lines: 86 },
            }
          : {},
    },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        // With unit, `npm run test:fast`: the licensing client, the sandbox and the services against
        // the sandbox on loopback, in the test's own process, each file in about a second.
        test: {
          name: 'in-process',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...NOT_FAST],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/e2e/**/*.test.ts', ...NOT_FAST],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
