import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../src/kernel/licensing/index.js';
import { type Harness, startHarness } from '../../support/licensing-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({}, { cacheTtlMs: 0 });
});
afterAll(async () => {
  await h.close();
});

describe('licensing client against the sandbox: every endpoint', () => {
  it('GET /v1/me', async () => {
    const me = await h.client.me();
    expect(me).toMatchObject({ id: '77', name: 'Contoso Training' });
    expect(me.allowedDomainsForTransferableLicenses).toContain('contoso.com');
    expect(me.pools).toBe(h.sandbox.inspect.pools().length);
  });

  it('GET /v1/courses and /v1/course/{id}, nested pool ids as strings', async () => {
    const courses = await h.client.courses.list();
    expect(courses.map((c) => c.id)).toEqual(['301', '302', '303', '304']);
    const dax = await h.client.courses.get('301');
    expect(dax.title).toBe('Mastering DAX');
    expect(dax.pools.map((p) => p.id).sort()).toEqual(['2001', '2002']);
    expect(typeof dax.pools[0]?.id).toBe('string');
    await expect(h.client.courses.get('999')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('GET /v1/pools and /v1/pool/{id}, matching the sandbox', async () => {
    const pools = await h.client.pools.list();
    expect(pools).toEqual(h.sandbox.inspect.pools());
    const pool = await h.client.pools.get('2003');
    expect(pool).toEqual(h.sandbox.inspect.pool('2003'));
    expect(pool.availableLicenses).toBe(0);
  });

  it('GET /v1/pool/{id}/licenses with page, pageSize and includeInactive', async () => {
    const page = await h.client.pools.licenses('2001', { page: 1, pageSize: 5 });
    expect(page).toHaveLength(5);
    expect(page.every((l) => l.poolId === '2001' && l.active)).toBe(true);
    const all = await h.client.pools.licenses('2001', { pageSize: 100, includeInactive: true });
    expect(all).toEqual(h.sandbox.inspect.licenses({ poolId: '2001', includeInactive: true }));
    expect(h.calls()).toContain('GET /v1/pool/2001/licenses?page=1&pageSize=5');
  });

  it('GET /v1/licenses and /v1/license/{id}', async () => {
    const list = await h.client.licenses.list({ pageSize: 3, page: 2 });
    expect(list).toEqual(h.sandbox.inspect.licenses().slice(3, 6));
    const first = list[0];
    expect(first).toBeDefined();
    expect(await h.client.licenses.get(first?.id ?? '')).toEqual(first);
    await expect(h.client.licenses.get('1')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('POST /v1/pool/{id}/license: numeric ids in the answer arrive as strings', async () => {
    const license = await h.client.pools.assign('2007', { email: 'new.person@contoso.com', name: 'New Person' });
    expect(typeof license.id).toBe('string');
    expect(typeof license.poolId).toBe('string');
    expect(typeof license.student.id).toBe('string');
    expect(license.poolId).toBe('2007');
    expect(h.sandbox.inspect.license(license.id)).toEqual(license);
  });

  it('PATCH /v1/license/{id} changes the end date', async () => {
    const [license] = h.sandbox.inspect.licenses({ poolId: '2001' });
    const pool = h.sandbox.inspect.pool('2001');
    if (!license || !pool) throw new Error('demo data changed');
    const endDate = pool.end.slice(0, 10);
    const target = new Date(Date.parse(pool.end) - 10 * 86_400_000).toISOString().slice(0, 10);
    expect(target).not.toBe(endDate);
    const changed = await h.client.licenses.changeEndDate(license.id, target);
    expect(changed.end.slice(0, 10)).toBe(target);
    expect(h.sandbox.inspect.license(license.id)?.end).toBe(changed.end);
  });

  it('DELETE /v1/license/{id} revokes', async () => {
    const license = await h.client.pools.assign('2007', { email: 'short.stay@contoso.com' });
    await h.client.licenses.revoke(license.id);
    expect(h.sandbox.inspect.license(license.id)?.active).toBe(false);
  });

  it('GET /v1/students and /v1/student by e-mail or id; 404 when there is none', async () => {
    const students = await h.client.students.list({ page: 1, pageSize: 4 });
    expect(students.map((s) => s.id)).toEqual(['3001', '3002', '3003', '3004']);
    const byEmail = await h.client.students.find({ email: students[1]?.email ?? '' });
    expect(byEmail.id).toBe('3002');
    const byId = await h.client.students.find({ id: '3002' }, { includeInactive: true });
    expect(byId.email).toBe(byEmail.email);
    expect(byId.courses.length).toBeGreaterThan(0);
    await expect(h.client.students.find({ email: 'nobody@nowhere.example' })).rejects.toBeInstanceOf(NotFoundError);
    expect(h.calls()).toContain('GET /v1/student?id=3002&includeInactive=true');
  });
});

describe('pagination helper against the sandbox', () => {
  it('walks every page of the large size and stops on a short one', async () => {
    h.sandbox.clearRequests();
    const all = await h.client.licenses.all({ includeInactive: true });
    expect(all).toEqual(h.sandbox.inspect.licenses({ includeInactive: true }));
    expect(h.calls()).toEqual(['GET /v1/licenses?includeInactive=true&page=1&pageSize=100']);
  });

  it('falls back to the default size when the server refuses the large one, and remembers it', async () => {
    const small = await startHarness({ maxPageSize: 20 }, { pageSize: 50, cacheTtlMs: 0 });
    try {
      const total = small.sandbox.inspect.licenses({ includeInactive: true }).length;
      expect(total).toBeGreaterThan(20);
      expect(small.client.pageSize()).toBe(50);
      const all = await small.client.licenses.all({ includeInactive: true });
      expect(all.map((l) => l.id)).toEqual(small.sandbox.inspect.licenses({ includeInactive: true }).map((l) => l.id));
      const calls = small.calls();
      expect(calls[0]).toBe('GET /v1/licenses?includeInactive=true&page=1&pageSize=50');
      expect(small.sandbox.requests[0]?.status).toBe(400);
      expect(small.client.pageSize()).toBe(10);
      expect(calls.slice(1).every((c) => c.endsWith('pageSize=10'))).toBe(true);
      expect(calls).toHaveLength(1 + Math.floor(total / 10) + 1);
      small.sandbox.clearRequests();
      const active = await small.client.pools.allLicenses('2001');
      expect(active).toEqual(small.sandbox.inspect.licenses({ poolId: '2001' }));
      expect(small.calls()[0]).toBe('GET /v1/pool/2001/licenses?page=1&pageSize=10');
      small.sandbox.clearRequests();
      const students = await small.client.students.all({ includeInactive: true });
      const calls2 = small.calls();
      expect(calls2.every((c) => c.startsWith('GET /v1/students?includeInactive=true&page='))).toBe(true);
      expect(calls2.every((c) => c.endsWith('pageSize=10'))).toBe(true);
      expect(calls2).toHaveLength(Math.floor(students.length / 10) + 1);
      const emails = new Set(small.sandbox.inspect.licenses({ includeInactive: true }).map((l) => l.student.email));
      const seen = new Set(students.map((s) => s.email));
      expect([...emails].every((e) => seen.has(e))).toBe(true);
      expect(new Set(students.map((s) => s.id)).size).toBe(students.length);
    } finally {
      await small.close();
    }
  });
});
