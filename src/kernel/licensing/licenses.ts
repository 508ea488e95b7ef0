/** Licenses namespace (licensing-api.md, Endpoints: /v1/licenses, /v1/license/{id}). */
import { withInvalidation } from './cache-keys.js';
import { pagedList, type ResourceDeps } from './resource-deps.js';
import { anySchema, licenseListSchema, licenseSchema } from './schemas.js';
import type { LicensingClient } from './types.js';

export function createLicensesResource(deps: ResourceDeps): LicensingClient['licenses'] {
  const { request, cache } = deps;
  return {
    ...pagedList(deps, '/v1/licenses', licenseListSchema),
    get: (id, opts) =>
      request({ method: 'GET', template: '/v1/license/{id}', params: { id }, schema: licenseSchema }, opts),
    // The PATCH answer names the pool; when it fails we do not know it, so every pool entry goes.
    changeEndDate: (id, endDate, opts) =>
      withInvalidation(
        cache,
        () =>
          request(
            { method: 'PATCH', template: '/v1/license/{id}', params: { id }, body: { endDate }, schema: licenseSchema },
            opts,
          ),
        (license) => license?.poolId,
      ),
    // DELETE does not say which pool the license came from: every pool entry goes.
    revoke: (id, opts) =>
      withInvalidation(
        cache,
        async () => {
          await request({ method: 'DELETE', template: '/v1/license/{id}', params: { id }, schema: anySchema }, opts);
        },
        () => undefined,
      ),
  };
}
