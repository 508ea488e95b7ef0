/** Students namespace (licensing-api.md, GET /v1/students; licensing-api-extras.md, GET /v1/student). */
import { pagedList, type ResourceDeps } from './resource-deps.js';
import { studentListSchema, studentSchema } from './schemas.js';
import type { LicensingClient } from './types.js';

export function createStudentsResource(deps: ResourceDeps): LicensingClient['students'] {
  const { request } = deps;
  return {
    ...pagedList(deps, '/v1/students', studentListSchema),
    // A 404 means no such student, or a deployment without this endpoint (extras: degrade gracefully);
    // both surface as NotFoundError. The e-mail travels in the query, never in the endpoint template.
    find: (query, opts) =>
      request(
        {
          method: 'GET',
          template: '/v1/student',
          query: { ...query, includeInactive: opts?.includeInactive },
          schema: studentSchema,
        },
        opts,
      ),
  };
}
