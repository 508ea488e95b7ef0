import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { getStudentsPage } from '../../../src/browse/services/account.js';
import { findStudent } from '../../../src/browse/services/find-student.js';
import { getLicenseDetails } from '../../../src/browse/services/licenses.js';
import { getLicensesPage, getPoolLicensesPage, listPools } from '../../../src/browse/services/pools.js';
import { assignLicense } from '../../../src/changes/services/assign.js';
import { exportLicenses } from '../../../src/export/services/export.js';
import { BadRequestError, NotFoundError, ServerError } from '../../../src/kernel/licensing/errors.js';
import { readBackAssign } from '../../../src/kernel/services/writes/read-back.js';
import { createFakeLicensing } from '../../support/fake-licensing.js';
import { makeLicense, makePool, makeStudent, makeStudentCourse } from '../../support/fixtures.js';

const pool = makePool({ id: '101', assignedLicenses: 20 });
const licenses = Array.from({ length: 23 }, (_, i) =>
  makeLicense({ id: String(i), active: i < 20, student: { id: `s${i}`, name: `S ${i}`, email: `s${i}@x.com` } }),
);

describe('findStudent', () => {
  it('costs one interactive request when the API offers student lookup', async () => {
    const licensing = createFakeLicensing({ students: [makeStudent()] });
    const result = await findStudent(licensing, 'ada@example.com');
    expect(result).toMatchObject({ found: true, report: { name: 'Ada Lovelace', source: 'lookup' } });
    expect(licensing.calls).toEqual([
      { method: 'students.find', opts: { priority: 'interactive', includeInactive: true } },
    ]);
  });

  it('takes a 404 as "no such student", without scanning', async () => {
    const licensing = createFakeLicensing({ licenses });
    expect(await findStudent(licensing, 'nobody@x.com')).toEqual({ found: false, email: 'nobody@x.com' });
    expect(licensing.calls.map((c) => c.method)).toEqual(['students.find']);
  });

  it.each([
    ['405', new BadRequestError('Method Not Allowed', { endpoint: 'GET /v1/student', status: 405 })],
    ['501', new ServerError({ endpoint: 'GET /v1/student', status: 501 })],
  ])('scans the licenses when the endpoint is missing (%s)', async (_s, findError) => {
    const licensing = createFakeLicensing({ licenses, pools: [pool], findError });
    const result = await findStudent(licensing, 'S3@X.com');
    expect(result).toMatchObject({ found: true, report: { email: 's3@x.com', source: 'scan' } });
    expect(result.found && result.report.rows[0]).toMatchObject({ title: 'Power BI Fundamentals', progress: null });
  });

  it('passes other failures on', async () => {
    const licensing = createFakeLicensing({ findError: new ServerError({ endpoint: 'GET /v1/student', status: 500 }) });
    await expect(findStudent(licensing, 'a@x.com')).rejects.toBeInstanceOf(ServerError);
  });
});

describe('readBackAssign: did the assign land?', () => {
  const missing = new BadRequestError('Method Not Allowed', { endpoint: 'GET /v1/student', status: 405 });

  it('finds the active license from the pool in one student lookup, at the given priority', async () => {
    const student = makeStudent({
      courses: [
        makeStudentCourse({ poolId: '101', licenseId: 'old', licenseActive: false }),
        makeStudentCourse({ poolId: '101', licenseId: 'new' }),
      ],
    });
    const licensing = createFakeLicensing({ students: [student] });
    const found = await readBackAssign(licensing, '101', 'ada@example.com', 'background');
    expect(found).toMatchObject({ id: 'new', poolId: '101', student: { email: 'ada@example.com' } });
    expect(await readBackAssign(licensing, '202', 'ada@example.com', 'background')).toBeUndefined();
    expect(licensing.calls).toEqual([
      { method: 'students.find', opts: { priority: 'background' } },
      { method: 'students.find', opts: { priority: 'background' } },
    ]);
  });

  it('takes a 404 as "not there", without reading the pool', async () => {
    const licensing = createFakeLicensing({ licenses: [makeLicense({ poolId: '101' })] });
    expect(await readBackAssign(licensing, '101', 'ada@example.com', 'interactive')).toBeUndefined();
    expect(licensing.calls.map((c) => c.method)).toEqual(['students.find']);
  });

  it("reads the pool's active licenses only when the endpoint is missing (405/501)", async () => {
    const licensing = createFakeLicensing({
      findError: missing,
      licenses: [
        makeLicense({ id: 'gone', poolId: '101', active: false }),
        makeLicense({ id: 'held', poolId: '101', student: { id: '1', name: 'A', email: 'Ada@Example.com' } }),
      ],
    });
    expect(await readBackAssign(licensing, '101', 'ada@example.com', 'interactive')).toMatchObject({ id: 'held' });
    expect(licensing.calls.map((c) => c.method)).toEqual(['students.find', 'pools.allLicenses']);
  });

  it('passes other failures on', async () => {
    const licensing = createFakeLicensing({ findError: new ServerError({ endpoint: 'GET /v1/student', status: 500 }) });
    await expect(readBackAssign(licensing, '101', 'a@x.com', 'interactive')).rejects.toBeInstanceOf(ServerError);
  });

  it('the single assign uses it: a lost answer on a deployment without the lookup is resolved by the pool', async () => {
    const licensing = createFakeLicensing({
      findError: missing,
      licenses: [makeLicense({ id: 'held', poolId: '101' })],
    });
    licensing.pools.assign = async () => {
      throw new ServerError({ endpoint: 'POST /v1/pool/{id}/license', status: 502, outcomeUnknown: true });
    };
    const outcome = await assignLicense(licensing, { poolId: '101', email: 'ada@example.com' });
    expect(outcome).toMatchObject({ kind: 'done', checked: true, value: { id: 'held' } });
  });
});

