/**
 * npm run bench:abuse:bodies — what unsigned bodies cost the app, printed, not asserted.
 *
 * Starts `src/main.ts` in a child process (the local demo: HTTP on loopback, the sandbox and the
 * Slack double in the same process, so the figures include them), then for each attack sends 100
 * parallel unsigned 4 MB POSTs to /slack/events and reports the app's RSS before, at its peak and
 * some seconds after, what the attackers got back, and whether a signed `/licenses help` sent every
 * 250 ms meanwhile was still acknowledged (and how fast).
 *
 *   a. 4 MB bodies with Content-Length (what curl and most clients send);
 *   b. 4 MB bodies without a length (chunked), which must be counted as they arrive.
 *
 * Run it on a quiet machine; RSS depends on the allocator and on what ran before, so compare the
 * ratios between runs of the same code rather than the absolute figures between machines.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_SIGNING_SECRET, DEMO_USERS } from '../local/slack/demo.js';
import { commandBody, slackHeaders } from '../test/support/slack-signing.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const ATTACKERS = 100;
const BODY_BYTES = 4 * 1024 * 1024;
const AFTER_MS = [5_000, 15_000];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function rssBytes(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb * 1024;
}

async function startApp(dataDir: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'error', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app did not start within 60 s:\n${out}`)), 60_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /app listens on http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  child.stdout?.resume();
  return { child, port };
}

type Outcome = number | 'reset';

/** One unsigned POST of `body`; resolves with the status, or 'reset' if the connection was cut first. */
function attack(port: number, body: Buffer, withLength: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path: '/slack/events',
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)),
        'x-slack-signature': `v0=${'0'.repeat(64)}`,
        ...(withLength ? { 'content-length': String(body.length) } : {}),
      },
    });
    let settled = false;
    const settle = (o: Outcome) => {
      if (settled) return;
      settled = true;
      resolve(o);
      req.destroy();
    };
    req.on('response', (res) => {
      res.resume();
      settle(res.statusCode ?? 0);
    });
    req.on('error', () => settle('reset'));
    req.on('close', () => settle('reset'));
    req.end(body);
  });
}

async function signedHelp(port: number, responseUrl: string): Promise<{ status: number | 'error'; ms: number }> {
  const body = commandBody({
    team_id: 'T0LOCAL001',
    channel_id: 'C0BENCH001',
    user_id: DEMO_USERS.admin,
    command: '/licenses',
    text: 'help',
    response_url: responseUrl,
    trigger_id: `${Date.now()}.0.bench`,
  });
  const started = performance.now();
  try {
    const res = await fetch(`http://127.0.0.1:${port}/slack/events`, {
      method: 'POST',
      headers: slackHeaders(DEMO_SIGNING_SECRET, body),
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  } catch {
    return { status: 'error', ms: performance.now() - started };
  }
}

async function run(label: string, withLength: boolean, responseUrl: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'abuse-bodies-'));
  const { child, port } = await startApp(dataDir);
  try {
    await signedHelp(port, responseUrl); // warm up the command path
    await sleep(2_000);
    const before = rssBytes(child);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssBytes(child));
    }, 20);

    const body = Buffer.alloc(BODY_BYTES, 'x');
    const started = performance.now();
    let attacking = true;
    const attacks = Promise.all(Array.from({ length: ATTACKERS }, () => attack(port, body, withLength))).finally(() => {
      attacking = false;
    });
    const commands: { status: number | 'error'; ms: number }[] = [];
    const meanwhile = (async () => {
      do {
        commands.push(await signedHelp(port, responseUrl));
        await sleep(250);
      } while (attacking);
    })();
    const outcomes = await attacks;
    const attackMs = performance.now() - started;
    await meanwhile;
    clearInterval(sampler);
    peak = Math.max(peak, rssBytes(child));

    const after: number[] = [];
    let waited = 0;
    for (const at of AFTER_MS) {
      await sleep(at - waited);
      waited = at;
      after.push(rssBytes(child));
    }
    const alive = child.exitCode === null;

    const counts = new Map<Outcome, number>();
    for (const o of outcomes) counts.set(o, (counts.get(o) ?? 0) + 1);
    const acked = commands.filter((c) => c.status === 200);
    const worst = Math.max(...commands.map((c) => c.ms));
    console.log(`\n${label}`);
    console.log(
      `   attackers' answers: ${[...counts].map(([o, n]) => `${n} × ${o}`).join(', ')} in ${attackMs.toFixed(0)} ms`,
    );
    console.log(
      `   RSS before ${mb(before)}, peak ${mb(peak)} (${(peak / before).toFixed(2)} × before), ` +
        after.map((r, i) => `${(AFTER_MS[i] ?? 0) / 1000} s after ${mb(r)} (${(r / before).toFixed(2)} ×)`).join(', '),
    );
    console.log(
      `   signed /licenses help meanwhile: ${acked.length} of ${commands.length} acknowledged with 200, ` +
        `slowest ${worst.toFixed(0)} ms (${(worst / 3000).toFixed(2)} × Slack's 3 s)` +
        `${
          commands.length > acked.length
            ? `; others: ${commands
                .filter((c) => c.status !== 200)
                .map((c) => c.status)
                .join(', ')}`
            : ''
        }`,
    );
    console.log(`   process still running afterwards: ${alive ? 'yes' : 'NO'}`);
  } finally {
    child.kill('SIGKILL');
    await once(child, 'exit').catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  // Catches the help command's replies, so the app has somewhere to send them.
  const responses = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  responses.listen(0, '127.0.0.1');
  await once(responses, 'listening');
  const responseUrl = `http://127.0.0.1:${(responses.address() as AddressInfo).port}/response/bench`;
  console.log(`${ATTACKERS} parallel unsigned ${mb(BODY_BYTES)} POSTs against node src/main.ts (local demo)`);
  try {
    await run('a. with Content-Length', true, responseUrl);
    await run('b. chunked (no Content-Length)', false, responseUrl);
  } finally {
    responses.close();
  }
}

await main();
