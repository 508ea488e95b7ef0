/**
 * An approver's Approve: the requester asked fresh, then the first decision wins (pending ->
 * 'assigning' with the write's intent), the assign (assign.ts), and the outcome recorded: assigned,
 * full (the approver chooses), or pending again; an unknown outcome stays 'assigning' and is read back
 * (settle.ts).
 */

import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import { inScope } from '../../kernel/domain/scope.js';
import { currentScope } from '../../kernel/services/request-scope.js';
import {
  applyDecision,
  type CourseRequest,
  type DecideOutcome,
  type RequestAssignOutcome,
  UnreadableRequestError,
} from '../domain/requests.js';
import type { RequestKernel } from './kernel.js';

type Outcome<K extends RequestAssignOutcome['kind']> = Extract<RequestAssignOutcome, { kind: K }>;

export async function approve(
  k: RequestKernel,
  id: string,
  approver: string,
  forWhom?: string,
): Promise<DecideOutcome> {
  let begun: DecideOutcome | { request: CourseRequest };
  try {
    begun = await begin(k, id, approver, forWhom);
  } catch (error) {
    // A request whose record cannot be read is said as such by the listener, not as a database away.
    if (error instanceof UnreadableRequestError) throw error;
    // Before the write: nothing was recorded and nothing was sent (the database did not answer).
    k.opts.logger.warn('an approval could not be recorded; nothing was sent', { request: id, error: String(error) });
    return { kind: 'not-recorded' };
  }
  if ('kind' in begun) return begun;
  const request = begun.request;
  const outcome = await k.assignOrUnknown(request, approver);
  try {
    return await recorded(k, request, approver, outcome);
  } catch (error) {
    // The write went out; its outcome could not be recorded (the database stopped answering). The
    // request stays 'assigning' with its intent, which the settler reads back once the database answers.
    k.opts.logger.warn('the outcome of an approval could not be recorded; it is read back once the database answers', {
      request: request.id,
      error: String(error),
    });
    const assigned =
      outcome.kind === 'assigned'
        ? { licenseId: outcome.licenseId, ...(outcome.endDate ? { endDate: outcome.endDate } : {}) }
        : undefined;
    return { kind: 'unrecorded', request, ...(assigned ? { assigned } : {}) };
  }
}

/** Up to the write: the fresh read, the requester asked, and the request to 'assigning' with its intent. */
async function begin(
  k: RequestKernel,
  id: string,
  approver: string,
  forWhom?: string,
): Promise<DecideOutcome | { request: CourseRequest }> {
  const current = await k.store.get(id);
  // A request for a pool outside the decider's scope is, to them, one that does not exist.
  if (!current || !inScope(currentScope(), current.poolId)) return { kind: 'not-found' };
  const refused = (detail: string) =>
    k.audit({ actor: approver, action: 'approved', outcome: 'refused', ...k.factsOf(current), detail });
  if (current.requester === approver) {
    await refused('nobody may decide their own request');
    return { kind: 'own', request: current };
  }
  if (current.status === 'pending') {
    // Asked fresh, as the waitlist does: someone deactivated, made a guest or taken out of
    // REQUESTERS since asking gets no license; nothing is written and the approver hears why.
    const presence = await k.opts.presence?.(current.requester);
    if (presence && 'gone' in presence) {
      await refused(`the requester may no longer get a license: ${presence.gone}`);
      return { kind: 'requester-gone', request: current, why: presence.gone };
    }
    if (presence && 'unknown' in presence) {
      return { kind: 'requester-unknown', request: current, why: presence.unknown };
    }
  }
  // The first decision wins: pending -> assigning with the write's intent, in one transaction.
  const at = k.stamp();
  const begun = await k.beginAssign(id, 'pending', approver, (x) => {
    const next = applyDecision(x, { kind: 'approve', by: approver, at, ...(forWhom ? { for: forWhom } : {}) });
    delete next.lastProblem;
    return next;
  });
  if (!begun.changed) return begun.request ? { kind: 'already', request: begun.request } : { kind: 'not-found' };
  return { request: begun.request };
}

