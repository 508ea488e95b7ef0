/**
 * The licensing sandbox: an in-memory HTTP copy of the licensing API (docs/licensing-api.md
 * and licensing-api-extras.md) for tests, demos and `npm run sandbox`.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createFaultSet } from './faults.js';
import { createRateLimiter } from './rate-limit.js';
import { buildDemoData, buildEmptyData, buildScaleData } from './seed.js';
import { createSandboxServer } from './server.js';
import { byId, createStore, findStudentByEmail, isActive, progressKey, type Store } from './store.js';
import type { RecordedRequest, RunningSandbox, SandboxData, SandboxOptions } from './types.js';
import { DEFAULT_MAX_PAGE_SIZE } from './validate.js';
import { licenseView, poolView, studentView } from './views.js';

export { DEFAULT_RATE_LIMIT } from './rate-limit.js';
export { buildDemoData, buildEmptyData, buildScaleData, type ScaleSeed } from './seed.js';
export type * from './types.js';
export { DEFAULT_MAX_PAGE_SIZE } from './validate.js';

function seedData(seed: SandboxOptions['seed'], now: Date): SandboxData {
  if (seed === undefined || seed === 'demo') return buildDemoData(now);
  if (seed === 'empty') return buildEmptyData();
  if ('scale' in seed) return buildScaleData(now, seed.scale);
  return seed;
}

const randomToken = (kind: string): string => `sandbox-${kind}-${randomBytes(18).toString('base64url')}`;

function inspector(store: Store): RunningSandbox['inspect'] {
  return {
    pool: (id) => {
      const pool = store.pools.get(id);
      return pool && poolView(store, pool);
    },
    pools: () => [...store.pools.values()].sort(byId).map((p) => poolView(store, p)),
    license: (id) => {
      const license = store.licenses.get(id);
      return license && licenseView(store, license);
    },
    licenses: (opts = {}) =>
      [...store.licenses.values()]
        .filter(
          (l) =>
            (opts.poolId === undefined || l.poolId === opts.poolId) && (opts.includeInactive || isActive(store, l)),
        )
        .sort(byId)
        .map((l) => licenseView(store, l)),
    student: ({ email, id }) => {
      const student =
        id !== undefined ? store.students.get(id) : email !== undefined ? findStudentByEmail(store, email) : undefined;
      if (!student || (email !== undefined && student.email.toLowerCase() !== email.toLowerCase())) return undefined;
      return studentView(store, student, true);
    },
  };
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const now = opts.now ?? (() => new Date());
  const store = createStore(seedData(opts.seed, now()), now);
  const tokens = {
    admin: opts.adminToken ?? randomToken('admin'),
    readOnly: opts.readOnlyToken ?? randomToken('readonly'),
  };
  if (tokens.admin === tokens.readOnly) throw new Error('The admin and read-only tokens must differ.');
  const limiter = createRateLimiter(opts.rateLimit);
  const faults = createFaultSet(opts.faults);
  const records: RecordedRequest[] = [];
  const maxPageSize = opts.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
  const { server, destroyAll } = createSandboxServer({
    store,
    tokens,
    limiter,
    faults,
    maxPageSize,
    record: (entry) => records.push(entry),
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    adminToken: tokens.admin,
    readOnlyToken: tokens.readOnly,
    get requests() {
      return records;
    },
    clearRequests: () => {
      records.length = 0;
    },
    addFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    setRateLimit: (rateLimit) => limiter.configure(rateLimit),
    setProgress: (query, courseId, value) => {
      const student = findStudentByEmail(store, query.email);
      if (!student) throw new Error(`the sandbox has no student ${query.email}`);
      store.progress.set(progressKey(student.id, courseId), { progress: value.progress, completed: value.completed });
    },
    inspect: inspector(store),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hanging requests and keep-alive sockets would otherwise hold close() open.
        destroyAll();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
