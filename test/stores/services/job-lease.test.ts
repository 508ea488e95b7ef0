/**
 * The one way a job runs in exactly one replica: a lease row in the database (jobs/lease.ts), on SQLite
 * and PostgreSQL. Two runners on one database run a job once; a dead holder's lease runs out and
 * another takes the job over; the daily check's cases across replicas (jobs/daily.ts), one by one.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { openRecords, type Records } from '../../../src/kernel/db/open.js';
import type { Logger } from '../../../src/kernel/licensing/types.js';
import { createDailyScheduler } from '../../../src/kernel/services/jobs/daily.js';
import { createDbLease } from '../../../src/kernel/services/jobs/lease.js';
import { createJobRunner } from '../../../src/kernel/services/jobs/runner.js';
import { manualTimers } from '../../support/manual-timers.js';
import { testDatabases } from '../../support/records.js';
import { until } from '../../support/until.js';

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const LEASE = 5 * 60_000;
const RETRY = 15 * 60_000;

for (const database of testDatabases()) {
  describe.skipIf(database.skip !== undefined)(`job leases on ${database.dialect}`, () => {
    /** One database, and a second way in as another replica sees it (PostgreSQL: its own connection). */
    async function open(): Promise<{ records: Records; other: Records }> {
      const opened = await database.open();
      onTestFinished(() => opened.close());
      if (!opened.databaseUrl) return { records: opened.records, other: opened.records };
      const other = await openRecords({ dataDir: opened.dataDir, heartbeatMs: 0, databaseUrl: opened.databaseUrl });
      onTestFinished(() => other.close());
      return { records: opened.records, other };
    }

    it('two runners on one database: exactly one runs the job; the other runs it once the lease is let go', async () => {
      const { records, other } = await open();
      const clock = manualTimers();
      const now = () => new Date(clock.now());
      const runs: string[] = [];
      let finish: () => void = () => undefined;
      const replica = (name: string, db: Records) => {
        const jobs = createJobRunner({ logger, timers: clock.timers });
        onTestFinished(() => jobs.stop(0));
        return jobs.add({
          name: 'progress pass',
          everyMs: 60_000,
          oneReplica: { lease: createDbLease(db, { holder: name, now }), leaseMs: LEASE },
          run: () =>
            new Promise<void>((resolve) => {
              runs.push(name);
              finish = resolve;
            }),
        });
      };
      const a = replica('a', records);
      const b = replica('b', other);
      clock.advance(60_000);
      await until('a replica running the job', () => runs.length === 1);
      const first = runs[0];
      const loser = first === 'a' ? b : a;
      expect(await loser.run()).toEqual({ kind: 'elsewhere' });
      expect(runs).toHaveLength(1);
      finish();
      await until(
        'the lease let go',
        async () => (await createDbLease(records, { now }).holder('progress pass')) === undefined,
      );
      const second = loser.run();
      await until('the other replica running it', () => runs.length === 2);
      finish();
      expect((await second).kind).toBe('ran');
      expect(runs[1]).not.toBe(first);
    });

    it('a lease is renewed while the run lasts longer than the lease', async () => {
      const { records, other } = await open();
      const clock = manualTimers();
      const now = () => new Date(clock.now());
      const jobs = createJobRunner({ logger, timers: clock.timers });
      let finish: () => void = () => undefined;
      const job = jobs.add({
        name: 'digest',
        everyMs: 60_000,
        oneReplica: { lease: createDbLease(records, { holder: 'a', now }), leaseMs: LEASE },
        run: () => new Promise<void>((resolve) => (finish = resolve)),
      });
      const running = job.run();
      const b = createDbLease(other, { holder: 'b', now });
      await until('a holding the lease', async () => (await b.holder('digest'))?.holder === 'a');
      // The job's next tick and, once the lease is taken, its renewal.
      await until('the renewal scheduled', () => clock.pending === 2);
      for (let i = 0; i < 6; i += 1) {
        clock.advance(LEASE / 3);
        const renewedUntil = new Date(clock.now() + LEASE).toISOString();
        await until('the renewal', async () => (await b.holder('digest'))?.until === renewedUntil);
      }
      expect(await b.take('digest', LEASE)).toBe(false);
      finish();
      await running;
      expect(await b.take('digest', LEASE)).toBe(true);
      await jobs.stop();
    });

    it("a dead holder's lease runs out; then another replica takes the job over", async () => {
      const { records, other } = await open();
      let at = Date.parse('2026-11-21T09:00:00Z');
      const now = () => new Date(at);
      // The dead replica: it took the lease and will never renew or release it.
      expect(await createDbLease(records, { holder: 'dead', now }).take('alerts: daily check', LEASE)).toBe(true);
      const b = createDbLease(other, { holder: 'b', now });
      expect(await b.take('alerts: daily check', LEASE)).toBe(false);
      expect(await b.renew('alerts: daily check', LEASE)).toBe(false);
      at += LEASE - 1;
      expect(await b.take('alerts: daily check', LEASE)).toBe(false);
      at += 1;
      expect(await b.take('alerts: daily check', LEASE)).toBe(true);
      expect(await b.holder('alerts: daily check')).toEqual({ holder: 'b', until: new Date(at + LEASE).toISOString() });
      // The dead one, were it to wake up, finds it lost.
      expect(await createDbLease(records, { holder: 'dead', now }).renew('alerts: daily check', LEASE)).toBe(false);
    });

    it('in a transaction: a write guarded by holds lands only while its holder keeps the lease; force takes it from anyone', async () => {
      const { records, other } = await open();
      let at = Date.parse('2026-11-21T09:00:00Z');
      const now = () => new Date(at);
      const a = createDbLease(records, { holder: 'a', now });
      const b = createDbLease(other, { holder: 'b', now });
      // Taken in the transaction that records the work: rolled back with it.
      await expect(
        records.db.transaction().execute(async (trx) => {
          expect(await a.take('bulk:j', LEASE, { in: trx })).toBe(true);
          throw new Error('the write failed');
        }),
      ).rejects.toThrow('the write failed');
      expect(await a.holder('bulk:j')).toBeUndefined();
      expect(await a.take('bulk:j', LEASE)).toBe(true);
      const guarded = (lease: typeof a, db: Records) =>
        db.db.transaction().execute(async (trx) => {
          if (!(await lease.holds(trx, 'bulk:j'))) return 'refused';
          expect(await lease.renew('bulk:j', LEASE, trx)).toBe(true);
          return 'written';
        });
      expect(await guarded(a, records)).toBe('written');
      expect(await guarded(b, other)).toBe('refused');
      // a's lease runs out but nobody took it: a still holds the row. Once b takes it, a is refused.
      at += LEASE + 1;
      expect(await guarded(a, records)).toBe('written');
      at += LEASE + 1;
      expect(await b.take('bulk:j', LEASE)).toBe(true);
      expect(await guarded(a, records)).toBe('refused');
      expect(await guarded(b, other)).toBe('written');
      // force (one process on SQLite, at start): taken whoever holds it.
      expect(await a.take('bulk:j', LEASE)).toBe(false);
      expect(await a.take('bulk:j', LEASE, { force: true })).toBe(true);
      expect(await guarded(b, other)).toBe('refused');
      // Let go in a transaction: nobody holds it.
      await records.db.transaction().execute((trx) => a.release('bulk:j', trx));
      expect(await b.holder('bulk:j')).toBeUndefined();
    });

    describe('the daily check across replicas (one lease, in the database)', () => {
      async function world(start: string) {
        const { records, other } = await open();
        let now = new Date(start).getTime();
        let lastDay: string | undefined;
        const memory = {
          lastRunDay: async () => lastDay,
          setLastRunDay: async (d: string) => {
            lastDay = d;
          },
        };
        const runs: string[] = [];
        const leaseOf = (name: string, db: Records = records) =>
          createDbLease(db, { holder: name, now: () => new Date(now) });
        const replica = (
          name: string,
          run: () => Promise<void> = async () => undefined,
          afterRead: () => Promise<void> = async () => undefined,
        ) =>
          createDailyScheduler({
            name: 'alerts: daily check',
            time: '09:00',
            timeZone: 'UTC',
            now: () => new Date(now),
            memory: {
              ...memory,
              // What the replica read, handed over once `afterRead` resolves (a slow read, for the race).
              lastRunDay: async () => {
                const day = lastDay;
                await afterRead();
                return day;
              },
            },
            lease: leaseOf(name, name === 'b' ? other : records),
            leaseMs: LEASE,
            retryMs: RETRY,
            logger,
            run: async () => {
              runs.push(name);
              await run();
            },
          });
        return {
          replica,
          runs,
          leaseOf,
          advance: (ms: number) => {
            now += ms;
          },
          lastDay: () => lastDay,
        };
      }

      it('two replicas ticking at once: one runs the check, the other stands aside, then sees it done', async () => {
        const w = await world('2026-11-21T09:00:00Z');
        let finish: () => void = () => undefined;
        const a = w.replica('a', () => new Promise<void>((resolve) => (finish = resolve)));
        const b = w.replica('b');
        const first = a.tick();
        await until('a running the check', () => w.runs.length === 1);
        expect(await b.tick()).toBe('elsewhere');
        finish();
        expect(await first).toBe('ran');
        expect(await b.tick()).toBe('already-ran');
        expect(w.runs).toEqual(['a']);
        expect(w.lastDay()).toBe('2026-11-21');
      });

      it('a replica that read "not run yet" and takes the lease after another finished does not run it again', async () => {
        const w = await world('2026-11-21T09:00:00Z');
        let reads = 0;
        let letRead: () => void = () => undefined;
        const slowRead = new Promise<void>((resolve) => (letRead = resolve));
        // b's first read of the day memory sees "not run yet" but answers only after a has finished.
        const b = w.replica('b', undefined, async () => {
          if (++reads === 1) await slowRead;
        });
        const late = b.tick();
        expect(await w.replica('a').tick()).toBe('ran');
        letRead();
        expect(await late).toBe('already-ran');
        expect(w.runs).toEqual(['a']);
      });

      it('a failed check holds the lease for the retry delay: no replica retries sooner, then one does', async () => {
        const w = await world('2026-11-21T09:00:00Z');
        const a = w.replica('a', async () => {
          throw new Error('licensing down');
        });
        const b = w.replica('b');
        expect(await a.tick()).toBe('failed');
        w.advance(60_000);
        expect(await b.tick()).toBe('elsewhere');
        w.advance(RETRY);
        expect(await b.tick()).toBe('ran');
        expect(w.runs).toEqual(['a', 'b']);
      });

      it('a replica that dies mid-check leaves a lease that expires; another replica then runs the check', async () => {
        const w = await world('2026-11-21T09:00:00Z');
        expect(await w.leaseOf('dead').take('alerts: daily check', LEASE)).toBe(true);
        const b = w.replica('b');
        expect(await b.tick()).toBe('elsewhere');
        w.advance(LEASE);
        expect(await b.tick()).toBe('ran');
        expect(w.runs).toEqual(['b']);
      });

      it('a stop mid-check releases the lease at once for the other replicas', async () => {
        const w = await world('2026-11-21T09:00:00Z');
        let fail: (e: Error) => void = () => undefined;
        const a = w.replica('a', () => new Promise<void>((_, reject) => (fail = reject)));
        const first = a.tick();
        await until('a running the check', () => w.runs.length === 1);
        const stopping = a.stop(1_000);
        fail(new Error('licensing client closed'));
        await stopping;
        expect(await first).toBe('failed');
        expect(await w.replica('b').tick()).toBe('ran');
      });
    });
  });
}
