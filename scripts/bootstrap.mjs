/**
 * What `npm start` and `npm test` run first, so both work in a fresh clone with nothing installed:
 *
 *   node scripts/bootstrap.mjs install   dependencies only (npm ci when node_modules is missing or stale)
 *   node scripts/bootstrap.mjs build     dependencies, then dist/ rebuilt only if the sources changed
 *                                        (esbuild: src/main.ts, src/backup.ts and src/import-old-records.ts bundled with the pure-JS
 *                                        libraries they use, the local tools of local/ in chunks of their
 *                                        own, about a second; type checking is `npm run typecheck`, part
 *                                        of `npm test`)
 *   node scripts/bootstrap.mjs start     both, then runs dist/main.js in this same process
 *
 * Plain Node, no dependencies (it runs before there are any). Each step it takes prints one line,
 * so nobody waits in silence; a start with nothing to do prints nothing and costs a few milliseconds.
 *
 * "Stale" means package-lock.json changed since the last install: its hash is remembered in
 * node_modules/.license-desk-lock-hash; without that stamp (a manual `npm ci`), an install newer than
 * the lock file counts as current. dist/ is rebuilt when the hash of src/, local/, the tsconfig files and the
 * lock file differs from the one remembered in dist/.license-desk-build-hash. Hashing them costs about 30 ms
 * of every start, so a start that found them unchanged also remembers each file's size and times
 * (dist/.license-desk-build-stat); while those are all the same, the next start skips the hashing. Only
 * files at least STAT_SETTLED_MS old are remembered that way, so a change within a file system's time
 * granularity of the record is still hashed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const INSTALL_STAMP = 'node_modules/.license-desk-lock-hash';
const BUILD_STAMP = 'dist/.license-desk-build-hash';
const STAT_STAMP = 'dist/.license-desk-build-stat';
/** Sizes and times are trusted for files older than this when they are recorded (see the top). */
const STAT_SETTLED_MS = 3_000;
/** What the build reads: a change to any of these rebuilds dist/. */
const BUILD_INPUTS = ['src', 'local', 'tsconfig.json', 'package-lock.json', 'scripts/bootstrap.mjs'];
/** What production runs: each becomes dist/<name>.js, with shared chunks beside them. */
const ENTRY_POINTS = ['src/main.ts', 'src/backup.ts', 'src/import-old-records.ts'];
/**
 * Left out of the bundle and loaded from node_modules: Bolt and the Slack SDK (they read their own
 * package files at run time), undici (Bolt's Socket Mode client loads it from node_modules at every
 * start anyway: bundled, it was a second copy of a megabyte to parse and run), the native SQLite
 * driver, and the drivers only one mode loads (pg with DATABASE_URL, ioredis with REDIS_URL).
 */
const EXTERNAL = [
  '@slack/bolt',
  '@slack/web-api',
  '@slack/socket-mode',
  'undici',
  'better-sqlite3',
  'pg',
  'ioredis',
  'redis',
];
/** npm writes package-lock.json and its own copy in node_modules within moments of each other. */
const MTIME_SLACK_MS = 5_000;

const say = (line) => process.stderr.write(`license-desk: ${line}\n`);

