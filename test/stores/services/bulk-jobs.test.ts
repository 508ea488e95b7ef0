/**
 * Bulk jobs in the database, on SQLite and PostgreSQL alike: what is saved is loaded back, a row's
 * move to 'sending' is committed before its write goes out, finished jobs are swept after 7 days, a
 * row that cannot be recorded is not sent, and the lease on a job's row: of two runners on one
 * database only one runs a job, and once the lease of a runner that died runs out the other takes
 * the job over, reading back the row that was in flight.
 */
import { describe, expect, it } from 'vitest';
import {
  type BulkJob,
  type BulkJobStore,
  createBulkJobStore,
  JobTakenOverError,
  KEEP_FINISHED_MS,
} from '../../../src/bulk/db/store.js';
import { type BulkProgressNotices, createBulkRunner } from '../../../src/bulk/services/bulk-runner.js';
import { openRecords, type Records } from '../../../src/kernel/db/open.js';
import { NotFoundError } from '../../../src/kernel/licensing/errors.js';
import { pendingRows, runningBulkJob } from '../../support/bulk.js';
import { cleanupsAfterEach } from '../../support/cleanups.js';
import { createFakeLicensing } from '../../support/fake-licensing.js';
import { makeLicense, makeStudent, makeStudentCourse, NOW } from '../../support/fixtures.js';
import { testDatabases } from '../../support/records.js';
import { until } from '../../support/until.js';

const logger = { debug() {}, info() {}, warn() {}, error() {} };
const notifier: BulkProgressNotices = {
  started: async () => undefined,
  progress: async () => undefined,
  finished: async () => undefined,
};
const cleanups = cleanupsAfterEach();

