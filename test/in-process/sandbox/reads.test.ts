import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../local/sandbox/index.js';
import type { RunningSandbox } from '../../../local/sandbox/types.js';
import type { Course, License, Me, Pool, Student } from '../../../src/kernel/domain/types.js';
import { callSandbox } from '../../support/sandbox.js';

const NOW = new Date('2025-03-10T12:00:00Z');
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

let sandbox: RunningSandbox;
const get = (path: string) => callSandbox(sandbox, 'GET', path);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => NOW, rateLimit: false });
});
afterAll(() => sandbox.close());

describe('pools', () => {
  it('lists every pool with consistent counters', async () => {
    const { status, json } = await get('/v1/pools');
    expect(status).toBe(200);
    const pools = json as Pool[];
    expect(pools.map((p) => p.id)).toEqual(['2001', '2002', '2003', '2004', '2005', '2006', '2007']);
    for (const pool of pools) {
      expect(pool.assignedLicenses + pool.availableLicenses).toBe(pool.licenses);
      expect(pool.start).toMatch(DATE_TIME);
      expect(pool.end).toMatch(DATE_TIME);
      expect(typeof pool.course.id).toBe('string');
    }
    expect(pools.find((p) => p.id === '2003')).toMatchObject({ availableLicenses: 0, assignedLicenses: 8 });
  });

  it('answers one pool, and 404 with a JSON body for an unknown one', async () => {
    const one = await get('/v1/pool/2001');
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ id: '2001', course: { id: '301', title: 'Mastering DAX' }, transferable: true });
    const missing = await get('/v1/pool/999');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 'not_found', message: expect.stringContaining('999') });
  });

  it('lists the licenses of a pool, active only unless includeInactive', async () => {
    const active = (await get('/v1/pool/2001/licenses?pageSize=100')).json as License[];
    const all = (await get('/v1/pool/2001/licenses?pageSize=100&includeInactive=true')).json as License[];
    expect(active).toHaveLength(13);
    expect(active.every((l) => l.poolId === '2001' && l.active)).toBe(true);
    expect(all).toHaveLength(16);
    expect(all.filter((l) => !l.active)).toHaveLength(3);
    expect((await get('/v1/pool/999/licenses')).status).toBe(404);
  });
});

