/**
 * The progress pass and its views on SQLite and PostgreSQL: two replicas on one database, one runs
 * the day's pass while the other finds it held; App Home's counts per pool follow the standing rule;
 * the seats to give back are the completed licenses of transferable pools, most recent first.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { spreadBucket } from '../../../src/digest/domain/digest.js';
import type { Records } from '../../../src/kernel/db/open.js';
import type { Student } from '../../../src/kernel/domain/types.js';
import type { Logger } from '../../../src/kernel/licensing/types.js';
import { createProgressStore } from '../../../src/progress/db/store.js';
import { countStandings, DEFAULT_PROGRESS_THRESHOLDS } from '../../../src/progress/domain/progress.js';
import { createProgressPass } from '../../../src/progress/services/progress-pass.js';
import { returnableSeats } from '../../../src/progress/services/progress-views.js';
import { createFakeLicensing } from '../../support/fake-licensing.js';
import { inDays, makePool, makeStudent, makeStudentCourse, NOW } from '../../support/fixtures.js';
import { testDatabases } from '../../support/records.js';

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const DAY = 86_400_000;

/** 60 students in two pools (p-t transferable, p-u not): every fifth not started, every seventh completed. */
function account(): Student[] {
  return Array.from({ length: 60 }, (_, i) =>
    makeStudent({
      id: `s${i}`,
      email: `s${i}@contoso.com`,
      name: `S ${i}`,
      courses: [
        makeStudentCourse({
          licenseId: `L${String(i).padStart(3, '0')}`,
          poolId: i % 2 === 0 ? 'p-t' : 'p-u',
          start: inDays(-60),
          progress: i % 7 === 0 ? 100 : i % 5 === 0 ? 0 : 10 + i,
          completed: i % 7 === 0 ? inDays(-(i % 10)) : null,
        }),
      ],
    }),
  );
}

for (const database of testDatabases()) {
  describe.skipIf(database.skip !== undefined)(`the progress pass on ${database.dialect}`, () => {
    it('two replicas: one runs the pass, the other finds it held; counts and seats to return follow the rules', async () => {
      const opened = await database.open();
      onTestFinished(() => opened.close());
      const students = account();
      const licensing = createFakeLicensing({
        pools: [makePool({ id: 'p-t', transferable: true }), makePool({ id: 'p-u', transferable: false })],
        students,
        pageSize: 10,
      });
      let t = NOW.getTime();
      const now = () => new Date(t);
      const make = (records: Records) =>
        createProgressPass({
          licensing,
          records,
          logger,
          now,
          rateLimit: { limit: 25, windowMs: 60_000 },
          share: 1,
          sleep: async (ms) => {
            t += ms;
          },
        });
      const a = make(opened.records);
      const b = make({ ...opened.records, instance: 'replica-b' } as Records);
      const list = licensing.students.list;
      let heldForB: unknown;
      licensing.students.list = async (q, o) => {
        if (q?.page === 3 && heldForB === undefined) heldForB = await b.run();
        return list(q, o);
      };
      expect(await a.run()).toMatchObject({ kind: 'done', seen: 60, added: 60 });
      expect(heldForB).toMatchObject({ kind: 'held' });
      expect(await b.run()).toMatchObject({ kind: 'not-due' });

      // 40 days on, the standings counted in the database match the rule applied row by row.
      t += 40 * DAY;
      const store = createProgressStore(opened.records);
      const later = now();
      const counted = await store.standingCounts(later, DEFAULT_PROGRESS_THRESHOLDS);
      for (const poolId of ['p-t', 'p-u']) {
        const rows = await store.holders({ poolId });
        const expected = countStandings(rows, later);
        const spread = { zero: 0, low: 0, high: 0, completed: 0 };
        for (const r of rows) spread[spreadBucket(r)]++;
        expect(counted.find((c) => c.poolId === poolId)).toEqual({
          poolId,
          holders: rows.length,
          completed: expected.completed,
          notStarted: expected.notStarted,
          stalled: expected.stalled,
          zero: spread.zero,
          low: spread.low,
          high: spread.high,
        });
        expect(spread.completed).toBe(expected.completed);
      }
      expect(counted.reduce((n, c) => n + c.notStarted, 0)).toBeGreaterThan(0);
      expect(counted.reduce((n, c) => n + c.stalled, 0)).toBeGreaterThan(0);

      // Seats to give back: completed, in the transferable pool only, the most recent completion first.
      const { seats, total } = await returnableSeats(store, later, 3);
      const completedInT = students.filter((_, i) => i % 7 === 0 && i % 2 === 0);
      expect(total).toBe(completedInT.length);
      expect(seats).toHaveLength(3);
      expect(seats.every((s) => s.poolId === 'p-t')).toBe(true);
      const times = seats.map((s) => Date.parse(s.completedAt));
      expect([...times].sort((x, y) => y - x)).toEqual(times);
    });
  });
}