describe('exportLicenses', () => {
  it("a small pool's export reads its pages and each student, at background priority, into a CSV file", async () => {
    const student = makeStudent({
      email: 's1@x.com',
      courses: [makeStudentCourse({ licenseId: '1', progress: 77 })],
    });
    // A big account: walking every student (about 50 pages) would cost more than 23 single reads.
    const big = makePool({ id: '102', assignedLicenses: 5_000 });
    const licensing = createFakeLicensing({ pools: [pool, big], licenses, students: [student] });
    const result = await exportLicenses(licensing, { poolId: '101', now: new Date('2026-01-10T00:00:00Z') });
    try {
      expect(result.rows).toBe(licenses.length);
      expect(result.pool?.id).toBe('101');
      expect(result.path).toBe('pool-per-student');
      const csv = await readFile(result.file, 'utf8');
      expect(csv).toContain(',77,');
      expect(Buffer.byteLength(csv)).toBe(result.bytes);
      expect(new Set(licensing.calls.map((c) => c.method))).toEqual(
        new Set(['pools.list', 'pools.licenses', 'students.find']),
      );
      expect(licensing.calls.every((c) => c.opts?.priority === 'background')).toBe(true);
    } finally {
      await result.discard();
    }
    await expect(readFile(result.file)).rejects.toThrow();
  });

  it("a pool's export in a small account walks the students instead: fewer requests", async () => {
    const licensing = createFakeLicensing({ pools: [pool], licenses, students: [] });
    const result = await exportLicenses(licensing, { poolId: '101', now: new Date('2026-01-10T00:00:00Z') });
    await result.discard();
    expect(result.path).toBe('pool-students-walk');
    expect(licensing.calls.filter((c) => c.method === 'students.find')).toEqual([]);
  });

  it('the whole account, from a server that refuses the large page size: walked at 10 a page, every row once', async () => {
    const licensing = createFakeLicensing({ pools: [pool], licenses, students: [], pageSize: 100 });
    const list = licensing.licenses.list.bind(licensing.licenses);
    licensing.licenses.list = async (q, opts) => {
      if ((q?.pageSize ?? 10) > 10) throw new BadRequestError('pageSize too large', { endpoint: 'GET /v1/licenses' });
      return list(q, opts);
    };
    const result = await exportLicenses(licensing, { now: new Date('2026-01-10T00:00:00Z') });
    const rows = (await readFile(result.file, 'utf8')).trim().split('\r\n').slice(1);
    await result.discard();
    expect(result.path).toBe('account');
    expect(rows).toHaveLength(licenses.length);
    expect(new Set(rows.map((r) => r.split(',')[4])).size).toBe(licenses.length);
  });

  it('a pool that is not in the list is a NotFoundError, before any license is read', async () => {
    const licensing = createFakeLicensing({ pools: [pool], licenses });
    await expect(exportLicenses(licensing, { poolId: '999', now: new Date() })).rejects.toBeInstanceOf(NotFoundError);
    expect(licensing.calls.map((c) => c.method)).toEqual(['pools.list']);
  });
});

describe('paging', () => {
  it('knows the last active page of a pool from its assigned count', async () => {
    const licensing = createFakeLicensing({ pools: [pool], licenses });
    expect((await getPoolLicensesPage(licensing, '101', 1, false)).hasNext).toBe(true);
    const second = await getPoolLicensesPage(licensing, '101', 2, false);
    expect(second.licenses).toHaveLength(10);
    expect(second.hasNext).toBe(false);
    expect((await getPoolLicensesPage(licensing, '101', 2, true)).hasNext).toBe(true);
    expect(licensing.calls.every((c) => c.opts?.priority === 'interactive')).toBe(true);
  });

  it('fails once, on the pool, for a wrong pool id', async () => {
    const licensing = createFakeLicensing({ pools: [pool], licenses });
    await expect(getPoolLicensesPage(licensing, 'nope', 1, false)).rejects.toMatchObject({ kind: 'not-found' });
    expect(licensing.calls.map((c) => c.method)).toEqual(['pools.get']);
  });

  it('lists licenses with the pools for their course titles', async () => {
    const licensing = createFakeLicensing({ pools: [pool], licenses });
    const page = await getLicensesPage(licensing, 3, true);
    expect(page.licenses.map((l) => l.id)).toEqual(['20', '21', '22']);
    expect(page.hasNext).toBe(false);
    expect(page.poolsById.get('101')?.course.title).toBe('Power BI Fundamentals');
  });

  it('pages students', async () => {
    const students = Array.from({ length: 10 }, (_, i) => makeStudent({ id: String(i) }));
    const licensing = createFakeLicensing({ students });
    expect(await getStudentsPage(licensing, 1)).toMatchObject({ page: 1, hasNext: true });
    expect((await getStudentsPage(licensing, 2)).students).toEqual([]);
  });

  it('sorts pools by course title for stable pages', async () => {
    const licensing = createFakeLicensing({
      pools: [
        makePool({ id: '2', course: { id: 'b', title: 'Zeta' } }),
        makePool({ id: '1', course: { id: 'a', title: 'Alpha' } }),
      ],
    });
    expect((await listPools(licensing)).map((p) => p.id)).toEqual(['1', '2']);
  });
});

describe('getLicenseDetails', () => {
  it('shows a license whose pool is gone, without the pool', async () => {
    const licensing = createFakeLicensing({ licenses: [makeLicense({ poolId: 'gone' })] });
    expect(await getLicenseDetails(licensing, '5001')).toMatchObject({ license: { id: '5001' }, pool: undefined });
  });
});
