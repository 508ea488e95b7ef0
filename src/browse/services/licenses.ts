/** One license with its pool, for `show`: the pool decides which changes are allowed. */
import type { License, Pool } from '../../kernel/domain/types.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';

export interface LicenseDetails {
  license: License;
  /** Undefined when the pool is gone (404): the license is still worth showing. */
  pool: Pool | undefined;
}

export async function getLicenseDetails(licensing: LicensingClient, licenseId: string): Promise<LicenseDetails> {
  const license = await licensing.licenses.get(licenseId, INTERACTIVE);
  try {
    return { license, pool: await licensing.pools.get(license.poolId, INTERACTIVE) };
  } catch (error) {
    if (isLicensingError(error) && error.kind === 'not-found') return { license, pool: undefined };
    throw error;
  }
}
