/**
 * Start-up against a bare Bolt app: how long `npm start` (scripts/bootstrap.mjs start, running dist/)
 * takes in HTTP mode with Slack credentials and the licensing API on a sandbox until GET /healthz
 * answers, next to a bare Bolt 5 app with a /healthz route (bench/bare-bolt.mjs), the two in turn, and
 * how many module files each loads (bench/module-count.mjs, one extra run each, not timed).
 *
 *   npm run bench:startup            # 7 runs each after one warm-up
 *   RUNS=11 npm run bench:startup
 *   APP_ROOT=/path/to/another/checkout npm run bench:startup   # that checkout's npm start instead (before/after)
 *
 * The machine's speed drifts, so the figure to quote is the ratio of the medians, not the times.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../local/sandbox/index.js';
import { startFakeSlack } from '../test/support/fake-slack.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 7);
const appRoot = process.env.APP_ROOT ?? root;
const APP_PORT = Number(process.env.PORT ?? 3107);
const BARE_PORT = APP_PORT + 1;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

if (spawnSync(process.execPath, ['scripts/bootstrap.mjs', 'build'], { cwd: appRoot, stdio: 'inherit' }).status !== 0) {
  process.exit(1);
}

const slack = await startFakeSlack();
const sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
const dataDir = mkdtempSync(join(tmpdir(), 'license-desk-startup-'));
const env = {
  PATH: process.env.PATH ?? '',
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
  args: string[];
  port: number;
  cwd: string;
}
const subjects: Subject[] = [
  { name: 'License Desk (npm start)', args: ['scripts/bootstrap.mjs', 'start'], port: APP_PORT, cwd: appRoot },
  { name: 'bare Bolt 5 app', args: ['bench/bare-bolt.mjs'], port: BARE_PORT, cwd: root },
];

/** Starts it, polls /healthz until it answers 200; the ms from spawn to that answer. */
async function once(s: Subject, countFile?: string): Promise<{ ms: number; modules?: number }> {
  const args = countFile ? ['--import', join(root, 'bench/module-count.mjs'), ...s.args] : s.args;
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: s.cwd,
    env: { ...env, PORT: String(s.port), ...(countFile ? { MODULE_COUNT_FILE: countFile } : {}) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise((r) => child.once('exit', r));
  let ms = NaN;
  const deadline = Date.now() + 30_000;
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
  let modules: number | undefined;
  if (countFile && !Number.isNaN(ms)) {
    await sleep(300);
    child.kill('SIGUSR2');
    for (let i = 0; i < 50 && modules === undefined; i++) {
      await sleep(50);
      try {
        modules = (JSON.parse(readFileSync(countFile, 'utf8')) as { count: number }).count;
      } catch {}
    }
  }
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(5000).then(() => child.kill('SIGKILL'))]);
  if (Number.isNaN(ms)) throw new Error(`${s.name} did not answer /healthz within 30 s:\n${stderr}`);
  return { ms, ...(modules !== undefined ? { modules } : {}) };
}

try {
  console.log(
    `start-up until GET /healthz answers, ${RUNS} runs each in turn after one warm-up; load ${loadavg()[0]?.toFixed(2)}`,
  );
  for (const s of subjects) await once(s);
  const times = subjects.map(() => [] as number[]);
  for (let run = 0; run < RUNS; run++) {
    for (const [i, s] of subjects.entries()) times[i]?.push((await once(s)).ms);
  }
  const counts = [] as (number | undefined)[];
  for (const [i, s] of subjects.entries()) counts.push((await once(s, join(dataDir, `modules-${i}.json`))).modules);
  const medians = times.map(median);
  for (const [i, s] of subjects.entries()) {
    const runs = (times[i] ?? []).map((t) => t.toFixed(0)).join(', ');
    console.log(`  ${s.name}: median ${medians[i]?.toFixed(0)} ms (${runs}); ${counts[i] ?? '?'} module files loaded`);
  }
  const pairs = (times[0] ?? []).map((t, i) => t / (times[1]?.[i] ?? NaN));
  console.log(`  ratio of the medians: ${((medians[0] ?? NaN) / (medians[1] ?? NaN)).toFixed(2)} (target ≤ 1.5)`);
  console.log(`  ratio run by run: median ${median(pairs).toFixed(2)} (${pairs.map((r) => r.toFixed(2)).join(', ')})`);
  console.log(`  load average after: ${loadavg()[0]?.toFixed(2)}`);
} finally {
  await sandbox.close();
  await slack.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
