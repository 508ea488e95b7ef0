/**
 * npm run bench:startup — start-up against a bare Bolt app, printed, not asserted (docs/performance.md).
 *
 * How long `npm start` takes in HTTP mode with Slack credentials and the licensing API on a sandbox
 * until GET /healthz answers, next to a bare Bolt 5 app with a /healthz route (bench/bare-bolt.mjs)
 * started the same way: `npm start` in a package of its own whose start script is
 * `exec node bench/bare-bolt.mjs`, as License Desk's is `exec node scripts/bootstrap.mjs start`. Each is
 * spawned in a process group of its own (npm and the node it runs), stopped with SIGTERM to the whole
 * group, and the next run waits until every process of the group is gone. Two figures:
 *
 *   - first start: dist/ removed before each run, so `npm start` builds it (esbuild) and then starts;
 *     FIRST_RUNS runs (default 3), each next to a run of the bare Bolt app. No goal of its own.
 *   - start: dist/ current, RUNS runs each (default 7) in turn after one warm-up. Goal: the ratio of
 *     the medians ≤ 1.5 (aim 1.25).
 *
 * Then how many module files each loads (bench/module-count.mjs, one extra run each with plain node,
 * not timed: a preload through npm would count npm's own files too).
 *
 *   npm run bench:startup
 *   RUNS=11 FIRST_RUNS=5 npm run bench:startup
 *   APP_ROOT=/path/to/another/checkout npm run bench:startup   # that checkout's npm start instead (before/after)
 *
 * The bench removes and rebuilds dist/ of the checkout it measures (APP_ROOT, else this one). The
 * machine's speed drifts, so the figure to quote is the ratio of the medians, not the times.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../local/sandbox/index.js';
import { installState } from '../scripts/bootstrap.mjs';
import { startFakeSlack } from '../test/support/fake-slack.js';
import { freePort } from '../test/support/ports.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const RUNS = Math.max(1, Number(process.env.RUNS ?? 7));
const FIRST_RUNS = Math.max(1, Number(process.env.FIRST_RUNS ?? 3));
const appRoot = process.env.APP_ROOT ?? root;
const GOAL_RATIO = 1.5;
const AIM_RATIO = 1.25;
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

// A first start is measured with dependencies installed: only the build runs, never npm ci.
if (installState(appRoot) !== 'current') {
  console.error(
    `${appRoot}: dependencies missing or stale; run npm ci there first (the bench times builds, not installs).`,
  );
  process.exit(1);
}

const slack = await startFakeSlack();
const sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
const dataDir = mkdtempSync(join(tmpdir(), 'license-desk-startup-'));
// The bare Bolt app's package, in a folder of its own: `npm start` runs it as License Desk's runs its bootstrap.
const bareDir = mkdtempSync(join(tmpdir(), 'license-desk-bare-bolt-'));
writeFileSync(
  join(bareDir, 'package.json'),
  `${JSON.stringify(
    {
      name: 'bare-bolt',
      private: true,
      scripts: { start: `exec node ${JSON.stringify(join(root, 'bench/bare-bolt.mjs'))}` },
    },
    null,
    2,
  )}\n`,
);
const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? tmpdir(),
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  NODE_ENV: 'production',
  SLACK_BOT_TOKEN: 'xoxb-bench',
  SLACK_SIGNING_SECRET: '8f1c2d3e4a5b6c7d8e9f0a1b2c3d4e5f',
  SLACK_API_URL: slack.apiUrl,
  LICENSING_API_URL: sandbox.url,
  LICENSING_API_TOKEN: sandbox.adminToken,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
};

interface Subject {
  name: string;
  /** Plain node's arguments for the module count. */
  nodeArgs: string[];
  port: number;
  cwd: string;
}
const subjects: Subject[] = [
  {
    name: 'License Desk (npm start)',
    nodeArgs: ['scripts/bootstrap.mjs', 'start'],
    port: Number(process.env.PORT ?? (await freePort())),
    cwd: appRoot,
  },
  {
    name: 'bare Bolt 5 app (npm start)',
    nodeArgs: [join(root, 'bench/bare-bolt.mjs')],
    port: await freePort(),
    cwd: bareDir,
  },
];

/** Whether any process of the group `pgid` is still alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the whole group; SIGKILL after 5 s; resolves once no process of it is left (or 5 s after the SIGKILL). */
async function stopGroup(child: ChildProcess): Promise<void> {
  const pgid = child.pid;
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {}
  const deadline = Date.now() + 5_000;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(20);
  if (groupAlive(pgid)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {}
    // Bounded too: a process left unreaped (a zombie) still counts as a member of the group.
    const killed = Date.now() + 5_000;
    while (groupAlive(pgid) && Date.now() < killed) await sleep(20);
  }
}

