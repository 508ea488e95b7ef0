/**
 * The daily progress pass with the fake licensing client on a fake clock: it reads at background
 * priority and never more than its share of the rate budget in any rolling window, runs once a day,
 * one replica at a time (a lease in `state`), and a pass cut off (a stop, an error, a dead replica)
 * goes on where it stopped without closing licenses it has not seen.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openRecords, type Records } from '../../../src/kernel/db/open.js';
import type { Student } from '../../../src/kernel/domain/types.js';
import { ServerError } from '../../../src/kernel/licensing/errors.js';
import type { Logger } from '../../../src/kernel/licensing/types.js';
import { createDbLease } from '../../../src/kernel/services/jobs/lease.js';
import { stateDocument } from '../../../src/kernel/services/state-records.js';
import { createProgressStore } from '../../../src/progress/db/store.js';
import {
  createProgressPass,
  PROGRESS_PASS_KEY,
  PROGRESS_PASS_LEASE,
  type ProgressPassOptions,
} from '../../../src/progress/services/progress-pass.js';
import { createFakeLicensing, type FakeLicensing } from '../../support/fake-licensing.js';
import { makePool, makeStudent, makeStudentCourse, NOW } from '../../support/fixtures.js';

const WINDOW = 60_000;
const DAY = 86_400_000;

function students(n: number, progress = (i: number) => i % 100): Student[] {
  return Array.from({ length: n }, (_, i) =>
    makeStudent({
      id: `s${i}`,
      email: `student${i}@contoso.com`,
      name: `Student ${i}`,
      courses: [makeStudentCourse({ licenseId: `L${String(i).padStart(4, '0')}`, progress: progress(i) })],
    }),
  );
}

async function setup(list: Student[]) {
  const dir = await mkdtemp(join(tmpdir(), 'progress-pass-'));
  const records = await openRecords({ dataDir: dir, heartbeatMs: 0 });
  onTestFinished(async () => {
    await records.close();
    await rm(dir, { recursive: true, force: true });
  });
  const clock = { t: NOW.getTime() };
  const now = () => new Date(clock.t);
  const data = { pools: [makePool()], students: list, pageSize: 10 };
  const licensing = createFakeLicensing(data);
  /** When each request was made, on the fake clock. */
  const sentAt: number[] = [];
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    debug() {},
    info: (message, fields) => lines.push({ level: 'info', message, ...(fields ? { fields } : {}) }),
    warn: (message, fields) => lines.push({ level: 'warn', message, ...(fields ? { fields } : {}) }),
    error() {},
  };
  const list0 = licensing.students.list;
  licensing.students.list = (q, o) => {
    sentAt.push(clock.t);
    clock.t += 200; // each request takes 200 ms
    return list0(q, o);
  };
  const pools0 = licensing.pools.list;
  licensing.pools.list = (o) => {
    sentAt.push(clock.t);
    return pools0(o);
  };
  const pass = (over: Partial<ProgressPassOptions> = {}, rec: Records = records) =>
    createProgressPass({
      licensing,
      records: rec,
      logger,
      now,
      rateLimit: { limit: 25, windowMs: WINDOW },
      share: 0.2,
      sleep: async (ms) => {
        clock.t += ms;
      },
      ...over,
    });
  return { records, data, clock, licensing, sentAt, lines, pass, store: createProgressStore(records) };
}

/** The most requests sent within any rolling window. */
function busiestWindow(sentAt: number[]): number {
  let most = 0;
  for (let i = 0; i < sentAt.length; i++) {
    const from = sentAt[i] ?? 0;
    most = Math.max(most, sentAt.filter((t) => t >= from && t < from + WINDOW).length);
  }
  return most;
}

const backgroundOnly = (licensing: FakeLicensing) => licensing.calls.every((c) => c.opts?.priority === 'background');