function job(id: string, n: number, extra: Partial<BulkJob> = {}): BulkJob {
  const emails = Array.from({ length: n }, (_, i) => `s${i + 1}@x.com`);
  return runningBulkJob(id, pendingRows(emails), extra);
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

/**
 * A licensing service for several runners: what was assigned is kept in one ledger, so a read-back by
 * any runner sees it. `hold` makes the first assign of that student never answer (its process is gone).
 */
function ledgerLicensing(
  ledger: Map<string, string>,
  sent: string[],
  opts: { delayMs?: number; hold?: { email: string; once: boolean } } = {},
) {
  const fake = createFakeLicensing({});
  fake.pools.assign = async (_id, body) => {
    sent.push(body.email);
    if (opts.hold?.once && body.email === opts.hold.email) {
      opts.hold.once = false;
      return new Promise(() => undefined);
    }
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    const id = `L-${body.email}`;
    ledger.set(body.email, id);
    return makeLicense({ id });
  };
  fake.students.find = async (query) => {
    const email = 'email' in query ? query.email : '';
    const id = ledger.get(email ?? '');
    if (!id) throw new NotFoundError({ endpoint: 'GET /v1/student' });
    return makeStudent({ email, courses: [makeStudentCourse({ poolId: '101', licenseId: id })] });
  };
  return fake;
}

describe.each(testDatabases())('bulk jobs on $dialect', ({ dialect, skip, open }) => {
  async function db(): Promise<{ records: Records; databaseUrl?: string; dataDir: string }> {
    const t = await open();
    cleanups.push(t.close);
    return t;
  }
  /** A second process on the same database: its own connection on PostgreSQL, SQLite's one handle otherwise. */
  async function secondProcess(t: { records: Records; databaseUrl?: string; dataDir: string }): Promise<Records> {
    if (!t.databaseUrl) return t.records;
    const other = await openRecords({ dataDir: t.dataDir, databaseUrl: t.databaseUrl, heartbeatMs: 0 });
    cleanups.push(() => other.close());
    return other;
  }

  it.skipIf(skip !== undefined)(
    'saves and loads a job with its rows; unfinished lists the running ones; a row change is kept',
    async () => {
      const { records } = await db();
      const store = createBulkJobStore(records, { now: () => NOW });
      const j = job('j1', 3, { endDate: '2027-01-31', progress: { channel: 'D1', ts: '1.2' } });
      await store.save(j);
      await store.save(job('j2', 1, { state: 'done', finishedAt: NOW.toISOString() }));
      expect(await store.load('j1')).toEqual(j);
      expect(await store.load('nope')).toBeUndefined();
      const [one, two] = j.rows;
      if (!one || !two) throw new Error('rows');
      Object.assign(one, { state: 'done', outcome: 'assigned', licenseId: '77' });
      Object.assign(two, { state: 'sending' });
      await store.saveRows(j, [one, two]);
      const back = await store.load('j1');
      expect(back?.rows.map((r) => [r.line, r.state, r.outcome ?? null, r.licenseId ?? null])).toEqual([
        [1, 'done', 'assigned', '77'],
        [2, 'sending', null, null],
        [3, 'pending', null, null],
      ]);
      expect((await store.unfinished()).map((u) => u.id)).toEqual(['j1']);
      // A new job is held by the store that wrote it; a finished one by nobody.
      // The lease is the job's row in `job_leases` (the one lease mechanism).
      const leases = await records.db.selectFrom('job_leases').select(['name', 'holder']).orderBy('name').execute();
      expect(leases).toEqual([{ name: 'bulk:j1', holder: store.owner }]);
    },
  );

  it.skipIf(skip !== undefined)(
    "a row's move to 'sending' is committed before its write goes out, and its outcome after",
    async () => {
      const t = await db();
      const store = createBulkJobStore(t.records);
      // What another process reads (PostgreSQL: another connection sees only what was committed).
      const reader = createBulkJobStore(await secondProcess(t), { owner: 'reader' });
      const seen: string[] = [];
      const fake = createFakeLicensing({});
      fake.pools.assign = async (_id, body) => {
        const row = (await reader.load('jc'))?.rows.find((r) => r.email === body.email);
        seen.push(`${body.email}:${row?.state}`);
        return makeLicense({ id: `L-${body.email}` });
      };
      const runner = createBulkRunner({ licensing: fake, store, logger, now: () => new Date() });
      await runner.start(job('jc', 3), notifier);
      await runner.settled('jc');
      expect(seen).toEqual(['s1@x.com:sending', 's2@x.com:sending', 's3@x.com:sending']);
      const done = await reader.load('jc');
      expect(done?.state).toBe('done');
      expect(done?.rows.map((r) => r.outcome)).toEqual(['assigned', 'assigned', 'assigned']);
    },
  );

  it.skipIf(skip !== undefined)(
    'a job of 200 rows: written whole only at its start and end, one transaction per row in between',
    async () => {
      const { records } = await db();
      const fake = createFakeLicensing({});
      fake.pools.assign = async (_id, body) => makeLicense({ id: `L-${body.email}` });
      const { store, writes } = counted(createBulkJobStore(records));
      const runner = createBulkRunner({ licensing: fake, store, logger, now: () => NOW });
      await runner.start(job('j200', 200), notifier);
      await runner.settled('j200');
      expect(writes.rows).toBe(200);
      expect(writes.whole).toBeLessThanOrEqual(3);
      const done = await store.load('j200');
      expect(done?.state).toBe('done');
      expect(done?.rows.every((r) => r.outcome === 'assigned')).toBe(true);
    },
  );

  it.skipIf(skip !== undefined)(
    'finished jobs and their rows are deleted 7 days after they ended, at the next start; running and recent ones stay',
    async () => {
      const { records } = await db();
      const store = createBulkJobStore(records, { now: () => NOW });
      const ended = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
      await store.save(job('old', 2, { state: 'done', finishedAt: ended(KEEP_FINISHED_MS + 60_000) }));
      await store.save(job('recent', 1, { state: 'done', finishedAt: ended(KEEP_FINISHED_MS - 60_000) }));
      await store.save(job('running', 1, { createdAt: ended(30 * KEEP_FINISHED_MS) }));
      const runner = createBulkRunner({ licensing: createFakeLicensing({}), store, logger, now: () => NOW });
      await runner.resumeAll(() => notifier);
      await runner.stop(1000);
      const ids = await records.db.selectFrom('bulk_jobs').select('id').orderBy('id').execute();
      expect(ids.map((r) => r.id)).toEqual(['recent', 'running']);
      const rows = await records.db.selectFrom('bulk_rows').select('job_id').execute();
      expect(rows.map((r) => r.job_id).sort()).toEqual(['recent', 'running']);
      expect(await store.sweep(new Date(NOW.getTime() + KEEP_FINISHED_MS))).toBe(1);
    },
  );

  it.skipIf(skip !== undefined)(
    'a row that cannot be recorded as in flight is not sent: the job pauses with the row still pending',
    async () => {
      const { records } = await db();
      const fake = createFakeLicensing({});
      const sent: string[] = [];
      fake.pools.assign = async (_id, body) => {
        sent.push(body.email);
        return makeLicense({ id: `L-${body.email}` });
      };
      const real = createBulkJobStore(records);
      let rowWrites = 0;
      const store: BulkJobStore = {
        ...real,
        saveRows: async (j, rows) => {
          if (++rowWrites === 3) throw new Error('the database does not answer');
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
    },
  );

  it.skipIf(skip !== undefined)(
    'adopt (the import of job files) adds a job nobody holds, once: a job already there is left as it is',
    async () => {
      const t = await db();
      const importer = createBulkJobStore(t.records, { owner: 'importer', now: () => NOW });
      const j = job('ja', 3);
      expect(await importer.adopt(j)).toBe(true);
      expect(await importer.load('ja')).toEqual(j);
      // Nobody holds it: a runner may take it at once, and the importer may not write it.
      const runner = createBulkJobStore(t.records, { owner: 'runner', now: () => NOW });
      expect(await runner.free()).toEqual(['ja']);
      await expect(importer.save(j)).rejects.toThrow(JobTakenOverError);
      expect(await importer.adopt(job('ja', 1, { poolId: 'other' }))).toBe(false);
      expect(await runner.load('ja')).toEqual(j);
      expect(await runner.claim('ja')).toBe(true);
      expect(await runner.free()).toEqual([]);
    },
  );

  it.skipIf(skip !== undefined)(
    'the lease: one owner at a time; a write by an owner that lost the job is refused',
    async () => {
      const t = await db();
      let clock = NOW.getTime();
      const now = () => new Date(clock);
      const a = createBulkJobStore(t.records, { owner: 'a', leaseMs: 10_000, now });
      const b = createBulkJobStore(await secondProcess(t), { owner: 'b', leaseMs: 10_000, now });
      const j = job('jl', 2);
      await a.save(j);
      expect(await b.free()).toEqual([]);
      expect(await b.claim('jl')).toBe(false);
      await expect(b.saveRows(j, [{ ...(j.rows[0] as BulkJob['rows'][number]), state: 'sending' }])).rejects.toThrow(
        JobTakenOverError,
      );
      // a's lease runs out (a hung or died): b takes over, and a's next write is refused.
      clock += 10_001;
      expect(await b.free()).toEqual(['jl']);
      expect(await b.claim('jl')).toBe(true);
      expect(await a.renew('jl')).toBe(false);
      await expect(a.saveRows(j, [{ ...(j.rows[1] as BulkJob['rows'][number]), state: 'sending' }])).rejects.toThrow(
        JobTakenOverError,
      );
      await expect(a.save(j)).rejects.toThrow(JobTakenOverError);
      expect(await b.renew('jl')).toBe(true);
      // Let go (a stop): free at once.
      await b.release('jl');
      expect(await a.free()).toEqual(['jl']);
      // Two claims at once: one wins.
      const won = await Promise.all([a.claim('jl'), b.claim('jl')]);
      expect(won.filter(Boolean)).toHaveLength(1);
      // `force` (SQLite at start: the previous process is gone) takes it whoever holds it.
      expect(await (won[0] ? b : a).claim('jl', true)).toBe(true);
    },
  );

  it.skipIf(skip !== undefined)(
    'a runner that stalled past its lease and lost the job to another sends nothing more once its write comes back',
    async () => {
      const t = await db();
      const ledger = new Map<string, string>();
      const sent: string[] = [];
      let resume: (() => void) | undefined;
      const stalled = ledgerLicensing(ledger, sent);
      const assign = stalled.pools.assign;
      // a's write of s2 comes back only when the test says so: a hangs (a long pause of the process).
      stalled.pools.assign = async (id, body, o) => {
        if (body.email === 's2@x.com') await new Promise<void>((r) => (resume = r));
        return assign(id, body, o);
      };
      const warnings: string[] = [];
      const a = createBulkRunner({
        licensing: stalled,
        store: createBulkJobStore(t.records, { owner: 'a', leaseMs: 60_000 }),
        logger: { ...logger, warn: (m: string) => warnings.push(m) },
        now: () => new Date(),
        takeoverMs: 60_000,
      });
      const b = createBulkRunner({
        licensing: ledgerLicensing(ledger, sent),
        store: createBulkJobStore(await secondProcess(t), { owner: 'b', leaseMs: 60_000 }),
        logger,
        now: () => new Date(),
        takeoverMs: 60_000,
        pollMs: 100,
      });
      cleanups.push(async () => {
        await a.stop(0);
        await b.stop(0);
      });
      await a.start(job('js', 4), notifier);
      await until('a to hang on s2', () => resume !== undefined, 5_000);
      await b.resumeAll(() => notifier);
      // a's lease runs out while it hangs (as if 60 s had passed): b takes the job and finishes it.
      await t.records.db
        .updateTable('job_leases')
        .set({ until: new Date(0).toISOString() })
        .where('name', '=', 'bulk:js')
        .execute();
      await until('b to finish the job', () => ledger.size === 4, 10_000);
      await b.settled('js');
      resume?.();
      await a.settled('js');
      expect(warnings).toContain('bulk job taken over by another process; this one stops running it');
      // a sent s1 and its hung s2; b read s2 back (not there yet), sent it, and sent s3 and s4. a sent
      // nothing after its write came back.
      expect(sent.filter((e) => e === 's3@x.com' || e === 's4@x.com')).toEqual(['s3@x.com', 's4@x.com']);
      // s2 went out twice: the one risk a stall past the lease leaves (docs/deployment.md, section 3).
      expect(sent.filter((e) => e === 's2@x.com')).toHaveLength(2);
      const done = await createBulkJobStore(t.records, { owner: 'observer' }).load('js');
      expect(done?.state).toBe('done');
      expect(done?.rows.map((r) => r.outcome)).toEqual(['assigned', 'assigned', 'assigned', 'assigned']);
    },
  );

  it.skipIf(skip !== undefined || dialect !== 'postgres')(
    'two runners on one database: only one runs a job; when its runner dies the other takes it over after the lease, reading back the row in flight',
    async () => {
      const t = await db();
      const ledger = new Map<string, string>();
      const sent: string[] = [];
      const ran = new Map<string, number>();
      // The first write of s4 never answers: the process sending it is gone.
      const hold = { email: 's4@x.com', once: true };
      const runnerOf = (records: Records, name: string) =>
        createBulkRunner({
          licensing: ledgerLicensing(ledger, sent, { delayMs: 30, hold }),
          store: createBulkJobStore(records, { owner: name, leaseMs: 1500 }),
          logger: {
            ...logger,
            info: (message: string) => {
              if (message === 'running a bulk job') ran.set(name, (ran.get(name) ?? 0) + 1);
            },
          },
          now: () => new Date(),
          takeoverMs: 1500,
          pollMs: 200,
        });
      const processes = { a: await secondProcess(t), b: await secondProcess(t) };
      const runners = { a: runnerOf(processes.a, 'a'), b: runnerOf(processes.b, 'b') };
      cleanups.push(async () => {
        await runners.a.stop(0);
        await runners.b.stop(0);
      });
      // A job nobody holds yet (as the import leaves one): both runners look for work at once.
      await createBulkJobStore(t.records, { owner: 'importer' }).adopt(job('jt', 8));
      const taken = await Promise.all([runners.a.resumeAll(() => notifier), runners.b.resumeAll(() => notifier)]);
      expect(taken.sort()).toEqual([0, 1]);
      await until('the held row to be sent', () => sent.includes('s4@x.com'), 10_000);
      const first = ran.get('a') === 1 ? 'a' : 'b';
      const other = first === 'a' ? 'b' : 'a';
      expect(ran.get(other)).toBeUndefined();
      // The first runner's process dies: its database connection goes, its lease is no longer renewed.
      await processes[first].close();
      await until('the other runner to take over and finish', () => ledger.size === 8, 15_000);
      await runners[other].settled('jt');
      const done = await createBulkJobStore(t.records, { owner: 'observer' }).load('jt');
      expect(done?.state).toBe('done');
      expect(done?.rows.map((r) => r.outcome)).toEqual(Array(8).fill('assigned'));
      expect(done?.rows.find((r) => r.email === 's4@x.com')?.licenseId).toBe('L-s4@x.com');
      expect(Object.fromEntries(ran)).toEqual({ a: 1, b: 1 });
      // s4's first write never arrived (the ledger had none): the new runner read back, found nothing,
      // and sent it once more; every other student was sent once, across both runners.
      expect(sent.filter((e) => e === 's4@x.com')).toHaveLength(2);
      expect(sent.filter((e) => e !== 's4@x.com').sort()).toEqual([
        's1@x.com',
        's2@x.com',
        's3@x.com',
        's5@x.com',
        's6@x.com',
        's7@x.com',
        's8@x.com',
      ]);
      expect(ledger.size).toBe(8);
    },
    30_000,
  );
});
