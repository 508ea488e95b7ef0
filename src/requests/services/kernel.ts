/**
 * What every course request use case shares (service.ts composes them): the store's transaction
 * with its outbox kick, the messages a change queues, the audit entry, and the two halves of a
 * request's license write: `beginAssign` (the request to 'assigning' with the write's intent, in one
 * transaction, only from the status expected) and `finishAssign` (the outcome recorded, the intent
 * closed and the messages queued, in one transaction).
 */
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import type { Outbox } from '../../kernel/services/outbox.js';
import type { DbRequestStore } from '../db/request-store.js';
import type { CourseRequest, RequestAssignOutcome, RequestNotice } from '../domain/requests.js';
import { assignForRequest, type RequestAssignContext } from './assign.js';
import { REQUEST_ASSIGN_INTENT, type RequestServiceOptions } from './types.js';

/** A license write was sent, but its outcome could not be recorded (the database did not answer). */
export class OutcomeNotRecordedError extends Error {
  override readonly name = 'OutcomeNotRecordedError';
}

/** What an 'assigning' request came from, by the status it left. */
const ASSIGN_FROM = { pending: 'approval', waitlisted: 'waitlist', approved: 'seat' } as const;

/** Who carries out what License Desk decides by itself (an expiry, a settle): the audit's actor. */
export const DESK = 'license-desk';

export type RequestKernel = ReturnType<typeof createKernel>;

/** The outbox key of the message that tells of the request's state (the cards, the requester's DM): once per state. */
export const requestChangedKey = (r: Pick<CourseRequest, 'id' | 'status'>, tag = '') =>
  `request:${r.id}:${r.status}${tag}`;

