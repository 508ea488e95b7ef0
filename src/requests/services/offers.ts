/**
 * Seats offered, then claimed (docs/leavers-and-offers.md#seats-offered-then-claimed). With WAITLIST_OFFER_HOURS above 0 the waitlist's round
 * offers a freed seat to the request first in line (`offerTo`: the offer and its DM in one
 * transaction) instead of assigning it. The requester's Claim runs the waitlist's own assign (the
 * request to 'assigning' with the write's intent, one write, the outcome recorded, the requester told
 * once through the outbox); "I don't need it" and a deadline passed close the request and hand the seat
 * to the next in line. `tick` (a job of the one runner) expires overdue offers, finishes claims a stop
 * cut short, and asks a holder who reached their seat this way and never started.
 */
import type { Logger } from '../../kernel/licensing/types.js';
import type { AuditEntry } from '../../kernel/services/audit.js';
import type { Outbox } from '../../kernel/services/outbox.js';
import type { OfferStore } from '../db/offer-store.js';
import type { DbRequestStore } from '../db/request-store.js';
import type { AskNotStarted, Offers } from '../domain/offers.js';
import {
  type ClaimOutcome,
  type Offer,
  type OfferNotice,
  type OfferSettings,
  offerDeadline,
} from '../domain/offers.js';
import type { CourseRequest } from '../domain/requests.js';
import { entryOfRequest, type WaitlistAssignOutcome, type WaitlistEntry } from '../domain/waitlist.js';
import { changedNotice, DESK, requestChangedKey } from './kernel-base.js';

export interface OffersOptions {
  offers: OfferStore;
  requests: DbRequestStore;
  outbox: Pick<Outbox, 'enqueue'> & { kick?: () => void };
  settings: OfferSettings;
  /** The waitlist's assign of one request (the request service's). */
  assignWaitlisted(entry: WaitlistEntry): Promise<WaitlistAssignOutcome>;
  /** A seat of the pool may be free for the next in line (the waitlist's noticeSeat). */
  seatMayBeFree(poolId: string): void;
  audit(entry: AuditEntry): Promise<void>;
  now: () => Date;
  logger: Logger;
}

