/**
 * The offers' store on both engines (docs/leavers-and-offers.md#seats-offered-then-claimed): an offer is made only while the pool's live offers
 * are fewer than its free seats and the request holds none, even when two makers race (two replicas);
 * every change of state is conditional on the state seen, so one of two answers wins.
 */
import { describe, expect, it } from 'vitest';
import { createOfferStore } from '../../../src/requests/db/offer-store.js';
import type { Offer } from '../../../src/requests/domain/offers.js';
import { cleanupsAfterEach } from '../../support/cleanups.js';
import { testDatabases } from '../../support/records.js';

const cleanups = cleanupsAfterEach();

const AT = '2026-11-26T10:00:00.000Z';
const offer = (id: string, requestId: string, poolId = '2003'): Offer => ({
  id,
  poolId,
  requestId,
  requester: `U0${requestId}`,
  courseTitle: 'Optimizing DAX',
  state: 'open',
  createdAt: AT,
  deadlineAt: '2026-11-28T10:00:00.000Z',
});

describe.each(testDatabases())('the offers on $dialect', ({ skip, open }) => {
  it.skipIf(skip !== undefined)(
    'never offers one seat twice, nor one request two live offers, even at once',
    async () => {
      const t = await open();
      cleanups.push(t.close);
      const store = createOfferStore({ db: t.records.db, dialect: t.records.dialect, now: () => new Date(AT) });
      // Two makers at once, one free seat: one offer.
      const raced = await Promise.all([store.make(offer('wo01', 'RQA'), 1), store.make(offer('wo02', 'RQB'), 1)]);
      expect(raced.sort()).toEqual(['no-free-seat', 'offered']);
      expect(await store.live('2003')).toHaveLength(1);
      // The same request again, with a second seat free: it holds an offer already.
      const first = (await store.live('2003'))[0] as Offer;
      expect(await store.make(offer('wo03', first.requestId), 2)).toBe('already-offered');
      // Another pool is a line of its own.
      expect(await store.make(offer('wo04', 'RQC', '2002'), 1)).toBe('offered');

      // Claim and decline at once: one wins.
      const answers = await Promise.all([
        store.move(first.id, ['open'], 'claiming'),
        store.move(first.id, ['open'], 'declined'),
      ]);
      expect(answers.filter(Boolean)).toHaveLength(1);
      // Claiming still holds the seat; a declined one does not.
      const state = (await store.get(first.id))?.state;
      expect(await store.live('2003')).toHaveLength(state === 'claiming' ? 1 : 0);
      // Once it is no longer live, the request may be offered a seat again.
      await store.move(first.id, ['claiming'], 'withdrawn');
      expect(await store.make(offer('wo05', first.requestId), 1)).toBe('offered');
    },
  );
});
