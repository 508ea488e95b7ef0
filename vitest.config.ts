import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

/**
 * The store suites: the test/integration files that run their cases on both engines with
 * `testDatabases()` (test/support/records.ts). `in-process` runs their SQLite cases, `postgres` their
 * PostgreSQL ones, so `npm run test:fast` starts no PostgreSQL. Such a file holds only those cases
 * (an engine-free test in it would run in both projects): put others in a file of their own.
 */
const STORE_SUITES = readdirSync('test/integration', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join('test/integration', f))
  .filter((f) => readFileSync(f, 'utf8').includes('testDatabases('));

/**
 * The end-to-end files that start processes (the app under `npm start` or `node dist/main.js`, a kill and
 * a restart, Chromium, a second replica): each keeps a module graph of its own (`isolate`), since what
 * another file leaves in `process.env` would reach the child it starts. Found by what they import.
 */
const PROCESS_MARKS = [
  'run-main',
  'kill-restart',
  'main-rig',
  'chromium',
  'process-fault',
  'child_process',
  'support/command.js',
];
const PROCESSES = [...readdirSync('test/e2e').map((f) => join('test/e2e', f)), ...NOT_FAST]
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => PROCESS_MARKS.some((m) => readFileSync(f, 'utf8').includes(m)));

/**
 * Workers for the slow projects. Their tests mostly wait (on a licensing window, a restart, a browser),
 * so more files than cores run side by side: four of the in-process ones (postgres, integration), three
 * of those that start processes (each start loads and opens a whole app, and a kill-restart test
 * times its restarts). The fast projects take two (on two cores, 21 s against 25 s with Vitest's
 * default of one). Vitest runs projects of different worker counts one group after
 * the other (`sequence.groupOrder`).
 */
const IN_PROCESS_WORKERS = 4;
/** The fast projects (unit, in-process): two workers, each with one module graph for its files. */
const FAST_WORKERS = 2;
const PROCESS_WORKERS = 3;

/** One private PostgreSQL for the run when PG_TEST_URL names none, started only when a project that
 *  needs it has files in the run (test/support/postgres-setup.ts). */
const POSTGRES = ['test/support/postgres-setup.ts'];

export default defineConfig({
  test: {
    // `npm test` runs with --coverage (test:vitest); under CI=true (.ci/run, where Redis and Chromium are
    // always there) the floors below are checked in that same run. They are what the whole suite reached
    // there, rounded down, and for the use cases one point less again (some of its branches are taken or
    // not by timing: a retry, a slow answer); raise them when coverage grows, never lower them. Without
    // CI=true they are not checked: a machine without redis-server skips the Redis tests, and with them
    // the Redis stores of the kernel's services. The globs take every unit's layer of that name (the
    // kernel's and each feature's rules, the kernel's and each feature's use cases).
    coverage: {
      provider: 'v8',
      // The product only: local/ (the sandbox, the console, the local Slack double, try) is left out.
      include: ['src/**/*.ts'],
      reporter: ['text-summary', 'json-summary'],
      thresholds:
        process.env.CI === 'true'
          ? {
              'src/*/domain/**': { statements: 98, branches: 93, functions: 99, lines: 99 },
              'src/*/services/**': { statements: 87, branches: 77, functions: 89, lines: 90 },
            }
          : {},
    },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          maxWorkers: FAST_WORKERS,
          // One module graph for all the files of a worker: re-importing Bolt, kysely and the rest
          // for each file was two thirds of this project's time. A test that changes a global
          // (process.env, a timer) puts it back.
          isolate: false,
        },
      },
      {
        // With unit, `npm run test:fast`: the licensing client, the sandbox and the services against
        // the sandbox on loopback, in the test's own process, each file in about a second; the store
        // suites on SQLite.
        test: {
          name: 'in-process',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...NOT_FAST],
          environment: 'node',
          maxWorkers: FAST_WORKERS,
          testTimeout: 30_000,
          hookTimeout: 30_000,
          // As unit: each file closes what it starts (servers, clients, databases).
          isolate: false,
          provide: { databases: ['sqlite'] },
        },
      },
      {
        // The store suites' PostgreSQL cases (npm test, not test:fast).
        test: {
          name: 'postgres',
          include: STORE_SUITES,
          maxWorkers: IN_PROCESS_WORKERS,
          sequence: { groupOrder: 1 },
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
          globalSetup: POSTGRES,
          provide: { databases: ['postgres'] },
        },
      },
      {
        // The end-to-end tests of the app in the test's own process (startTestApp: signed HTTP in,
        // the fake Slack and the sandbox on loopback), and the slow licensing tests. Each file closes
        // what it starts, so the files of a worker share one module graph (importing the whole app
        // again for each file was most of this project's time).
        test: {
          name: 'integration',
          include: ['test/e2e/**/*.test.ts', ...NOT_FAST],
          exclude: [...configDefaults.exclude, ...PROCESSES],
          environment: 'node',
          globalSetup: POSTGRES,
          testTimeout: 30_000,
          hookTimeout: 30_000,
          isolate: false,
          maxWorkers: IN_PROCESS_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // The end-to-end tests that start processes (PROCESSES above), each file in a fresh worker.
        test: {
          name: 'processes',
          include: PROCESSES,
          environment: 'node',
          // dist/ built once for the run: the app processes start from the bundle, as under npm start.
          globalSetup: [...POSTGRES, 'test/support/dist-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          maxWorkers: PROCESS_WORKERS,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
