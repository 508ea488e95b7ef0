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
import { createProgressStore } from '../../src/progress/db/store.js';
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

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desk-digest-pass-'));
  // The digest and the daily pass as main.ts builds them; the digest ticking every 50 ms instead of a
  // minute, the pass starting 0.4 s after start instead of 15 s. Neither runs until the test starts them.
  t = await startTestApp({
    dataDir: dir,
    now,
    digest: { ...schedule, tickMs: 50 },
    progressPass: { share: 1, startDelayMs: 400 },
  });
});

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the weekly digest at a fresh start', () => {
  it('is posted after the first complete progress pass, with the holders it recorded', async () => {
    const { records, progressPass, digest } = t;
    if (!records || !progressPass || !digest) throw new Error('no records');
    // As main.ts starts them.
    progressPass.start();
    digest.start();

    const posts = () => t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL);
    await until('the digest post', () => posts().length === 1, 15_000);
    const held = await createProgressStore(records).holders();
    expect(held.length).toBeGreaterThan(0);
    const text = allText(posts()[0]?.args);
    expect(text).toContain(`Holders: ${held.length};`);
    expect(t.logs.some((l) => l.message === 'digest: waiting for a complete progress pass before counting')).toBe(true);
    expect(t.logs.some((l) => l.message === 'progress pass done')).toBe(true);
  });
});
