/**
 * The reclaim rounds' records (services/reclaim.ts) on SQLite and PostgreSQL: a round and its asks in
 * one transaction with one keyed message each, Keep remembered, one reminder a person a day across
 * rounds, the deadline's work claimed once (two replicas on PostgreSQL), and a kill in the middle of
 * it finished by the next tick without asking twice.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ChangeContext } from '../../../src/changes/services/change-context.js';
import { openRecords, type Records } from '../../../src/kernel/db/open.js';
import type { Pool } from '../../../src/kernel/domain/types.js';
import type { LicensingClient } from '../../../src/kernel/licensing/types.js';
import { createOutbox } from '../../../src/kernel/services/outbox.js';
import { createProgressStore } from '../../../src/progress/db/store.js';
import { reclaimSettings } from '../../../src/reclaim/domain/reclaim.js';
import { createReclaim } from '../../../src/reclaim/services/reclaim.js';
import { testDatabases } from '../../support/records.js';

const DAY = 86_400_000;
const T0 = new Date('2026-11-25T10:00:00.000Z').getTime();

const pool = (id: string, transferable: boolean): Pool => ({
  id,
  start: '2026-01-01',
  end: '2027-12-31',
  transferable,
  licenses: 4,
  assignedLicenses: 4,
  availableLicenses: 0,
  course: { id: `c${id}`, title: `Course ${id}` },
});

const POOLS = [pool('2003', true), pool('2001', true), pool('2002', false)];

const licensing = {
  pools: {
    list: async () => POOLS,
    get: async (id: string) => {
      const p = POOLS.find((x) => x.id === id);
      if (!p) throw new Error('no pool');
      return p;
    },
  },
} as unknown as LicensingClient;

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function obs(licenseId: string, poolId: string, email: string, progress: number) {
  return {
    licenseId,
    poolId,
    courseId: `c${poolId}`,
    studentId: `s-${email}`,
    studentEmail: email,
    studentName: email.split('@')[0] ?? email,
    progress,
    completed: null,
    start: '2026-06-01',
    end: '2027-12-31',
    active: true,
  };
}

/** ann: stalled in 2003 and 2001; bob: stalled in 2003; cy: progressing in 2003; dee: stalled in 2002. */
async function seed(records: Records) {
  const store = createProgressStore(records);
  await store.record(
    [
      obs('L1', '2003', 'ann@contoso.com', 40),
      obs('L2', '2001', 'ann@contoso.com', 10),
      obs('L3', '2003', 'bob@contoso.com', 0),
      obs('L4', '2003', 'cy@contoso.com', 20),
      obs('L5', '2002', 'dee@contoso.com', 30),
    ],
    new Date(T0 - 40 * DAY),
  );
  await store.record([obs('L4', '2003', 'cy@contoso.com', 25)], new Date(T0 - DAY));
}

const SLACK: Record<string, string> = { 'ann@contoso.com': 'U0ANN00001', 'bob@contoso.com': 'U0BOB00001' };
const lookup = async (email: string) => SLACK[email];

function reclaimOn(records: Records, clock: { now: Date }, revoked: string[]) {
  const now = () => clock.now;
  const outbox = createOutbox({ records, logger: quiet, now, deliver: async () => undefined });
  const change = (): ChangeContext =>
    ({
      now,
      audit: { record: async () => undefined },
      licensing: {
        licenses: {
          get: async (id: string) => ({
            id,
            poolId: '2003',
            courseId: 'c2003',
            start: '2026-06-01',
            end: '2027-12-31',
            active: !revoked.includes(id),
            revokable: true,
            editable: true,
            student: { id: 's', name: 'S', email: 's@contoso.com' },
          }),
          revoke: async (id: string) => void revoked.push(id),
        },
        pools: licensing.pools,
      },
    }) as unknown as ChangeContext;
  return createReclaim({
    records,
    progress: createProgressStore(records),
    licensing,
    outbox: { enqueue: outbox.enqueue, kick() {} },
    change,
    audit: () => undefined,
    waiting: async () => 0,
    now,
    settings: reclaimSettings({}),
    logger: quiet,
  });
}

