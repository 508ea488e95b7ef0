/**
 * The requests store's queries that the use cases lean on, on SQLite and PostgreSQL: a change made in
 * a caller's transaction commits or rolls back with it, a licensing write's transaction goes through
 * Records.durably, a damaged row is left out of every list and named once in the log, a request
 * replaced keeps its place in line, the import never overwrites, and the waitlist's view moves a
 * request within its line.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDbRequestStore, unreadableRequests } from '../../../src/requests/db/request-store.js';
import { type CourseRequest, UnreadableRequestError } from '../../../src/requests/domain/requests.js';
import { moveEntry, type WaitlistLines } from '../../../src/requests/domain/waitlist.js';
import { cleanupsAfterEach } from '../../support/cleanups.js';
import { testDatabases } from '../../support/records.js';
import { sampleRequest } from '../../support/requests.js';

const cleanups = cleanupsAfterEach();

const req = (id: string, extra: Partial<CourseRequest> = {}): CourseRequest => ({ ...sampleRequest(id), ...extra });
const AT = '2026-11-25T12:00:00.000Z';

describe.each(testDatabases())('the course requests store queries on $dialect', ({ skip, open }) => {
  async function opened() {
    const t = await open();
    cleanups.push(t.close);
    const warnings: { message: string; fields: Record<string, unknown> | undefined }[] = [];
    let durable = 0;
    const store = createDbRequestStore({
      db: t.records.db,
      dialect: t.records.dialect,
      now: () => new Date(AT),
      durably: (fn) => {
        durable++;
        return t.records.durably(fn);
      },
      logger: { warn: (message, fields) => warnings.push({ message, fields }) },
    });
    return { ...t, store, warnings, durable: () => durable };
  }

  it.skipIf(skip !== undefined)(
    'a change in a transaction is kept when it commits and undone when it fails',
    async () => {
      const { store } = await opened();
      await store.put(req('r1'));
      const failed = await store
        .transaction(async (_trx, s) => {
          await s.decide('r1', { kind: 'deny', by: 'U0MGR00001', at: AT });
          throw new Error('the outbox could not take the message');
        })
        .catch((e: unknown) => e);
      expect(String(failed)).toContain('the outbox could not take the message');
      expect((await store.get('r1'))?.status).toBe('pending');
      await store.transaction(async (trx) => {
        await store.within(trx).decide('r1', { kind: 'deny', by: 'U0MGR00001', at: AT });
      });
      expect(await store.get('r1')).toMatchObject({ status: 'denied', decidedBy: 'U0MGR00001' });
    },
  );

  it.skipIf(skip !== undefined)("a licensing write's transaction goes through Records.durably, once", async () => {
    const { store, durable } = await opened();
    await store.put(req('r1'));
    const swapped = await store.durableTransaction(async (_trx, s) => {
      // Inside it, the store is bound to the transaction: no second durable commit.
      await s.durableTransaction(async () => undefined);
      return s.swap('r1', ['pending'], (x) => ({ ...x, status: 'assigning' }));
    });
    expect(swapped.changed).toBe(true);
    expect(durable()).toBe(1);
    expect((await store.get('r1'))?.status).toBe('assigning');
  });

  it.skipIf(skip !== undefined)(
    'a damaged row is left out of every list, keeps its place, and is named once in the log by its id',
    async () => {
      const { store, records, warnings } = await opened();
      for (const id of ['a', 'b']) await store.put(req(id, { status: 'approved' }));
      await store.joinLine('a', AT);
      await store.joinLine('b', AT);
      await sql`update requests set body = ${'{"id": "a", "requesterEmail": "nora.quinn@acme'} where id = 'a'`.execute(
        records.db,
      );
      expect(await unreadableRequests(records.db)).toEqual(['a']);
      expect((await store.byStatus('waitlisted')).map((r) => r.id)).toEqual(['b']);
      expect(await store.lines()).toMatchObject({ '2002': [{ requestId: 'b' }] });
      expect(await store.placeOf('b')).toBe(2);
      await expect(store.get('a')).rejects.toBeInstanceOf(UnreadableRequestError);
      await store.byRequester('U0NOROLE01');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.fields).toEqual({ requestId: 'a' });
      expect(JSON.stringify(warnings)).not.toContain('acme');
    },
  );

  it.skipIf(skip !== undefined)(
    'a request replaced keeps its place in line; the import adds new ids and never overwrites one',
    async () => {
      const { store } = await opened();
      for (const id of ['a', 'b']) await store.put(req(id, { status: 'approved' }));
      await store.joinLine('a', AT);
      await store.joinLine('b', AT);
      const b = await store.get('b');
      await store.put({ ...(b as CourseRequest), reason: 'for the new team' });
      expect(await store.placeOf('b')).toBe(2);
      expect((await store.get('b'))?.reason).toBe('for the new team');
      const added = await store.insertMany([
        { request: req('a', { status: 'denied' }), rank: null },
        { request: req('c', { status: 'waitlisted' }), rank: 10 },
      ]);
      expect(added).toBe(1);
      expect((await store.get('a'))?.status).toBe('waitlisted');
      expect((await store.lines('2002'))['2002']?.map((e) => e.requestId)).toEqual(['a', 'b', 'c']);
    },
  );

  it.skipIf(skip !== undefined)("the waitlist's view moves a request within its line, and only there", async () => {
    const { store } = await opened();
    for (const id of ['a', 'b', 'c']) await store.put(req(id, { status: 'approved' }));
    await store.put(req('x', { status: 'approved', poolId: '2003' }));
    for (const id of ['a', 'b', 'c', 'x']) await store.joinLine(id, AT);
    const place = await store.waitlistStore().moveTo('c', 0);
    expect(place).toBe(1);
    expect((await store.waitlistStore().lines())['2002']?.map((e) => e.requestId)).toEqual(['c', 'a', 'b']);
    // A request of another pool keeps its place; one that holds none has none to move.
    expect(await store.placeOf('x')).toBe(1);
    await store.put(req('p'));
    expect(await store.waitlistStore().moveTo('p', 0)).toBeUndefined();
    expect(await store.placeOf('p')).toBeUndefined();
  });

  it.skipIf(skip !== undefined)(
    'many moves to one spot keep the order the rules give (the line is renumbered when no rank fits between)',
    async () => {
      const { store } = await opened();
      const ids = ['a', 'b', 'c', 'd'];
      for (const id of ids) await store.put(req(id, { status: 'approved' }));
      for (const id of ids) await store.joinLine(id, AT);
      const expected: WaitlistLines = await store.lines();
      for (let i = 0; i < 70; i++) {
        const last = expected['2002']?.[3]?.requestId ?? '';
        const want = moveEntry(expected, last, 1);
        expect(await store.waitlistStore().moveTo(last, 1)).toBe(want);
        expect((await store.lines())['2002']?.map((e) => e.requestId)).toEqual(
          expected['2002']?.map((e) => e.requestId),
        );
      }
      // Out of range is clamped, as the rules clamp it; a request in no line has no place to move to.
      expect(await store.waitlistStore().moveTo('a', 99)).toBe(4);
      expect(await store.waitlistStore().moveTo('nope', 0)).toBeUndefined();
    },
  );
});
