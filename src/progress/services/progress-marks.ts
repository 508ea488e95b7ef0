/**
 * License Desk's own changes in its progress records, at once (docs/progress.md, "License Desk's own
 * changes"). The daily pass learns what changed elsewhere; what License Desk itself changes it knows
 * the moment the licensing service says so: a revoke (Revoke now, Return this seat, a recycle, a reclaim
 * release, an automatic return) ends the license in the records, an assign adds it, a new end date (an
 * extend, a date in the past) is stored. So App Home, the digest and the lists agree with the change
 * without waiting a day for the next pass.
 *
 * It wraps the licensing client every use case calls, so no write path can forget it: after a write the
 * service confirmed (or a fresh read of one license), the records are updated. A failure to update them
 * is logged and never fails the write (the next pass puts the records right).
 */
import { defaultRecycleCandidate, isFull } from '../../changes/index.js';
import type { License } from '../../kernel/domain/types.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { ProgressStore } from '../db/store.js';
import type { LicenseProgress } from '../domain/progress.js';

export type ProgressMarksStore = Pick<ProgressStore, 'markEnded' | 'noteLicense' | 'holders'>;

/** The license `recycle: true` would end among those the records hold in the pool. */
function oldestHeld(held: readonly LicenseProgress[], now: Date): string | undefined {
  return defaultRecycleCandidate(
    held.map((h) => ({ id: h.licenseId, active: h.active, start: h.start, end: h.end })),
    now,
  )?.id;
}

export function withProgressMarks(
  licensing: LicensingClient,
  store: ProgressMarksStore,
  logger: Logger,
  now: () => Date,
): LicensingClient {
  const safely = async (what: string, licenseId: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      logger.warn('progress records: could not note a change of License Desk', {
        what,
        licenseId,
        error: String(error),
      });
    }
  };
  const noted = (what: string, license: License, add = false) =>
    safely(what, license.id, () => store.noteLicense(license, now(), { add }));
  return {
    ...licensing,
    pools: {
      ...licensing.pools,
      async assign(id, body, opts) {
        // `recycle: true` on a full pool ends its oldest running license (the API's rule): which one, as
        // the records know the pool, is found before the write changes it. The pool read usually comes
        // from the client's cache, which the recycle's own checks just filled; when it does not, it goes
        // at the write's own priority, so a person's assign never waits behind background work for it.
        const recycled =
          body.recycle === true
            ? await licensing.pools
                .get(id, { priority: opts?.priority ?? 'interactive' })
                .then(async (pool) =>
                  isFull(pool) ? oldestHeld(await store.holders({ poolId: id }), now()) : undefined,
                )
                .catch(() => undefined)
            : undefined;
        const license = await licensing.pools.assign(id, body, opts);
        await noted('assign', license, true);
        if (recycled !== undefined && recycled !== license.id)
          await safely('recycle', recycled, () => store.markEnded(recycled));
        return license;
      },
    },
    licenses: {
      ...licensing.licenses,
      async get(id, opts) {
        const license = await licensing.licenses.get(id, opts);
        // A fresh read that finds a license ended (elsewhere, or by a write whose answer was lost).
        await noted('read', license);
        return license;
      },
      async changeEndDate(id, endDate, opts) {
        const license = await licensing.licenses.changeEndDate(id, endDate, opts);
        await noted('end date', license);
        return license;
      },
      async revoke(id, opts) {
        await licensing.licenses.revoke(id, opts);
        await safely('revoke', id, () => store.markEnded(id));
      },
    },
  };
}
