/**
 * `/licenses expiring [days]`: the active licenses that end within `days`. The licensing API filters
 * licenses by nothing but `includeInactive` and documents no order (docs/commands.md section 3), so
 * every active license is read, all pages, at interactive priority, and the rule is applied here.
 */

import type { LicensingClient } from '../../kernel/licensing/types.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import { type ExpiringLicense, expiringWithin } from '../domain/expiring.js';

export async function listExpiringLicenses(
  licensing: LicensingClient,
  { days, now }: { days: number; now: Date },
): Promise<ExpiringLicense[]> {
  // Pools come from the read cache; they name each license's course and decide whether it can be extended.
  const [licenses, pools] = await Promise.all([
    licensing.licenses.all({ includeInactive: false }, INTERACTIVE),
    licensing.pools.list(INTERACTIVE),
  ]);
  return expiringWithin(licenses, new Map(pools.map((p) => [p.id, p])), days, now);
}
