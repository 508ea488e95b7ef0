/** An in-memory LicensingClient for service tests: behaves (pages, 404s) and records what was asked. */
import type { License, Pool, Student } from '../../src/kernel/domain/types.js';
import { type LicensingError, NotFoundError } from '../../src/kernel/licensing/errors.js';
import { createUnlimitedLimiter } from '../../src/kernel/licensing/limiter.js';
import type { CallOptions, LicensingClient } from '../../src/kernel/licensing/types.js';
import { ME } from './fixtures.js';

export interface FakeData {
  pools?: Pool[];
  licenses?: License[];
  students?: Student[];
  /** What the client's page walks ask for; default 10. */
  pageSize?: number;
  /** Thrown by students.find, to play a deployment without the endpoint. */
  findError?: LicensingError;
}

export interface FakeLicensing extends LicensingClient {
  calls: { method: string; opts: CallOptions | undefined }[];
}

const notFound = (endpoint: string) => new NotFoundError({ endpoint });

export function createFakeLicensing(data: FakeData): FakeLicensing {
  const calls: FakeLicensing['calls'] = [];
  const pools = data.pools ?? [];
  const licenses = data.licenses ?? [];
  const record = (method: string, opts: CallOptions | undefined) => calls.push({ method, opts });
  const page = <T>(items: T[], q: { page?: number; pageSize?: number } = {}) => {
    const size = q.pageSize ?? 10;
    const n = q.page ?? 1;
    return items.slice((n - 1) * size, n * size);
  };
  const visible = (includeInactive: boolean | undefined, poolId?: string) =>
    licenses.filter((l) => (includeInactive || l.active) && (poolId === undefined || l.poolId === poolId));
  return {
    calls,
    async me(opts) {
      record('me', opts);
      return ME;
    },
    async allowedDomains(opts) {
      record('me', opts);
      return ME.allowedDomainsForTransferableLicenses;
    },
    courses: {
      async list(opts) {
        record('courses.list', opts);
        return [];
      },
      async get(_id, opts) {
        record('courses.get', opts);
        throw notFound('GET /v1/course/{id}');
      },
    },
    pools: {
      async list(opts) {
        record('pools.list', opts);
        return pools;
      },
      async get(id, opts) {
        record('pools.get', opts);
        const pool = pools.find((p) => p.id === id);
        if (!pool) throw notFound('GET /v1/pool/{id}');
        return pool;
      },
      async licenses(id, q, opts) {
        record('pools.licenses', opts);
        return page(visible(q?.includeInactive, id), q);
      },
      async allLicenses(id, q, opts) {
        record('pools.allLicenses', opts);
        return visible(q?.includeInactive, id);
      },
      async assign() {
        throw new Error('not used');
      },
    },
    licenses: {
      async list(q, opts) {
        record('licenses.list', opts);
        return page(visible(q?.includeInactive), q);
      },
      async all(q, opts) {
        record('licenses.all', opts);
        return visible(q?.includeInactive);
      },
      async get(id, opts) {
        record('licenses.get', opts);
        const license = licenses.find((l) => l.id === id);
        if (!license) throw notFound('GET /v1/license/{id}');
        return license;
      },
      async changeEndDate() {
        throw new Error('not used');
      },
      async revoke() {
        throw new Error('not used');
      },
    },
    students: {
      async list(q, opts) {
        record('students.list', opts);
        return page(data.students ?? [], q);
      },
      async all(_q, opts) {
        record('students.all', opts);
        return data.students ?? [];
      },
      async find(query, opts) {
        record('students.find', opts);
        if (data.findError) throw data.findError;
        const student = (data.students ?? []).find((s) => 'email' in query && s.email === query.email);
        if (!student) throw notFound('GET /v1/student');
        return student;
      },
    },
    pageSize: () => data.pageSize ?? 10,
    invalidateCache() {},
    limiter: createUnlimitedLimiter(),
    async close() {},
  };
}
