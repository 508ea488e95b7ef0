/**
 * The weekly digest through the real boundaries: the progress store seeded as the daily pass would
 * fill it, the sandbox's pools, `/licenses digest` signed as Slack signs it, and the scheduled post
 * through the outbox to the fake Slack (docs/digest.md).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDigestFeature } from '../../src/digest/slack/digest.js';
import { checkBlockKitLimits } from '../../src/kernel/blocks/limits.js';
import type { License } from '../../src/kernel/domain/types.js';
import { createProgressStore } from '../../src/progress/db/store.js';
import { observationOf, type ProgressObservation } from '../../src/progress/domain/progress.js';
import { startTestApp, type TestApp } from '../support/app-harness.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { until } from '../support/until.js';

const DAY = 86_400_000;
const CHANNEL = 'C0DIGEST01';
// A Monday, before 09:00 UTC.
let clock = new Date('2026-11-30T08:00:00Z');
const now = () => clock;
const at = (days: number) => new Date(clock.getTime() + days * DAY);
const schedule = { channel: CHANNEL, day: 'mon', time: '09:00', timeZone: 'UTC' };

let dir: string;
let t: TestApp;
/** What the seed made of each running pool's holders: 0 %, stalled at 30 %, moving at 75 %, completed this week. */
const seeded = { zero: 0, stalled: 0, moving: 0, completed: 0 };
let running: License[] = [];

