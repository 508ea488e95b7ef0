/** Me namespace (licensing-api-extras.md, GET /v1/me). */
import type { Me } from '../domain/types.js';
import { cacheKeys } from './cache-keys.js';
import type { ResourceDeps } from './resource-deps.js';
import { meSchema } from './schemas.js';
import type { CallOptions } from './types.js';

export function createMeResource({ request, cache }: ResourceDeps): (opts?: CallOptions) => Promise<Me> {
  return (opts) =>
    cache.read(cacheKeys.me, () => request({ method: 'GET', template: '/v1/me', schema: meSchema }, opts), opts);
}
