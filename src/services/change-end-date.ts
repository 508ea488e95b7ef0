/** Changing a license's end date (PATCH /v1/license/{id}); an unclear answer is resolved by reading the license. */
import { classifyNewEndDate, dayOf, type EndDateBlocker, endDateBlocker, today } from '../domain/end-date.js';
import type { License, Pool } from '../domain/types.js';
import type { LicensingClient } from '../licensing/types.js';
import { INTERACTIVE } from './interactive.js';
import { getLicenseDetails } from './licenses.js';
import { runWrite, type WriteOutcome } from './write-outcome.js';

export function changeEndDate(
  licensing: LicensingClient,
  licenseId: string,
  day: string,
  now: Date,
): Promise<WriteOutcome<License>> {
  return runWrite(
    () => licensing.licenses.changeEndDate(licenseId, day, INTERACTIVE),
    async () => {
      const license = await licensing.licenses.get(licenseId, INTERACTIVE);
      // A past day ends the license (rule 3); a future one must show as its new end.
      const applied = day < today(now) ? !license.active : dayOf(license.end) === day;
      return applied ? license : undefined;
    },
  );
}

/** Why a new end date is not sent, from the license and its pool as they are now. */
export type EndDateRefusal =
  | { kind: EndDateBlocker }
  | { kind: 'after-pool-end'; poolEnd: string }
  | { kind: 'unchanged' };

/**
 * The PATCH rules on fresh reads (the license is never cached; its pool's transferability and end
 * do not change), for a license id and a day that came back from a form: the license must still be
 * changeable (endDateBlocker) and the day within the pool and a real change.
 */
export async function checkEndDateChange(
  licensing: LicensingClient,
  licenseId: string,
  day: string,
  now: Date,
): Promise<{ license: License; pool: Pool | undefined; refusal: EndDateRefusal | undefined }> {
  const { license, pool } = await getLicenseDetails(licensing, licenseId);
  const blocker = endDateBlocker(license, pool, now);
  if (blocker || !pool) return { license, pool, refusal: { kind: blocker ?? 'pool-unknown' } };
  const change = classifyNewEndDate(day, license, pool, now);
  if (change.kind === 'after-pool-end' || change.kind === 'unchanged') return { license, pool, refusal: change };
  return { license, pool, refusal: undefined };
}
