import { defineConfig } from 'vitest/config';

/**
 * Each project runs one folder of test/ (test/unit/layout.test.ts checks that every test file sits in
 * one of them):
 *
 * - test/unit: pure code and small pieces with fakes, no server.
 * - test/in-process: the licensing client, the sandbox, the listeners and the use cases against the
 *   sandbox on loopback, in the test's own process, each file in about a second.
 * - test/stores: the store suites, every case on both engines with `testDatabases()`
 *   (test/support/records.ts). The project's `provide` picks the engine: `in-process` runs them on
 *   SQLite, `postgres` on PostgreSQL, so `npm run test:fast` starts no PostgreSQL. Such a file holds
 *   only those cases (an engine-free test in it would run in both projects): put others in test/in-process.
 * - test/slow: in-process tests that take seconds each (a licensing window of real time) or need Redis.
 * - test/app: the whole app in the test's own process (startTestApp: signed HTTP in, the fake Slack
 *   and the sandbox on loopback).
 * - test/processes: the tests that start processes (the app under `npm start` or `node dist/main.js`, a
 *   kill and a restart, Chromium, a second replica, the sandbox's command line, a limiter per worker
 *   process): each file keeps a module graph of its own (`isolate`), since what another file leaves in
 *   `process.env` would reach the child it starts.
 */
const UNIT = ['test/unit/**/*.test.ts'];
const IN_PROCESS = ['test/in-process/**/*.test.ts'];
const STORES = ['test/stores/**/*.test.ts'];
const SLOW = ['test/slow/**/*.test.ts'];
const APP = ['test/app/**/*.test.ts'];
const PROCESSES = ['test/processes/**/*.test.ts'];

/**
 * Workers for the slow projects. Their tests mostly wait (on a licensing window, a restart, a browser),
 * so more files than cores run side by side: four of the in-process ones (postgres, slow, app), three
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
          include: UNIT,
          environment: 'node',
          maxWorkers: FAST_WORKERS,
          // One module graph for all the files of a worker: re-importing Bolt, kysely and the rest
          // for each file was two thirds of this project's time. A test that changes a global
          // (process.env, a timer) puts it back.
          isolate: false,
        },
      },
      {
        // With unit, `npm run test:fast`: test/in-process, and the store suites on SQLite.
        test: {
          name: 'in-process',
          include: [...IN_PROCESS, ...STORES],
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
          include: STORES,
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
        // The slow in-process tests. Each file closes what it starts, so the files of a worker share one
        // module graph.
        test: {
          name: 'slow',
          include: SLOW,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
          isolate: false,
          maxWorkers: IN_PROCESS_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // The whole app in the test's own process. Each file closes what it starts, so the files of a
        // worker share one module graph (importing the whole app again for each file was most of this
        // project's time).
        test: {
          name: 'app',
          include: APP,
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
        // The tests that start processes, each file in a fresh worker.
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
