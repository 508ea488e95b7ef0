/**
 * The digest's reads on SQLite and PostgreSQL (docs/digest.md): the holders counted per pool by
 * progress spread and standing in the database, at each boundary of the spread and of the standings;
 * a names list read in the order it is shown, only as many as asked; and the whole digest, which must
 * say what the rules say when applied to every holder one by one.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  DIGEST_LISTED,
  type DigestHolder,
  type ProgressSpread,
  spreadBucket,
} from '../../../src/digest/domain/digest.js';
import { computeDigest, type DigestSources } from '../../../src/digest/services/digest.js';
import type { Pool } from '../../../src/kernel/domain/types.js';
import { createProgressStore, type ProgressStore } from '../../../src/progress/db/store.js';
import {
  DEFAULT_PROGRESS_THRESHOLDS,
  type LicenseProgress,
  type ProgressObservation,
  progressStanding,
} from '../../../src/progress/domain/progress.js';
import { testDatabases } from '../../support/records.js';

const DAY = 86_400_000;
const NOW = new Date('2026-11-30T09:00:00.000Z');
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

function seen(licenseId: string, poolId: string, progress: number, over: Partial<ProgressObservation> = {}) {
  return {
    licenseId,
    poolId,
    courseId: `c-${poolId}`,
    studentId: `s-${licenseId}`,
    studentEmail: `${licenseId.toLowerCase()}@school.example`,
    studentName: `Holder ${licenseId}`,
    progress,
    completed: null,
    start: at(-100).toISOString(),
    end: at(200).toISOString(),
    active: true,
    ...over,
  } satisfies ProgressObservation;
}

function pool(id: string, courseId: string, title: string, o: Partial<Pool> = {}): Pool {
  return {
    id,
    start: at(-200).toISOString(),
    end: at(300).toISOString(),
    transferable: false,
    licenses: 100,
    assignedLicenses: 40,
    availableLicenses: 60,
    course: { id: courseId, title },
    ...o,
  };
}

for (const database of testDatabases()) {
  describe.skipIf(database.skip !== undefined)(`the digest's reads on ${database.dialect}`, () => {
    async function store(): Promise<ProgressStore> {
      const opened = await database.open();
      onTestFinished(() => opened.close());
      return createProgressStore(opened.records);
    }

    it('counts each pool by spread and standing, at every boundary, active holders only', async () => {
      const s = await store();
      // Sixty days ago: everyone's first sighting.
      await s.record(
        [
          seen('Z0', 'P1', 0),
          seen('L49', 'P1', 49),
          seen('H50', 'P1', 50),
          seen('H99', 'P1', 90),
          seen('CD', 'P1', 60, { completed: at(-3).toISOString() }),
          seen('C100', 'P1', 100),
          seen('GONE', 'P1', 30, { active: false }),
          seen('GONE0', 'P1', 0, { active: false }),
          // Started 14 days ago to the millisecond (not started), and one millisecond later (too new).
          seen('Z14', 'P2', 0, { start: at(-14).toISOString() }),
          seen('Z13', 'P2', 0, { start: new Date(at(-14).getTime() + 1).toISOString() }),
        ],
        at(-60),
      );
      // Last changed 30 days ago to the millisecond (stalled), and one millisecond later (not yet).
      await s.record([seen('S30', 'P2', 20)], at(-31));
      await s.record([seen('S30', 'P2', 21)], at(-30));
      await s.record([seen('S29', 'P2', 20)], at(-31));
      await s.record([seen('S29', 'P2', 21)], new Date(at(-30).getTime() + 1));
      // Five days ago: H99 moved on (not stalled); the others seen unchanged.
      await s.record([seen('H99', 'P1', 99), seen('L49', 'P1', 49)], at(-5));

      const counted = await s.standingCounts(NOW, DEFAULT_PROGRESS_THRESHOLDS);
      expect(counted).toEqual([
        {
          poolId: 'P1',
          holders: 6,
          zero: 1, // Z0
          low: 1, // L49
          high: 2, // H50, H99
          completed: 2, // CD (a date at 60 %), C100 (100 % without a date)
          notStarted: 1, // Z0
          stalled: 2, // L49, H50: no change for 60 days
        },
        { poolId: 'P2', holders: 4, zero: 2, low: 2, high: 0, completed: 0, notStarted: 1, stalled: 1 },
      ]);
      // The same as the rules applied to each active holder.
      for (const c of counted) {
        const rows = await s.holders({ poolId: c.poolId });
        const spread: ProgressSpread = { zero: 0, low: 0, high: 0, completed: 0 };
        for (const r of rows) spread[spreadBucket(r)]++;
        const standing = (k: string) => rows.filter((r) => progressStanding(r, NOW) === k).length;
        expect(c).toMatchObject({
          holders: rows.length,
          ...spread,
          notStarted: standing('not-started'),
          stalled: standing('stalled'),
        });
      }
      expect((await s.holders({ poolId: 'P2' })).filter((r) => progressStanding(r, NOW) === 'stalled')).toEqual([
        expect.objectContaining({ licenseId: 'S30' }),
      ]);
    });

    it("lists a standing's holders by the pool's place, then the name whatever its case, at most as asked", async () => {
      const s = await store();
      const names: [string, string, string][] = [
        ['A1', 'PA', 'walter'],
        ['A2', 'PA', 'Anna'],
        ['A3', 'PB', 'bert'],
        ['A4', 'PB', 'Carla'],
        ['A5', 'PC', 'aaron'],
        ['A6', 'PA', 'Anna'],
        ['A7', 'PD', 'Zed'], // a pool not asked for
      ];
      await s.record(
        names.map(([id, poolId, name]) => seen(id, poolId, 0, { studentName: name })),
        at(-60),
      );
      await s.record(
        [
          seen('X1', 'PA', 0, { studentName: 'Ada', active: false }), // no longer held
          seen('X2', 'PA', 100, { studentName: 'Abe' }), // completed
          seen('X3', 'PA', 0, { studentName: 'Al', start: at(-3).toISOString() }), // too new to count
        ],
        at(-1),
      );
      const places = new Map([
        ['PC', 1],
        ['PA', 0],
        ['PB', 0],
      ]);
      type Query = Parameters<typeof s.listHolders>[0];
      const list = (limit: number, standing: Query['standing'] = 'not-started', pools: Query['pools'] = places) =>
        s.listHolders({ standing, pools, limit, now: NOW, thresholds: DEFAULT_PROGRESS_THRESHOLDS });
      // Place 0 (PA and PB mixed by name, A–Z whatever the case; the same name by license id), then PC.
      expect((await list(10)).map((h) => h.licenseId)).toEqual(['A2', 'A6', 'A3', 'A4', 'A1', 'A5']);
      expect((await list(3)).map((h) => h.licenseId)).toEqual(['A2', 'A6', 'A3']);
      const [first] = await list(1);
      expect(first).toMatchObject({ licenseId: 'A2', studentName: 'Anna', poolId: 'PA', progress: 0 });
      expect((await list(10, 'open', new Map([['PA', 0]]))).map((h) => h.licenseId)).toEqual(['X3', 'A2', 'A6', 'A1']);
      expect((await list(10, 'completed', new Map([['PA', 0]]))).map((h) => h.licenseId)).toEqual(['X2']);
      expect(await list(10, 'stalled', new Map())).toEqual([]);
    });

    it('the digest says what the rules say of every holder: spreads, standings, totals and the first names', async () => {
      const s = await store();
      // Four courses (titles out of id order), two pools each; one pool transferable, one ending soon,
      // one ended (left out). 40 holders a pool, of every kind.
      const pools = [
        pool('P10', 'c1', 'Welding'),
        pool('P11', 'c1', 'Welding', { transferable: true }),
        pool('P20', 'c2', 'Accounting', { end: at(20).toISOString() }),
        pool('P21', 'c2', 'Accounting'),
        pool('P30', 'c3', 'Baking'),
        pool('P31', 'c3', 'Baking', { end: at(-1).toISOString() }),
        pool('P40', 'c4', 'Carpentry', { transferable: true, end: at(45).toISOString() }),
        pool('P41', 'c4', 'Carpentry'),
      ];
      const kinds = [0, 10, 49, 50, 99, 100] as const;
      const first: ProgressObservation[] = [];
      const later: ProgressObservation[] = [];
      let n = 0;
      for (const p of pools) {
        for (let k = 0; k < 40; k++) {
          const id = `L${String(++n).padStart(3, '0')}`;
          // Names in an order unlike the ids, so the list's order is the names'.
          const name = `Holder ${String((n * 37) % 1000).padStart(4, '0')}`;
          const progress = kinds[k % kinds.length] ?? 0;
          const o = seen(id, p.id, progress, {
            studentName: name,
            completed: k % 12 === 7 ? at(-2).toISOString() : null,
            start: (k % 8 === 0 ? at(-5) : at(-100)).toISOString(),
            active: k % 11 !== 3,
          });
          first.push(o);
          // A third moved on since: not stalled.
          later.push(k % 3 === 0 && progress > 0 && progress < 99 ? { ...o, progress: progress + 1 } : o);
        }
      }
      await s.record(first, at(-60));
      await s.record(later, at(-4));

      // The licensing client's pools list (the digest reads nothing else of it).
      const licensing = { pools: { list: async () => pools } } as unknown as DigestSources['licensing'];
      const d = await computeDigest({ licensing, store: s }, NOW);

      const running = pools.filter((p) => Date.parse(p.end) > NOW.getTime());
      const title = new Map(running.map((p) => [p.id, p.course.title]));
      const rows = (await s.holders()).filter((h) => title.has(h.poolId));
      const standing = (h: LicenseProgress) => progressStanding(h, NOW);
      // Spreads per course, as each holder falls.
      for (const c of d.courses) {
        const spread: ProgressSpread = { zero: 0, low: 0, high: 0, completed: 0 };
        for (const h of rows) if (title.get(h.poolId) === c.title) spread[spreadBucket(h)]++;
        expect(c.spread).toEqual(spread);
      }
      const transferable = new Set(running.filter((p) => p.transferable).map((p) => p.id));
      const ending = new Set(d.endingSoon.map((p) => p.poolId));
      expect([...ending].sort()).toEqual(['P20', 'P40']);
      expect(d.courses.flatMap((c) => c.pools.map((p) => p.poolId))).not.toContain('P31');
      const byOrder = (a: LicenseProgress, b: LicenseProgress) =>
        (title.get(a.poolId) ?? '').localeCompare(title.get(b.poolId) ?? '') ||
        a.studentName.localeCompare(b.studentName) ||
        a.licenseId.localeCompare(b.licenseId);
      const expected = (keep: (h: LicenseProgress) => boolean) => {
        const all = rows.filter(keep).sort(byOrder);
        return { total: all.length, ids: all.slice(0, DIGEST_LISTED).map((h) => h.licenseId) };
      };
      const got = (l: { total: number; listed: DigestHolder[] } | undefined) => ({
        total: l?.total,
        ids: l?.listed.map((h) => h.licenseId),
      });
      const lists = {
        stalled: expected((h) => standing(h) === 'stalled'),
        notStarted: expected((h) => standing(h) === 'not-started'),
        completedTransferable: expected((h) => transferable.has(h.poolId) && standing(h) === 'completed'),
        endingSoon: expected((h) => ending.has(h.poolId) && standing(h) !== 'completed'),
      };
      expect(got(d.names?.stalled)).toEqual(lists.stalled);
      expect(got(d.names?.notStarted)).toEqual(lists.notStarted);
      expect(got(d.names?.completedTransferable)).toEqual(lists.completedTransferable);
      expect(got(d.names?.endingSoon)).toEqual(lists.endingSoon);
      // Lists long enough to be cut, spread over several courses, and one short.
      expect(lists.notStarted.total).toBeGreaterThan(DIGEST_LISTED);
      expect(lists.endingSoon.total).toBeGreaterThan(DIGEST_LISTED);
      expect(lists.completedTransferable.total).toBeLessThan(DIGEST_LISTED);
      expect(d.totals).toMatchObject({
        holders: rows.length,
        stalled: lists.stalled.total,
        notStarted: lists.notStarted.total,
        completedTransferable: lists.completedTransferable.total,
      });
      // Each named holder carries its course, progress and standing.
      const h = d.names?.notStarted.listed[0];
      const row = rows.find((r) => r.licenseId === h?.licenseId);
      expect(h).toEqual({
        licenseId: row?.licenseId,
        poolId: row?.poolId,
        courseTitle: title.get(row?.poolId ?? ''),
        name: row?.studentName,
        email: row?.studentEmail,
        progress: row?.progress,
        standing: 'not-started',
      });
    });
  });
}
