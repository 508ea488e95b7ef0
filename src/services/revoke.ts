/** Revoking a license (DELETE /v1/license/{id}); an unclear answer is resolved by reading the license. */
import type { License } from '../domain/types.js';
import type { LicensingClient } from '../licensing/types.js';
import { INTERACTIVE } from './interactive.js';
import { runWrite, type WriteOutcome } from './write-outcome.js';

/** `before` is the license as read just before (for the answer and the audit: DELETE returns nothing). */
export function revokeLicense(licensing: LicensingClient, before: License): Promise<WriteOutcome<License>> {
  return runWrite(
    async () => {
      await licensing.licenses.revoke(before.id, INTERACTIVE);
      return { ...before, active: false };
    },
    async () => {
      const license = await licensing.licenses.get(before.id, INTERACTIVE);
      return license.active ? undefined : license;
    },
  );
}
