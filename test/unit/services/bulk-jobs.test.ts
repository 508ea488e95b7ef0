/**
 * Bulk jobs in DATA_DIR: one short journal line per row instead of the whole job rewritten twice,
 * what a crash leaves is still readable, and finished jobs are deleted after 7 days.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/domain/time.js';
import { type BulkJob, type BulkJobStore, createBulkJobStore } from '../../../src/services/bulk-jobs.js';
import { createBulkRunner } from '../../../src/services/bulk-runner.js';
import { makeLicense, NOW } from '../blocks/fixtures.js';
import { createFakeLicensing } from './fake-licensing.js';

const logger = { debug() {}, info() {}, warn() {}, error() {} };
const notifier = { started: async () => undefined, progress: async () => undefined, finished: async () => undefined };
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bulk-jobs-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function job(id: string, n: number, extra: Partial<BulkJob> = {}): BulkJob {
  return {
    version: 1,
    id,
    requester: 'U0MGR00001',
    poolId: '101',
    courseTitle: 'C',
    createdAt: NOW.toISOString(),
    state: 'running',
    rows: Array.from({ length: n }, (_, i) => ({ line: i + 1, email: `s${i + 1}@x.com`, state: 'pending' as const })),
    notSent: [],
    ...extra,
  };
}

/** The real store, counting whole-job writes and row writes. */
function counted(store: BulkJobStore) {
  const writes = { whole: 0, rows: 0 };
  const wrapped: BulkJobStore = {
    ...store,
    save: (j) => {
      writes.whole++;
      return store.save(j);
    },
    saveRows: (j, rows) => {
      writes.rows++;
      return store.saveRows(j, rows);
    },
  };
  return { store: wrapped, writes };
}

describe('bulk jobs in DATA_DIR', () => {
  it('a job of 200 rows is written whole only at its start and end, and once per row in between', async () => {
    const fake = createFakeLicensing({});
    fake.pools.assign = async (_id, body) => makeLicense({ id: `L-${body.email}` });
    const { store, writes } = counted(createBulkJobStore(dir));
    const runner = createBulkRunner({ licensing: fake, store, logger, now: () => NOW });
    await runner.start(job('j200', 200), notifier);
    await runner.settled('j200');
    expect(writes.rows).toBe(200);
    // Start, the progress message's place, the end.
    expect(writes.whole).toBeLessThanOrEqual(3);
    const done = await store.load('j200');
    expect(done?.state).toBe('done');
    expect(done?.rows.every((r) => r.outcome === 'assigned')).toBe(true);
    // The journal is folded into the file at the end.
    expect(await readdir(dir)).toEqual(['bulk-j200.json']);
  });

  it('after a crash the journal tells each row: done rows stay done, the row in flight is read back, a torn line is ignored', async () => {
    const store = createBulkJobStore(dir);
    const j = job('j3', 3);
    await store.save(j);
    const [one, two] = j.rows;
    if (!one || !two) throw new Error('rows');
    Object.assign(one, { state: 'done', outcome: 'assigned', licenseId: '77' });
    Object.assign(two, { state: 'sending' });
    await store.saveRows(j, [one, two]);
    // The crash cut the next line in half.
    await writeFile(join(dir, 'bulk-j3.rows'), '{"rows":[{"line":3,"ema', { flag: 'a' });

    const loaded = await store.load('j3');
    expect(loaded?.rows.map((r) => [r.line, r.state, r.outcome ?? null])).toEqual([
      [1, 'done', 'assigned'],
      [2, 'sending', null],
      [3, 'pending', null],
    ]);
    expect((await store.unfinished()).map((u) => u.id)).toEqual(['j3']);
  });

  it('finished jobs are deleted 7 days after they ended, at the next start; running and recent ones stay', async () => {
    const store = createBulkJobStore(dir);
    const ended = (days: number) => new Date(NOW.getTime() - days * DAY_MS).toISOString();
    await store.save(job('old', 1, { state: 'done', finishedAt: ended(8) }));
    await store.save(job('recent', 1, { state: 'done', finishedAt: ended(6) }));
    await store.save(job('running', 1, { createdAt: ended(30) }));
    const runner = createBulkRunner({
      licensing: createFakeLicensing({}),
      store,
      logger,
      now: () => NOW,
    });
    await runner.resumeAll(() => notifier);
    await runner.stop(1000);
    const left = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
    expect(left).toEqual(['bulk-recent.json', 'bulk-running.json']);
  });

  it('a row that cannot be recorded as in flight is not sent: the job pauses with the row still pending', async () => {
    const fake = createFakeLicensing({});
    const sent: string[] = [];
    fake.pools.assign = async (_id, body) => {
      sent.push(body.email);
      return makeLicense({ id: `L-${body.email}` });
    };
    const real = createBulkJobStore(dir);
    let rowWrites = 0;
    const store: BulkJobStore = {
      ...real,
      saveRows: async (j, rows) => {
        if (++rowWrites === 3) throw new Error('ENOSPC: no space left on device');
        return real.saveRows(j, rows);
      },
    };
    const runner = createBulkRunner({ licensing: fake, store, logger, now: () => NOW });
    await runner.start(job('jfull', 5), notifier);
    await runner.settled('jfull');
    expect(sent).toEqual(['s1@x.com', 's2@x.com']);
    const kept = await real.load('jfull');
    expect(kept?.state).toBe('running');
    expect(kept?.rows.map((r) => r.outcome ?? r.state)).toEqual([
      'assigned',
      'assigned',
      'pending',
      'pending',
      'pending',
    ]);
  });
});
