/**
 * npm run bench:abuse:limiter — prints figures, not a test.
 *
 * The licensing client's limiter under two kinds of abuse, against the sandbox with time scaled 20x
 * (25 requests per 3 s stands for 25 per minute; sliding log, no Retry-After, like the real service):
 *
 * (a) A restart in the middle of a burst: a client sends the first 25 of 60 requests, is stopped, and
 *     a new client on the same DATA_DIR sends the other 35 at once. Counts the 429s the new process
 *     draws, with the predecessor's sends persisted (dataDir) and without.
 * (b) One injected 429 in a steady trickle (one request every W/12.5, about half the limit): how long
 *     from the 429 until requests flow again (the next accepted arrival), requests lost, and the limit
 *     afterwards.
 *
 * The figures are for the code in this tree. BEFORE holds what this same script measured on the code
 * before the short-pause-and-probe policy and the persisted sends (one window's pause on any 429, the
 * limit halved at once, nothing kept across a restart); they are printed beside the new ones.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '../local/sandbox/index.js';
import { createLicensingClient, type LicensingClient } from '../src/kernel/licensing/index.js';

const LIMIT = 25;
const WINDOW_MS = 3_000;
const MARGIN_MS = 50;
/** What one scaled window stands for. */
const REAL_WINDOW_S = 60;

/** Measured with this script on the previous limiter (see the header). */
const BEFORE = {
  restart: '1–4 × 429 (with or without DATA_DIR: nothing was persisted), all 35 answered 3.2 windows after the restart',
  injected:
    'flows again 3.08 s after the 429 = 1.028 × the window (≈ 61.7 s real), requests lost 0, limit afterwards 12 of 25',
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function sandbox(): Promise<RunningSandbox> {
  return startSandbox({
    port: 0,
    seed: 'demo',
    rateLimit: { limit: LIMIT, windowMs: WINDOW_MS, algorithm: 'sliding-log', retryAfter: false, countRejected: false },
  });
}

function client(sb: RunningSandbox, dataDir?: string): LicensingClient {
  return createLicensingClient({
    baseUrl: sb.url,
    token: sb.adminToken,
    cacheTtlMs: 0,
    // As in production: 3 attempts; the limit, window and margin scaled.
    rateLimit: { limit: LIMIT, windowMs: WINDOW_MS, marginMs: MARGIN_MS, reservedInteractive: 5, maxQueue: 500 },
    timeouts: { connectMs: 2_000, headersMs: 5_000, bodyMs: 5_000 },
    ...(dataDir === undefined ? {} : { dataDir }),
  });
}

/** One read that is never cached; resolves true when it succeeded. */
const read = (c: LicensingClient, i: number) =>
  c.pools.get(String(2001 + (i % 7))).then(
    () => true,
    () => false,
  );

interface RestartFigures {
  rejectedAfterRestart: number;
  failed: number;
  /** From the restart to the last of the 35 answered, in windows. */
  finishWindows: number;
}

async function restartMidBurst(persist: boolean): Promise<RestartFigures> {
  const sb = await sandbox();
  const dataDir = await mkdtemp(join(tmpdir(), 'license-desk-bench-'));
  try {
    const before = client(sb, persist ? dataDir : undefined);
    const first = Array.from({ length: 25 }, (_, i) => read(before, i));
    // The other 35 of the burst wait in its queue; the process stops once the first 25 are answered.
    const queued = Array.from({ length: 35 }, (_, i) => read(before, 25 + i));
    await Promise.all(first);
    await before.close();
    await Promise.all(queued);
    const restartAt = Date.now();
    const after = client(sb, persist ? dataDir : undefined);
    const results = await Promise.all(Array.from({ length: 35 }, (_, i) => read(after, i)));
    const end = Date.now();
    await after.close();
    return {
      rejectedAfterRestart: sb.requests.filter((r) => r.at >= restartAt && r.status === 429).length,
      failed: results.filter((ok) => !ok).length,
      finishWindows: (end - restartAt) / WINDOW_MS,
    };
  } finally {
    await sb.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

interface InjectedFigures {
  /** From the 429's arrival to the next accepted arrival, in ms (scaled). */
  stallMs: number;
  lost: number;
  limitAfter: number;
  rejected: number;
}

async function oneInjected429(): Promise<InjectedFigures> {
  const sb = await sandbox();
  const c = client(sb);
  try {
    const TRICKLE = 36;
    const EVERY_MS = Math.round(WINDOW_MS / 12.5);
    const pending: Promise<boolean>[] = [];
    for (let i = 0; i < TRICKLE; i++) {
      if (i === 10) sb.addFault({ kind: '429', method: 'GET', times: 1 });
      pending.push(read(c, i));
      await sleep(EVERY_MS);
    }
    const results = await Promise.all(pending);
    const refused = sb.requests.find((r) => r.status === 429);
    const next = sb.requests.find((r) => r.status === 200 && refused !== undefined && r.at > refused.at);
    return {
      stallMs: refused && next ? next.at - refused.at : Number.NaN,
      lost: results.filter((ok) => !ok).length,
      limitAfter: c.limiter.stats().currentLimit,
      rejected: sb.requests.filter((r) => r.status === 429).length,
    };
  } finally {
    await c.close();
    await sb.close();
  }
}

async function main(): Promise<void> {
  console.log(`Limiter abuse benchmark: server limit ${LIMIT} per ${WINDOW_MS} ms, sliding log, no Retry-After`);
  console.log(`(20x scale: one window stands for ${REAL_WINDOW_S} s). Client limit ${LIMIT}, margin ${MARGIN_MS} ms.`);
  console.log('');
  console.log('(a) restart in the middle of a burst of 60 (25 sent, 35 left to the new process)');
  for (const persist of [true, false]) {
    const f = await restartMidBurst(persist);
    console.log(
      [
        `  ${persist ? 'with the sends persisted (DATA_DIR)' : 'without persisted sends        '}`,
        `429s drawn by the new process ${String(f.rejectedAfterRestart).padStart(3)}`,
        `failed ${f.failed}/35`,
        `all 35 answered ${f.finishWindows.toFixed(2)} windows after the restart`,
      ].join('  |  '),
    );
  }
  console.log(`  before this policy: ${BEFORE.restart}`);
  console.log('');
  console.log(`(b) one injected 429 in a trickle of 36 requests, one every ${Math.round(WINDOW_MS / 12.5)} ms`);
  const f = await oneInjected429();
  const ratio = f.stallMs / WINDOW_MS;
  console.log(
    [
      `  flows again ${(f.stallMs / 1000).toFixed(2)} s after the 429 = ${ratio.toFixed(3)} × the window (≈ ${(ratio * REAL_WINDOW_S).toFixed(1)} s real)`,
      `requests lost ${f.lost}`,
      `429s ${f.rejected}`,
      `limit afterwards ${f.limitAfter} of ${LIMIT}`,
    ].join('  |  '),
  );
  console.log(`  before this policy: ${BEFORE.injected}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