function recorded(
  k: RequestKernel,
  request: CourseRequest,
  approver: string,
  outcome: RequestAssignOutcome,
): Promise<DecideOutcome> {
  switch (outcome.kind) {
    case 'assigned':
      return recordAssigned(k, request, approver, outcome);
    case 'full':
      return !outcome.transferable && !k.opts.waitlist
        ? recordUntransferable(k, request, approver, outcome)
        : recordFull(k, request, approver, outcome);
    case 'unknown':
      return recordUnknown(k, request, approver, outcome);
    default:
      return recordNotAssigned(k, request, approver, outcome);
  }
}

async function recordAssigned(
  k: RequestKernel,
  request: CourseRequest,
  approver: string,
  outcome: Outcome<'assigned'>,
) {
  const done = await k.finishAssign(
    request,
    outcome,
    (x) => ({ ...x, status: 'assigned', licenseId: outcome.licenseId, endDate: outcome.endDate }),
    (d) => [{ notice: k.changed(d), key: k.changedKey(d) }],
  );
  const final = done ?? (await k.store.get(request.id)) ?? request;
  await k.audit({ actor: approver, action: 'approved', outcome: 'done', ...k.factsOf(final) });
  return { kind: 'assigned', request: final } as const;
}

/**
 * The write's outcome recorded on the request (`next`; the cards told when `tell`) and the approval
 * audited: the request as recorded, or as it was when another settle came first.
 */
async function recordedAs(
  k: RequestKernel,
  request: CourseRequest,
  approver: string,
  outcome: RequestAssignOutcome,
  next: (x: CourseRequest) => CourseRequest,
  tell: boolean,
  audited: Pick<AuditEntry, 'outcome' | 'detail'>,
): Promise<CourseRequest> {
  const notices = (d: CourseRequest) => (tell ? [{ notice: k.changed(d), key: k.changedKey(d) }] : []);
  const recorded = (await k.finishAssign(request, outcome, next, notices)) ?? request;
  await k.audit({ actor: approver, action: 'approved', ...audited, ...k.factsOf(request) });
  return recorded;
}

/** Nothing the approver could choose: the request goes back to pending for a later approval or a denial. */
async function recordUntransferable(
  k: RequestKernel,
  request: CourseRequest,
  approver: string,
  outcome: Outcome<'full'>,
): Promise<DecideOutcome> {
  const back = await recordedAs(k, request, approver, outcome, (x) => k.backToPending(x, 'the pool is full'), false, {
    outcome: 'refused',
    detail: 'the pool is full and cannot free a seat',
  });
  const refusal = { kind: 'full-untransferable', poolId: request.poolId } as const;
  return { kind: 'not-assigned', request: back, outcome: { kind: 'refused', refusal, why: 'the pool is full' } };
}

/**
 * The approver's choice is saved on the request: every card copy offers it, and the check reminds and
 * in the end expires it like an undecided request, counted from the approval.
 */
async function recordFull(k: RequestKernel, request: CourseRequest, approver: string, outcome: Outcome<'full'>) {
  const seatChoice = { transferable: outcome.transferable, waitlist: k.opts.waitlist === true };
  const waiting = await recordedAs(
    k,
    request,
    approver,
    outcome,
    (x) => {
      const next: CourseRequest = { ...x, status: 'approved', seatChoice };
      delete next.remindedAt;
      return next;
    },
    true,
    {
      outcome: 'done',
      detail: 'the pool is full: next, the approver frees a seat or puts the request on the waitlist',
    },
  );
  return { kind: 'full', request: waiting, ...seatChoice } as const;
}

/**
 * The answer and the read-back were lost: the request stays 'assigning' with its intent open; the
 * check reads it back later and the approver and the requester are told then.
 */
async function recordUnknown(k: RequestKernel, request: CourseRequest, approver: string, outcome: Outcome<'unknown'>) {
  const facts = k.factsOf(request);
  await k.audit({ actor: approver, action: 'approved', outcome: 'unknown', ...facts, detail: outcome.detail });
  return { kind: 'not-assigned', request, outcome } as const;
}

/** A refusal or a clear failure puts the request back to pending: an approver can deny it or approve again. */
async function recordNotAssigned(
  k: RequestKernel,
  request: CourseRequest,
  approver: string,
  outcome: Outcome<'refused' | 'failed'>,
) {
  const why = outcome.why;
  const back = await recordedAs(k, request, approver, outcome, (x) => k.backToPending(x, why), false, {
    outcome: outcome.kind === 'refused' ? 'refused' : outcome.kind,
    detail: why,
  });
  return { kind: 'not-assigned', request: back, outcome } as const;
}
