/**
 * The endpoints of licensing-api.md and licensing-api-extras.md, all under /v1. A handler gets the
 * parsed request and returns the JSON to send with 200; refusals are thrown as ApiError.
 */
import type { License } from '../../src/kernel/domain/types.js';
import { ApiError, badRequest, notFound } from './errors.js';
import { assignLicense, changeLicenseEnd, revokeLicense } from './rules.js';
import { asJsonNumber, byId, findStudentByEmail, isActive, type Store, storeIndex } from './store.js';
import { paginate, parseJsonObject, readAssignBody, readBoolean, readListParams, readPatchBody } from './validate.js';
import { courseView, licenseView, meView, poolView, studentView } from './views.js';

export interface RouteContext {
  store: Store;
  params: string[];
  query: URLSearchParams;
  /** Raw request body ('' when none). */
  body: string;
  maxPageSize: number;
}

export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  pattern: RegExp;
  /** Writes need the admin token; the read-only one gets 403. */
  write: boolean;
  handle(ctx: RouteContext): unknown;
}

const param = (ctx: RouteContext, index = 0): string => ctx.params[index] ?? '';

function listLicenses(ctx: RouteContext, poolId?: string): License[] {
  const params = readListParams(ctx.query, ctx.maxPageSize);
  const index = storeIndex(ctx.store);
  const all = poolId === undefined ? index.sortedLicenses : (index.byPool.get(poolId) ?? []);
  const licenses = params.includeInactive ? all : all.filter((l) => isActive(ctx.store, l));
  return paginate(licenses, params).map((l) => licenseView(ctx.store, l));
}

function requirePoolId(ctx: RouteContext): string {
  const id = param(ctx);
  if (!ctx.store.pools.has(id)) throw notFound('pool', id);
  return id;
}

/** The assign response carries `id`, `poolId` and `student.id` as JSON numbers (licensing-api.md, Notes). */
function assignResponse(license: License): unknown {
  return {
    ...license,
    id: asJsonNumber(license.id),
    poolId: asJsonNumber(license.poolId),
    student: { ...license.student, id: asJsonNumber(license.student.id) },
  };
}

const ID = '([^/]+)';
const route = (method: Route['method'], path: string, handle: Route['handle'], write = false): Route => ({
  method,
  pattern: new RegExp(`^${path.replaceAll('{id}', ID)}$`),
  write,
  handle,
});

export const ROUTES: readonly Route[] = [
  // licensing-api.md gives GET /v1/pools "no parameters", so it answers every pool in one array.
  route('GET', '/v1/pools', ({ store }) => [...store.pools.values()].sort(byId).map((p) => poolView(store, p))),
  route('GET', '/v1/pool/{id}', (ctx) => {
    const pool = ctx.store.pools.get(param(ctx));
    if (!pool) throw notFound('pool', param(ctx));
    return poolView(ctx.store, pool);
  }),
  route('GET', '/v1/pool/{id}/licenses', (ctx) => listLicenses(ctx, requirePoolId(ctx))),
  route(
    'POST',
    '/v1/pool/{id}/license',
    (ctx) => {
      const input = readAssignBody(parseJsonObject(ctx.body));
      const license = assignLicense(ctx.store, param(ctx), input);
      return assignResponse(licenseView(ctx.store, license));
    },
    true,
  ),
  route('GET', '/v1/licenses', (ctx) => listLicenses(ctx)),
  route('GET', '/v1/license/{id}', (ctx) => {
    const license = ctx.store.licenses.get(param(ctx));
    if (!license) throw notFound('license', param(ctx));
    return licenseView(ctx.store, license);
  }),
  route(
    'PATCH',
    '/v1/license/{id}',
    (ctx) => {
      const { endDate } = readPatchBody(parseJsonObject(ctx.body));
      return licenseView(ctx.store, changeLicenseEnd(ctx.store, param(ctx), endDate));
    },
    true,
  ),
  // The contract gives DELETE only "Success: HTTP status 200"; the body is the revoked license.
  route('DELETE', '/v1/license/{id}', (ctx) => licenseView(ctx.store, revokeLicense(ctx.store, param(ctx))), true),
  route('GET', '/v1/me', ({ store }) => meView(store)),
  // Courses are few; like pools they come in one array.
  route('GET', '/v1/courses', ({ store }) =>
    [...store.courses.keys()]
      .sort((a, b) => byId({ id: a }, { id: b }))
      .map((id) => courseView(store, id))
      .filter((c) => c !== undefined),
  ),
  route('GET', '/v1/course/{id}', (ctx) => {
    const course = courseView(ctx.store, param(ctx));
    if (!course) throw notFound('course', param(ctx));
    return course;
  }),
  route('GET', '/v1/students', (ctx) => {
    const params = readListParams(ctx.query, ctx.maxPageSize);
    const students = storeIndex(ctx.store).sortedStudents;
    return paginate(students, params).map((s) => studentView(ctx.store, s, params.includeInactive));
  }),
  route('GET', '/v1/student', (ctx) => {
    const email = ctx.query.get('email');
    const id = ctx.query.get('id');
    if (!email && !id) throw badRequest('invalid_query', 'Give the student as ?email=… or ?id=….');
    const includeInactive = readBoolean(ctx.query, 'includeInactive');
    const byEmail = email ? findStudentByEmail(ctx.store, email) : undefined;
    const student = id ? ctx.store.students.get(id) : byEmail;
    // With both given, they must name the same student.
    if (!student || (email && byEmail?.id !== student.id)) {
      throw new ApiError(404, 'not_found', `No student matches ${email ? `e-mail ${email}` : `id ${id}`}.`);
    }
    return studentView(ctx.store, student, includeInactive);
  }),
];

export type RouteMatch = { route: Route; params: string[] } | { allowed: string[] } | undefined;

/** A route for the path and method; or the methods the path allows (405); or undefined (404). */
export function matchRoute(method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const candidate of ROUTES) {
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    const params = match.slice(1).map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
    if (candidate.method === method) return { route: candidate, params };
    allowed.push(candidate.method);
  }
  return allowed.length > 0 ? { allowed } : undefined;
}
