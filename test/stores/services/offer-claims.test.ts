/**
 * A seat offered from the waitlist, claimed when things go wrong (docs/offers.md), through the offers'
 * use case on the records: the waitlist's assign is a fake that answers as the request service would
 * (assigned, the licensing service down, the seat taken in between, the person skipped, the answer
 * lost and settled later by the read-back). Each claim says what happened, the offer and its request
 * record it, nothing is assigned twice, and the seat goes on to the next in line only when it is free.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/kernel/services/audit.js';
import { createOutbox } from '../../../src/kernel/services/outbox.js';
import { createOfferStore } from '../../../src/requests/db/offer-store.js';
import { createDbRequestStore } from '../../../src/requests/db/request-store.js';
import type { CourseRequest } from '../../../src/requests/domain/requests.js';
import type { WaitlistAssignOutcome, WaitlistEntry } from '../../../src/requests/domain/waitlist.js';
import { DESK } from '../../../src/requests/services/kernel-base.js';
import { createOffers } from '../../../src/requests/services/offers.js';
import { cleanupsAfterEach } from '../../support/cleanups.js';
import { testDatabases } from '../../support/records.js';
import { sampleRequest } from '../../support/requests.js';

const cleanups = cleanupsAfterEach();
const T0 = Date.parse('2026-11-26T10:00:00.000Z');
const HOUR_MS = 3_600_000;
const POOL = '2003';

describe.each(testDatabases())('claims of seats offered on $dialect', ({ skip, open }) => {
  /** The offers over fresh records; `assign` answers the claim's assign (the request service's). */
  /** A test that runs on its own rig (skipped where the database cannot start). */
  const withRig = (title: string, body: (r: Awaited<ReturnType<typeof rig>>) => Promise<void>) =>
    it.skipIf(skip !== undefined)(title, async () => body(await rig()));

  async function rig() {
    const t = await open();
    cleanups.push(t.close);
    const clock = { t: T0 };
    const now = () => new Date(clock.t);
    const { db, dialect } = t.records;
    const requests = createDbRequestStore({ db, dialect, now });
    const outbox = createOutbox({ records: t.records, logger: quiet, now, deliver: async () => undefined });
    const freed: string[] = [];
    const audited: AuditEntry[] = [];
    const warned: string[] = [];
    const assigns: WaitlistEntry[] = [];
    const fake: { answer: (entry: WaitlistEntry) => Promise<WaitlistAssignOutcome> } = {
      answer: async () => ({ kind: 'held', reason: 'no answer set' }),
    };
    const auditFails = { on: false };
    const requestsDown = { on: false };
    const offers = createOffers({
      offers: createOfferStore({ db, dialect, now }),
      // A database that stops answering reads of requests (the offers' own rows still answer).
      requests: {
        ...requests,
        get: (id) => (requestsDown.on ? Promise.reject(new Error('SQLITE_BUSY')) : requests.get(id)),
      },
      outbox,
      settings: { hours: 48, notStartedDays: 14 },
      assignWaitlisted: (entry) => {
        assigns.push(entry);
        return fake.answer(entry);
      },
      seatMayBeFree: (poolId) => freed.push(poolId),
      async audit(entry) {
        if (auditFails.on) throw new Error('the audit trail does not answer');
        audited.push(entry);
      },
      now,
      logger: { ...quiet, warn: (message: string) => warned.push(message) },
    });
    const outboxKeys = async () =>
      (await db.selectFrom('outbox').select(['key']).orderBy('id').execute()).map((r) => r.key);
    /** A waitlisted request of `user`, offered a seat of the pool (`freeSeats` free); the offer's id. */
    async function offered(user: string, freeSeats = 1): Promise<{ offerId: string; requestId: string }> {
      const requestId = `rq-${user}`;
      const r: CourseRequest = {
        ...sampleRequest(requestId),
        requester: user,
        poolId: POOL,
        status: 'waitlisted',
        decidedBy: 'U0ADMIN001',
        decidedAt: now().toISOString(),
      };
      await requests.put(r);
      expect(await offers.offerTo({ requestId, poolId: POOL, requester: user, since: r.createdAt }, freeSeats)).toBe(
        'offered',
      );
      const held = await offers.held(POOL);
      const offerId = (await createOfferStore({ db, dialect, now }).live(POOL)).find(
        (x) => x.requestId === requestId,
      )?.id;
      expect(held.map((h) => h.requester)).toContain(user);
      return { offerId: String(offerId), requestId };
    }
    /** What the request service's assign does once the licensing service gave the seat. */
    const assignedAs =
      (licenseId: string) =>
      async (entry: WaitlistEntry): Promise<WaitlistAssignOutcome> => {
        await requests.swap(entry.requestId, ['waitlisted', 'assigning'], (x) => ({
          ...x,
          status: 'assigned',
          licenseId,
        }));
        return { kind: 'assigned', licenseId };
      };
    const statusOf = async (id: string) => (await requests.get(id))?.status;
    const stateOf = async (id: string) => (await offers.get(id))?.state;
    /** The request's row gone, as the pruning of old decided requests leaves it. */
    const pruned = (id: string) => db.deleteFrom('requests').where('id', '=', id).execute();
    return {
      pruned,
      offers,
      offerStore: createOfferStore({ db, dialect, now }),
      requests,
      clock,
      fake,
      freed,
      audited,
      warned,
      assigns,
      auditFails,
      requestsDown,
      outboxKeys,
      offered,
      assignedAs,
      statusOf,
      stateOf,
    };
  }

  withRig(
    'a claim whose assign the licensing service does not answer keeps the offer open: she is told, nothing is recorded, and Claim again gives the seat once',
    async (r) => {
      const { offerId, requestId } = await r.offered('U0ADA00001');
      r.fake.answer = async () => ({ kind: 'held', reason: 'the licensing service did not answer' });
      const first = await r.offers.claim(offerId, 'U0ADA00001');
      expect(first).toMatchObject({ kind: 'not-given', keepsPlace: true, why: 'the licensing service did not answer' });
      expect(await r.stateOf(offerId)).toBe('open');
      expect(await r.statusOf(requestId)).toBe('waitlisted');
      expect(r.audited).toEqual([]);
      // The seat is still hers: nobody else is offered it.
      expect(r.freed).toEqual([]);

      // An assign that throws is the same: nothing known to be written, the offer open again.
      r.fake.answer = async () => {
        throw new Error('socket hang up');
      };
      expect(await r.offers.claim(offerId, 'U0ADA00001')).toMatchObject({
        kind: 'not-given',
        keepsPlace: true,
        why: 'the assign failed: Error: socket hang up',
      });
      expect(await r.stateOf(offerId)).toBe('open');

      r.fake.answer = r.assignedAs('L-901');
      expect(await r.offers.claim(offerId, 'U0ADA00001')).toMatchObject({ kind: 'claimed', licenseId: 'L-901' });
      expect(await r.offers.get(offerId)).toMatchObject({ state: 'claimed', licenseId: 'L-901' });
      expect(r.audited.filter((e) => e.action === 'assigned')).toHaveLength(1);
      // A late second click: no second assign.
      expect(await r.offers.claim(offerId, 'U0ADA00001')).toMatchObject({ kind: 'moved-on', state: 'claimed' });
      expect(r.assigns).toHaveLength(3);
    },
  );

  withRig(
    'a claim that finds the seat taken in between withdraws the offer but keeps her place; one that finds her skipped passes the seat on',
    async (r) => {
      const ada = await r.offered('U0ADA00001');
      r.fake.answer = async () => ({ kind: 'held', reason: 'the seat was taken in between' });
      expect(await r.offers.claim(ada.offerId, 'U0ADA00001')).toMatchObject({ kind: 'not-given', keepsPlace: true });
      expect(await r.stateOf(ada.offerId)).toBe('withdrawn');
      expect(await r.statusOf(ada.requestId)).toBe('waitlisted');
      // No seat to hand on: it was taken.
      expect(r.freed).toEqual([]);

      const bo = await r.offered('U0BOB00001');
      r.fake.answer = async () => ({ kind: 'skipped', reason: 'they left the organisation' });
      expect(await r.offers.claim(bo.offerId, 'U0BOB00001')).toMatchObject({
        kind: 'not-given',
        keepsPlace: false,
        why: 'they left the organisation',
      });
      expect(await r.stateOf(bo.offerId)).toBe('withdrawn');
      expect(r.freed).toEqual([POOL]);

      // A request that left the line otherwise (another replica gave it a seat): withdrawn, nothing audited.
      const cy = await r.offered('U0CYX00001');
      r.fake.answer = async () => ({ kind: 'left', tookSeat: true });
      expect(await r.offers.claim(cy.offerId, 'U0CYX00001')).toMatchObject({ kind: 'moved-on', state: 'withdrawn' });
      expect(r.audited).toEqual([]);
    },
  );

  withRig(
    'a claim whose answer is lost stays pending, the offer holding the seat, until the read-back settles it; the tick then records the license once',
    async (r) => {
      const { offerId, requestId } = await r.offered('U0ADA00001');
      // The request service began the assign (the request 'assigning' with its intent) and lost the answer.
      r.fake.answer = async (entry) => {
        await r.requests.swap(entry.requestId, ['waitlisted'], (x) => ({ ...x, status: 'assigning' }));
        return { kind: 'held', reason: 'the outcome is not known yet' };
      };
      expect(await r.offers.claim(offerId, 'U0ADA00001')).toMatchObject({ kind: 'pending' });
      expect(await r.stateOf(offerId)).toBe('claiming');
      expect(await r.offers.held(POOL)).toHaveLength(1);

      // Past its deadline with the claim in flight: not expired, the request not denied.
      r.clock.t += 49 * HOUR_MS;
      expect(await r.offers.tick()).toMatchObject({ expired: 0, settled: 0 });
      expect(await r.stateOf(offerId)).toBe('claiming');
      expect(await r.statusOf(requestId)).toBe('assigning');
      expect(r.assigns).toHaveLength(1);

      // The read-back found the license: the next tick records it on the offer, without a second assign.
      await r.requests.swap(requestId, ['assigning'], (x) => ({ ...x, status: 'assigned', licenseId: 'L-777' }));
      expect(await r.offers.tick()).toMatchObject({ settled: 1 });
      expect(await r.offers.get(offerId)).toMatchObject({ state: 'claimed', licenseId: 'L-777' });
      expect(r.assigns).toHaveLength(1);
      expect(r.freed).toEqual([]);
    },
  );

  withRig(
    'claims a stop cut short are finished by the tick: assigned when still in line, withdrawn and the seat passed on when the request was cancelled meanwhile',
    async (r) => {
      const ada = await r.offered('U0ADA00001');
      const bo = await r.offered('U0BOB00002', 2);
      // Both offers moved to 'claiming', then the process stopped before the assign; Bo cancelled since.
      expect(await r.offerStore.move(ada.offerId, ['open'], 'claiming')).toBe(true);
      expect(await r.offerStore.move(bo.offerId, ['open'], 'claiming')).toBe(true);
      await r.requests.swap(bo.requestId, ['waitlisted'], (x) => ({ ...x, status: 'cancelled' }));
      r.fake.answer = r.assignedAs('L-555');
      expect(await r.offers.tick()).toMatchObject({ expired: 0, settled: 2 });
      expect(await r.offers.get(ada.offerId)).toMatchObject({ state: 'claimed', licenseId: 'L-555' });
      expect(await r.stateOf(bo.offerId)).toBe('withdrawn');
      expect(r.assigns.map((e) => e.requestId)).toEqual([ada.requestId]);
      expect(r.freed).toEqual([POOL]);
      // Bo's late click finds it gone; nothing assigned to him.
      expect(await r.offers.claim(bo.offerId, 'U0BOB00002')).toMatchObject({ kind: 'moved-on', state: 'withdrawn' });
      expect(await r.offers.decline(bo.offerId, 'U0BOB00002')).toMatchObject({ kind: 'moved-on', state: 'withdrawn' });
      expect(r.assigns).toHaveLength(1);
    },
  );

  withRig(
    'a claim after the deadline, before any tick, expires the offer: the request denied, she is told once, the seat passed on; a decline after it changes nothing',
    async (r) => {
      const { offerId, requestId } = await r.offered('U0ADA00001');
      r.clock.t += 48 * HOUR_MS;
      r.fake.answer = r.assignedAs('L-1');
      expect(await r.offers.claim(offerId, 'U0ADA00001')).toMatchObject({ kind: 'moved-on', state: 'expired' });
      expect(r.assigns).toEqual([]);
      expect(await r.requests.get(requestId)).toMatchObject({
        status: 'denied',
        denyReason: 'the seat offered was not claimed by its deadline',
      });
      expect((await r.outboxKeys()).filter((k) => k === `offer:${offerId}:expired`)).toHaveLength(1);
      expect(r.freed).toEqual([POOL]);
      expect(r.audited.map((e) => e.action)).toEqual(['expired']);

      expect(await r.offers.decline(offerId, 'U0ADA00001')).toMatchObject({ kind: 'moved-on', state: 'expired' });
      expect(await r.statusOf(requestId)).toBe('denied');
      // The tick finds nothing more to expire, and tells nobody again.
      expect(await r.offers.tick()).toMatchObject({ expired: 0 });
      expect((await r.outboxKeys()).filter((k) => k === `offer:${offerId}:expired`)).toHaveLength(1);
      expect(r.freed).toEqual([POOL]);
    },
  );

  withRig(
    "an audit trail that does not answer is logged, never the claim's failure; a holder who never started is asked once, after a failed or deferred ask",
    async (r) => {
      const { offerId } = await r.offered('U0ADA00001');
      r.fake.answer = r.assignedAs('L-42');
      r.auditFails.on = true;
      expect(await r.offers.claim(offerId, 'U0ADA00001')).toMatchObject({ kind: 'claimed', licenseId: 'L-42' });
      expect(r.warned).toContain('offers: could not record the audit entry');

      const asked: { licenseId: string; approver: string }[] = [];
      const answers: (() => Promise<'asked' | 'not-now'>)[] = [
        async () => {
          throw new Error('Slack does not answer');
        },
        async () => 'not-now',
        async () => 'asked',
      ];
      r.offers.askNotStartedWith(async (offer) => {
        asked.push({ licenseId: offer.licenseId, approver: offer.approver });
        return (answers.shift() ?? (async () => 'asked'))();
      });
      r.clock.t += 15 * 24 * HOUR_MS;
      expect((await r.offers.tick()).asked).toBe(0);
      expect(r.warned).toContain('offers: could not ask a holder who has not started');
      expect((await r.offers.tick()).asked).toBe(0);
      expect((await r.offers.tick()).asked).toBe(1);
      expect((await r.offers.tick()).asked).toBe(0);
      expect(asked).toEqual(Array(3).fill({ licenseId: 'L-42', approver: 'U0ADMIN001' }));
    },
  );

  withRig(
    'a tick while the requests do not answer leaves the open offer and the cut-short claim as they are, logged; the next tick finishes both',
    async (r) => {
      const ada = await r.offered('U0ADA00001');
      const bo = await r.offered('U0BOB00002', 2);
      // Ada cancelled her request while her seat was on offer; Bo's claim was cut short by a stop.
      await r.requests.swap(ada.requestId, ['waitlisted'], (x) => ({ ...x, status: 'cancelled' }));
      expect(await r.offerStore.move(bo.offerId, ['open'], 'claiming')).toBe(true);
      r.fake.answer = r.assignedAs('L-8');
      r.requestsDown.on = true;
      expect(await r.offers.tick()).toMatchObject({ expired: 0, settled: 0 });
      expect(r.warned).toContain('offers: could not finish a claim');
      expect(await r.stateOf(ada.offerId)).toBe('open');
      expect(await r.stateOf(bo.offerId)).toBe('claiming');
      expect(r.assigns).toEqual([]);
      expect(r.freed).toEqual([]);

      r.requestsDown.on = false;
      expect(await r.offers.tick()).toMatchObject({ settled: 1 });
      expect(await r.stateOf(ada.offerId)).toBe('withdrawn');
      expect(await r.offers.get(bo.offerId)).toMatchObject({ state: 'claimed', licenseId: 'L-8' });
      expect(r.freed).toEqual([POOL]);
      expect(r.assigns).toHaveLength(1);
    },
  );

  withRig(
    '"I don\'t need it" from someone else or for no such offer changes nothing; from her after she cancelled closes the offer without a second notice',
    async (r) => {
      const { offerId, requestId } = await r.offered('U0ADA00001');
      expect(await r.offers.decline('wo0000000000000000', 'U0ADA00001')).toEqual({ kind: 'unknown-offer' });
      expect(await r.offers.decline(offerId, 'U0BOB00002')).toEqual({ kind: 'not-yours' });
      expect(await r.stateOf(offerId)).toBe('open');
      // No second seat to offer while hers is held.
      expect(
        await r.offers.offerTo({ requestId: 'rq-other', poolId: POOL, requester: 'U0BOB00002', since: '' }, 1),
      ).toBe('no-free-seat');

      await r.requests.swap(requestId, ['waitlisted'], (x) => ({ ...x, status: 'cancelled', decidedAt: 'earlier' }));
      const before = await r.outboxKeys();
      expect(await r.offers.decline(offerId, 'U0ADA00001')).toMatchObject({ kind: 'declined' });
      expect(await r.stateOf(offerId)).toBe('declined');
      expect(await r.requests.get(requestId)).toMatchObject({ status: 'cancelled', decidedAt: 'earlier' });
      expect(await r.outboxKeys()).toEqual(before);
      expect(r.freed).toEqual([POOL]);
    },
  );

  withRig(
    'Claim and "I don\'t need it" at once: one wins, the seat is never both assigned and passed on',
    async (r) => {
      const { offerId, requestId } = await r.offered('U0ADA00001');
      r.fake.answer = r.assignedAs('L-77');
      const [claimed, declined] = await Promise.all([
        r.offers.claim(offerId, 'U0ADA00001'),
        r.offers.decline(offerId, 'U0ADA00001'),
      ]);
      const won = [claimed.kind === 'claimed', declined.kind === 'declined'];
      expect(won.filter(Boolean)).toHaveLength(1);
      if (claimed.kind === 'claimed') {
        expect(declined).toMatchObject({ kind: 'moved-on' });
        expect(await r.statusOf(requestId)).toBe('assigned');
        expect(r.freed).toEqual([]);
      } else {
        expect(claimed).toMatchObject({ kind: 'moved-on', state: 'declined' });
        expect(r.assigns).toEqual([]);
        expect(await r.statusOf(requestId)).toBe('cancelled');
        expect(r.freed).toEqual([POOL]);
      }
    },
  );

  withRig(
    "an offer whose request is gone (pruned) is withdrawn at the tick and its seat passed on; a holder whose request is gone is asked on the desk's behalf",
    async (r) => {
      const ada = await r.offered('U0ADA00001');
      const bo = await r.offered('U0BOB00002', 2);
      r.fake.answer = r.assignedAs('L-3');
      expect(await r.offers.claim(bo.offerId, 'U0BOB00002')).toMatchObject({ kind: 'claimed' });
      await r.pruned(ada.requestId);
      await r.pruned(bo.requestId);
      const approvers: string[] = [];
      r.offers.askNotStartedWith(async (offer) => {
        approvers.push(offer.approver);
        return 'asked';
      });
      expect(await r.offers.tick()).toMatchObject({ expired: 0, asked: 0 });
      expect(await r.stateOf(ada.offerId)).toBe('withdrawn');
      expect(r.freed).toEqual([POOL]);
      r.clock.t += 15 * 24 * HOUR_MS;
      expect(await r.offers.tick()).toMatchObject({ asked: 1 });
      expect(approvers).toEqual([DESK]);
    },
  );
});

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
