/**
 * A digest due at a fresh start waits for the first complete progress pass: the real digest scheduler
 * and the real progress pass, started together in-process as src/main.ts starts them (the digest ticks
 * at once, the pass 15 s after start, here 0.4 s), on empty records. The post goes out once the pass
 * has recorded the holders, and counts them, never "0 stalled" from records not read yet.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDigestFeature, type DigestFeature } from '../../src/digest/slack/digest.js';
import type { Outbox } from '../../src/kernel/services/outbox.js';
import { createProgressPass, type ProgressPass } from '../../src/progress/services/progress-pass.js';
import { createProgressStore } from '../../src/progress/services/progress-store.js';
import { startTestApp, type TestApp } from '../support/app-harness.js';
import { allText } from '../support/fixtures.js';
import { until } from '../support/until.js';

const CHANNEL = 'C0DIGEST02';
// A Monday, just after the digest's 09:00 (due now).
const clock = new Date('2026-11-30T09:05:00Z');
const now = () => clock;
const schedule = { channel: CHANNEL, day: 'mon', time: '09:00', timeZone: 'UTC' };

let dir: string;
let t: TestApp;
let pass: ProgressPass | undefined;
let digest: DigestFeature | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desk-digest-pass-'));
  // The harness's digest feature renders the queued post (it never ticks itself).
  t = await startTestApp({ dataDir: dir, now, digest: schedule });
});

afterAll(async () => {
  await digest?.stop();
  await pass?.stop();
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the weekly digest at a fresh start', () => {
  it('is posted after the first complete progress pass, with the holders it recorded', async () => {
    if (!t.records || !t.outbox) throw new Error('no records');
    pass = createProgressPass({
      licensing: t.licensing,
      records: t.records,
      logger: t.deps.logger,
      now,
      rateLimit: { limit: 25, windowMs: 3000 },
      share: 1,
      startDelayMs: 400,
    });
    t.deps.progressPass = pass;
    // The harness's outbox (built by createOutbox: it enqueues too), ticking every 50 ms instead of a minute.
    const outbox = t.outbox as typeof t.outbox & Outbox;
    digest = createDigestFeature(t.deps, { schedule, outbox, tickMs: 50 });
    // As main.ts starts them.
    pass.start();
    digest.start();

    const posts = () => t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL);
    await until('the digest post', () => posts().length === 1, 15_000);
    const held = await createProgressStore(t.records).holders();
    expect(held.length).toBeGreaterThan(0);
    const text = allText(posts()[0]?.args);
    expect(text).toContain(`Holders: ${held.length};`);
    expect(t.logs.some((l) => l.message === 'digest: waiting for a complete progress pass before counting')).toBe(true);
    expect(t.logs.some((l) => l.message === 'progress pass done')).toBe(true);
  });
});
