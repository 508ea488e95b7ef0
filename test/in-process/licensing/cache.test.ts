import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../support/licensing-harness.js';

let h: Harness;

beforeEach(async () => {
  await h?.close();
  h = await startHarness({}, { cacheTtlMs: 60_000 });
});
afterAll(async () => {
  await h.close();
});

const count = (call: string) => h.calls().filter((c) => c === call).length;

describe('read cache against the sandbox', () => {
  it('coalesces 10 concurrent pools.list() into one request, then serves from cache', async () => {
    const lists = await Promise.all(Array.from({ length: 10 }, () => h.client.pools.list()));
    expect(lists.every((l) => l.length === lists[0]?.length)).toBe(true);
    expect(count('GET /v1/pools')).toBe(1);
    await h.client.pools.list();
    expect(count('GET /v1/pools')).toBe(1);
    await h.client.pools.list({ fresh: true });
    expect(count('GET /v1/pools')).toBe(2);
  });

  it('caches me, courses and one pool per id', async () => {
    await Promise.all([h.client.me(), h.client.me(), h.client.courses.list(), h.client.courses.get('301')]);
    await Promise.all([h.client.me(), h.client.courses.list(), h.client.courses.get('301')]);
    await Promise.all([h.client.pools.get('2001'), h.client.pools.get('2001'), h.client.pools.get('2002')]);
    expect(h.calls().sort()).toEqual([
      'GET /v1/course/301',
      'GET /v1/courses',
      'GET /v1/me',
      'GET /v1/pool/2001',
      'GET /v1/pool/2002',
    ]);
  });

  /** Every cached read: the pools list, pools 2007 and 2001, the courses and me. */
  const readAll = () =>
    Promise.all([
      h.client.pools.list(),
      h.client.pools.get('2007'),
      h.client.pools.get('2001'),
      h.client.courses.list(),
      h.client.me(),
    ]);

  it('an assign invalidates the pools list, that pool, me and courses; the next read shows new counts', async () => {
    const [pools, pool, other, courses] = await readAll();
    await h.client.pools.assign('2007', { email: 'cache.one@contoso.com' });
    h.sandbox.clearRequests();
    const [poolsAfter, poolAfter, otherAfter, coursesAfter] = await readAll();
    expect(h.calls().sort()).toEqual(['GET /v1/courses', 'GET /v1/me', 'GET /v1/pool/2007', 'GET /v1/pools']);
    expect(poolAfter.assignedLicenses).toBe(pool.assignedLicenses + 1);
    expect(poolsAfter.find((p) => p.id === '2007')?.availableLicenses).toBe(
      (pools.find((p) => p.id === '2007')?.availableLicenses ?? 0) - 1,
    );
    const courseOf = (list: typeof courses) => list.find((c) => c.id === pool.course.id)?.assignedLicenses ?? 0;
    expect(courseOf(coursesAfter)).toBe(courseOf(courses) + 1);
    expect(otherAfter).toEqual(other);
  });

  it('a revoke invalidates every pool entry, since DELETE does not say which pool', async () => {
    const [license] = h.sandbox.inspect.licenses({ poolId: '2004' });
    if (!license) throw new Error('demo data changed');
    const before = await h.client.pools.get('2004');
    await h.client.pools.get('2001');
    await h.client.licenses.revoke(license.id);
    h.sandbox.clearRequests();
    const after = await h.client.pools.get('2004');
    await h.client.pools.get('2001');
    expect(after.availableLicenses).toBe(before.availableLicenses + 1);
    expect(h.calls()).toEqual(['GET /v1/pool/2004', 'GET /v1/pool/2001']);
  });

  it('a change of end date invalidates the pool it names', async () => {
    const [license] = h.sandbox.inspect.licenses({ poolId: '2001' });
    if (!license) throw new Error('demo data changed');
    await Promise.all([h.client.pools.get('2001'), h.client.pools.get('2002'), h.client.me()]);
    await h.client.licenses.changeEndDate(license.id, license.end.slice(0, 10));
    h.sandbox.clearRequests();
    await Promise.all([h.client.pools.get('2001'), h.client.pools.get('2002'), h.client.me()]);
    expect(h.calls().sort()).toEqual(['GET /v1/me', 'GET /v1/pool/2001']);
  });

  it("the allowed domains outlive a write: a run of assigns reads me once, while me's totals are read afresh", async () => {
    expect(await h.client.allowedDomains()).toContain('contoso.com');
    await h.client.pools.assign('2007', { email: 'cache.two@contoso.com' });
    await h.client.allowedDomains();
    await h.client.pools.assign('2007', { email: 'cache.three@contoso.com' });
    await h.client.allowedDomains();
    expect(count('GET /v1/me')).toBe(1);
    await h.client.me();
    expect(count('GET /v1/me')).toBe(2);
  });

  it('does not cache errors', async () => {
    h.sandbox.addFault({ kind: '500', method: 'GET', path: /^\/v1\/me$/, times: 3 });
    await expect(h.client.me()).rejects.toThrow();
    expect((await h.client.me()).id).toBe('77');
    expect(count('GET /v1/me')).toBe(4);
  });

  it('invalidateCache drops everything', async () => {
    await h.client.pools.list();
    h.client.invalidateCache();
    await h.client.pools.list();
    expect(count('GET /v1/pools')).toBe(2);
  });
});