/** Spawns it, polls /healthz until it answers 200; the ms from spawn to that answer. */
async function timed(s: Subject): Promise<number> {
  const started = performance.now();
  const child = spawn(NPM, ['start'], {
    cwd: s.cwd,
    env: { ...env, PORT: String(s.port) },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  let ms = NaN;
  const deadline = Date.now() + 60_000;
  try {
    while (Date.now() < deadline && child.exitCode === null) {
      const ok = await fetch(`http://127.0.0.1:${s.port}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) {
        ms = performance.now() - started;
        break;
      }
      await sleep(5);
    }
  } finally {
    await stopGroup(child);
  }
  if (Number.isNaN(ms)) throw new Error(`${s.name} did not answer /healthz within 60 s:\n${stderr}`);
  return ms;
}

/** One run with plain node and the module-count preload: how many module files it loaded, once it answers. */
async function moduleCount(s: Subject, countFile: string): Promise<number | undefined> {
  const child = spawn(process.execPath, ['--import', join(root, 'bench/module-count.mjs'), ...s.nodeArgs], {
    cwd: s.cwd,
    env: { ...env, PORT: String(s.port), MODULE_COUNT_FILE: countFile },
    stdio: 'ignore',
    detached: true,
  });
  let modules: number | undefined;
  try {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && child.exitCode === null) {
      const ok = await fetch(`http://127.0.0.1:${s.port}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      await sleep(5);
    }
    await sleep(300);
    child.kill('SIGUSR2');
    for (let i = 0; i < 50 && modules === undefined; i++) {
      await sleep(50);
      try {
        modules = (JSON.parse(readFileSync(countFile, 'utf8')) as { count: number }).count;
      } catch {}
    }
  } finally {
    await stopGroup(child);
  }
  return modules;
}

const [app, bare] = subjects as [Subject, Subject];
try {
  console.log(
    `start-up until GET /healthz answers, each through npm start in a process group of its own; load ${loadavg()[0]?.toFixed(2)}`,
  );
  // First starts: dist/ removed, so npm start builds it. In turn with the bare Bolt app.
  const first: number[] = [];
  const firstBare: number[] = [];
  for (let run = 0; run < FIRST_RUNS; run++) {
    rmSync(join(appRoot, 'dist'), { recursive: true, force: true });
    first.push(await timed(app));
    firstBare.push(await timed(bare));
  }
  // Starts: dist/ current. One warm-up each (it also records the sources' sizes and times, as any
  // start after a build does), then RUNS in turn.
  await timed(app);
  await timed(bare);
  const times: [number[], number[]] = [[], []];
  for (let run = 0; run < RUNS; run++) {
    times[0].push(await timed(app));
    times[1].push(await timed(bare));
  }
  const counts = [
    await moduleCount(app, join(dataDir, 'modules-0.json')),
    await moduleCount(bare, join(dataDir, 'modules-1.json')),
  ];
  const list = (xs: number[]) => xs.map((t) => t.toFixed(0)).join(', ');
  const firstRatio = median(first) / median(firstBare);
  console.log(`first start (dist/ absent: the build runs), ${FIRST_RUNS} runs each in turn:`);
  console.log(`  ${app.name}: median ${median(first).toFixed(0)} ms (${list(first)})`);
  console.log(`  ${bare.name}: median ${median(firstBare).toFixed(0)} ms (${list(firstBare)})`);
  console.log(`  ratio of the medians: ${firstRatio.toFixed(2)} (no goal of its own)`);
  console.log(`start (dist/ current), ${RUNS} runs each in turn after one warm-up:`);
  for (const [i, s] of subjects.entries()) {
    console.log(
      `  ${s.name}: median ${median(times[i as 0 | 1]).toFixed(0)} ms (${list(times[i as 0 | 1])}); ${counts[i] ?? '?'} module files loaded`,
    );
  }
  const ratio = median(times[0]) / median(times[1]);
  const pairs = times[0].map((t, i) => t / (times[1][i] ?? NaN));
  console.log(`  ratio run by run: median ${median(pairs).toFixed(2)} (${pairs.map((r) => r.toFixed(2)).join(', ')})`);
  console.log(
    `  ratio of the medians: ${ratio.toFixed(2)}; goal ≤ ${GOAL_RATIO} (aim ${AIM_RATIO}): ${ratio <= GOAL_RATIO ? 'met' : 'MISSED'}${ratio <= GOAL_RATIO ? (ratio <= AIM_RATIO ? ', aim met' : ', aim missed') : ''}`,
  );
  console.log(`  load average after: ${loadavg()[0]?.toFixed(2)}`);
} finally {
  await sandbox.close();
  await slack.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(bareDir, { recursive: true, force: true });
}
process.exit(0);
