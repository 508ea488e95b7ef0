/**
 * Leavers' records on SQLite and PostgreSQL: a hold made once per license (a second hold keeps the
 * first's dates; a cancelled one is held afresh), cancelled once, due by its date, claimed once, taken
 * over once after a kill, ended once; App Home's list; the sweep's week claimed once.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { createLeaverHolds } from '../../../src/leavers/db/holds.js';
import { testDatabases } from '../../support/records.js';

const DAY = 86_400_000;
const T0 = new Date('2026-03-02T03:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);
const seat = (licenseId: string, transferable = true) => ({
  licenseId,
  poolId: 'p1',
  courseTitle: 'DAX',
  transferable,
});

for (const database of testDatabases()) {
  describe.skipIf(database.skip !== undefined)(`leaver holds on ${database.dialect}`, () => {
    async function open() {
      const opened = await database.open();
      onTestFinished(() => opened.close());
      return createLeaverHolds(opened.records);
    }

    it('holds once, cancels once, holds afresh after a cancel', async () => {
      const store = await open();
      const hold = (since: Date, ids: string[]) =>
        store.hold({ email: 'a@x.com', slackUser: 'U1', since, due: at(7), seats: ids.map((id) => seat(id)) });
      expect(await hold(at(0), ['1', '2'])).toEqual(['1', '2']);
      expect(await hold(at(1), ['1', '2'])).toEqual([]);
      expect((await store.heldOf('a@x.com')).map((r) => r.since)).toEqual([at(0).toISOString(), at(0).toISOString()]);
      expect((await store.heldBySlackUser('U1'))?.student_email).toBe('a@x.com');
      expect((await store.cancel('a@x.com', at(2))).map((r) => r.license_id)).toEqual(['1', '2']);
      expect(await store.cancel('a@x.com', at(2))).toEqual([]);
      expect(await hold(at(3), ['1'])).toEqual(['1']);
      expect((await store.heldOf('a@x.com')).map((r) => r.since)).toEqual([at(3).toISOString()]);
    });

    it('due by date; claimed once; a claim of another run taken over once; ended once', async () => {
      const store = await open();
      await store.hold({ email: 'b@x.com', since: at(0), due: at(7), seats: [seat('3'), seat('4', false)] });
      expect(await store.due(at(6), 10)).toEqual([]);
      expect((await store.due(at(7), 10)).map((r) => r.license_id)).toEqual(['3', '4']);
      expect(await store.claim('3', 'run-1', at(7))).toBe(true);
      expect(await store.claim('3', 'run-2', at(7))).toBe(false);
      expect(await store.leftBy('run-1')).toEqual([]);
      const [left] = await store.leftBy('run-2');
      expect(left?.license_id).toBe('3');
      expect(await store.takeOver(left as NonNullable<typeof left>, 'run-2', at(7))).toBe(true);
      expect(await store.takeOver(left as NonNullable<typeof left>, 'run-3', at(7))).toBe(false);
      expect(await store.finish('3', 'returned', at(7))).toBe(true);
      expect(await store.finish('3', 'returned', at(7))).toBe(false);
      expect(await store.finish('4', 'listed', at(7), 'untransferable pool: only listed')).toBe(true);
      const { holds, total } = await store.listed(10, at(0));
      expect(total).toBe(1);
      expect(holds).toEqual([expect.objectContaining({ licenseId: '4', state: 'listed', transferable: false })]);
      expect((await store.listed(10, at(8))).total).toBe(0);
    });

    it('claims each week’s sweep once', async () => {
      const store = await open();
      expect(await store.claimWeek('2026-03-02', at(0))).toBe(true);
      expect(await store.claimWeek('2026-03-02', at(1))).toBe(false);
      await store.finishWeek('2026-03-02', at(1), { lookedUp: 5, found: 1 });
      expect(await store.claimWeek('2026-03-09', at(7))).toBe(true);
    });
  });
}
