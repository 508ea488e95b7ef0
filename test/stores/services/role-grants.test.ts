/**
 * The roles an owner gave, in the records (docs/roles-and-approvals.md): stored with their scope, the
 * same role on the same scope once (two replicas giving it at once store one), taken away once.
 */
import { describe, expect, it } from 'vitest';
import { createGrantStore, type Grant } from '../../../src/roles/index.js';
import { cleanupsAfterEach } from '../../support/cleanups.js';
import { testDatabases } from '../../support/records.js';

const cleanups = cleanupsAfterEach();

const grant = (id: string, scope: Grant['scope'], subject = 'U0PERSON01'): Grant => ({
  id,
  subject,
  role: 'admin',
  scope,
  givenBy: 'U0OWNER001',
  givenAt: `2026-11-27T10:00:0${id.slice(-1)}.000Z`,
});

describe.each(testDatabases())('role grants on $dialect', ({ skip, open }) => {
  it.skipIf(skip !== undefined)('stores each scope, once, and takes it away once', async () => {
    const t = await open();
    cleanups.push(t.close);
    const store = createGrantStore(t.records);
    const course = grant('rg0000000000000001', { kind: 'course', courseId: '301', courseTitle: 'Mastering DAX' });
    const pools = grant('rg0000000000000002', { kind: 'pools', poolIds: ['2003', '2001'] });
    const all = grant('rg0000000000000003', { kind: 'all' }, 'S0GROUP001');
    expect(await store.add(course)).toBe(true);
    expect(await store.add(pools)).toBe(true);
    expect(await store.add(all)).toBe(true);
    // The same role on the same pools, in another order, given on another replica at the same time.
    const twice = await Promise.all([
      store.add(grant('rg0000000000000004', { kind: 'pools', poolIds: ['2001', '2003'] })),
      store.add(grant('rg0000000000000005', { kind: 'pools', poolIds: ['2001', '2003'] })),
    ]);
    expect(twice).toEqual([false, false]);
    expect(await store.all()).toEqual([course, { ...pools, scope: { kind: 'pools', poolIds: ['2001', '2003'] } }, all]);
    expect(await store.remove(course.id)).toEqual(course);
    expect(await store.remove(course.id)).toBeUndefined();
    expect((await store.all()).map((g) => g.id)).toEqual([pools.id, all.id]);
  });
});
