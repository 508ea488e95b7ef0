/** Pools namespace (licensing-api.md, Endpoints: /v1/pools, /v1/pool/{id}, its licenses, assign). */
import { cacheKeys, withInvalidation } from './cache-keys.js';
import type { ResourceDeps } from './resource-deps.js';
import { licenseListSchema, licenseSchema, poolListSchema, poolSchema } from './schemas.js';
import type { LicensingClient } from './types.js';

export function createPoolsResource({ request, cache, paginator }: ResourceDeps): LicensingClient['pools'] {
  const licenses: LicensingClient['pools']['licenses'] = (id, query, opts) =>
    request(
      {
        method: 'GET',
        template: '/v1/pool/{id}/licenses',
        params: { id },
        query: { ...query },
        schema: licenseListSchema,
      },
      opts,
    );
  return {
    list: (opts) =>
      cache.read(
        cacheKeys.pools,
        () => request({ method: 'GET', template: '/v1/pools', schema: poolListSchema }, opts),
        opts,
      ),
    get: (id, opts) =>
      cache.read(
        cacheKeys.pool(id),
        () => request({ method: 'GET', template: '/v1/pool/{id}', params: { id }, schema: poolSchema }, opts),
        opts,
      ),
    licenses,
    allLicenses: (id, query, opts) =>
      paginator.all((page, pageSize) => licenses(id, { ...query, page, pageSize }, opts)),
    assign: (id, body, opts) =>
      withInvalidation(
        cache,
        () =>
          request(
            { method: 'POST', template: '/v1/pool/{id}/license', params: { id }, body, schema: licenseSchema },
            opts,
          ),
        () => id,
      ),
  };
}
