/**
 * The licensing client as a person whose role covers only some pools sees it (docs/roles-and-approvals.md,
 * "What a pool admin sees"). `scopeNow` gives the scope of the request in progress; over every pool the
 * client it wraps (`inner`) is untouched. Over chosen pools:
 * - lists (pools, licenses, students, courses) keep what lies in those pools, and the account's figures
 *   (`me`) are summed over them; a page of licenses or students is cut from the whole narrowed list
 *   (one walk of every page: a walk of many pages, like the export's, runs unscoped and filters its rows);
 * - a pool, a license, a course or a student outside them answers as one that does not exist
 *   (NotFoundError): the refusal is the same sentence, and says nothing of what the id holds;
 * - a write to a pool or a license outside them is refused the same way before anything is sent (a write
 *   to a license reads it first, at the write's priority).
 */
import { inScope, type Scope, withinScope } from '../domain/scope.js';
import type { Course, License, ListQuery, Me, Pool, Student } from '../domain/types.js';
import { NotFoundError } from './errors.js';
import type { CallOptions, LicensingClient } from './types.js';

function notFound(endpoint: string): NotFoundError {
  return new NotFoundError({ endpoint });
}

/** A course as the scope shows it: its pools in the scope and their sums; none when it has no such pool. */
function narrowCourse(scope: Scope, course: Course): Course | undefined {
  const pools = withinScope(scope, course.pools, (p) => p.id);
  if (pools.length === 0) return undefined;
  const sum = (pick: (p: (typeof pools)[number]) => number) => pools.reduce((n, p) => n + pick(p), 0);
  return {
    ...course,
    pools,
    licenses: sum((p) => p.licenses),
    assignedLicenses: sum((p) => p.assignedLicenses),
    availableLicenses: sum((p) => p.availableLicenses),
  };
}

/** A student as the scope shows them: their licenses in the scope; none when they have none there. */
function narrowStudent(scope: Scope, student: Student): Student | undefined {
  const courses = withinScope(scope, student.courses, (c) => c.poolId);
  return courses.length === 0 ? undefined : { ...student, courses };
}

function present<T>(items: (T | undefined)[]): T[] {
  return items.filter((item): item is T => item !== undefined);
}

/** The account's figures over the pools in the scope. */
function narrowMe(me: Me, pools: Pool[]): Me {
  const seats = (transferable: boolean) =>
    pools.filter((p) => p.transferable === transferable).reduce((n, p) => n + p.licenses, 0);
  return {
    ...me,
    pools: pools.length,
    licenses: pools.reduce((n, p) => n + p.licenses, 0),
    transferableLicenses: seats(true),
    untransferableLicenses: seats(false),
  };
}

/** The API's page size when a list asks for none (licensing-api.md, Limits). */
const DEFAULT_PAGE_SIZE = 10;

const inactive = (query?: ListQuery) => (query?.includeInactive ? { includeInactive: true } : {});

/**
 * One page of a list narrowed to the scope: the pages are cut from the whole narrowed list, so that a
 * full page still means there may be more (a page of the API's own list could be empty after narrowing
 * while later ones are not).
 */
function pageOf<T>(items: T[], query?: ListQuery): T[] {
  const size = query?.pageSize ?? DEFAULT_PAGE_SIZE;
  const from = ((query?.page ?? 1) - 1) * size;
  return items.slice(from, from + size);
}