describe('licenses and pagination', () => {
  it('pages through active licenses in id order with the default page size of 10', async () => {
    const first = (await get('/v1/licenses')).json as License[];
    expect(first).toHaveLength(10);
    const pages: License[] = [];
    for (let page = 1; page <= 6; page += 1)
      pages.push(...((await get(`/v1/licenses?page=${page}`)).json as License[]));
    const everything = (await get('/v1/licenses?pageSize=100')).json as License[];
    expect(pages.map((l) => l.id)).toEqual(everything.map((l) => l.id));
    expect(first.map((l) => l.id)).toEqual(everything.slice(0, 10).map((l) => l.id));
    expect(everything.every((l) => l.active)).toBe(true);
    const ids = everything.map((l) => Number(l.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('answers [] for a page past the end', async () => {
    const { status, json } = await get('/v1/licenses?page=50');
    expect(status).toBe(200);
    expect(json).toEqual([]);
  });

  it('includes inactive licenses only when asked', async () => {
    const active = (await get('/v1/licenses?pageSize=100')).json as License[];
    const all = (await get('/v1/licenses?pageSize=100&includeInactive=true')).json as License[];
    expect(all.length).toBeGreaterThanOrEqual(40);
    expect(all.length - active.length).toBe(all.filter((l) => !l.active).length);
    expect(all.filter((l) => !l.active).length).toBeGreaterThanOrEqual(10);
    expect(((await get('/v1/licenses?pageSize=100&includeInactive=false')).json as License[]).length).toBe(
      active.length,
    );
  });

  it('accepts pageSize up to the maximum and refuses larger or invalid values with 400', async () => {
    expect((await get('/v1/licenses?pageSize=100')).status).toBe(200);
    const tooLarge = await get('/v1/licenses?pageSize=101');
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.json).toEqual({ code: 'invalid_query', message: expect.stringContaining('100') });
    for (const bad of [
      'page=0',
      'page=-1',
      'page=abc',
      'page=1.5',
      'pageSize=0',
      'pageSize=',
      'includeInactive=maybe',
    ]) {
      const answer = await get(`/v1/licenses?${bad}`);
      expect(answer.status, bad).toBe(400);
      expect((answer.json as { code: string }).code, bad).toBe('invalid_query');
    }
  });

  it('answers one license with its student, and 404 for an unknown id', async () => {
    const { status, json } = await get('/v1/license/4001');
    expect(status).toBe(200);
    const license = json as License;
    expect(license).toMatchObject({ id: '4001', poolId: '2001', courseId: '301', active: true });
    expect(license.student).toEqual({ id: '3001', name: 'Alberto Rossi', email: 'alberto.rossi@contoso.com' });
    expect((await get('/v1/license/123456')).status).toBe(404);
  });

  it('reports an expired license as inactive, not revokable and not editable', async () => {
    const expired = (await get('/v1/pool/2006/licenses?includeInactive=true')).json as License[];
    expect(expired).toHaveLength(6);
    for (const l of expired) expect(l).toMatchObject({ active: false, revokable: false, editable: false });
    // Pool 2002 is untransferable: 6 active licenses (the seventh ran out and is not listed without includeInactive).
    const untransferable = (await get('/v1/pool/2002/licenses')).json as License[];
    expect(untransferable).toHaveLength(6);
    for (const l of untransferable) expect(l).toMatchObject({ active: true, revokable: false, editable: false });
  });
});

describe('me, courses, students', () => {
  it('describes the manager with totals over the pools', async () => {
    const { status, json } = await get('/v1/me');
    expect(status).toBe(200);
    const me = json as Me;
    expect(me.allowedDomainsForTransferableLicenses).toEqual(['contoso.com', 'fabrikam.com']);
    expect(me).toMatchObject({ id: 77, pools: 7, licenses: 71, transferableLicenses: 55, untransferableLicenses: 16 });
  });

  it('lists courses with totals and nested pools whose ids are numbers', async () => {
    const courses = (await get('/v1/courses')).json as Course[];
    expect(courses.map((c) => c.title)).toEqual([
      'Mastering DAX',
      'Optimizing DAX',
      'Data Modeling for Power BI',
      'Power Query Fundamentals',
    ]);
    const dax = courses[0];
    expect(dax).toMatchObject({ id: '301', licenses: 30, assignedLicenses: 20, availableLicenses: 10 });
    expect(dax?.pools.map((p) => p.id)).toEqual([2001, 2002]);
    const one = await get('/v1/course/302');
    expect(one.json).toMatchObject({ id: '302', title: 'Optimizing DAX', availableLicenses: 0 });
    expect((await get('/v1/course/999')).status).toBe(404);
  });

  it('pages through students; includeInactive adds inactive courses', async () => {
    const page1 = (await get('/v1/students')).json as Student[];
    expect(page1).toHaveLength(10);
    const all = (await get('/v1/students?pageSize=100')).json as Student[];
    expect(all).toHaveLength(36);
    expect((await get('/v1/students?page=5')).json).toEqual([]);
    expect((await get('/v1/students?pageSize=101')).status).toBe(400);
    const alberto = all.find((s) => s.id === '3001');
    expect(alberto?.courses.every((c) => c.licenseActive)).toBe(true);
    const withInactive = (await get('/v1/students?pageSize=1&includeInactive=true')).json as Student[];
    expect(withInactive[0]?.courses.some((c) => !c.licenseActive)).toBe(true);
    const progress = all.flatMap((s) => s.courses.map((c) => c.progress));
    expect(progress).toContain(0);
    expect(progress).toContain(100);
  });

  it('finds one student by e-mail (any case) or id, with progress and completion', async () => {
    const byEmail = await get(`/v1/student?email=${encodeURIComponent('CHANNEL.CO@fabrikam.com')}`);
    expect(byEmail.status).toBe(200);
    const student = byEmail.json as Student;
    expect(student.name).toBe('<!channel> & Co');
    expect(student.courses[0]).toMatchObject({
      id: '301',
      title: 'Mastering DAX',
      poolId: '2001',
      licenseActive: true,
    });
    const byId = (await get('/v1/student?id=3001')).json as Student;
    expect(byId.courses.find((c) => c.id === '301')).toMatchObject({
      progress: 100,
      completed: expect.stringMatching(DATE_TIME),
    });
    expect((await get('/v1/student?id=3001&email=channel.co@fabrikam.com')).status).toBe(404);
    expect((await get('/v1/student?email=nobody@contoso.com')).status).toBe(404);
    const neither = await get('/v1/student');
    expect(neither.status).toBe(400);
    expect((neither.json as { code: string }).code).toBe('invalid_query');
  });
});

describe('routing', () => {
  it('answers 404 JSON for an unknown route and 405 JSON with Allow for a wrong method', async () => {
    const unknown = await get('/v1/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'not_found' });
    expect((await get('/v2/pools')).status).toBe(404);
    const wrong = await callSandbox(sandbox, 'PUT', '/v1/license/4001', { body: {} });
    expect(wrong.status).toBe(405);
    expect(wrong.json).toMatchObject({ code: 'method_not_allowed' });
    expect(wrong.headers.get('allow')).toBe('GET, PATCH, DELETE');
    expect((await callSandbox(sandbox, 'POST', '/v1/pools', { body: {} })).status).toBe(405);
  });
});