export function createKernel(opts: RequestServiceOptions) {
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
  // Whose request, as facts: the audit names the requester with a mention and keeps the id out of its words.
  const factsOf = (r: CourseRequest) => ({
    poolId: r.poolId,
    courseTitle: r.courseTitle,
    studentEmail: r.requesterEmail,
    requester: r.requester,
    requestId: r.id,
    ...(r.licenseId ? { licenseId: r.licenseId } : {}),
  });
  const ctx: RequestAssignContext = { licensing, now: opts.now, work: opts.work, audit: opts.audit };
  const stamp = () => opts.now().toISOString();
  /** One transaction; what it queued is sent once it committed. */
  const txn: DbRequestStore['transaction'] = async (fn) => {
    try {
      return await store.transaction(fn);
    } finally {
      outbox.kick?.();
    }
  };
  /** A transaction that records a licensing write's intent: on disk before the write is sent. */
  const durableTxn: DbRequestStore['transaction'] = async (fn) => {
    try {
      return await store.durableTransaction(fn);
    } finally {
      outbox.kick?.();
    }
  };
  const tell = (trx: Parameters<Outbox['enqueue']>[0], notice: RequestNotice, key: string) =>
    outbox.enqueue(trx, notice, key);
  /** The card copies, the requester's DM and a workflow step, once per state the request reaches. */
  const changed = (r: CourseRequest, extra: { place?: number; toldElsewhere?: boolean } = {}): RequestNotice => ({
    kind: 'request-changed',
    requestId: r.id,
    status: r.status,
    ...(extra.place !== undefined ? { place: extra.place } : {}),
    ...(extra.toldElsewhere ? { toldElsewhere: true } : {}),
  });
  const changedKey = requestChangedKey;

  /** The request with its requester's Slack name, asked for when it was stored without one. */
  async function named(r: CourseRequest): Promise<CourseRequest> {
    if (r.requesterName || !opts.nameOf) return r;
    const name = await opts.nameOf(r.requester).catch(() => undefined);
    return name ? { ...r, requesterName: name } : r;
  }

  /** Back to pending after an approval that gave no license: an approver may approve again or deny. */
  function backToPending(x: CourseRequest, why: string): CourseRequest {
    const next: CourseRequest = { ...x, status: 'pending', lastProblem: why };
    delete next.decidedBy;
    delete next.decidedAt;
    delete next.assigning;
    return next;
  }

  /**
   * The write is recorded before it is sent: the request moves to 'assigning' and an intent is opened,
   * in one transaction, only from `from` (the first decision wins; a freed seat goes to one request).
   */
  async function beginAssign(
    id: string,
    from: 'pending' | 'waitlisted' | 'approved',
    by: string,
    change: (x: CourseRequest) => CourseRequest,
    extra: Record<string, unknown> = {},
  ) {
    const kind = ASSIGN_FROM[from];
    return durableTxn(async (trx, s) =>
      s.swap(id, [from], async (x) => {
        const next = change(x);
        const intentId = await intents.open(trx, {
          kind: REQUEST_ASSIGN_INTENT,
          owner: by,
          subject: id,
          poolId: x.poolId,
          body: { requestId: id, poolId: x.poolId, email: x.requesterEmail, from: kind, ...extra },
        });
        return { ...next, status: 'assigning', assigning: { intentId, from: kind, by, at: stamp() } };
      }),
    );
  }

  /**
   * Records the outcome of the write in one transaction: the request's new state (only while it is
   * still 'assigning' with this intent), the intent closed and the messages queued. Undefined when
   * another settle came first.
   */
  async function finishAssign(
    r: CourseRequest,
    outcome: unknown,
    next: (x: CourseRequest) => CourseRequest,
    notices: (done: CourseRequest) => { notice: RequestNotice; key: string }[],
  ): Promise<CourseRequest | undefined> {
    const intentId = r.assigning?.intentId;
    try {
      return await txn(async (trx, s) => {
        const result = await s.swap(r.id, ['assigning'], (x) => {
          if (x.assigning?.intentId !== intentId) return x;
          const out = next(x);
          if (out.status !== 'assigning') delete out.assigning;
          return out;
        });
        if (!result.changed || result.request.assigning?.intentId === intentId) return undefined;
        if (intentId) await intents.close(trx, intentId, outcome);
        for (const { notice, key } of notices(result.request)) await tell(trx, notice, key);
        return result.request;
      });
    } catch (error) {
      // The write was sent but its outcome not recorded (the database stopped answering): the request
      // stays 'assigning' with its intent open, and the settler reads it back once the database answers.
      if (intentId) opts.settleLater?.(intentId);
      throw new OutcomeNotRecordedError('the outcome of the write could not be recorded', { cause: error });
    }
  }

  /**
   * The assign, its outcome unknown when it throws after the write may have gone out (its audit
   * entry failed, say): the request stays 'assigning' and is read back, never told "went wrong".
   */
  async function assignOrUnknown(r: CourseRequest, approver: string): Promise<RequestAssignOutcome> {
    try {
      return await assignForRequest(ctx, await named(r), approver);
    } catch (error) {
      opts.logger.warn('a course request assign ended in an error; it is read back later', {
        request: r.id,
        error: String(error),
      });
      return { kind: 'unknown', detail: String(error) };
    }
  }

  /**
   * A waitlisted request that can never take a seat leaves the line closed: denied by License Desk
   * with the reason (the approval stays in the audit trail), every card updated, a workflow step
   * completed; the requester and the approver are told why, with who is next.
   */
  function closedSkipped(x: CourseRequest, why: string): CourseRequest {
    const next: CourseRequest = {
      ...x,
      status: 'denied',
      decidedBy: DESK,
      decidedAt: stamp(),
      denyReason: `it could not be assigned from the waitlist: ${why}`,
    };
    delete next.assigning;
    return next;
  }
  /** `within`: the store of the transaction this runs in (SQLite has one connection: never the outer one). */
  async function skippedNotices(
    d: CourseRequest,
    why: string,
    approver: string | undefined,
    within: Pick<DbRequestStore, 'lines'> = store,
  ) {
    const next = Object.values(await within.lines(d.poolId))[0]?.find((e) => e.requestId !== d.id);
    return [
      { notice: changed(d, { toldElsewhere: true }), key: changedKey(d) },
      {
        notice: {
          kind: 'waitlist-skipped',
          requestId: d.id,
          reason: why,
          ...(approver ? { approver } : {}),
          ...(next ? { next: next.requestId } : {}),
          ...(why === 'the pool has ended' ? { poolEnded: true } : {}),
        } satisfies RequestNotice,
        key: `request:${d.id}:waitlist-skipped`,
      },
    ];
  }

  /** A decision from 'pending' (deny, cancel, expire) and its messages, in one transaction. */
  async function decideAndTell(id: string, decision: Parameters<DbRequestStore['decide']>[1], toldElsewhere = false) {
    return txn(async (trx, s) => {
      const result = await s.decide(id, decision);
      if (result.ok) await tell(trx, changed(result.request, { toldElsewhere }), changedKey(result.request));
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
    stamp,
    txn,
    tell,
    changed,
    changedKey,
    named,
    backToPending,
    beginAssign,
    finishAssign,
    assignOrUnknown,
    closedSkipped,
    skippedNotices,
    decideAndTell,
  };
}
