/**
 * npm run bench:ack — figures for the slash command's ack, printed, not asserted:
 *  1. ack latency of 100 concurrent signed slash commands while the licensing queue is saturated
 *     (real pacing: 25 requests a minute), next to a bare Bolt 5 app (bench/bare-bolt.mjs, its own
 *     process too) acking the same 100 commands in the same run. ROUNDS bursts each (default 3), the two
 *     in turn; goal: License Desk's p99 within 1.3 × the bare Bolt app's (docs/performance.md);
 *  2. licensing API calls per command type (20 identical `pools` inside the cache TTL: 1 call;
 *     `find` by e-mail: 1 call);
 *  3. idle RSS and start-up time of `node dist/main.js` (local demo: app + sandbox + Slack double in
 *     one process), targets < 150 MB and < 2 s. Build first: npm run build.
 *
 *   npm run bench:ack
 *   ROUNDS=5 npm run bench:ack
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../local/sandbox/index.js';
import { startTestApp, TEST_USERS, type TestApp } from '../test/support/app-harness.js';
import { startFakeSlack } from '../test/support/fake-slack.js';
import { freePort } from '../test/support/ports.js';
import { commandBody, slackHeaders } from '../test/support/slack-signing.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const MINUTE = 60_000;
const BURST = 100;
const ROUNDS = Math.max(1, Number(process.env.ROUNDS ?? 3));
/** License Desk's ack p99 may be at most this many times the bare Bolt app's, in the same run. */
const GOAL_RATIO = 1.3;
const isFinal = (text: unknown) => !/working on it/i.test(String(text ?? ''));
/** user + system CPU time of a process, from /proc (Linux). */
const cpuMs = (pid: number | undefined) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

// Close without waiting for minutes of held slots: the bench exits at the end anyway.
const closeSoon = (t: TestApp) => Promise.race([t.close().catch(() => undefined), sleep(3000)]);

/** The app alone in its own process (as in production); Slack's double and the sandbox live here. */
async function startAppProcess(env: Record<string, string>) {
  const entry = existsSync(`${root}dist/main.js`) ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, entry, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the app did not start within 30 s:\n${out}`));
    }, 30_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"message":"License Desk started".*?"port":(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  return { child, url: `http://127.0.0.1:${port}/slack/events` };
}

