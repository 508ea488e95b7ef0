/**
 * The progress records on SQLite and PostgreSQL: a pass that sees nothing new writes no history row,
 * a change writes one, a license the next whole pass no longer sees stops counting as held, the
 * completion of a course is found in the week it appeared, and a pool's seats are kept per day they
 * changed, with the day before a window as its baseline.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { createProgressStore } from '../../../src/progress/db/store.js';
import type { ProgressObservation } from '../../../src/progress/domain/progress.js';
import { testDatabases } from '../../support/records.js';

function seen(licenseId: string, progress: number, over: Partial<ProgressObservation> = {}): ProgressObservation {
  return {
    licenseId,
    poolId: '2003',
    courseId: 'c1',
    studentId: `s-${licenseId}`,
    studentEmail: `Holder.${licenseId}@Contoso.com`,
    studentName: `Holder ${licenseId}`,
    progress,
    completed: null,
    start: '2026-01-05',
    end: '2026-12-31',
    active: true,
    ...over,
  };
}

const DAY = 86_400_000;
const T0 = new Date('2026-03-01T03:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);

for (const database of testDatabases()) {
  describe.skipIf(database.skip !== undefined)(`progress records on ${database.dialect}`, () => {
    async function store() {
      const opened = await database.open();
      onTestFinished(() => opened.close());
      return createProgressStore(opened.records);
    }

    it('writes a history row only when progress or completion changes, and keeps when it last changed', async () => {
      const s = await store();
      expect(await s.record([seen('L1', 0), seen('L2', 40)], at(0))).toEqual({ seen: 2, added: 2, changed: 0 });
      // Ten daily passes that see the same: no new rows.
      for (let d = 1; d <= 10; d++) {
        expect(await s.record([seen('L1', 0), seen('L2', 40)], at(d))).toEqual({ seen: 2, added: 0, changed: 0 });
      }
      expect(await s.historyRows()).toBe(2);
      expect(await s.record([seen('L1', 0), seen('L2', 55)], at(11))).toEqual({ seen: 2, added: 0, changed: 1 });
      expect(await s.historyRows()).toBe(3);

      const [l1, l2] = await s.holders({ poolId: '2003' });
      expect(l1).toMatchObject({
        licenseId: 'L1',
        progress: 0,
        changedAt: at(0).toISOString(),
        seenAt: at(11).toISOString(),
      });
      expect(l2).toMatchObject({
        licenseId: 'L2',
        progress: 55,
        studentEmail: 'holder.l2@contoso.com',
        firstSeenAt: at(0).toISOString(),
        changedAt: at(11).toISOString(),
      });
      expect((await s.historyOf('L2')).map((h) => h.progress)).toEqual([40, 55]);
      expect(await s.holders({ email: 'HOLDER.L1@contoso.com' })).toHaveLength(1);
      expect(await s.holders({ licenseIds: ['L2', 'nope'] })).toHaveLength(1);
    });

    it('a license the next whole pass does not see is no longer held', async () => {
      const s = await store();
      await s.record([seen('L1', 10), seen('L2', 20)], at(0));
      const passStart = at(1);
      await s.record([seen('L2', 20)], at(1));
      expect(await s.closeUnseen(passStart)).toBe(1);
      expect((await s.holders()).map((h) => h.licenseId)).toEqual(['L2']);
      expect((await s.holders({ includeInactive: true })).map((h) => h.licenseId)).toEqual(['L1', 'L2']);
    });

    it('finds each completion once, in the window where it first appeared', async () => {
      const s = await store();
      await s.record([seen('L1', 90), seen('L2', 30)], at(0));
      await s.record([seen('L1', 100, { completed: at(2).toISOString() }), seen('L2', 30)], at(2));
      // A later change of a completed license (its end date moved, progress stays) is not a second completion.
      await s.record([seen('L1', 100, { completed: at(2).toISOString(), end: '2027-01-31' }), seen('L2', 35)], at(9));
      expect((await s.completedBetween(at(0), at(7))).map((c) => c.licenseId)).toEqual(['L1']);
      expect(await s.completedBetween(at(7), at(14))).toEqual([]);
    });

    it('counts a completion once, on the day first seen; one finished before License Desk watched is no completion of that week', async () => {
      const s = await store();
      // First seen already completed: L3 long ago (the service's date), L4 within the week, L5 without a date.
      await s.record(
        [
          seen('L3', 100, { completed: at(-200).toISOString() }),
          seen('L4', 100, { completed: at(1).toISOString() }),
          seen('L5', 100),
          seen('L6', 50),
        ],
        at(2),
      );
      // L6 completes on day 3; the service later moves its completion date (a new row, no second completion).
      await s.record([seen('L6', 100, { completed: at(3).toISOString() })], at(3));
      await s.record([seen('L6', 100, { completed: at(2).toISOString() })], at(4));
      // L6 seen below 100 again, then completed again: still one completion.
      await s.record([seen('L6', 90)], at(5));
      await s.record([seen('L6', 100, { completed: at(6).toISOString() })], at(6));
      expect((await s.completedBetween(at(0), at(7))).map((c) => [c.licenseId, c.at])).toEqual([
        ['L4', at(2).toISOString()],
        ['L6', at(3).toISOString()],
      ]);
      expect(await s.completedBetween(at(7), at(14))).toEqual([]);
    });

    it("License Desk's own changes: a revoke ends the license at once, an assign adds it, a new end date is kept", async () => {
      const s = await store();
      await s.record([seen('L1', 100, { completed: at(0).toISOString() }), seen('L2', 20)], at(0));
      const license = (id: string, over: Partial<{ active: boolean; end: string }> = {}) => ({
        id,
        poolId: '2003',
        courseId: 'c1',
        start: at(1).toISOString(),
        end: '2026-12-31',
        active: true,
        revokable: true,
        editable: true,
        student: { id: `s-${id}`, name: `Holder ${id}`, email: `Holder.${id}@Contoso.com` },
        ...over,
      });
      // A revoke: no longer held, counted nowhere; a second mark changes nothing.
      expect(await s.markEnded('L1')).toBe(true);
      expect(await s.markEnded('L1')).toBe(false);
      expect((await s.holders()).map((h) => h.licenseId)).toEqual(['L2']);
      expect((await s.standingCounts(at(1), { notStartedDays: 14, stalledDays: 30 }))[0]).toMatchObject({
        holders: 1,
        completed: 0,
      });
      expect((await s.completedInTransferable(10)).total).toBe(0);
      // An assign: held at once, at 0 %, with its first history row; a read of a license never seen adds nothing.
      expect(await s.noteLicense(license('L7'), at(1), { add: true })).toBe('added');
      expect(await s.noteLicense(license('L8'), at(1))).toBe('same');
      expect(await s.holders({ licenseIds: ['L7'] })).toMatchObject([
        {
          licenseId: 'L7',
          progress: 0,
          active: true,
          studentEmail: 'holder.l7@contoso.com',
          firstSeenAt: at(1).toISOString(),
        },
      ]);
      expect((await s.historyOf('L7')).map((h) => h.progress)).toEqual([0]);
      // The next pass sees its real progress: one change, no second "added".
      expect(await s.record([seen('L7', 10)], at(2))).toEqual({ seen: 1, added: 0, changed: 1 });
      // A new end date is kept; one in the past (or a read that finds the license ended) ends it.
      expect(await s.noteLicense(license('L2', { end: '2027-01-31' }), at(2))).toBe('changed');
      expect((await s.holders({ licenseIds: ['L2'] }))[0]?.end).toBe('2027-01-31');
      expect(await s.noteLicense(license('L2', { end: at(1).toISOString() }), at(2))).toBe('changed');
      expect(await s.noteLicense(license('L7', { active: false }), at(3))).toBe('changed');
      expect(await s.holders()).toEqual([]);
    });

    it("keeps a pool's seats per day they changed, with the window's baseline first", async () => {
      const s = await store();
      const pool = (assigned: number) => ({
        poolId: '2003',
        licenses: 8,
        assigned,
        available: 8 - assigned,
        transferable: true,
        end: '2026-12-31',
      });
      expect(await s.recordPools([pool(5)], at(0))).toBe(1);
      expect(await s.recordPools([pool(5)], at(1))).toBe(0);
      expect(await s.recordPools([pool(6)], at(3))).toBe(1);
      expect(await s.recordPools([pool(7)], at(3))).toBe(1); // the same day again: that day's row changes
      expect(await s.recordPools([pool(8)], at(10))).toBe(1);
      const usage = await s.poolUsage(at(5));
      expect(usage.map((u) => [u.day, u.assigned])).toEqual([
        ['2026-03-04', 7],
        ['2026-03-11', 8],
      ]);
      expect((await s.poolUsage(at(0), '2003')).map((u) => u.assigned)).toEqual([5, 7, 8]);
    });
  });
}
