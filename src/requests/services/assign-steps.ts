/**
 * The two halves of a request's license write, shared by an approval, a freed seat and the waitlist:
 * `beginAssign` (the request to 'assigning' with the write's intent, in one transaction, only from the
 * status expected), the write itself (`assignOrUnknown`), and `finishAssign` (the outcome recorded,
 * the intent closed and the messages queued, in one transaction).
 */
import type { DbRequestStore } from '../db/request-store.js';
import type { CourseRequest, RequestAssignOutcome, RequestNotice } from '../domain/requests.js';
import { assignForRequest } from './assign.js';
import { changedNotice, type KernelBase, OutcomeNotRecordedError, requestChangedKey } from './kernel-base.js';
import { REQUEST_ASSIGN_INTENT } from './types.js';

/** What an 'assigning' request came from, by the status it left. */
const ASSIGN_FROM = { pending: 'approval', waitlisted: 'waitlist', approved: 'seat' } as const;

type Notices = { notice: RequestNotice; key: string }[];

export function createAssignSteps(k: KernelBase) {
  const { opts, store, intents } = k;

  /** The request with its requester's Slack name, asked for when it was stored without one. */
  async function named(r: CourseRequest): Promise<CourseRequest> {
    if (r.requesterName || !opts.nameOf) return r;
    const name = await opts.nameOf(r.requester).catch(() => undefined);
    return name ? { ...r, requesterName: name } : r;
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
    return k.durableTxn(async (trx, s) =>
      s.swap(id, [from], async (x) => {
        const next = change(x);
        const intentId = await intents.open(trx, {
          kind: REQUEST_ASSIGN_INTENT,
          owner: by,
          subject: id,
          poolId: x.poolId,
          body: { requestId: id, poolId: x.poolId, email: x.requesterEmail, from: kind, ...extra },
        });
        return { ...next, status: 'assigning', assigning: { intentId, from: kind, by, at: k.stamp() } };
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
    notices: (done: CourseRequest) => Notices,
  ): Promise<CourseRequest | undefined> {
    const intentId = r.assigning?.intentId;
    try {
      return await k.txn(async (trx, s) => {
        const result = await s.swap(r.id, ['assigning'], (x) => {
          if (x.assigning?.intentId !== intentId) return x;
          const out = next(x);
          if (out.status !== 'assigning') delete out.assigning;
          return out;
        });
        if (!result.changed || result.request.assigning?.intentId === intentId) return undefined;
        if (intentId) await intents.close(trx, intentId, outcome);
        for (const { notice, key } of notices(result.request)) await k.tell(trx, notice, key);
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
      return await assignForRequest(k.ctx, await named(r), approver);
    } catch (error) {
      opts.logger.warn('a course request assign ended in an error; it is read back later', {
        request: r.id,
        error: String(error),
      });
      return { kind: 'unknown', detail: String(error) };
    }
  }

  return {
    named,
    beginAssign,
    finishAssign,
    assignOrUnknown,
    skippedNotices: (d: CourseRequest, why: string, approver: string | undefined, within = store) =>
      skippedNotices(within, d, why, approver),
    waitlistAssignedNotices,
  };
}

/**
 * What a request closed from the waitlist queues: its cards, and the requester and the approver told
 * why, with who is next. `within`: the store of the transaction this runs in (SQLite has one
 * connection: never the outer one).
 */
async function skippedNotices(
  within: Pick<DbRequestStore, 'lines'>,
  d: CourseRequest,
  why: string,
  approver: string | undefined,
): Promise<Notices> {
  const next = Object.values(await within.lines(d.poolId))[0]?.find((e) => e.requestId !== d.id);
  const skipped: RequestNotice = {
    kind: 'waitlist-skipped',
    requestId: d.id,
    reason: why,
    ...(approver ? { approver } : {}),
    ...(next ? { next: next.requestId } : {}),
    ...(why === 'the pool has ended' ? { poolEnded: true } : {}),
  };
  return [
    { notice: changedNotice(d, { toldElsewhere: true }), key: requestChangedKey(d) },
    { notice: skipped, key: `request:${d.id}:waitlist-skipped` },
  ];
}

/** What a request given its seat from the waitlist queues: its cards, and the waitlist's own DMs. */
function waitlistAssignedNotices(d: CourseRequest, licenseId: string, endDate: string): Notices {
  return [
    { notice: changedNotice(d, { toldElsewhere: true }), key: requestChangedKey(d) },
    {
      notice: { kind: 'waitlist-assigned', requestId: d.id, licenseId, endDate },
      key: `request:${d.id}:waitlist-assigned`,
    },
  ];
}
