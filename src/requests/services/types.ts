/**
 * The types of the course request use cases (service.ts re-exports them): what the Slack layer
 * implements (RequestNotices, RequesterPresence), what a use case is given and what it returns.
 */

import type { AssignParams, RecycleChosenOutcome, RecycleDefaultOutcome, RetryOutcome } from '../../changes/index.js';
import type { License, Pool } from '../../kernel/domain/types.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import type { NoticeSteps, Outbox } from '../../kernel/services/outbox.js';
import type { WorkTracker } from '../../kernel/services/work-tracker.js';
import type { Intent, Intents } from '../../kernel/services/writes/intents.js';
import type { WriteOutcome } from '../../kernel/services/writes/outcome.js';
import type { DbRequestStore } from '../db/request-store.js';
import type {
  CancelOutcome,
  CourseRequest,
  CreateRefusal,
  DecideOutcome,
  RequestLimits,
  RequestSource,
  RequestTimers,
  WaitlistJoinOutcome,
} from '../domain/requests.js';
import type { WaitlistAssignOutcome, WaitlistEntry } from './waitlist.js';

/**
 * What the people involved are told; implemented by the Slack layer, called by the delivery of the
 * outbox's notices (the use cases queue typed notices, never call these). Throws when a part of the
 * message failed, after trying every part (the outbox tries again; `steps` skips the parts sent).
 */
export interface RequestNotices {
  /** A new request: the approvers get the card (its copies are saved on the request), the requester a DM. */
  received(request: CourseRequest, facts: { freeSeats: number }, steps?: NoticeSteps): Promise<void>;
  /**
   * Pending for REQUEST_REMIND_HOURS, or approved that long ago for a full pool with no seat found:
   * the approvers are reminded (and, approved, the approver who must choose).
   */
  reminder(request: CourseRequest, steps?: NoticeSteps): Promise<void>;
  /** Undecided past REQUEST_ESCALATE_HOURS: a card to the owners (or REQUEST_ESCALATE_TO); the requester told. */
  escalated(request: CourseRequest, steps?: NoticeSteps): Promise<void>;
  /**
   * The request changed: every card copy shows it; the requester gets a DM (assigned, denied,
   * waitlisted, expired, cancelled) unless `toldElsewhere` (the waitlist's own DMs told them), and a
   * workflow step completes (once).
   */
  changed(
    request: CourseRequest,
    extra?: { place?: number; toldElsewhere?: boolean; status?: CourseRequest['status'] },
    steps?: NoticeSteps,
  ): Promise<void>;
}

export interface NewRequest {
  requester: string;
  requesterEmail: string;
  /** Their Slack name, sent with the assign so that the student is not created as "Student". */
  requesterName?: string;
  poolId: string;
  reason?: string;
  neededBy?: string;
  source: RequestSource;
  workflow?: { executionId: string; workflowRun?: string; workflowName?: string };
}

export type { DecideOutcome };

/** `repeat`: the Workflow Builder step was delivered again (same execution id); nothing new was made. */
export type CreateOutcome =
  | { ok: true; request: CourseRequest; repeat?: boolean }
  | { ok: false; refusal: CreateRefusal };

/**
 * How an approver frees the seat of an approved request of a full pool ("Free a seat…": the assign
 * form carrying the request): a plain assign when a seat is free by now, the API's own recycle of
 * the license its rule picks (`named`: the one the confirmation showed), a chosen license revoked
 * and the seat assigned, or "Retry assign" after such a revoke. `endDate` as the form gave it.
 */
export type SeatFreeing =
  | { kind: 'assign'; endDate?: string | undefined; pool?: Pool | undefined }
  | { kind: 'default'; named: string | undefined; endDate?: string | undefined }
  | { kind: 'chosen'; licenseId: string; endDate?: string | undefined }
  | { kind: 'retry'; revokedLicenseId: string; endDate?: string | undefined };

/** The write a seat freeing made, as the admin's own use cases report it (services/assign.ts, recycle.ts). */
export type SeatWrite =
  | { kind: 'assign'; write: WriteOutcome<License>; pool: Pool | undefined }
  | { kind: 'default'; outcome: RecycleDefaultOutcome }
  | { kind: 'chosen'; outcome: RecycleChosenOutcome }
  | { kind: 'retry'; outcome: RetryOutcome };

export type FreeSeatOutcome =
  | { kind: 'not-found' }
  /** It no longer waits for a seat (being assigned, assigned, waitlisted, expired…): nothing was sent. */
  | { kind: 'not-waiting'; request: CourseRequest }
  /**
   * The write was made for the request's requester (`params`): the request is assigned (told through
   * the outbox), approved again when nothing was assigned, or still 'assigning' when the answer is
   * unknown (read back later).
   */
  | { kind: 'written'; request: CourseRequest; params: AssignParams; result: SeatWrite };