export function scopedLicensing(inner: LicensingClient, scopeNow: () => Scope): LicensingClient {
  const guardPool = (id: string, endpoint: string) => {
    if (!inScope(scopeNow(), id)) throw notFound(endpoint);
  };
  const scopedLicense = async (id: string, opts?: CallOptions): Promise<License> => {
    const scope = scopeNow();
    const license = await inner.licenses.get(id, opts);
    if (!inScope(scope, license.poolId)) throw notFound('GET /v1/license/{id}');
    return license;
  };
  const guardLicense = async (id: string, opts?: CallOptions) => {
    if (!scopeNow().all) await scopedLicense(id, opts);
  };
  return {
    async me(opts) {
      const scope = scopeNow();
      if (scope.all) return inner.me(opts);
      const [me, pools] = await Promise.all([inner.me(opts), inner.pools.list(opts)]);
      return narrowMe(
        me,
        withinScope(scope, pools, (p) => p.id),
      );
    },
    // The account's allowed e-mail domains are the same for every pool: nothing to narrow.
    allowedDomains: (opts) => inner.allowedDomains(opts),
    courses: {
      async list(opts) {
        const scope = scopeNow();
        const courses = await inner.courses.list(opts);
        return scope.all ? courses : present(courses.map((c) => narrowCourse(scope, c)));
      },
      async get(id, opts) {
        const scope = scopeNow();
        const course = await inner.courses.get(id, opts);
        if (scope.all) return course;
        const narrowed = narrowCourse(scope, course);
        if (!narrowed) throw notFound('GET /v1/course/{id}');
        return narrowed;
      },
    },
    pools: {
      async list(opts) {
        const scope = scopeNow();
        return withinScope(scope, await inner.pools.list(opts), (p) => p.id);
      },
      async get(id, opts) {
        guardPool(id, 'GET /v1/pool/{id}');
        return inner.pools.get(id, opts);
      },
      async licenses(id, query, opts) {
        guardPool(id, 'GET /v1/pool/{id}/licenses');
        return inner.pools.licenses(id, query, opts);
      },
      async allLicenses(id, query, opts) {
        guardPool(id, 'GET /v1/pool/{id}/licenses');
        return inner.pools.allLicenses(id, query, opts);
      },
      async assign(id, body, opts) {
        guardPool(id, 'POST /v1/pool/{id}/licenses');
        return inner.pools.assign(id, body, opts);
      },
    },
    licenses: {
      async list(query, opts) {
        const scope = scopeNow();
        if (scope.all) return inner.licenses.list(query, opts);
        const all = await inner.licenses.all(inactive(query), opts);
        return pageOf(
          withinScope(scope, all, (l) => l.poolId),
          query,
        );
      },
      async all(query, opts) {
        const scope = scopeNow();
        return withinScope(scope, await inner.licenses.all(query, opts), (l) => l.poolId);
      },
      get: scopedLicense,
      async changeEndDate(id, endDate, opts) {
        await guardLicense(id, opts);
        return inner.licenses.changeEndDate(id, endDate, opts);
      },
      async revoke(id, opts) {
        await guardLicense(id, opts);
        return inner.licenses.revoke(id, opts);
      },
    },
    students: scopedStudents(inner, scopeNow),
    pageSize: () => inner.pageSize(),
    invalidateCache: () => inner.invalidateCache(),
    ...(inner.isSandbox ? { isSandbox: () => inner.isSandbox?.() ?? false } : {}),
    get limiter() {
      return inner.limiter;
    },
    close: (options) => inner.close(options),
  };
}

/** The students as the scope sees them: only their licenses in its pools; one with none there is none. */
function scopedStudents(inner: LicensingClient, scopeNow: () => Scope): LicensingClient['students'] {
  return {
    async list(query, opts) {
      const scope = scopeNow();
      if (scope.all) return inner.students.list(query, opts);
      const all = await inner.students.all(inactive(query), opts);
      return pageOf(present(all.map((s) => narrowStudent(scope, s))), query);
    },
    async all(query, opts) {
      const scope = scopeNow();
      const students = await inner.students.all(query, opts);
      return scope.all ? students : present(students.map((s) => narrowStudent(scope, s)));
    },
    async find(query, opts) {
      const scope = scopeNow();
      const student = await inner.students.find(query, opts);
      if (scope.all) return student;
      const narrowed = narrowStudent(scope, student);
      if (!narrowed) throw notFound('GET /v1/student');
      return narrowed;
    },
  };
}