const messages = async (records: Records) =>
  (await records.db.selectFrom('outbox').select(['key', 'body']).orderBy('id').execute()).map((r) => ({
    key: r.key,
    ...(JSON.parse(r.body) as { kind: string; user?: string; asks?: unknown[] }),
  }));

for (const database of testDatabases()) {
  describe.skipIf(database.skip !== undefined)(`reclaim rounds on ${database.dialect}`, () => {
    async function open() {
      const opened = await database.open();
      onTestFinished(() => opened.close());
      return opened;
    }

    /** Seeded records, and a round of pool 2003 started at T0 by U0MGR00001 (`revoked`: the revokes sent). */
    async function roundStarted(mode: 'release' | 'list') {
      const { records } = await open();
      await seed(records);
      const clock = { now: new Date(T0) };
      const revoked: string[] = [];
      const r = reclaimOn(records, clock, revoked);
      await r.start('U0MGR00001', '2003', mode, lookup);
      return { records, clock, revoked, r };
    }

    it('no progress records: the preview says so and nothing is written', async () => {
      const { records } = await open();
      const r = reclaimOn(records, { now: new Date(T0) }, []);
      expect(await r.preview(undefined, lookup)).toEqual({ kind: 'no-records' });
      expect((await r.start('U0MGR00001', undefined, 'list', lookup)).kind).toBe('no-records');
      expect(await records.db.selectFrom('reclaim_rounds').selectAll().execute()).toEqual([]);
    });

    it('a round and its asks are written together, each ask with one keyed DM; Keep is remembered for the next round', async () => {
      const { records } = await open();
      await seed(records);
      const clock = { now: new Date(T0) };
      const r = reclaimOn(records, clock, []);
      const preview = await r.preview('2003', lookup);
      expect(preview.kind === 'preview' && preview.pools[0]?.ask.map((c) => c.licenseId)).toEqual(['L1', 'L3']);
      expect(await r.preview('2002', lookup)).toMatchObject({ kind: 'untransferable' });
      const started = await r.start('U0MGR00001', '2003', 'release', lookup);
      expect(started).toMatchObject({ kind: 'started', asked: 2, notInSlack: 0 });
      const asks = await records.db.selectFrom('reclaim_asks').selectAll().orderBy('license_id').execute();
      expect(asks.map((a) => [a.license_id, a.slack_user, a.state])).toEqual([
        ['L1', 'U0ANN00001', 'asked'],
        ['L3', 'U0BOB00001', 'asked'],
      ]);
      const sent = await messages(records);
      expect(sent.filter((m) => m.kind === 'reclaim-ask').map((m) => m.key)).toEqual(
        asks.map((a) => `reclaim:${a.id}:ask`),
      );
      // The admin's round message: the first post recorded wins (another replica's is dropped).
      const roundId = started.kind === 'started' ? started.roundId : '';
      expect(await r.setMessage(roundId, 'D0MGR00001', '1.0001')).toBe(true);
      expect(await r.setMessage(roundId, 'D0MGR00001', '1.0002')).toBe(false);
      expect(await r.roundView(roundId)).toMatchObject({ channel: 'D0MGR00001', ts: '1.0001', view: { asked: 2 } });
      // One open round per pool: nobody else is asked there before it closes.
      const again = await r.preview('2003', lookup);
      expect(again.kind === 'preview' && again.pools[0]).toMatchObject({ openRound: { roundId }, ask: [] });
      expect(await r.start('U0MGR00002', '2003', 'list', lookup)).toMatchObject({
        kind: 'already-open',
        rounds: [{ poolId: '2003', roundId, admin: 'U0MGR00001' }],
      });

      const ann = asks[0]?.id ?? '';
      expect((await r.answer(ann, 'U0BOB00001', 'keep')).kind).toBe('not-yours');
      expect((await r.answer(ann, 'U0ANN00001', 'keep')).kind).toBe('kept');
      expect((await r.answer(ann, 'U0ANN00001', 'release')).kind).toBe('already');
      clock.now = new Date(T0 + 8 * DAY);
      await r.tick();
      const later = await r.preview('2003', lookup);
      expect(later.kind === 'preview' && later.pools[0]?.keptRecently).toBe(1);
      expect(later.kind === 'preview' && later.pools[0]?.ask).toEqual([]);
      clock.now = new Date(T0 + 61 * DAY);
      const afterKeep = await r.preview('2003', lookup);
      expect(afterKeep.kind === 'preview' && afterKeep.pools[0]?.ask.map((c) => c.licenseId)).toEqual(['L1']);
    });

    it('one reminder a person a day, listing every round; the deadline is done once, by one of two replicas', async () => {
      const { records, dataDir, databaseUrl } = await open();
      await seed(records);
      const clock = { now: new Date(T0) };
      const revoked: string[] = [];
      const a = reclaimOn(records, clock, revoked);
      await a.start('U0MGR00001', '2003', 'release', lookup);
      await a.start('U0MGR00002', '2001', 'list', lookup);
      clock.now = new Date(T0 + 4 * DAY + 60_000);
      expect((await a.tick()).reminded).toBe(2); // ann (two rounds, one message) and bob
      clock.now = new Date(T0 + 4 * DAY + 3_600_000);
      expect((await a.tick()).reminded).toBe(0);
      const reminders = (await messages(records)).filter((m) => m.kind === 'reclaim-reminder');
      expect(reminders.map((m) => [m.user, m.asks?.length]).sort()).toEqual([
        ['U0ANN00001', 2],
        ['U0BOB00001', 1],
      ]);

      let other: Records = records;
      if (databaseUrl) {
        other = await openRecords({ dataDir, heartbeatMs: 0, databaseUrl });
        onTestFinished(() => other.close());
      }
      const b = reclaimOn(other, clock, revoked);
      clock.now = new Date(T0 + 7 * DAY + 60_000);
      const [x, y] = await Promise.all([a.tick(), b.tick()]);
      expect(x.closed + y.closed).toBe(2);
      expect(revoked.sort()).toEqual(['L1', 'L3']);
      const states = await records.db
        .selectFrom('reclaim_asks')
        .select(['license_id', 'state'])
        .orderBy('license_id')
        .execute();
      expect(states).toEqual([
        { license_id: 'L1', state: 'released' },
        { license_id: 'L2', state: 'unanswered' },
        { license_id: 'L3', state: 'released' },
      ]);
      expect((await a.tick()).closed).toBe(0);
      expect(revoked).toHaveLength(2);
      // Each holder released at the deadline is told once.
      const released = (await messages(records)).filter((m) => m.kind === 'reclaim-released');
      expect(released.map((m) => m.user).sort()).toEqual(['U0ANN00001', 'U0BOB00001']);
    });

    it('two Starts at once (two replicas on PostgreSQL): one round, its holders asked once; the other is told a round is open', async () => {
      const { records, dataDir, databaseUrl } = await open();
      await seed(records);
      const clock = { now: new Date(T0) };
      let other: Records = records;
      if (databaseUrl) {
        other = await openRecords({ dataDir, heartbeatMs: 0, databaseUrl });
        onTestFinished(() => other.close());
      }
      const a = reclaimOn(records, clock, []);
      const b = reclaimOn(other, clock, []);
      // Every pool and pool 2003 at once: both would ask ann and bob in 2003.
      const outcomes = await Promise.all([
        a.start('U0MGR00001', undefined, 'list', lookup),
        b.start('U0MGR00002', '2003', 'list', lookup),
      ]);
      expect(outcomes.map((o) => o.kind).sort()).toEqual(['already-open', 'started']);
      const asks = await records.db.selectFrom('reclaim_asks').select('license_id').orderBy('license_id').execute();
      expect(new Set(asks.map((x) => x.license_id)).size).toBe(asks.length);
      expect((await messages(records)).filter((m) => m.kind === 'reclaim-ask')).toHaveLength(asks.length);
      expect(await records.db.selectFrom('reclaim_rounds').selectAll().execute()).toHaveLength(1);
    });

    it('two open rounds of one pool, written before one round per pool: an answer in one after the other was answered says so and records nothing', async () => {
      const { records, clock, revoked, r } = await roundStarted('release');
      // The second round as two Starts at once used to write it: the same holders asked again.
      const first = await records.db.selectFrom('reclaim_rounds').selectAll().executeTakeFirstOrThrow();
      await records.db
        .insertInto('reclaim_rounds')
        .values({ ...first, id: 'rr00000000000000ff' })
        .execute();
      const asks = await records.db.selectFrom('reclaim_asks').selectAll().orderBy('license_id').execute();
      for (const [i, ask] of asks.entries())
        await records.db
          .insertInto('reclaim_asks')
          .values({ ...ask, id: `ra00000000000000f${i}`, round_id: 'rr00000000000000ff' })
          .execute();
      const [ann, bob] = asks;
      expect((await r.answer(ann?.id ?? '', 'U0ANN00001', 'release')).kind).toBe('released');
      expect((await r.answer(bob?.id ?? '', 'U0BOB00001', 'keep')).kind).toBe('kept');
      const before = await messages(records);
      expect(await r.answer('ra00000000000000f0', 'U0ANN00001', 'keep')).toMatchObject({
        kind: 'superseded',
        by: 'released',
      });
      expect(await r.answer('ra00000000000000f1', 'U0BOB00001', 'release')).toMatchObject({
        kind: 'superseded',
        by: 'kept',
      });
      expect(revoked).toEqual(['L1']);
      expect(await messages(records)).toEqual(before);
      const second = await records.db
        .selectFrom('reclaim_asks')
        .select('state')
        .where('round_id', '=', 'rr00000000000000ff')
        .execute();
      expect(second.map((x) => x.state)).toEqual(['asked', 'asked']);
      // At the deadline the other round's answers stand: nothing revoked or told again.
      clock.now = new Date(T0 + 7 * DAY + 60_000);
      await r.tick();
      expect(revoked).toEqual(['L1']);
      const after = await records.db
        .selectFrom('reclaim_asks')
        .select(['license_id', 'state'])
        .where('round_id', '=', 'rr00000000000000ff')
        .orderBy('license_id')
        .execute();
      expect(after).toEqual([
        { license_id: 'L1', state: 'released' },
        { license_id: 'L3', state: 'kept' },
      ]);
      expect((await messages(records)).filter((m) => m.kind === 'reclaim-released')).toEqual([]);
    });

    it('a kill during the deadline work: the claim runs out and the next tick finishes it; a license found revoked counts as released', async () => {
      const { records, clock, revoked, r } = await roundStarted('release');
      // As a process killed after claiming the round and sending L1's revoke, before recording it.
      clock.now = new Date(T0 + 7 * DAY + 60_000);
      await records.db
        .updateTable('reclaim_rounds')
        .set({ claimed_until: new Date(clock.now.getTime() + 5 * 60_000).toISOString() })
        .execute();
      await records.db.updateTable('reclaim_asks').set({ state: 'expiring' }).where('license_id', '=', 'L1').execute();
      revoked.push('L1');
      expect((await r.tick()).closed).toBe(0); // still claimed
      clock.now = new Date(clock.now.getTime() + 6 * 60_000);
      expect((await r.tick()).closed).toBe(1);
      expect(revoked.sort()).toEqual(['L1', 'L3']); // L1 read back as inactive: no second DELETE
      const states = await records.db
        .selectFrom('reclaim_asks')
        .select(['license_id', 'state'])
        .orderBy('license_id')
        .execute();
      expect(states.map((s) => s.state)).toEqual(['released', 'released']);
    });

    it('a holder’s Release cut off by a kill is finished at the deadline, even when the round only lists', async () => {
      const { records, clock, revoked, r } = await roundStarted('list');
      await records.db.updateTable('reclaim_asks').set({ state: 'releasing' }).where('license_id', '=', 'L1').execute();
      clock.now = new Date(T0 + 7 * DAY + 60_000);
      expect((await r.tick()).closed).toBe(1);
      expect(revoked).toEqual(['L1']);
      const states = await records.db
        .selectFrom('reclaim_asks')
        .select(['license_id', 'state'])
        .orderBy('license_id')
        .execute();
      expect(states.map((s) => s.state)).toEqual(['released', 'unanswered']);
    });
  });
}
