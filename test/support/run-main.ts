/**
 * Runs the app in a child process with exactly the given environment (nothing inherited), in a
 * working directory of its own (a fresh empty one unless given), so that a developer's `.env` in the
 * checkout never reaches a test: main.ts reads `.env` from its working directory. The child runs
 * dist/main.js, the bundle `npm start` runs, which the `processes` project builds once before its
 * files (test/support/dist-setup.ts; buildDist below); a test run outside that project builds it first.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { SETTING_NAMES } from '../../src/kernel/config/config.js';
import { SQLITE_FILE } from '../../src/kernel/db/open.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface MainProcess {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  /** Resolves when stdout matches, with the match; rejects on exit or timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

const TSX_LOADER = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

export interface RunMainOptions {
  /** Extra node arguments before the entry point, e.g. ['--import', fileThatInjectsAFault]. */
  nodeArgs?: string[];
  /** The working directory; default a fresh temporary one (never the repository). */
  cwd?: string;
  /**
   * Start the app as README says and production does: `npm start` in the repository (npm, then
   * scripts/bootstrap.mjs, then dist/main.js in that node process), in a process group of its own, so
   * that `process.kill(-child.pid, signal)` reaches npm and node both, as systemd's default KillMode
   * and a terminal's Ctrl+C do. dist/ must be built first (`node scripts/bootstrap.mjs build`). Every
   * setting `env` leaves out is passed empty, so that a `.env` in the checkout cannot add one.
   */
  npmStart?: boolean;
}

/**
 * The environment of an app process on the local doubles: HTTP mode on a free port, the recording
 * Slack double, the sandbox with its admin token; `extra` adds or overrides settings.
 */
export function localAppEnv(
  doubles: { slackApiUrl: string; sandboxUrl: string; sandboxToken: string; botToken: string; signingSecret: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PORT: '0',
    SLACK_BOT_TOKEN: doubles.botToken,
    SLACK_SIGNING_SECRET: doubles.signingSecret,
    SLACK_API_URL: doubles.slackApiUrl,
    LICENSING_API_URL: doubles.sandboxUrl,
    LICENSING_API_TOKEN: doubles.sandboxToken,
    ...extra,
  };
}

/** The Slack events URL of a started app process, once its start line names the port. */
export async function eventsUrlOf(main: MainProcess, timeoutMs?: number): Promise<string> {
  const [, port] = await main.waitFor(/"message":"License Desk started".*?"port":(\d+)/, timeoutMs);
  return `http://127.0.0.1:${port}/slack/events`;
}

/** What npm itself needs (its PATH and home), and every other setting empty so `.env` adds none. */
function npmStartEnv(env: Record<string, string>): Record<string, string> {
  const blank = Object.fromEntries(SETTING_NAMES.filter((n) => n !== 'REQUESTERS').map((n) => [n, '']));
  return {
    ...blank,
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    REQUESTERS: '*',
    ...env,
  };
}

/**
 * What `npm start` does first when the sources changed (dist/ rebuilt), done before a test starts the
 * clock on an `npm start`; quick when dist/ is current. Resolves with the build's exit code. Test files
 * run in parallel, and a build starts by removing dist/: one build at a time (a lock directory beside
 * the checkout's name in the temporary directory), so a second one finds dist/ current instead of
 * removing it under an `npm start` already running from it.
 */
export async function buildDist(): Promise<number | null> {
  const lock = join(
    tmpdir(),
    `license-desk-build-${createHash('sha256').update(root).digest('hex').slice(0, 12)}.lock`,
  );
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left by a killed run is older than any build.
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > 300_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`another build held ${lock} for 5 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    const build = spawn(process.execPath, ['scripts/bootstrap.mjs', 'build'], { cwd: root, stdio: 'inherit' });
    return await new Promise<number | null>((resolve) => build.on('exit', resolve));
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Node's arguments before the entry: a test's own (TypeScript) preload needs the tsx loader; the bundle does not. */
function preload(nodeArgs: readonly string[] = []): string[] {
  return nodeArgs.length > 0 ? ['--import', TSX_LOADER, ...nodeArgs] : [];
}

export function runMain(env: Record<string, string>, options: RunMainOptions = {}): MainProcess {
  // A DATA_DIR of its own unless the test names one: never the repository's ./data, which a
  // developer's `npm start` uses (one process per directory).
  const dataDir = env.DATA_DIR === undefined ? mkdtempSync(join(tmpdir(), 'license-desk-main-')) : undefined;
  const childEnv = dataDir === undefined ? env : { ...env, DATA_DIR: dataDir };
  const ownCwd = options.cwd === undefined && !options.npmStart;
  const cwd = options.npmStart ? root : (options.cwd ?? mkdtempSync(join(tmpdir(), 'license-desk-cwd-')));
  const child = options.npmStart
    ? spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['start'], {
        cwd,
        env: npmStartEnv(childEnv),
        stdio: 'pipe',
        detached: true,
      })
    : spawn(process.execPath, [...preload(options.nodeArgs), join(root, 'dist/main.js')], {
        cwd,
        env: childEnv,
        stdio: 'pipe',
      });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    for (const l of listeners) l();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
      if (ownCwd) rmSync(cwd, { recursive: true, force: true });
      resolve(code);
    }),
  );
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = stdout.match(pattern);
          if (!m) return;
          done();
          resolve(m);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no ${pattern} in stdout within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then(() => {
          if (listeners.has(check)) {
            done();
            reject(new Error(`process exited before ${pattern}:\n${stdout}\n${stderr}`));
          }
        });
        check();
      });
    },
  };
}

/** The process's JSON log lines so far (stdout; anything else it printed is left out). */
export function logLinesOf(main: MainProcess | undefined): Record<string, unknown>[] {
  return (main?.output().stdout ?? '')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The audit entries in the audit table of the app's SQLite database in `dataDir`, in the order they were added. */
export function auditTableIn(dataDir: string): Record<string, unknown>[] {
  const db = new SQLite(join(dataDir, SQLITE_FILE), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare<[], { body: string }>('SELECT body FROM audit ORDER BY id')
      .all()
      .map((r) => JSON.parse(r.body) as Record<string, unknown>);
  } finally {
    db.close();
  }
}