type Json = Record<string, unknown>;
const blocksOf = (body: Json) => (Array.isArray(body.blocks) ? (body.blocks as Json[]) : []);
const charts = (body: Json) => blocksOf(body).filter((b) => b.type === 'data_visualization');
const words = (body: Json) =>
  `${String(body.text)}\n${JSON.stringify(blocksOf(body).filter((b) => b.type !== 'data_visualization'))}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desk-digest-'));
  t = await startTestApp({ dataDir: dir, now, digest: schedule });
  const records = t.records;
  if (!records) throw new Error('the harness opened no records');
  const store = createProgressStore(records);
  const pools = t.sandbox.inspect.pools();
  const live = new Set(pools.filter((p) => Date.parse(p.end) > clock.getTime()).map((p) => p.id));
  running = t.sandbox.inspect.licenses().filter((l) => l.active && live.has(l.poolId));
  const observe = (l: License, progress: number, completed: string | null): ProgressObservation => ({
    ...observationOf(l, progress, completed),
    start: at(-100).toISOString(),
    active: true,
  });
  const kind = (i: number) => (['zero', 'stalled', 'moving', 'completed'] as const)[i % 4] ?? 'zero';
  // Sixty days ago: where everyone was.
  await store.record(
    running.map((l, i) => observe(l, { zero: 0, stalled: 30, moving: 70, completed: 50 }[kind(i)], null)),
    at(-60),
  );
  // Two days ago: the movers moved, a quarter completed.
  await store.record(
    running.map((l, i) => {
      const k = kind(i);
      seeded[k]++;
      if (k === 'moving') return observe(l, 75, null);
      if (k === 'completed') return observe(l, 100, at(-2).toISOString());
      return observe(l, k === 'stalled' ? 30 : 0, null);
    }),
    at(-2),
  );
  const seats = (p: (typeof pools)[number], less: number) => ({
    poolId: p.id,
    licenses: p.licenses,
    assigned: Math.max(0, p.assignedLicenses - less),
    available: p.licenses - Math.max(0, p.assignedLicenses - less),
    transferable: p.transferable,
    end: p.end,
  });
  await store.recordPools(
    pools.map((p) => seats(p, 6)),
    at(-40),
  );
  await store.recordPools(
    pools.map((p) => seats(p, 0)),
    at(-1),
  );
});

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('/licenses digest', () => {
  it("answers the asker only, with two charts within Slack's limits and the sandbox's seats and the seeded progress", async () => {
    const r = await t.command('digest', { userId: TEST_USERS.viewer });
    const reply = await r.waitForResponse((p) => charts(p.body).length > 0);
    expect(reply.body.response_type).toBe('ephemeral');
    expect(checkBlockKitLimits(reply.body)).toEqual([]);
    expect(charts(reply.body)).toHaveLength(2);

    // Seats per course, as the sandbox's running pools have them.
    const pools = t.sandbox.inspect.pools().filter((p) => Date.parse(p.end) > clock.getTime());
    const used = pools.reduce((a, p) => a + p.assignedLicenses, 0);
    const licenses = pools.reduce((a, p) => a + p.licenses, 0);
    expect(String(reply.body.text)).toContain(
      `${used.toLocaleString('en-US')} of ${licenses.toLocaleString('en-US')} seats used`,
    );
    const byCourse = new Map<string, { title: string; used: number; licenses: number }>();
    for (const p of pools) {
      const c = byCourse.get(p.course.id) ?? { title: p.course.title, used: 0, licenses: 0 };
      c.used += p.assignedLicenses;
      c.licenses += p.licenses;
      byCourse.set(p.course.id, c);
    }
    const text = words(reply.body);
    for (const c of byCourse.values()) expect(text).toContain(`${c.used} of ${c.licenses} seats used`);

    // The seats chart's title names its course, then the pool and its size: "Mastering DAX (pool 2001), 20 seats".
    const line = charts(reply.body).find((c) => (c.chart as Json).type === 'line');
    const chartPool = pools.find((p) => String(line?.title).includes(`(pool ${p.id}), `));
    expect(chartPool).toBeDefined();
    expect(String(line?.title)).toBe(
      `${chartPool?.course.title} (pool ${chartPool?.id}), ${chartPool?.licenses} seats`,
    );

    // The progress chart's bars add up to what was seeded.
    const bar = charts(reply.body).find((c) => (c.chart as Json).type === 'bar')?.chart as {
      series: { data: { label: string; value: number }[] }[];
    };
    const total = (label: string) =>
      bar.series.reduce((a, s) => a + (s.data.find((d) => d.label === label)?.value ?? 0), 0);
    expect(total('0 %')).toBe(seeded.zero);
    expect(total('1–49 %')).toBe(seeded.stalled);
    expect(total('50–99 %')).toBe(seeded.moving);
    expect(total('Completed')).toBe(seeded.completed);
    expect(text).toContain(`${seeded.completed} completions this week`);
    expect(text).toContain(`${seeded.stalled} stalled, ${seeded.zero} not started`);
    // Names are allowed here: the answer is the asker's only.
    const stalled = running[1];
    expect(text).toContain(String(stalled?.student.email));
  });

  it('is refused to someone without a role', async () => {
    const r = await t.command('digest', { userId: TEST_USERS.nobody });
    const reply = await r.waitForResponse();
    expect(charts(reply.body)).toHaveLength(0);
    expect(JSON.stringify(reply.body)).toContain("don't have access");
    for (const l of running) expect(JSON.stringify(reply.body)).not.toContain(l.student.email);
  });
});

describe('the scheduled digest', () => {
  const posts = () => t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL);

  it('is posted once at DIGEST_DAY/TIME, counts only, even after a restart', async () => {
    expect(await t.digest?.tick()).toBe('late'); // Monday 08:00: last week's post is too late to catch up.
    clock = new Date('2026-11-30T09:01:00Z');
    expect(await t.digest?.tick()).toBe('enqueued');
    await until('the digest post', () => posts().length === 1);
    const post = posts()[0]?.args as Json;
    expect(checkBlockKitLimits(post)).toEqual([]);
    expect(charts(post)).toHaveLength(2);
    const json = JSON.stringify(post);
    for (const l of running) expect(json).not.toContain(l.student.email);
    expect(json).toContain('digest_show_holders');
    // Again, and as a process started afresh on the same records: the week is claimed.
    expect(await t.digest?.tick()).toBe('claimed');
    const restarted = createDigestFeature(t.deps, {
      schedule,
      outbox: { enqueue: () => Promise.reject(new Error('must not enqueue')) },
    });
    expect(await restarted.tick()).toBe('claimed');
    await t.outbox?.flush();
    expect(posts()).toHaveLength(1);
  });

  it('"Show holders" answers a viewer privately with the names', async () => {
    const r = await t.clickButton('digest_show_holders', 'digest', { userId: TEST_USERS.viewer });
    const reply = await r.waitForResponse();
    expect(reply.body.response_type).toBe('ephemeral');
    expect(checkBlockKitLimits(reply.body)).toEqual([]);
    expect(JSON.stringify(reply.body)).toContain(String(running[1]?.student.email));
  });

  it('falls back to the words without charts when Slack answers invalid_blocks', async () => {
    clock = new Date('2026-12-07T09:05:00Z');
    t.slack.answer('chat.postMessage', { ok: false, error: 'invalid_blocks' }, 1);
    const before = posts().length;
    expect(await t.digest?.tick()).toBe('enqueued');
    await until('the refused post and the one without charts', () => posts().length === before + 2);
    const [refused, plain] = posts()
      .slice(before)
      .map((c) => c.args as Json);
    expect(charts(refused as Json)).toHaveLength(2);
    expect(charts(plain as Json)).toHaveLength(0);
    expect(checkBlockKitLimits(plain)).toEqual([]);
    expect(String((plain as Json).text)).toBe(String((refused as Json).text));
    expect(words(plain as Json)).toContain('seats used');
  });
});
