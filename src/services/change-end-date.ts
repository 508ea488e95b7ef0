/** Changing a license's end date (PATCH /v1/license/{id}); an unclear answer is resolved by reading the license. */
import { dayOf, today } from '../domain/end-date.js';
import type { License } from '../domain/types.js';
import type { LicensingClient } from '../licensing/types.js';
import { INTERACTIVE } from './interactive.js';
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
