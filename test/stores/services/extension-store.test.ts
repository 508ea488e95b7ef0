/**
 * The extension requests' store on SQLite and PostgreSQL: an ask reads back as written, by license,
 * learner and status; a change is taken only from the statuses given, and of ten taken at once exactly
 * one wins (two approvers never both send the end-date write).
 */
import { describe, expect, it } from 'vitest';
import { createExtensionStore } from '../../../src/extensions/db/store.js';
import type { ExtensionRequest } from '../../../src/extensions/domain/extensions.js';
import { cleanupsAfterEach } from '../../support/cleanups.js';
import { testDatabases } from '../../support/records.js';

const cleanups = cleanupsAfterEach();

const ask = (id: string, extra: Partial<ExtensionRequest> = {}): ExtensionRequest => ({
  id,
  requester: 'U0LEARN001',
  requesterEmail: 'ada@contoso.com',
  licenseId: '4012',
  poolId: '2001',
  courseTitle: 'Mastering DAX',
  poolEnd: '2027-05-01T23:59:59Z',
  currentEnd: '2027-01-05T23:59:59Z',
  endDate: '2027-02-01',
  reason: 'Exams 😀',
  createdAt: '2026-11-25T10:00:00.000Z',
  status: 'pending',
  cards: [],
  ...extra,
});

describe.each(testDatabases())('the extension requests store on $dialect', ({ skip, open }) => {
  async function opened() {
    const t = await open();
    cleanups.push(t.close);
    const now = () => new Date('2026-11-25T12:00:00.000Z');
    return createExtensionStore({ db: t.records.db, dialect: t.records.dialect, now });
  }

  it.skipIf(skip !== undefined)('an ask reads back as written, by id, license, learner and status', async () => {
    const store = await opened();
    await store.insert(ask('x1'));
    await store.insert(ask('x2', { licenseId: '4005', requester: 'U0LEARN002', status: 'denied' }));
    expect(await store.get('x1')).toEqual(ask('x1'));
    expect(await store.get('nope')).toBeUndefined();
    expect((await store.byLicense('4012')).map((r) => r.id)).toEqual(['x1']);
    expect((await store.byRequester('U0LEARN002')).map((r) => r.id)).toEqual(['x2']);
    expect((await store.byStatus('pending')).map((r) => r.id)).toEqual(['x1']);
    await store.setCards('x1', [{ channel: 'C1', ts: '1.2' }]);
    expect((await store.get('x1'))?.cards).toEqual([{ channel: 'C1', ts: '1.2' }]);
  });

  it.skipIf(skip !== undefined)(
    'of ten approvals at once exactly one wins; a decided ask takes no change',
    async () => {
      const store = await opened();
      await store.insert(ask('x1'));
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          store.swap('x1', ['pending'], (x) => ({ ...x, status: 'extending', decidedBy: `U0ADMIN00${i}` })),
        ),
      );
      expect(results.filter((r) => r.changed)).toHaveLength(1);
      const winner = results.find((r) => r.changed)?.request.decidedBy;
      expect((await store.get('x1'))?.decidedBy).toBe(winner);
      // Two asks about one license at once: each looks for an open one under the license's lock.
      const asks = await Promise.all(
        ['x3', 'x4'].map((id) =>
          store.transaction(async (_trx, s) => {
            await s.lockLicense('4005');
            if ((await s.byLicense('4005')).length > 0) return false;
            await s.insert(ask(id, { licenseId: '4005' }));
            return true;
          }),
        ),
      );
      expect(asks.filter(Boolean)).toHaveLength(1);
      const late = await store.swap('x1', ['pending'], (x) => ({ ...x, status: 'denied' }));
      expect(late).toMatchObject({ changed: false, request: { status: 'extending' } });
    },
  );
});