/**
 * Is the requester still in the workspace, asked when the waitlist gives them a seat days after the
 * approval: `gone` with the reason (the seat goes to the next in line), `unknown` when it cannot be
 * told now (they keep their place), undefined when they are still here.
 */
export type RequesterPresence = (userId: string) => Promise<{ gone: string } | { unknown: string } | undefined>;

/** The intent kind of a request's license write (an approval's, or a seat the waitlist gives). */
export const REQUEST_ASSIGN_INTENT = 'request-assign';

export interface RequestServiceOptions {
  store: DbRequestStore;
  /** Each license write is recorded before it is sent (an open intent), closed with its outcome. */
  intents: Intents;
  /** What people are told, queued with the change it tells of; `kick` sends it once committed. */
  outbox: Outbox & { kick?: () => void };
  licensing: LicensingClient;
  audit: AuditLog;
  now: () => Date;
  logger: Logger;
  timers: RequestTimers;
  /** Whether approving for a full pool may offer the waitlist. */
  waitlist?: boolean | undefined;
  /** A request went back in line after a write that did not happen: its pool's seats are looked at again. */
  seatMayBeFree?: ((poolId: string) => void) | undefined;
  /** Seats of the pool held by live offers to other requests (docs/leavers-and-offers.md#seats-offered-then-claimed): they count as taken. */
  heldSeats?: ((poolId: string, requestId: string) => Promise<number>) | undefined;
  presence?: RequesterPresence | undefined;
  /**
   * The requester's Slack name, asked only for a request stored without one (made before License Desk
   * kept it): the assign sends it, so the student is not created as "Student". Undefined when unknown.
   */
  nameOf?: ((userId: string) => Promise<string | undefined>) | undefined;
  work?: WorkTracker | undefined;
  /** How many requests one person may have open and make a day; default 3 and 10. */
  limits?: RequestLimits | undefined;
  /**
   * A write whose outcome could not be recorded (the database stopped answering after it was sent):
   * its intent is handed to the settler, which reads it back as soon as the database answers again.
   */
  settleLater?: ((intentId: string) => void) | undefined;
}

export interface RequestService {
  /** Running pools a member may ask for, for the form. */
  pools(): Promise<Pool[]>;
  create(input: NewRequest): Promise<CreateOutcome>;
  /** `forWhom`: a delegate decides for this approver, who is away (the audit says so). */
  approve(id: string, approver: string, forWhom?: string): Promise<DecideOutcome>;
  deny(id: string, approver: string, reason?: string, forWhom?: string): Promise<DecideOutcome>;
  cancel(id: string, userId: string): Promise<CancelOutcome>;
  /**
   * The approver frees a seat for an approved request of a full pool: approved -> 'assigning' with the
   * write's intent in one transaction (so the waitlist, Deny and Cancel are refused meanwhile), the
   * write, then the outcome recorded; an unknown one is read back later (settle).
   */
  freeSeat(id: string, approver: string, how: SeatFreeing): Promise<FreeSeatOutcome>;
  /** The approver chose the waitlist for an approved request of a full pool. */
  toWaitlist(id: string, approver: string): Promise<WaitlistJoinOutcome>;
  /**
   * The waitlist's assign of the request first in line (it was approved already): the requester is
   * still here, then the same assign as an approval with the approver as the actor; the request is
   * marked assigned, or, when it can never take the seat, closed with the reason (the seat goes to
   * the next in line). `held` keeps it in line.
   */
  assignWaitlisted(entry: WaitlistEntry): Promise<WaitlistAssignOutcome>;
  /**
   * A license admin takes a request out of the waitlist: it leaves the line and is closed (denied by
   * that admin, "removed from the waitlist"); the requester is told. The entry removed, or undefined.
   */
  removeFromWaitlist(id: string, admin: string): Promise<WaitlistEntry | undefined>;
  mine(userId: string): Promise<CourseRequest[]>;
  /** The place in its pool's line (1-based) of each waitlisted request among `requests`, by request id. */
  placesOf(requests: readonly CourseRequest[]): Promise<Map<string, number>>;
  get(id: string): Promise<CourseRequest | undefined>;
  /**
   * Reminds and expires what is due, and settles approved requests whose license was assigned another
   * way (the assign form's recycle, or an unclear answer): returns how many of each.
   */
  check(): Promise<{ reminded: number; expired: number; escalated?: number; settled?: number; pruned?: number }>;
  /**
   * Settles a request's license write whose answer never came (its process died, or the answer and
   * the read-back were lost): reads the requester's licenses in the pool back, never resends; the
   * request ends assigned, or back to pending (an approval) or in line (the waitlist), and the people
   * are told through the outbox. The Settler calls it for intents of REQUEST_ASSIGN_INTENT.
   */
  settle(intent: Pick<Intent, 'id' | 'subject'>): Promise<void>;
}