function sha256(files, root) {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

function filesUnder(root, entry) {
  const path = join(root, entry);
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function readStamp(path) {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** 'missing' (no complete install), 'stale' (the lock file changed since) or 'current'. */
export function installState(root = ROOT) {
  const npmCopy = join(root, 'node_modules/.package-lock.json');
  if (!existsSync(npmCopy)) return 'missing';
  const lockHash = sha256([join(root, 'package-lock.json')], root);
  if (readStamp(join(root, INSTALL_STAMP)) === lockHash) return 'current';
  const installedAt = statSync(npmCopy).mtimeMs;
  const lockedAt = statSync(join(root, 'package-lock.json')).mtimeMs;
  if (installedAt + MTIME_SLACK_MS >= lockedAt) {
    // A manual `npm ci` or `npm install`: remember it, so a later touch of the lock file alone is no change.
    writeFileSync(join(root, INSTALL_STAMP), `${lockHash}\n`);
    return 'current';
  }
  return 'stale';
}

/** Each file's path, size and times: what a change to it would change. */
function statsOf(files, root) {
  const hash = createHash('sha256');
  let newest = 0;
  for (const file of files) {
    const st = statSync(file);
    newest = Math.max(newest, st.mtimeMs, st.ctimeMs);
    hash.update(`${relative(root, file)}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}\n`);
  }
  return { stats: hash.digest('hex'), newest };
}

/** The hash of everything the build reads, and whether dist/ was built from exactly that. */
export function buildState(root = ROOT) {
  const files = BUILD_INPUTS.flatMap((entry) => filesUnder(root, entry));
  const hasBuild = existsSync(join(root, 'dist/main.js'));
  const stamped = readStamp(join(root, BUILD_STAMP));
  const { stats, newest } = statsOf(files, root);
  // Nothing changed since a start found the sources to be those of the build: no need to hash them.
  if (hasBuild && stamped && readStamp(join(root, STAT_STAMP)) === `${stamped} ${stats}`) {
    return { hash: stamped, current: true };
  }
  const hash = sha256(files, root);
  const current = hasBuild && stamped === hash;
  if (current && newest < Date.now() - STAT_SETTLED_MS) writeFileSync(join(root, STAT_STAMP), `${hash} ${stats}\n`);
  return { hash, current };
}

function run(command, args, root) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function npm(args, root) {
  // Under `npm start` / `npm test`, npm says where its own CLI is; otherwise the npm on the PATH.
  const cli = process.env.npm_execpath;
  if (cli?.endsWith('.js')) return run(process.execPath, [cli, ...args], root);
  return run(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, root);
}

export function ensureInstalled(root = ROOT) {
  const state = installState(root);
  if (state === 'current') return true;
  say(
    state === 'missing'
      ? 'installing dependencies (npm ci; about a minute the first time)…'
      : 'package-lock.json changed since the last install: reinstalling dependencies (npm ci)…',
  );
  if (npm(['ci', '--no-audit', '--no-fund'], root) !== 0) {
    say('npm ci failed (see above); fix that, then run the command again.');
    return false;
  }
  writeFileSync(join(root, INSTALL_STAMP), `${sha256([join(root, 'package-lock.json')], root)}\n`);
  return true;
}

export async function ensureBuilt(root = ROOT) {
  const { hash, current } = buildState(root);
  if (current) return true;
  say(
    existsSync(join(root, 'dist/main.js'))
      ? 'sources changed since the last build: rebuilding dist/ (esbuild, a few seconds)…'
      : 'building dist/ from src/ (esbuild, once; later starts reuse it)…',
  );
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  if (!(await bundle(root))) {
    say('the build failed (see above).');
    return false;
  }
  writeFileSync(join(root, BUILD_STAMP), `${hash}\n`);
  return true;
}

/**
 * One bundle per entry point instead of a file per module: the app loads a few files where it loaded
 * over a thousand (Node's loader costs per file), and code only one mode uses stays in chunks of its
 * own, loaded by that mode's dynamic import. local/ (the sandbox, the local Slack double, the console)
 * is always built, but only into such chunks: src/main.ts reaches it by dynamic imports in the local
 * mode alone, so a production start never loads them (docs/architecture.md). The console's page
 * (local/console/public/) and its two browser libraries are read from disk, not bundled.
 */
async function bundle(root) {
  const esbuild = await import(pathToFileURL(join(root, 'node_modules/esbuild/lib/main.js')).href);
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: ENTRY_POINTS,
      outdir: 'dist',
      outbase: 'src',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: true,
      external: EXTERNAL,
      logLevel: 'warning',
      // The CommonJS libraries in the bundle call require(); an ES module has none of its own.
      banner: {
        js: "import { createRequire as __ldRequire } from 'node:module'; const require = __ldRequire(import.meta.url);",
      },
    });
    return true;
  } catch {
    return false;
  }
}

async function main(step) {
  if (!['install', 'build', 'start'].includes(step)) {
    say('usage: node scripts/bootstrap.mjs install | build | start');
    return 2;
  }
  if (!ensureInstalled()) return 1;
  if (step === 'install') return 0;
  if (!(await ensureBuilt())) return 1;
  if (step === 'build') return 0;
  // Same process: signals (Ctrl+C, SIGTERM) reach the app directly, and nothing waits on a child.
  await import(pathToFileURL(join(ROOT, 'dist/main.js')).href);
  return undefined;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const code = await main(process.argv[2] ?? 'start');
  if (code !== undefined) process.exitCode = code;
}
