/** Courses namespace (licensing-api-extras.md, Courses). */
import { cacheKeys } from './cache-keys.js';
import type { ResourceDeps } from './resource-deps.js';
import { courseListSchema, courseSchema } from './schemas.js';
import type { LicensingClient } from './types.js';

export function createCoursesResource({ request, cache }: ResourceDeps): LicensingClient['courses'] {
  return {
    list: (opts) =>
      cache.read(
        cacheKeys.courses,
        () => request({ method: 'GET', template: '/v1/courses', schema: courseListSchema }, opts),
        opts,
      ),
    get: (id, opts) =>
      cache.read(
        cacheKeys.course(id),
        () => request({ method: 'GET', template: '/v1/course/{id}', params: { id }, schema: courseSchema }, opts),
        opts,
      ),
  };
}
