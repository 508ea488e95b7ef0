/**
 * Seats offered from the waitlist (docs/leavers-and-offers.md#seats-offered-then-claimed): with WAITLIST_OFFER_HOURS above 0, a freed seat
 * is offered to the request first in line instead of assigned at once; the requester claims it (the
 * assign) or passes it on, and an offer not claimed by its deadline passes to the next in line. While
 * an offer is live its seat is held: it counts as taken for every other request.
 */
import type { WaitlistEntry } from './waitlist.js';

const HOUR_MS = 3_600_000;

export type OfferState = 'open' | 'claiming' | 'claimed' | 'declined' | 'expired' | 'withdrawn';

/** An offer's seat is held while the offer is open or its claim's assign may be in flight. */
export const LIVE_OFFER_STATES: readonly OfferState[] = ['open', 'claiming'];

export interface Offer {
  id: string;
  poolId: string;
  requestId: string;
  requester: string;
  courseTitle: string;
  state: OfferState;
  createdAt: string;
  deadlineAt: string;
  closedAt?: string;
  licenseId?: string;
  askedAt?: string;
}

/** WAITLIST_OFFER_HOURS and OFFER_NOT_STARTED_DAYS. `hours` 0: a freed seat is assigned at once. */
export interface OfferSettings {
  hours: number;
  notStartedDays: number;
}

export const OFFER_DEFAULTS: OfferSettings = { hours: 48, notStartedDays: 14 };

/** When an offer made at `at` runs out. */
export function offerDeadline(at: Date, hours: number): string {
  return new Date(at.getTime() + hours * HOUR_MS).toISOString();
}

/** What a claim came to, for the clicker. */
export type ClaimOutcome =
  | { kind: 'claimed'; licenseId: string; courseTitle: string }
  /** The assign's answer is not known yet: read back; the requester is told by DM once it is. */
  | { kind: 'pending'; courseTitle: string }
  | { kind: 'not-yours' }
  | { kind: 'unknown-offer' }
  /** The offer moved on before the click: declined, expired, withdrawn or claimed already. */
  | { kind: 'moved-on'; state: OfferState; courseTitle: string }
  /** The assign could not give the seat: why, and whether they keep their place in line. */
  | { kind: 'not-given'; why: string; keepsPlace: boolean; courseTitle: string };

/** What "I don't need it" came to. */
export type DeclineOutcome =
  | { kind: 'declined'; courseTitle: string }
  | { kind: 'not-yours' }
  | { kind: 'unknown-offer' }
  | { kind: 'moved-on'; state: OfferState; courseTitle: string };

/** A live offer as an admin who assigns in its pool by hand is told of it. */
export interface HeldSeat {
  requester: string;
  deadlineAt: string;
}

/** A holder who reached their seat through an offer and shows no progress: asked as a reclaim round of one. */
export type AskNotStarted = (
  offer: Offer & { licenseId: string; approver: string },
) => Promise<'asked' | 'started' | 'not-now'>;

export interface OfferTick {
  expired: number;
  settled: number;
  asked: number;
}

export interface Offers {
  readonly settings: OfferSettings;
  /** The round's offer of a seat to `entry`, while the pool shows `freeSeats` free (offers held included). */
  offerTo(entry: WaitlistEntry, freeSeats: number): Promise<'offered' | 'already-offered' | 'no-free-seat'>;
  /** The live offers of a pool: the seats held. */
  held(poolId: string): Promise<(HeldSeat & { requestId: string })[]>;
  get(offerId: string): Promise<Offer | undefined>;
  claim(offerId: string, user: string): Promise<ClaimOutcome>;
  decline(offerId: string, user: string): Promise<DeclineOutcome>;
  tick(): Promise<OfferTick>;
  /** Set by the composition root once reclaim rounds exist. */
  askNotStartedWith(ask: AskNotStarted): void;
}

/** The offer's notices, queued with the change they tell of (each key once). */
export type OfferNotice = { kind: 'offer-made'; offerId: string } | { kind: 'offer-expired'; offerId: string };

export const OFFER_NOTICE_KINDS = ['offer-made', 'offer-expired'] as const;

export const OFFER_ID = /^wo[0-9a-f]{16}$/;
