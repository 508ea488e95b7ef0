/**
 * The local console's progress records: in the local demo, before the daily progress pass has run,
 * the progress store is empty and the digest (`/licenses digest`) would have nothing to chart. At the
 * first start on sandbox data this seeds what the pass would have recorded over the last weeks: each
 * active license's progress sixty days ago and two days ago (from the sandbox's own progress where it
 * has some), and each pool's seats forty days ago and now. Sandbox data only; never with real data.
 */
import type { Records } from '../../src/db/open.js';
import { observationOf, type ProgressObservation } from '../../src/domain/progress.js';
import type { LicensingClient, Logger } from '../../src/licensing/types.js';
import { createProgressStore } from '../../src/services/progress-store.js';

const DAY = 86_400_000;

export async function seedDemoProgress(
  records: Records,
  licensing: LicensingClient,
  now: Date,
  logger: Logger,
): Promise<void> {
  const store = createProgressStore(records);
  if ((await store.historyRows()) > 0) return;
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const pools = await licensing.pools.list({ priority: 'background' });
  const licenses = (await licensing.licenses.all({}, { priority: 'background' })).filter((l) => l.active);
  const observe = (i: number, progress: number, completed: string | null): ProgressObservation => {
    const l = licenses[i];
    if (!l) throw new Error('no such license');
    return observationOf(l, progress, completed);
  };
  // A quarter each: not started, stalled at 30 %, moving on to 75 %, completed two days ago.
  await store.record(
    licenses.map((_, i) => observe(i, [0, 30, 60, 50][i % 4] ?? 0, null)),
    at(-60),
  );
  await store.record(
    licenses.map((_, i) =>
      i % 4 === 3 ? observe(i, 100, at(-2).toISOString()) : observe(i, [0, 30, 75][i % 4] ?? 0, null),
    ),
    at(-2),
  );
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
  await store.recordPools(
    pools.map((p) => seats(p, Math.ceil(p.assignedLicenses / 3))),
    at(-40),
  );
  await store.recordPools(
    pools.map((p) => seats(p, Math.ceil(p.assignedLicenses / 6))),
    at(-15),
  );
  await store.recordPools(
    pools.map((p) => seats(p, 0)),
    at(0),
  );
  logger.info('console: demo progress records seeded for the digest', {
    licenses: licenses.length,
    pools: pools.length,
  });
}
