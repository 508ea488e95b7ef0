/** Pools namespace (licensing-api.md, Endpoints: /v1/pools, /v1/pool/{id}, its licenses, assign). */
import { poolOddities } from '../domain/pool-oddities.js';
import type { Pool } from '../domain/types.js';
import { cacheKeys, withInvalidation } from './cache-keys.js';
import type { ResourceDeps } from './resource-deps.js';
import { licenseListSchema, licenseSchema, poolListSchema, poolSchema } from './schemas.js';
import type { LicensingClient, Logger } from './types.js';

/**
 * A pool the service reports oddly (a negative count, more assigned than it has, no title, an end before
 * its start; domain/pool-oddities.ts) is accepted and logged once per pool and oddity, not on every read.
 */
function oddPoolReporter(logger: Logger | undefined) {
  const told = new Set<string>();
  return <T extends Pool | Pool[]>(read: T): T => {
    for (const pool of Array.isArray(read) ? read : [read]) {
      const odd = poolOddities(pool);
      if (odd.length === 0) continue;
      const key = `${pool.id}:${odd.map((o) => o.kind + ('field' in o ? `.${o.field}` : '')).join(',')}`;
      if (told.has(key)) continue;
      told.add(key);
      logger?.warn('licensing service reports an odd pool; shown with a warning', { pool: pool.id, oddities: odd });
    }
    return read;
  };
}

export function createPoolsResource(
  { request, cache, paginator }: ResourceDeps,
  logger?: Logger,
): LicensingClient['pools'] {
  const reportOdd = oddPoolReporter(logger);
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
        () => request({ method: 'GET', template: '/v1/pools', schema: poolListSchema }, opts).then(reportOdd),
        opts,
      ),
    get: (id, opts) =>
      cache.read(
        cacheKeys.pool(id),
        () =>
          request({ method: 'GET', template: '/v1/pool/{id}', params: { id }, schema: poolSchema }, opts).then(
            reportOdd,
          ),
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
