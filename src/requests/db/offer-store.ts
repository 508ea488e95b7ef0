/**
 * The offers of freed seats (docs/leavers-and-offers.md#seats-offered-then-claimed), table `waitlist_offers`: every query the offers run.
 * An offer is made by a conditional insert under the pool's line lock (PostgreSQL; SQLite has one
 * writer): only while the pool shows more free seats than live offers, and only one live offer per
 * request (a partial unique index). Every change of state is a conditional update from the state the
 * caller saw, so a claim, a decline and an expiry at once leave one winner.
 */
import type { Kysely } from 'kysely';
import type { Database, WaitlistOfferRow } from '../../kernel/db/schema.js';
import { LIVE_OFFER_STATES, type Offer, type OfferState } from '../domain/offers.js';
import { lockPoolLine } from './line-queries.js';

export type OfferMade = 'offered' | 'already-offered' | 'no-free-seat';

export interface OfferStore {
  within(trx: Kysely<Database>): OfferStore;
  /** Offers `offer` unless the pool's live offers already hold its `freeSeats`, or the request has one. */
  make(offer: Offer, freeSeats: number): Promise<OfferMade>;
  get(id: string): Promise<Offer | undefined>;
  /** The live offers (open or claiming) of a pool, oldest first. */
  live(poolId: string): Promise<Offer[]>;
  /** Moves an offer from one of `from` to `to` (with what changes with it); false when it was not in `from`. */
  move(id: string, from: readonly OfferState[], to: OfferState, set?: { licenseId?: string }): Promise<boolean>;
  /** Open offers whose deadline has passed. */
  overdue(now: string): Promise<Offer[]>;
  /** Every open offer. */
  open(): Promise<Offer[]>;
  /** Offers being claimed (a claim a stop may have cut short). */
  claiming(): Promise<Offer[]>;
  /** Claimed offers whose seat was given before `before` and whose holder was not asked yet. */
  claimedBefore(before: string): Promise<Offer[]>;
  /** Marks a claimed offer's holder asked; false when another replica did first. */
  markAsked(id: string, at: string): Promise<boolean>;
}

function offerOf(row: WaitlistOfferRow): Offer {
  const { id, requester, closed_at: closedAt, license_id: licenseId, asked_at: askedAt } = row;
  const when = { createdAt: row.created_at, deadlineAt: row.deadline_at };
  const what = { poolId: row.pool_id, requestId: row.request_id, courseTitle: row.course_title };
  return {
    id,
    requester,
    state: row.state as OfferState,
    ...what,
    ...when,
    ...(closedAt ? { closedAt } : {}),
    ...(licenseId ? { licenseId } : {}),
    ...(askedAt ? { askedAt } : {}),
  };
}

export function createOfferStore(
  opts: { db: Kysely<Database>; dialect: 'sqlite' | 'postgres'; now: () => Date },
  bound?: Kysely<Database>,
): OfferStore {
  const db = bound ?? opts.db;
  const inTrx = <T>(fn: (trx: Kysely<Database>) => Promise<T>) =>
    bound ? fn(bound) : opts.db.transaction().execute(fn);
  const select = () => db.selectFrom('waitlist_offers').selectAll();
  return {
    within: (trx) => createOfferStore(opts, trx),
    make(offer, freeSeats) {
      return inTrx(async (trx) => {
        await lockPoolLine(opts.dialect, trx, offer.poolId);
        const held = await trx
          .selectFrom('waitlist_offers')
          .select(['request_id'])
          .where('pool_id', '=', offer.poolId)
          .where('state', 'in', LIVE_OFFER_STATES)
          .execute();
        if (held.some((h) => h.request_id === offer.requestId)) return 'already-offered';
        if (held.length >= freeSeats) return 'no-free-seat';
        const inserted = await trx
          .insertInto('waitlist_offers')
          .values({
            id: offer.id,
            pool_id: offer.poolId,
            request_id: offer.requestId,
            requester: offer.requester,
            course_title: offer.courseTitle,
            state: offer.state,
            created_at: offer.createdAt,
            deadline_at: offer.deadlineAt,
            closed_at: null,
            license_id: null,
            asked_at: null,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 ? 'offered' : 'already-offered';
      });
    },
    async get(id) {
      const row = await select().where('id', '=', id).executeTakeFirst();
      return row ? offerOf(row) : undefined;
    },
    async live(poolId) {
      const rows = await select()
        .where('pool_id', '=', poolId)
        .where('state', 'in', LIVE_OFFER_STATES)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(offerOf);
    },
    async move(id, from, to, set = {}) {
      const closes = to !== 'open' && to !== 'claiming';
      const result = await db
        .updateTable('waitlist_offers')
        .set({
          state: to,
          ...(closes ? { closed_at: opts.now().toISOString() } : {}),
          ...(set.licenseId ? { license_id: set.licenseId } : {}),
        })
        .where('id', '=', id)
        .where('state', 'in', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async overdue(now) {
      const rows = await select()
        .where('state', '=', 'open')
        .where('deadline_at', '<=', now)
        .orderBy('deadline_at')
        .execute();
      return rows.map(offerOf);
    },
    async open() {
      return (await select().where('state', '=', 'open').execute()).map(offerOf);
    },
    async claiming() {
      return (await select().where('state', '=', 'claiming').execute()).map(offerOf);
    },
    async claimedBefore(before) {
      const rows = await select()
        .where('state', '=', 'claimed')
        .where('asked_at', 'is', null)
        .where('closed_at', '<=', before)
        .execute();
      return rows.map(offerOf);
    },
    async markAsked(id, at) {
      const result = await db
        .updateTable('waitlist_offers')
        .set({ asked_at: at })
        .where('id', '=', id)
        .where('asked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
