/**
 * The automatic return's records on SQLite and PostgreSQL: which completed licenses are due (transferable
 * pools by their last stored day, completion first seen at least N days ago, active, never claimed,
 * oldest completion first, at most the cap), and the claim of a return: made once per license whoever
 * asks, taken over once when a killed process left it, ended once.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { createProgressReturns, type ReturnCandidate } from '../../../src/progress/db/returns.js';
import { createProgressStore } from '../../../src/progress/db/store.js';
import type { ProgressObservation } from '../../../src/progress/domain/progress.js';
import { testDatabases } from '../../support/records.js';

function seen(
  licenseId: string,
  poolId: string,
  progress: number,
  completed: string | null = null,
): ProgressObservation {
  return {
    licenseId,
    poolId,
    courseId: 'c1',
    studentId: `s-${licenseId}`,
    studentEmail: `Holder.${licenseId}@Contoso.com`,
    studentName: `Holder ${licenseId}`,
    progress,
    completed,
    start: '2026-01-05',
    end: '2026-12-31',
    active: true,
  };
}

const DAY = 86_400_000;
const T0 = new Date('2026-03-01T03:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);
const pool = (poolId: string, transferable: boolean) => ({
  poolId,
  licenses: 10,
  assigned: 10,
  available: 0,
  transferable,
  end: '2027-01-01',
});

for (const database of testDatabases()) {
  describe.skipIf(database.skip !== undefined)(`automatic return records on ${database.dialect}`, () => {
    async function open() {
      const opened = await database.open();
      onTestFinished(() => opened.close());
      const progress = createProgressStore(opened.records);
      // Pools: P1 transferable; P2 untransferable; P3 transferable, then untransferable on a later day.
      await progress.recordPools([pool('P1', true), pool('P2', false), pool('P3', true)], at(-3));
      await progress.recordPools([pool('P3', false)], at(-1));
      // Day -2: L0 already completed when first seen (its completion date is older still).
      await progress.record([seen('L0', 'P1', 100, '2026-02-20T10:00:00+00:00')], at(-2));
      // Day 0: L1 and L2 completed in P1, L3 at 100 % without a date, L4 in progress, L5 in the
      // untransferable pool, L6 in the pool that became untransferable.
      const held = [
        seen('L0', 'P1', 100, '2026-02-20T10:00:00+00:00'),
        seen('L1', 'P1', 100, at(0).toISOString()),
        seen('L2', 'P1', 100, at(0).toISOString()),
        seen('L3', 'P1', 100),
        seen('L4', 'P1', 60),
        seen('L5', 'P2', 100, at(0).toISOString()),
        seen('L6', 'P3', 100, at(0).toISOString()),
      ];
      await progress.record(held, at(0));
      // Day 5: L4 completes (too young for a while); L7 completed, and no longer held by day 6.
      held[4] = seen('L4', 'P1', 100, at(5).toISOString());
      const gone = seen('L7', 'P1', 100, at(5).toISOString());
      await progress.record([...held, gone], at(5));
      await progress.record(held, at(6));
      expect(await progress.closeUnseen(at(6))).toBe(1); // L7 was not seen by the day-6 pass
      return { records: opened.records, returns: createProgressReturns(opened.records) };
    }

    it('picks completed, held licenses of transferable pools N days after the completion was first seen, oldest first, capped', async () => {
      const { returns } = await open();
      const due = await returns.due(at(8), 7, 10);
      expect(due.map((c) => c.licenseId)).toEqual(['L0', 'L1', 'L2', 'L3']);
      expect(due[0]).toMatchObject({
        poolId: 'P1',
        studentEmail: 'holder.l0@contoso.com',
        completionSeenAt: at(-2).toISOString(),
        completedOn: '2026-02-20',
      });
      // 100 % without a date: the day the completion was first seen.
      expect(due.find((c) => c.licenseId === 'L3')?.completedOn).toBe('2026-03-01');
      // The cap, oldest completion first.
      expect((await returns.due(at(8), 7, 2)).map((c) => c.licenseId)).toEqual(['L0', 'L1']);
      // Seven days after day 5: L4 is due too; on day 11 it is not yet.
      expect((await returns.due(at(11), 7, 10)).map((c) => c.licenseId)).not.toContain('L4');
      expect((await returns.due(at(12), 7, 10)).map((c) => c.licenseId)).toContain('L4');
      // 0 days: due as soon as seen.
      expect((await returns.due(at(5), 0, 10)).map((c) => c.licenseId)).toEqual(['L0', 'L1', 'L2', 'L3', 'L4']);
    });

    it('claims a license once, whoever asks, and leaves claimed licenses out of what is due', async () => {
      const { returns } = await open();
      const [first] = await returns.due(at(8), 7, 1);
      const c = first as ReturnCandidate;
      // Two replicas at once: one claim wins.
      const both = await Promise.all([
        returns.claim(c, at(6).toISOString(), at(8), at(8.01)),
        returns.claim(c, at(6).toISOString(), at(8), at(8.01)),
      ]);
      expect(both.filter(Boolean)).toHaveLength(1);
      expect(await returns.claim(c, at(7).toISOString(), at(9), at(9.01))).toBe(false);
      expect((await returns.due(at(8), 7, 10)).map((x) => x.licenseId)).toEqual(['L1', 'L2', 'L3']);
      expect(await returns.get('L0')).toMatchObject({ state: 'returning', pass_started_at: at(6).toISOString() });
      expect(await returns.claimedBy(at(6).toISOString())).toBe(1);
      expect(await returns.claimedBy(at(7).toISOString())).toBe(0);
    });

    it('a claim a killed process left is taken over once, after it ran out; it ends once', async () => {
      const { returns } = await open();
      const due = await returns.due(at(8), 7, 2);
      for (const c of due) expect(await returns.claim(c, at(6).toISOString(), at(8), at(8.01))).toBe(true);
      // Still someone's: nothing to take over.
      expect(await returns.takeOver(at(8.005), at(8.1))).toEqual([]);
      // Run out: two takers at once share them, each license taken once.
      const [a, b] = await Promise.all([returns.takeOver(at(8.02), at(8.1)), returns.takeOver(at(8.02), at(8.1))]);
      expect([...a, ...b].map((r) => r.license_id).sort()).toEqual(['L0', 'L1']);
      expect(await returns.takeOver(at(8.03), at(8.1))).toEqual([]);
      // Ended once; an ended claim is never taken over again.
      const ends = await Promise.all(
        [1, 2].map(() => returns.transaction((tx) => tx.finish('L0', 'returned', at(8.04), { courseTitle: 'DAX' }))),
      );
      expect(ends.filter(Boolean)).toHaveLength(1);
      expect(await returns.get('L0')).toMatchObject({ state: 'returned', course_title: 'DAX' });
      expect((await returns.takeOver(at(9), at(9.1))).map((r) => r.license_id)).toEqual(['L1']);
      // A claim given up (nothing sent) is due again.
      await returns.drop('L1');
      expect((await returns.due(at(9), 7, 10)).map((x) => x.licenseId)).toEqual(['L1', 'L2', 'L3']);
      // An ended one is never dropped.
      await returns.drop('L0');
      expect(await returns.get('L0')).toMatchObject({ state: 'returned' });
    });

    it('what a read-back needs: claims still running, one take-over, the revokes recorded, who is alive, the completion', async () => {
      const { records, returns } = await open();
      const [c0, c1] = await returns.due(at(8), 7, 2);
      if (!c0 || !c1) throw new Error('two due');
      expect(await returns.claim(c0, at(8).toISOString(), at(8), at(8.01))).toBe(true);
      expect(await returns.claim(c1, at(8).toISOString(), at(8), at(8.01))).toBe(true);
      expect((await returns.running(at(8.005))).map((r) => r.license_id).sort()).toEqual(['L0', 'L1']);
      expect(await returns.running(at(8.02))).toEqual([]);
      // Taken over once: the second taker finds the claim moved.
      const row = (await returns.get('L0')) as NonNullable<Awaited<ReturnType<typeof returns.get>>>;
      expect(await returns.takeOverOne(row, at(8.1))).toBe(true);
      expect(await returns.takeOverOne(row, at(8.2))).toBe(false);
      expect(await returns.get('L0')).toMatchObject({ claimed_until: at(8.1).toISOString() });

      const intent = (id: string, instance: string, state: string, created: number, owner = 'license-desk') => ({
        id,
        kind: 'revoke',
        owner,
        subject: 'L0',
        pool_id: 'P1',
        instance,
        state,
        created_at: at(created).toISOString(),
        settled_at: null,
        body: '{}',
        outcome: null,
      });
      await records.db
        .insertInto('intents')
        .values([
          intent('i1', 'p-old', 'settled', 7),
          intent('i2', 'p-a', 'settled', 8.001),
          intent('i3', 'p-b', 'open', 8.002),
          intent('i4', 'p-c', 'open', 8.003, 'U0MGR00001'),
        ])
        .execute();
      expect(await returns.revokesSince('L0', row.claimed_at)).toEqual([
        { instance: 'p-b', state: 'open' },
        { instance: 'p-a', state: 'settled' },
      ]);
      expect(await returns.revokesSince('L1', row.claimed_at)).toEqual([]);
      await records.db
        .insertInto('instances')
        .values([
          { id: 'p-a', started_at: at(0).toISOString(), seen_at: at(8).toISOString() },
          { id: 'p-b', started_at: at(0).toISOString(), seen_at: at(6).toISOString() },
        ])
        .execute();
      const alive = await returns.seenSince(at(7));
      expect([alive.has('p-a'), alive.has('p-b')]).toEqual([true, false]);

      // The completion date the service gave, as the progress records keep it; none for an unknown license.
      expect(await returns.completionOf('L0')).toBe('2026-02-20T10:00:00+00:00');
      expect(await returns.completionOf('L3')).toBeNull();
      expect(await returns.completionOf('nope')).toBeUndefined();

      // A throw inside a transaction ends nothing.
      await expect(
        returns.transaction(async (tx) => {
          expect(await tx.finish('L1', 'returned', at(8.3), {})).toBe(true);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await returns.get('L1')).toMatchObject({ state: 'returning' });
    });
  });
}