/** A bare Bolt 5 app acking /licenses (bench/bare-bolt.mjs) in its own process, once its /healthz answers. */
async function startBareBolt(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ['bench/bare-bolt.mjs'], {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the bare Bolt app did not answer /healthz (exit code ${child.exitCode})`);
    }
    await sleep(20);
  }
  return { child, url: `http://127.0.0.1:${port}/slack/events` };
}

async function ackUnderSaturation(): Promise<void> {
  const slack = await startFakeSlack();
  const sandbox = await startSandbox({ rateLimit: { limit: 25, windowMs: MINUTE } });
  const secret = 'bench-signing-secret-0123456789';
  const slackEnv = {
    PATH: process.env.PATH ?? '',
    SLACK_BOT_TOKEN: 'xoxb-bench',
    SLACK_SIGNING_SECRET: secret,
    SLACK_API_URL: slack.apiUrl,
  };
  const app = await startAppProcess({
    ...slackEnv,
    PORT: '0',
    LICENSING_API_URL: sandbox.url,
    LICENSING_API_TOKEN: sandbox.adminToken,
    LICENSING_CACHE_TTL_SECONDS: '0',
    LICENSE_ADMINS: TEST_USERS.admin,
    LICENSE_VIEWERS: TEST_USERS.viewer,
    LOG_LEVEL: 'info',
  });
  let bare: Awaited<ReturnType<typeof startBareBolt>> | undefined;
  let seq = 0;
  const command = async (url: string, text: string, userId: string) => {
    const id = `bench-${++seq}`;
    const body = commandBody({
      team_id: 'T0ACME0001',
      channel_id: 'C0LICOPS01',
      user_id: userId,
      command: '/licenses',
      text,
      api_app_id: 'A0LICBOT01',
      is_enterprise_install: 'false',
      response_url: slack.responseUrl(id),
      trigger_id: `${seq}.bench`,
    });
    const started = performance.now();
    const res = await fetch(url, { method: 'POST', headers: slackHeaders(secret, body), body });
    await res.arrayBuffer();
    return { id, status: res.status, ackMs: performance.now() - started };
  };
  const texts = [
    'pools',
    'help',
    'show 4001',
    'pool 2001',
    'list',
    'students',
    'courses',
    'me',
    'find x@contoso.com',
    'bogus',
  ];
  const users = [TEST_USERS.admin, TEST_USERS.viewer, TEST_USERS.nobody];
  /** The same 100 concurrent commands, whoever receives them. */
  const burst = (url: string) =>
    Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        command(url, texts[i % texts.length] ?? 'help', users[i % users.length] ?? ''),
      ),
    );
  try {
    bare = await startBareBolt(slackEnv);
    // Fill every slot of the minute and leave a queue behind: 30 uncached `pools` reads. The bare app
    // gets the same 30 commands, so both are warm.
    await Promise.all(Array.from({ length: 30 }, () => command(app.url, 'pools', TEST_USERS.admin)));
    await Promise.all(Array.from({ length: 30 }, () => command(bare?.url ?? '', 'pools', TEST_USERS.admin)));
    const deadline = Date.now() + 20_000;
    while (sandbox.requests.length < 25 && Date.now() < deadline) await sleep(100);
    const before = sandbox.requests.length;
    const appAcks: number[] = [];
    const bareAcks: number[] = [];
    const ratios: number[] = [];
    let told = 0;
    let failed = 0;
    let appCpu = 0;
    let bareCpu = 0;
    const loads: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const one = async (which: 'app' | 'bare') => {
        const target = which === 'app' ? app : (bare as NonNullable<typeof bare>);
        const cpuBefore = cpuMs(target.child.pid);
        const results = await burst(target.url);
        const cpu = cpuMs(target.child.pid) - cpuBefore;
        failed += results.filter((r) => r.status !== 200).length;
        // Let the work each ack started (replies, licensing calls queued) settle before the next burst.
        await sleep(2000);
        if (which === 'app') {
          appCpu += cpu;
          told += results.filter((r) => slack.responses.some((p) => p.id === r.id)).length;
        } else bareCpu += cpu;
        return results.map((r) => r.ackMs);
      };
      loads.push(loadavg()[0] ?? NaN);
      // In turn, and the order swapped each round: neither always goes first.
      const [first, second] = round % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
      const a = await one(first);
      const b = await one(second);
      const appRound = sorted(first === 'app' ? a : b);
      const bareRound = sorted(first === 'app' ? b : a);
      appAcks.push(...appRound);
      bareAcks.push(...bareRound);
      ratios.push(pct(appRound, 99) / pct(bareRound, 99));
    }
    const appSorted = sorted(appAcks);
    const bareSorted = sorted(bareAcks);
    const ratio = pct(appSorted, 99) / pct(bareSorted, 99);
    console.log(
      `\n1. Ack latency, ${BURST} concurrent /licenses commands, ${ROUNDS} bursts each, License Desk (licensing queue saturated) and a bare Bolt 5 app in turn, each in its own process`,
    );
    console.log(`   licensing requests already sent this minute: ${before} of 25 (5 more commands queued)`);
    console.log(
      `   License Desk: p50 ${ms(pct(appSorted, 50))}   p99 ${ms(pct(appSorted, 99))}   max ${ms(appSorted.at(-1) ?? NaN)}   CPU ${(appCpu / (ROUNDS * BURST)).toFixed(1)} ms a command`,
    );
    console.log(
      `   bare Bolt:    p50 ${ms(pct(bareSorted, 50))}   p99 ${ms(pct(bareSorted, 99))}   max ${ms(bareSorted.at(-1) ?? NaN)}   CPU ${(bareCpu / (ROUNDS * BURST)).toFixed(1)} ms a command`,
    );
    console.log(
      `   p99 ratio (License Desk ÷ bare Bolt, all ${ROUNDS * BURST} acks each): ${ratio.toFixed(2)}; burst by burst: ${ratios.map((r) => r.toFixed(2)).join(', ')}; non-200: ${failed}`,
    );
    console.log(
      `   goal p99 ≤ ${GOAL_RATIO} × the bare Bolt app's: ${ratio <= GOAL_RATIO && failed === 0 ? 'met' : 'MISSED'}`,
    );
    console.log(
      `   load average at each round: ${loads.map((l) => l.toFixed(1)).join(', ')} on ${availableParallelism()} cores`,
    );
    // "Working on it" (or the refusal, or help) should reach each person although answers wait.
    console.log(`   License Desk commands with a visible reply within 2 s of their burst: ${told} / ${ROUNDS * BURST}`);
  } finally {
    app.child.kill('SIGKILL');
    bare?.child.kill('SIGKILL');
    await sandbox.close();
    await slack.close();
  }
}

