/**
 * npm run bench:approvals — figures for approving many at once, printed, not asserted. The app is the
 * test harness's (signed requests in over HTTP, the recording Slack double, the sandbox), with the
 * licensing API and the client both at 25 requests per 3 s: a minute scaled 20x, as bench:bulk does.
 *  1. `/licenses approvals` with 500 requests waiting across four pools: the time from sending the signed
 *     command to its ack, and to the first page of the list (views.update after the loading view),
 *     median and p99 over RUNS runs (default 7). Slack's limit is 3 s for the ack; the list then pages.
 *  2. Approving 100 at once in one pool with 110 free seats: the makespan from the confirmation's submit to
 *     the admin's last DM update, against the least the limit allows for the licensing requests the
 *     approvals made (each is a single approval: a fresh read of the pool, a look-up of the requester's
 *     licenses, the assign; the account's domains are cached), and for the 100 assigns alone; the
 *     count of 429s (goal 0).
 *
 * Least time for C requests at L per window W: the last cannot start before (ceil(C / L) - 1) · W.
 *
 *   npm run bench:approvals
 *   RUNS=11 npm run bench:approvals
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDemoData } from '../local/sandbox/index.js';
import { encodeSelection } from '../src/approvals/domain/selection.js';
import { ApprovalsCallbackId } from '../src/kernel/blocks/ids.js';
import { requestTimers } from '../src/requests/domain/requests.js';
import { startTestApp, TEST_USERS, type TestApp } from '../test/support/app-harness.js';
import { putWaiting, waitingRequest } from '../test/support/approvals.js';
import { textOf } from '../test/support/change-flow.js';
import { dmChannel } from '../test/support/dms.js';

const L = 25;
const W = 3000;
const WAITING = 500;
const APPROVE = 100;
const RUNS = Math.max(3, Number(process.env.RUNS ?? 7));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const pct = (xs: number[], p: number) =>
  sorted(xs)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;
const f = (n: number) => `${n.toFixed(1)} ms`;
const least = (calls: number) => (Math.ceil(calls / L) - 1) * W;

const person = (i: number) => ({
  id: `U0BEN${String(i).padStart(5, '0')}`,
  name: `bench.${i}`,
  email: `bench.${i}@contoso.com`,
});

async function withApp<T>(prefix: string, seats: number, users: number, run: (t: TestApp) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const data = buildDemoData(new Date());
  const pool = data.pools.find((p) => p.id === '2007');
  if (pool) pool.licenses = seats;
  const t = await startTestApp({
    dataDir: dir,
    sandbox: { seed: data },
    slack: { users: Array.from({ length: users }, (_, i) => person(i + 1)) },
    requests: { timers: requestTimers(24, 7) },
    waitlist: { offers: { hours: 0 } },
  });
  try {
    return await run(t);
  } finally {
    await Promise.race([t.close().catch(() => undefined), sleep(3000)]);
    await rm(dir, { recursive: true, force: true });
  }
}

/** When the list's first page came, polling the Slack double's record from `after`. */
async function firstPage(t: TestApp, after: number): Promise<number> {
  for (;;) {
    const c = t.slack.calls
      .slice(after)
      .find(
        (x) =>
          x.method === 'views.update' &&
          (x.args.view as { callback_id?: string }).callback_id === ApprovalsCallbackId.list,
      );
    if (c) return c.at;
    await sleep(1);
  }
}

async function listTiming(): Promise<void> {
  await withApp('bench-approvals-list-', 110, 0, async (t) => {
    const pools = ['2001', '2002', '2005', '2007'];
    await putWaiting(
      t,
      Array.from({ length: WAITING }, (_, i) =>
        waitingRequest(i + 1, pools[i % pools.length] ?? '2007', person(i + 1)),
      ),
    );
    const acks: number[] = [];
    const pages: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const after = t.slack.calls.length;
      const sent = Date.now();
      const answer = await t.command('approvals', { userId: TEST_USERS.admin });
      acks.push(answer.ackMs);
      pages.push((await firstPage(t, after)) - sent);
      await t.settled();
    }
    console.log(`1. /licenses approvals with ${WAITING} waiting across ${pools.length} pools, ${RUNS} runs`);
    console.log(`   ack: median ${f(pct(acks, 50))}, p99 ${f(pct(acks, 99))} (Slack's limit: 3000 ms)`);
    console.log(
      `   first page: median ${f(pct(pages, 50))}, p99 ${f(pct(pages, 99))}; first run ${f(pages[0] ?? NaN)} (the pools read from the licensing API; later runs within the client's 30 s cache)`,
    );
  });
}

async function approveTiming(): Promise<void> {
  await withApp('bench-approvals-run-', APPROVE + 10, APPROVE, async (t) => {
    const requests = Array.from({ length: APPROVE }, (_, i) => waitingRequest(i + 1, '2007', person(i + 1)));
    await putWaiting(t, requests);
    await sleep(W + 200); // every slot of the start's reads is free again
    t.sandbox.clearRequests();
    const after = t.slack.calls.length;
    const t0 = Date.now();
    await t.viewSubmission(
      {
        view: {
          id: 'V0BENCHCONF',
          callback_id: ApprovalsCallbackId.confirmApprove,
          private_metadata: encodeSelection({ page: 0, ids: requests.map((r) => r.id) }),
          state: { values: {} },
        },
      },
      { userId: TEST_USERS.admin },
    );
    const done = await t.slack.waitForCall(
      'chat.update',
      (c) =>
        t.slack.calls.indexOf(c) >= after &&
        c.args.channel === dmChannel(TEST_USERS.admin) &&
        textOf(c.args.blocks).includes('Approved selected'),
      30 * 60_000,
    );
    const makespan = done.at - t0;
    const calls = t.sandbox.requests;
    const assigns = calls.filter((r) => r.method === 'POST').length;
    const rejected = calls.filter((r) => r.status === 429).length;
    const assigned = t.sandbox.inspect.licenses({ poolId: '2007' }).length;
    console.log(
      `2. approving ${APPROVE} at once, sandbox and client at ${L} requests per ${W} ms (a minute scaled 20x)`,
    );
    console.log(
      `   ${textOf(done.args.blocks)
        .split('\n')
        .filter((l) => /assigned|decided/.test(l))
        .join(' | ')}`,
    );
    console.log(
      `   licenses in the pool ${assigned}; licensing requests ${calls.length} (${assigns} assigns); 429s ${rejected} (goal 0)`,
    );
    const kinds = new Map<string, number>();
    for (const r of calls) {
      const key = `${r.method} ${r.url.split('?')[0]?.replace(/\/\d+(?=\/|$)/g, '/{id}')}`;
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    console.log(`   by kind: ${[...kinds].map(([k, v]) => `${k} ${v}`).join(', ')}`);
    console.log(
      `   makespan ${f(makespan)}; least for ${calls.length} requests ${f(least(calls.length))} -> ratio ${(makespan / least(calls.length)).toFixed(3)}`,
    );
    console.log(
      `   least for the ${APPROVE} assigns alone ${f(least(APPROVE))} -> ratio ${(makespan / least(APPROVE)).toFixed(3)}; at the real limit (25 a minute) the makespan is about ${((makespan * 20) / 60_000).toFixed(1)} minutes`,
    );
  });
}

if (process.env.PART !== '2') await listTiming();
if (process.env.PART !== '1') await approveTiming();
process.exit(0);
