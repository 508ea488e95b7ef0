/**
 * npx tsx bench/shutdown.ts — figures for the stop on SIGTERM (docs/shutdown.md), printed, not
 * asserted. main.ts runs in its own process in HTTP mode against this script's Slack double and
 * licensing sandbox:
 *  1. nothing in flight: SIGTERM to exit;
 *  2. a change in flight whose PATCH answers after L ms: SIGTERM to exit, as a ratio of the PATCH's
 *     remaining time (1.0 = the process left the moment the change was done);
 *  3. a change whose PATCH never answers, with SHUTDOWN_DRAIN_SECONDS = B: SIGTERM to exit, as a
 *     ratio of B (the cut-off, the tell and the closes are the part above 1.0).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../local/sandbox/index.js';
import type { RunningSandbox } from '../local/sandbox/types.js';
import { CallbackId } from '../src/kernel/blocks/ids.js';
import { extendState, viewOf } from '../test/support/change-flow.js';
import { type FakeSlack, startFakeSlack, TEST_USERS } from '../test/support/fake-slack.js';
import { eventsUrlOf, localAppEnv, runMain } from '../test/support/run-main.js';
import { commandBody, interactionBody, slackHeaders } from '../test/support/slack-signing.js';

const SECRET = 'bench0shutdown0signing0secret';
const BOT = 'xoxb-bench';
const RUNS = 3;

async function once(
  slack: FakeSlack,
  sandbox: RunningSandbox,
  drainSeconds: number,
  change: 'none' | { latencyMs: number } | 'hang',
): Promise<{ stopMs: number; remainingMs: number; code: number | null }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'license-desk-bench-'));
  const main = runMain(
    localAppEnv(
      {
        slackApiUrl: slack.apiUrl,
        sandboxUrl: sandbox.url,
        sandboxToken: sandbox.adminToken,
        botToken: BOT,
        signingSecret: SECRET,
      },
      {
        LICENSE_ADMINS: TEST_USERS.admin,
        DATA_DIR: dataDir,
        SHUTDOWN_DRAIN_SECONDS: String(drainSeconds),
      },
    ),
  );
  try {
    const url = await eventsUrlOf(main);
    const post = (body: string) => fetch(url, { method: 'POST', headers: slackHeaders(SECRET, body), body });
    let remainingMs = 0;
    if (change !== 'none') {
      const from = slack.calls.length;
      await post(
        commandBody({
          user_id: TEST_USERS.admin,
          command: '/licenses',
          text: 'extend 4002',
          response_url: slack.responseUrl(`bench-${Date.now()}`),
          trigger_id: `${Date.now()}.bench`,
        }),
      );
      const form = await slack.waitForCall(
        'views.update',
        (c) => slack.calls.indexOf(c) >= from && viewOf(c).callback_id === CallbackId.extendForm,
        10_000,
      );
      const view = viewOf(form);
      sandbox.clearFaults();
      sandbox.addFault(
        change === 'hang'
          ? { kind: 'hang', method: 'PATCH' }
          : { kind: 'latency', latencyMs: change.latencyMs, method: 'PATCH' },
      );
      const day = new Date(Date.now() + (40 + Math.floor(Math.random() * 40)) * 86_400_000).toISOString().slice(0, 10);
      await post(
        interactionBody({
          type: 'view_submission',
          user: { id: TEST_USERS.admin },
          view: { ...view, type: 'modal', state: extendState({ date: day }), hash: 'h' },
        }),
      );
      const patchCount = () => sandbox.requests.filter((r) => r.method === 'PATCH').length;
      const before = patchCount();
      while (patchCount() === before) await new Promise((r) => setTimeout(r, 5));
      const sentAt = sandbox.requests.filter((r) => r.method === 'PATCH').at(-1)?.at ?? Date.now();
      if (change !== 'hang') remainingMs = Math.max(1, sentAt + change.latencyMs - Date.now());
    }
    const t0 = performance.now();
    main.child.kill('SIGTERM');
    const code = await main.exited;
    return { stopMs: performance.now() - t0, remainingMs, code };
  } finally {
    main.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const slack = await startFakeSlack({ botToken: BOT });
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, rateLimit: false });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  try {
    console.log(`shutdown bench: ${RUNS} runs each, median; load average ${loadavg()[0]?.toFixed(2)}`);
    const idle: number[] = [];
    for (let i = 0; i < RUNS; i++) idle.push((await once(slack, sandbox, 20, 'none')).stopMs);
    console.log(`1. nothing in flight: SIGTERM to exit ${median(idle).toFixed(0)} ms`);

    const inFlight: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await once(slack, sandbox, 20, { latencyMs: 2_000 });
      inFlight.push(r.stopMs / r.remainingMs);
      if (r.code !== 0) console.log(`   exit code ${r.code}`);
    }
    console.log(
      `2. change in flight (PATCH answers after 2 s): exit / remaining PATCH time = ${median(inFlight).toFixed(3)}`,
    );

    const cut: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await once(slack, sandbox, 2, 'hang');
      cut.push(r.stopMs / 2_000);
      if (r.code !== 0) console.log(`   exit code ${r.code}`);
    }
    console.log(`3. change that never answers, bound 2 s: exit / bound = ${median(cut).toFixed(3)}`);
  } finally {
    await sandbox.close();
    await slack.close();
  }
}

await main();
