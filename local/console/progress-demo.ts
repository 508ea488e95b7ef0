/**
 * The local console's progress records: in the local demo, before the daily progress pass has run,
 * the progress store is empty and the digest (`/licenses digest`) would have nothing to chart. At the
 * first start on sandbox data this seeds what the pass would have recorded over the last weeks, and
 * only what agrees with the sandbox: each active license's progress as the sandbox tells it now (read
 * as the pass reads it, GET /v1/students), reached through an earlier reading, so that the first real
 * pass finds nothing changed.
 *
 * - A license is first seen 60 days ago, or at its start when it started later.
 * - A completed course is first seen completed on the day the sandbox says it was completed (or when
 *   the license was first seen, when that was later): the digest counts it in that week, and a course
 *   finished long ago counts in no week of the demo.
 * - Of the rest, one in three has not moved since it was first seen (the stalled and not started); the
 *   others were at half their progress then and reached it two days ago.
 * - Each pool's seats are recorded 40 and 15 days ago (fewer in use then) and today, never before the
 *   pool's start: a pool started this week has too little history for a forecast.
 *
 * Sandbox data only; never with real data.
 */
import type { Records } from '../../src/kernel/db/open.js';
import type { LicensingClient, Logger } from '../../src/kernel/licensing/types.js';
import { createProgressStore } from '../../src/progress/db/store.js';
import type { ProgressObservation } from '../../src/progress/domain/progress.js';
import { observationsOf } from '../../src/progress/services/progress-pass.js';

const DAY = 86_400_000;

export async function seedDemoProgress(
  records: Records,
  licensing: LicensingClient,
  now: Date,
  logger: Logger,
): Promise<void> {
  const store = createProgressStore(records);
  if ((await store.historyRows()) > 0) return;
  const at = (days: number) => now.getTime() + days * DAY;
  const pools = await licensing.pools.list({ priority: 'background' });
  // What the daily pass will read: every active license with the sandbox's own progress.
  const licenses = observationsOf(await licensing.students.all({}, { priority: 'background' }));
  const readings = new Map<number, ProgressObservation[]>();
  const read = (when: number, o: ProgressObservation) => {
    const list = readings.get(when) ?? [];
    if (list.length === 0) readings.set(when, list);
    list.push(o);
  };
  for (const [i, l] of licenses.entries()) {
    const start = Date.parse(l.start);
    const first = Math.min(at(0) - 1, Math.max(at(-60), Number.isNaN(start) ? at(-60) : start));
    const completedAt = l.completed === null ? Number.NaN : Date.parse(l.completed);
    if (l.completed !== null || l.progress >= 100) {
      // Completed: seen below 100 first, then completed on the sandbox's day (at the latest today).
      const done = Number.isNaN(completedAt) ? at(-1) : Math.min(at(0) - 1, completedAt);
      if (done > first) {
        read(first, { ...l, progress: Math.min(l.progress, 60), completed: null });
        read(done, l);
      } else read(first, l);
    } else if (i % 3 === 0 || l.progress <= 0 || first >= at(-2)) {
      read(first, l);
    } else {
      read(first, { ...l, progress: Math.floor(l.progress / 2) });
      read(at(-2), l);
    }
  }
  for (const when of [...readings.keys()].sort((a, b) => a - b)) {
    await store.record(readings.get(when) ?? [], new Date(when));
  }
  const seats = (p: (typeof pools)[number], less: number) => {
    const assigned = Math.max(0, p.assignedLicenses - less);
    return {
      poolId: p.id,
      licenses: p.licenses,
      assigned,
      available: p.licenses - assigned,
      transferable: p.transferable,
      end: p.end,
    };
  };
  const startedBy = (days: number) => (p: (typeof pools)[number]) => {
    const start = Date.parse(p.start);
    return Number.isNaN(start) || start <= at(days);
  };
  await store.recordPools(
    pools.filter(startedBy(-40)).map((p) => seats(p, Math.ceil(p.assignedLicenses / 3))),
    new Date(at(-40)),
  );
  await store.recordPools(
    pools.filter(startedBy(-15)).map((p) => seats(p, Math.ceil(p.assignedLicenses / 6))),
    new Date(at(-15)),
  );
  await store.recordPools(
    pools.map((p) => seats(p, 0)),
    new Date(at(0)),
  );
  logger.info('console: demo progress records seeded for the digest', {
    licenses: licenses.length,
    pools: pools.length,
  });
}