describe('the daily progress pass', () => {
  it('reads every page at background priority, never more than its share in any window, and records each license', async () => {
    const t = await setup(students(95));
    const pass = t.pass();
    expect(pass.budget()).toEqual({ allowance: 5, spent: 0 });
    const outcome = await pass.run();
    expect(outcome).toMatchObject({ kind: 'done', seen: 95, added: 95, changed: 0, requests: 11, resumed: false });
    // The pools list and 10 pages (the last one short), 5 a minute at most: about two minutes of fake time.
    expect(t.sentAt).toHaveLength(11);
    expect(busiestWindow(t.sentAt)).toBe(5);
    expect(backgroundOnly(t.licensing)).toBe(true);
    expect(await t.store.holders()).toHaveLength(95);
    const line = t.lines.find((l) => l.message === 'progress pass done');
    expect(line?.fields).toMatchObject({ licenses: 95, changed: 0, requests: 11 });
    expect(line?.fields?.ms).toEqual(expect.any(Number));
  });

  it('runs once a day: not again before a day has passed since the last pass began, then again', async () => {
    const t = await setup(students(15));
    const pass = t.pass();
    const first = await pass.run();
    expect(first.kind).toBe('done');
    t.clock.t += 6 * 3_600_000;
    expect(await pass.run()).toMatchObject({ kind: 'not-due' });
    t.clock.t = NOW.getTime() + DAY;
    expect(await pass.run()).toMatchObject({ kind: 'done', seen: 15, added: 0 });
    expect(t.sentAt).toHaveLength(6);
  });

  it('one replica at a time: while one holds the lease, another does nothing; a lease run out is taken over', async () => {
    const t = await setup(students(35));
    const replicaB = { ...t.records, instance: 'replica-b' } as Records;
    const a = t.pass();
    const b = t.pass({}, replicaB);
    let seenByB: unknown;
    const list = t.licensing.students.list;
    t.licensing.students.list = async (q, o) => {
      if (q?.page === 2 && seenByB === undefined) seenByB = await b.run();
      return list(q, o);
    };
    expect(await a.run()).toMatchObject({ kind: 'done', seen: 35 });
    expect(seenByB).toMatchObject({ kind: 'held', owner: t.records.instance });

    // A replica died mid-pass: its lease stays in the records until it runs out.
    const doc = stateDocument<Record<string, unknown>>(t.records, PROGRESS_PASS_KEY, {
      empty: () => ({}),
      parse: (v) => v as Record<string, unknown>,
    });
    const startedAt = new Date(t.clock.t).toISOString();
    const dead = createDbLease(t.records, { holder: 'replica-dead', now: () => new Date(t.clock.t) });
    expect(await dead.take(PROGRESS_PASS_LEASE, 60_000)).toBe(true);
    await doc.update((s) => {
      s.running = { startedAt, nextPage: 3, pageSize: 10, requests: 3, seen: 20, added: 0, changed: 0 };
    });
    expect(await b.run({ force: true })).toMatchObject({ kind: 'held', owner: 'replica-dead' });
    t.clock.t += 61_000;
    const before = t.sentAt.length;
    // B goes on from the page before the one the dead replica stopped at (page 2), not from the start.
    expect(await b.run()).toMatchObject({ kind: 'done', resumed: true });
    expect(t.sentAt.length - before).toBe(1 + 3);
  });

  it('a pass cut off by an error keeps what it recorded, closes nothing, and goes on from there next time', async () => {
    const t = await setup(students(45));
    const pass = t.pass();
    await pass.run();
    // A day later L0044's holder is gone (revoked) and the service fails on page 3.
    t.clock.t = NOW.getTime() + DAY;
    t.data.students = students(44, (i) => (i === 1 ? 77 : i % 100));
    const list = t.licensing.students.list;
    let fail = true;
    t.licensing.students.list = async (q, o) => {
      if (q?.page === 3 && fail) {
        fail = false;
        throw new ServerError({ status: 500, endpoint: 'GET /v1/students' });
      }
      return list(q, o);
    };
    const cut = await pass.run();
    expect(cut).toMatchObject({ kind: 'failed', nextPage: 3 });
    // Page 1 was recorded (L0001 moved to 77 %), and nobody was closed: the walk was not complete.
    expect((await t.store.holders({ licenseIds: ['L0001'] }))[0]?.progress).toBe(77);
    expect(await t.store.holders()).toHaveLength(45);
    const state = await pass.state();
    expect(state.running).toMatchObject({ nextPage: 3 });
    expect(
      await createDbLease(t.records, { now: () => new Date(t.clock.t) }).holder(PROGRESS_PASS_LEASE),
    ).toBeUndefined();

    const resumed = await pass.run();
    expect(resumed).toMatchObject({ kind: 'done', resumed: true, closed: 1 });
    expect((await t.store.holders()).map((h) => h.licenseId)).not.toContain('L0044');
    expect(t.lines.some((l) => l.level === 'warn' && l.message.startsWith('progress pass failed'))).toBe(true);
  });

  it('a stop while the pass waits for its share ends it after the current page; the next start goes on from there', async () => {
    const t = await setup(students(95));
    let release: (() => void) | undefined;
    const pass = t.pass({
      // The first wait for the window blocks until the stop aborts it.
      sleep: (ms, signal) =>
        new Promise<void>((resolve) => {
          release = resolve;
          signal.addEventListener('abort', () => resolve(), { once: true });
          void ms;
        }),
    });
    const running = pass.run();
    while (!release) await new Promise((r) => setImmediate(r));
    await pass.stop();
    const outcome = await running;
    expect(outcome).toMatchObject({ kind: 'stopped', nextPage: 5 });
    expect((await pass.state()).running).toMatchObject({ nextPage: 5 });
    expect(await t.store.holders()).toHaveLength(40);

    const again = t.pass();
    expect(await again.run()).toMatchObject({ kind: 'done', resumed: true, closed: 0 });
    expect(await t.store.holders()).toHaveLength(95);
  });
});
