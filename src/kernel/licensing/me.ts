/** Me namespace (licensing-api-extras.md, GET /v1/me). */
import type { Me } from '../domain/types.js';
import { cacheKeys } from './cache-keys.js';
import type { ResourceDeps } from './resource-deps.js';
import { meSchema } from './schemas.js';
import type { CallOptions } from './types.js';

/**
 * The allowed e-mail domains for transferable licenses, read from GET /v1/me and kept for the read
 * cache's TTL even across writes (a write changes me's license totals, never its domains). Every
 * assign checks them: kept apart, a run of assignments does not read me again after each write.
 */
export function createAllowedDomainsResource({
  request,
  cache,
}: ResourceDeps): (opts?: CallOptions) => Promise<string[]> {
  return (opts) =>
    cache.read(
      cacheKeys.allowedDomains,
      async () =>
        (await request({ method: 'GET', template: '/v1/me', schema: meSchema }, opts))
          .allowedDomainsForTransferableLicenses,
      opts,
    );
}

export function createMeResource({ request, cache }: ResourceDeps): (opts?: CallOptions) => Promise<Me> {
  return (opts) =>
    cache.read(cacheKeys.me, () => request({ method: 'GET', template: '/v1/me', schema: meSchema }, opts), opts);
}