async function callsPerCommand(): Promise<void> {
  const t = await startTestApp({ sandbox: { rateLimit: false } });
  try {
    const license = t.sandbox.inspect.licenses()[0];
    const email = license?.student.email ?? 'alberto.rossi@contoso.com';
    const cases: [string, string, number][] = [
      ['pools (20 identical, concurrent)', 'pools', 20],
      ['pools (20 identical, one after another)', 'pools', -20],
      ['pool <id>', 'pool 2001', 1],
      ['list', 'list', 1],
      ['show <licenseId>', `show ${license?.id ?? '1001'}`, 1],
      ['find <email>', `find ${email}`, 1],
      ['students', 'students', 1],
      ['courses', 'courses', 1],
      ['me', 'me', 1],
    ];
    console.log('\n2. Licensing API calls per command type (cold cache for each row)');
    for (const [label, text, n] of cases) {
      t.licensing.invalidateCache();
      t.sandbox.clearRequests();
      const one = async () => {
        const r = await t.command(text);
        await r.waitForResponse((p) => isFinal(p.body.text), 30_000);
      };
      if (n > 0) await Promise.all(Array.from({ length: n }, one));
      else for (let i = 0; i < -n; i++) await one();
      const paths = t.sandbox.requests.map((r) => `${r.method} ${r.url}`);
      console.log(
        `   ${label.padEnd(42)} ${String(paths.length).padStart(3)} call(s)  ${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', …' : ''}`,
      );
    }
  } finally {
    await closeSoon(t);
  }
}

async function startupAndRss(): Promise<void> {
  console.log('\n3. node dist/main.js (local demo: app + sandbox + Slack double in one process)');
  const entry = `${root}dist/main.js`;
  if (!existsSync(entry)) {
    console.log('   skipped: dist/main.js is missing; run `npm run build` first');
    return;
  }
  const runs: number[] = [];
  let rssMb = NaN;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    const child = spawn(process.execPath, [entry], { cwd: root, env: { PORT: '0', LOG_LEVEL: 'info' }, stdio: 'pipe' });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start line within 20 s:\n${out}`)), 20_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('"message":"License Desk started"')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    runs.push(performance.now() - started);
    if (run === 0) {
      await sleep(3000);
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      rssMb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
    }
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  }
  const best = Math.min(...runs);
  console.log(
    `   start-up to listening: ${runs.map((r) => ms(r)).join(', ')} (best ${ms(best)}), target < 2 s: ${best < 2000 ? 'met' : 'MISSED'}`,
  );
  console.log(`   idle RSS after 3 s: ${rssMb.toFixed(1)} MB, target < 150 MB: ${rssMb < 150 ? 'met' : 'MISSED'}`);
}

await ackUnderSaturation();
await callsPerCommand();
await startupAndRss();
process.exit(0);
