/**
 * The learners' store (src/learners/db/store.ts) and the progress records' licenses ending soon
 * (src/progress/db/holders.ts `endingBetween`) on SQLite and PostgreSQL: a reminder recorded once per
 * license and end date (a second insert reports it, whichever replica makes it), the last one sent
 * per person, "Stop these reminders" remembered, and the ends compared by day whatever their form.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import type { License } from '../../../src/kernel/domain/types.js';
import { createLearnerStore } from '../../../src/learners/db/store.js';
import { createProgressStore } from '../../../src/progress/db/store.js';
import { observationOf } from '../../../src/progress/domain/progress.js';
import { testDatabases } from '../../support/records.js';

const license = (id: string, end: string, active = true): License => ({
  id,
  poolId: '2003',
  courseId: '302',
  start: '2026-01-01',
  end,
  active,
  revokable: true,
  editable: true,
  student: { id: `s${id}`, name: `Student ${id}`, email: `s${id}@contoso.com` },
});

for (const database of testDatabases()) {
  describe.skipIf(database.skip !== undefined)(`the learners' store on ${database.dialect}`, () => {
    async function open() {
      const opened = await database.open();
      onTestFinished(() => opened.close());
      return opened.records;
    }

    it('a reminder is recorded once per license and end date; the last one per person; stop is remembered', async () => {
      const store = createLearnerStore(await open());
      const at = '2026-11-25T10:00:00.000Z';
      expect(await store.lastReminderAt('U1')).toBeUndefined();
      expect(await store.recordSent([{ licenseId: 'L1', endDay: '2026-12-01', slackUser: 'U1' }], at)).toBe(true);
      expect(await store.recordSent([{ licenseId: 'L1', endDay: '2026-12-01', slackUser: 'U1' }], at)).toBe(false);
      expect(await store.recordSent([{ licenseId: 'L1', endDay: '2027-01-01', slackUser: 'U1' }], at)).toBe(true);
      expect(await store.lastReminderAt('U1')).toBe(at);
      const done = await store.remindedOf([{ licenseId: 'L1', endDay: '2026-12-01' }]);
      expect([...done].sort()).toEqual(['L1|2026-12-01', 'L1|2027-01-01']);
      expect(await store.remindersOff('U1')).toBe(false);
      await store.setRemindersOff('U1', true, at);
      expect(await store.remindersOff('U1')).toBe(true);
      await store.setRemindersOff('U1', false, at);
      expect(await store.remindersOff('U1')).toBe(false);
    });

    it('endingBetween: active licenses ending after the first day and by the last, a date or a time', async () => {
      const progress = createProgressStore(await open());
      const seen = [
        license('1', '2026-11-25'),
        license('2', '2026-11-26T23:59:59+00:00'),
        license('3', '2026-12-02'),
        license('4', '2026-12-03'),
        license('5', '2026-11-30', false),
      ].map((l) => ({ ...observationOf(l, 10), active: l.active }));
      await progress.record(seen, new Date('2026-11-25T10:00:00.000Z'));
      const ending = await progress.endingBetween('2026-11-25', '2026-12-02');
      expect(ending.map((p) => p.licenseId)).toEqual(['2', '3']);
    });
  });
}