const newOfferId = () =>
  `wo${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

export type { AskNotStarted, Offers };

/** What every step of the offers shares: the options, the clock, one transaction, the audit, the outbox. */
interface OfferCtx {
  o: OffersOptions;
  stamp(): string;
  txn: DbRequestStore['transaction'];
  audit(entry: Omit<AuditEntry, 'at'>): Promise<void>;
  tell(trx: Parameters<Outbox['enqueue']>[0], notice: OfferNotice, key: string): Promise<void>;
}

function offerCtx(o: OffersOptions): OfferCtx {
  const stamp = () => o.now().toISOString();
  return {
    o,
    stamp,
    // What a transaction queued is sent once it committed.
    txn: async (fn) => {
      try {
        return await o.requests.transaction(fn);
      } finally {
        o.outbox.kick?.();
      }
    },
    // The state is recorded already: a trail that does not answer is logged, never the step's failure.
    async audit(entry) {
      try {
        await o.audit({ at: stamp(), ...entry });
      } catch (error) {
        o.logger.warn('offers: could not record the audit entry', { error: String(error) });
      }
    },
    tell: (trx, notice, key) => o.outbox.enqueue(trx, notice, key),
  };
}

/** Closes the offer (`to`) and its request, in one transaction; false when either moved meanwhile. */
async function closeWith(
  c: OfferCtx,
  offer: Offer,
  to: 'declined' | 'expired',
  change: (r: CourseRequest) => CourseRequest,
): Promise<boolean> {
  return c.txn(async (trx, s) => {
    if (!(await c.o.offers.within(trx).move(offer.id, ['open'], to))) return false;
    const result = await s.swap(offer.requestId, ['waitlisted'], change);
    if (result.changed) {
      await c.o.outbox.enqueue(
        trx,
        changedNotice(result.request, { toldElsewhere: true }),
        requestChangedKey(result.request),
      );
    }
    if (to === 'expired') await c.tell(trx, { kind: 'offer-expired', offerId: offer.id }, `offer:${offer.id}:expired`);
    return true;
  });
}

/** An offer passed on (declined, lapsed): audited, and the seat offered to the next in line. */
async function passedOn(c: OfferCtx, offer: Offer, actor: string, action: 'expired' | 'cancelled', why: string) {
  await c.audit({ actor, action, outcome: 'done', poolId: offer.poolId, ...whose(offer), detail: why });
  c.o.seatMayBeFree(offer.poolId);
}

async function expire(c: OfferCtx, offer: Offer): Promise<boolean> {
  const why = 'the seat offered was not claimed by its deadline';
  const closed = await closeWith(c, offer, 'expired', (r) => ({
    ...r,
    status: 'denied',
    decidedBy: DESK,
    decidedAt: c.stamp(),
    denyReason: why,
  }));
  if (!closed) return false;
  await passedOn(c, offer, DESK, 'expired', why);
  return true;
}

/** The claim's assign, from 'claiming': the outcome recorded on the offer. */
async function finishClaim(c: OfferCtx, offer: Offer): Promise<ClaimOutcome> {
  const courseTitle = offer.courseTitle;
  const r = await c.o.requests.get(offer.requestId);
  if (r?.status === 'assigned' && r.licenseId) {
    await c.o.offers.move(offer.id, ['claiming'], 'claimed', { licenseId: r.licenseId });
    return { kind: 'claimed', licenseId: r.licenseId, courseTitle };
  }
  if (r?.status === 'assigning') return { kind: 'pending', courseTitle };
  if (r?.status !== 'waitlisted') {
    await c.o.offers.move(offer.id, ['claiming'], 'withdrawn');
    c.o.seatMayBeFree(offer.poolId);
    return { kind: 'moved-on', state: 'withdrawn', courseTitle };
  }
  let outcome: WaitlistAssignOutcome;
  try {
    outcome = await c.o.assignWaitlisted(entryOfRequest(r));
  } catch (error) {
    outcome = { kind: 'held', reason: `the assign failed: ${String(error)}` };
  }
  return recordClaim(c, offer, outcome);
}

async function recordClaim(c: OfferCtx, offer: Offer, outcome: WaitlistAssignOutcome): Promise<ClaimOutcome> {
  const courseTitle = offer.courseTitle;
  switch (outcome.kind) {
    case 'assigned':
      await c.o.offers.move(offer.id, ['claiming'], 'claimed', { licenseId: outcome.licenseId });
      await c.audit({
        actor: offer.requester,
        action: 'assigned',
        outcome: 'done',
        poolId: offer.poolId,
        licenseId: outcome.licenseId,
        ...whose(offer),
        detail: 'claimed the seat offered from the waitlist',
      });
      return { kind: 'claimed', licenseId: outcome.licenseId, courseTitle };
    case 'skipped':
      await c.o.offers.move(offer.id, ['claiming'], 'withdrawn');
      c.o.seatMayBeFree(offer.poolId);
      return { kind: 'not-given', why: outcome.reason, keepsPlace: false, courseTitle };
    case 'left':
      await c.o.offers.move(offer.id, ['claiming'], 'withdrawn');
      return { kind: 'moved-on', state: 'withdrawn', courseTitle };
    case 'held': {
      const now = await c.o.requests.get(offer.requestId);
      if (now?.status === 'assigning') return { kind: 'pending', courseTitle };
      // Nothing written: the seat was taken meanwhile (they keep their place for the next seat), or
      // the licensing service did not answer (the offer stays open: Claim again).
      const taken = /taken in between/.test(outcome.reason);
      await c.o.offers.move(offer.id, ['claiming'], taken ? 'withdrawn' : 'open');
      return { kind: 'not-given', why: outcome.reason, keepsPlace: true, courseTitle };
    }
  }
}

/** Open offers whose request left the line otherwise (cancelled, removed by an admin): the seat is released. */
async function withdrawOrphans(c: OfferCtx): Promise<void> {
  for (const offer of await c.o.offers.open()) {
    const r = await c.o.requests.get(offer.requestId).then(
      (x) => x ?? null,
      () => undefined,
    );
    // Not read (the database did not answer): left for the next tick.
    if (r === undefined || r?.status === 'waitlisted' || r?.status === 'assigning') continue;
    if (await c.o.offers.move(offer.id, ['open'], 'withdrawn')) c.o.seatMayBeFree(offer.poolId);
  }
}

async function askHolders(c: OfferCtx, askNotStarted: AskNotStarted | undefined): Promise<number> {
  if (!askNotStarted) return 0;
  const before = new Date(c.o.now().getTime() - c.o.settings.notStartedDays * 86_400_000).toISOString();
  let asked = 0;
  for (const offer of await c.o.offers.claimedBefore(before)) {
    if (!offer.licenseId) continue;
    try {
      const approver = (await c.o.requests.get(offer.requestId))?.decidedBy ?? DESK;
      const answer = await askNotStarted({ ...offer, licenseId: offer.licenseId, approver });
      if (answer === 'not-now') continue;
      if ((await c.o.offers.markAsked(offer.id, c.stamp())) && answer === 'asked') asked++;
    } catch (error) {
      c.o.logger.warn('offers: could not ask a holder who has not started', {
        offerId: offer.id,
        error: String(error),
      });
    }
  }
  return asked;
}

export function createOffers(o: OffersOptions): Offers {
  const c = offerCtx(o);
  let askNotStarted: AskNotStarted | undefined;
  return {
    settings: o.settings,
    async offerTo(entry, freeSeats) {
      const at = o.now();
      const offer: Offer = {
        id: newOfferId(),
        poolId: entry.poolId,
        requestId: entry.requestId,
        requester: entry.requester,
        courseTitle: entry.courseTitle ?? entry.poolId,
        state: 'open',
        createdAt: at.toISOString(),
        deadlineAt: offerDeadline(at, o.settings.hours),
      };
      const made = await c.txn(async (trx) => {
        const result = await o.offers.within(trx).make(offer, freeSeats);
        if (result === 'offered')
          await c.tell(trx, { kind: 'offer-made', offerId: offer.id }, `offer:${offer.id}:made`);
        return result;
      });
      if (made === 'offered') o.logger.info('waitlist: seat offered', { poolId: offer.poolId, offerId: offer.id });
      return made;
    },
    async held(poolId) {
      return (await o.offers.live(poolId)).map((x) => ({
        requester: x.requester,
        deadlineAt: x.deadlineAt,
        requestId: x.requestId,
      }));
    },
    get: (id) => o.offers.get(id),
    async claim(offerId, user) {
      const offer = await o.offers.get(offerId);
      if (!offer) return { kind: 'unknown-offer' };
      if (offer.requester !== user) return { kind: 'not-yours' };
      const courseTitle = offer.courseTitle;
      if (offer.state === 'open' && Date.parse(offer.deadlineAt) <= o.now().getTime()) {
        await expire(c, offer);
        return { kind: 'moved-on', state: 'expired', courseTitle };
      }
      if (!(await o.offers.move(offer.id, ['open'], 'claiming'))) {
        const now = await o.offers.get(offerId);
        return { kind: 'moved-on', state: now?.state ?? offer.state, courseTitle };
      }
      return finishClaim(c, { ...offer, state: 'claiming' });
    },
    async decline(offerId, user) {
      const offer = await o.offers.get(offerId);
      if (!offer) return { kind: 'unknown-offer' };
      if (offer.requester !== user) return { kind: 'not-yours' };
      const courseTitle = offer.courseTitle;
      const why = 'they did not need the seat offered from the waitlist';
      const closed =
        offer.state === 'open' &&
        (await closeWith(c, offer, 'declined', (r) => ({ ...r, status: 'cancelled', decidedAt: c.stamp() })));
      if (!closed) {
        const now = await o.offers.get(offerId);
        return { kind: 'moved-on', state: now?.state ?? offer.state, courseTitle };
      }
      await passedOn(c, offer, user, 'cancelled', why);
      return { kind: 'declined', courseTitle };
    },
    async tick() {
      let expired = 0;
      for (const offer of await o.offers.overdue(c.stamp())) if (await expire(c, offer)) expired++;
      await withdrawOrphans(c);
      let settled = 0;
      for (const offer of await o.offers.claiming()) {
        const result = await finishClaim(c, offer).catch((error: unknown) => {
          o.logger.warn('offers: could not finish a claim', { offerId: offer.id, error: String(error) });
          return undefined;
        });
        if (result && result.kind !== 'pending') settled++;
      }
      return { expired, settled, asked: await askHolders(c, askNotStarted) };
    },
    askNotStartedWith(ask) {
      askNotStarted = ask;
    },
  };
}

function whose(offer: Offer) {
  return { requester: offer.requester, requestId: offer.requestId, courseTitle: offer.courseTitle };
}
