/**
 * The licensing client's default limiter against the sandbox after a restart and after 429s
 * (docs/rate-limiting.md): a restarted client knows its predecessor's sends, a single 429 costs one
 * short pause and a probe, and only 429s that repeat lower the limit, which then recovers.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, type SandboxRateLimit, startSandbox } from '../../../local/sandbox/index.js';
import { createLicensingClient, type LicensingClient, SENDS_FILE } from '../../../src/kernel/licensing/index.js';
import type { LicensingClientOptions } from '../../../src/kernel/licensing/types.js';
import { maxInRollingWindow } from '../../support/rolling-window.js';
import { watchingLogger } from '../../support/watching-logger.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function sandboxWith(rateLimit: Partial<SandboxRateLimit> | false): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ port: 0, seed: 'demo', rateLimit });
  cleanup.push(() => sandbox.close());
  return sandbox;
}

function client(sandbox: RunningSandbox, options: Partial<LicensingClientOptions>): LicensingClient {
  const c = createLicensingClient({
    baseUrl: sandbox.url,
    token: sandbox.adminToken,
    cacheTtlMs: 0,
    retry: { attempts: 5, baseDelayMs: 20, maxDelayMs: 2_000 },
    ...options,
  });
  // close() is not idempotent (undici's Agent refuses a second close); a test may close it itself.
  let closed: Promise<void> | undefined;
  const close = c.close.bind(c);
  c.close = () => {
    closed ??= close();
    return closed;
  };
  cleanup.push(() => c.close());
  return c;
}

const read = (c: LicensingClient, n: number) =>
  Promise.all(Array.from({ length: n }, (_, i) => c.pools.get(String(2001 + (i % 7)))));
const count = (sandbox: RunningSandbox, status: number) => sandbox.requests.filter((r) => r.status === status).length;

describe.concurrent('the licensing client after a restart and after 429s', () => {
  it("a restarted client with its predecessor's sends in DATA_DIR draws no 429", async () => {
    const windowMs = 1_000;
    const sandbox = await sandboxWith({ limit: 10, windowMs, algorithm: 'sliding-log', retryAfter: false });
    const dataDir = await mkdtemp(join(tmpdir(), 'license-desk-limiter-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const rateLimit = { limit: 10, windowMs, marginMs: 50, reservedInteractive: 2, maxQueue: 100 };

    const first = client(sandbox, { rateLimit, dataDir });
    await read(first, 10);
    await first.close();

    // The restart: a new client on the same DATA_DIR, within the window of the old one's requests.
    const second = client(sandbox, { rateLimit, dataDir });
    await read(second, 10);

    expect(count(sandbox, 429)).toBe(0);
    expect(count(sandbox, 200)).toBe(20);
    const arrivals = sandbox.requests.map((r) => r.at);
    expect(maxInRollingWindow(arrivals, windowMs - 5)).toBeLessThanOrEqual(10);
    // What it keeps: a small file of send times, no more than a window's worth.
    await second.close();
    const saved = JSON.parse(await readFile(join(dataDir, SENDS_FILE), 'utf8'));
    expect(saved.sends.length).toBeGreaterThanOrEqual(10);
    expect(saved.sends.length).toBeLessThanOrEqual(20);
  });

  it('a single injected 429 costs one short pause and a probe: the queue flows again, nothing lost, limit unchanged', async () => {
    // A long window: the old policy paused for a whole window (here 40 s: past the test's timeout).
    const windowMs = 40_000;
    const sandbox = await sandboxWith({ limit: 25, windowMs, algorithm: 'sliding-log', retryAfter: false });
    const logger = watchingLogger();
    const c = client(sandbox, {
      rateLimit: { limit: 25, windowMs, marginMs: 100, reservedInteractive: 5, maxQueue: 100 },
      logger,
    });
    await read(c, 3);
    sandbox.addFault({ kind: '429', method: 'GET', times: 1 });
    const burst = read(c, 8);
    const paused = await logger.next(/429 from the licensing API/);
    expect(paused.fields).toMatchObject({ inARow: 1, pauseMs: windowMs / 20, limit: 25 });
    const results = await burst;
    // And the queue keeps flowing at full pace afterwards.
    const after = await read(c, 6);

    expect(results).toHaveLength(8);
    expect(after).toHaveLength(6);
    expect(count(sandbox, 429)).toBe(1);
    expect(count(sandbox, 200)).toBe(3 + 8 + 6);
    expect(c.limiter.stats()).toMatchObject({ currentLimit: 25, configuredLimit: 25 });
    // One decision, said once; nothing lowered.
    expect(logger.lines.filter((l) => /429/.test(l.message))).toHaveLength(1);
    expect(logger.lines.some((l) => /lowering/.test(l.message))).toBe(false);
  });

  it('repeated 429s while within our limit lower it, and it recovers later', async () => {
    const windowMs = 200;
    const sandbox = await sandboxWith(false);
    const logger = watchingLogger();
    const c = client(sandbox, {
      rateLimit: { limit: 6, windowMs, marginMs: 10, reservedInteractive: 1, maxQueue: 100 },
      logger,
    });
    // Three refusals in a row although we send one request at a time: the server's limit is lower.
    sandbox.addFault({ kind: '429', method: 'GET', times: 3 });
    let refusedWhenLowered = -1;
    const lowered = logger.next(/lowering the limit/).then((line) => {
      refusedWhenLowered = count(sandbox, 429);
      return line;
    });
    await read(c, 1);
    const line = await lowered;
    expect(line.fields).toMatchObject({ from: 6, to: 3 });
    // Not on the first 429, nor the second: only once they repeated.
    expect(refusedWhenLowered).toBe(3);
    expect(count(sandbox, 200)).toBe(1);

    // Quiet windows raise it one step at a time back to the configured limit while requests go on.
    const recovered = logger.next(/raising the limit from 5 to 6/);
    let done = false;
    void recovered.then(() => {
      done = true;
    });
    while (!done) await read(c, 1);
    expect(c.limiter.stats()).toMatchObject({ currentLimit: 6, configuredLimit: 6 });
    expect(count(sandbox, 429)).toBe(3);
  });
});
