/**
 * What every course request use case shares: the store's transaction with its outbox kick, the
 * messages a change queues, the audit entry, and the request states a write leaves behind (back to
 * pending, closed from the waitlist). kernel.ts adds the assign steps (assign-steps.ts).
 */
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import type { Outbox } from '../../kernel/services/outbox.js';
import type { DbRequestStore } from '../db/request-store.js';
import { type CourseRequest, type RequestNotice, backToPending as undone } from '../domain/requests.js';
import type { RequestAssignContext } from './assign.js';
import type { RequestServiceOptions } from './types.js';

/** A license write was sent, but its outcome could not be recorded (the database did not answer). */
export class OutcomeNotRecordedError extends Error {
  override readonly name = 'OutcomeNotRecordedError';
}

/** Who carries out what License Desk decides by itself (an expiry, a settle): the audit's actor. */
export const DESK = 'license-desk';

/** The kernel without its assign steps: what assign-steps.ts is built on. */
export type KernelBase = ReturnType<typeof kernelBase>;

/** The outbox key of the message that tells of the request's state (the cards, the requester's DM): once per state. */
export const requestChangedKey = (r: Pick<CourseRequest, 'id' | 'status'>, tag = '') =>
  `request:${r.id}:${r.status}${tag}`;

/** The card copies, the requester's DM and a workflow step, once per state the request reaches. */
export function changedNotice(
  r: CourseRequest,
  extra: { place?: number; toldElsewhere?: boolean } = {},
): RequestNotice {
  return {
    kind: 'request-changed',
    requestId: r.id,
    status: r.status,
    ...(extra.place !== undefined ? { place: extra.place } : {}),
    ...(extra.toldElsewhere ? { toldElsewhere: true } : {}),
  };
}

/** Whose request, as facts: the audit names the requester with a mention and keeps the id out of its words. */
export function factsOf(r: CourseRequest) {
  return {
    poolId: r.poolId,
    courseTitle: r.courseTitle,
    studentEmail: r.requesterEmail,
    requester: r.requester,
    requestId: r.id,
    ...(r.licenseId ? { licenseId: r.licenseId } : {}),
    ...(r.decidedFor ? { onBehalfOf: r.decidedFor } : {}),
  };
}

/** Back to pending after an approval that gave no license: an approver may approve again or deny. */
export function backToPending(x: CourseRequest, why: string): CourseRequest {
  return undone(x, why, 'assigning');
}

/**
 * A waitlisted request that can never take a seat leaves the line closed: denied by License Desk
 * with the reason (the approval stays in the audit trail), every card updated, a workflow step
 * completed; the requester and the approver are told why, with who is next.
 */
export function closedSkipped(x: CourseRequest, why: string, at: string): CourseRequest {
  const next: CourseRequest = {
    ...x,
    status: 'denied',
    decidedBy: DESK,
    decidedAt: at,
    denyReason: `it could not be assigned from the waitlist: ${why}`,
  };
  delete next.assigning;
  return next;
}

export function kernelBase(opts: RequestServiceOptions) {
  const { store, licensing, intents, outbox } = opts;
  // The state is recorded already when an entry is written: a trail that does not answer (its shared
  // store lost, say) is logged and never turns a done write into "something went wrong".
  const audit = async (entry: Omit<AuditEntry, 'at'>) => {
    try {
      await opts.audit.record({ at: opts.now().toISOString(), ...entry });
    } catch (error) {
      opts.logger.warn('could not record the audit entry of a course request', {
        action: entry.action,
        error: String(error),
      });
    }
  };
  const ctx: RequestAssignContext = {
    licensing,
    now: opts.now,
    work: opts.work,
    audit: opts.audit,
    ...(opts.heldSeats ? { heldSeats: opts.heldSeats } : {}),
  };
  /** One transaction (durable: on disk before a licensing write is sent); what it queued is sent once it committed. */
  const kicked =
    (run: DbRequestStore['transaction']): DbRequestStore['transaction'] =>
    async (fn) => {
      try {
        return await run(fn);
      } finally {
        outbox.kick?.();
      }
    };
  const tell = (trx: Parameters<Outbox['enqueue']>[0], notice: RequestNotice, key: string) =>
    outbox.enqueue(trx, notice, key);
  const txn = kicked((fn) => store.transaction(fn));

  /** A decision from 'pending' (deny, cancel, expire) and its messages, in one transaction. */
  async function decideAndTell(id: string, decision: Parameters<DbRequestStore['decide']>[1], toldElsewhere = false) {
    return txn(async (trx, s) => {
      const result = await s.decide(id, decision);
      if (result.ok)
        await tell(trx, changedNotice(result.request, { toldElsewhere }), requestChangedKey(result.request));
      return result;
    });
  }

  return {
    opts,
    store,
    licensing,
    intents,
    audit,
    factsOf,
    ctx,
    stamp: () => opts.now().toISOString(),
    txn,
    durableTxn: kicked((fn) => store.durableTransaction(fn)),
    tell,
    changed: changedNotice,
    changedKey: requestChangedKey,
    backToPending,
    decideAndTell,
  };
}
