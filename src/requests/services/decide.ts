/**
 * An approver's Approve and Deny, and the requester's Cancel: the first decision wins (a conditional
 * update from 'pending'); Approve moves the request to 'assigning' with the write's intent, assigns
 * (requests/assign.ts) and records the outcome: assigned, full (the approver chooses), or pending
 * again; an unknown outcome stays 'assigning' and is read back (settle.ts).
 */
import {
  applyDecision,
  type CourseRequest,
  cutReason,
  type DecideOutcome,
  type RequestAssignOutcome,
  UnreadableRequestError,
} from '../domain/requests.js';
import type { RequestKernel } from './kernel.js';
import type { RequestService } from './types.js';

export function createDecisions(k: RequestKernel): Pick<RequestService, 'approve' | 'deny' | 'cancel'> {
  const {
    opts,
    store,
    audit,
    factsOf,
    stamp,
    changed,
    changedKey,
    backToPending,
    beginAssign,
    finishAssign,
    assignOrUnknown,
    decideAndTell,
    txn,
    tell,
  } = k;

  async function decided(request: CourseRequest, approver: string): Promise<DecideOutcome> {
    const outcome = await assignOrUnknown(request, approver);
    try {
      return await recorded(request, approver, outcome);
    } catch (error) {
      // The write went out; its outcome could not be recorded (the database stopped answering). The
      // request stays 'assigning' with its intent, which the settler reads back once the database answers.
      opts.logger.warn('the outcome of an approval could not be recorded; it is read back once the database answers', {
        request: request.id,
        error: String(error),
      });
      return {
        kind: 'unrecorded',
        request,
        ...(outcome.kind === 'assigned'
          ? { assigned: { licenseId: outcome.licenseId, ...(outcome.endDate ? { endDate: outcome.endDate } : {}) } }
          : {}),
      };
    }
  }

  async function recorded(
    request: CourseRequest,
    approver: string,
    outcome: RequestAssignOutcome,
  ): Promise<DecideOutcome> {
    if (outcome.kind === 'assigned') {
      const done = await finishAssign(
        request,
        outcome,
        (x) => ({ ...x, status: 'assigned', licenseId: outcome.licenseId, endDate: outcome.endDate }),
        (d) => [{ notice: changed(d), key: changedKey(d) }],
      );
      const final = done ?? (await store.get(request.id)) ?? request;
      await audit({ actor: approver, action: 'approved', outcome: 'done', ...factsOf(final) });
      return { kind: 'assigned', request: final };
    }
    if (outcome.kind === 'full' && !outcome.transferable && !opts.waitlist) {
      // Nothing the approver could choose: the request goes back to pending for a later approval or a denial.
      const back =
        (await finishAssign(
          request,
          outcome,
          (x) => backToPending(x, 'the pool is full'),
          () => [],
        )) ?? request;
      await audit({
        actor: approver,
        action: 'approved',
        outcome: 'refused',
        ...factsOf(request),
        detail: 'the pool is full and cannot free a seat',
      });
      const refusal = { kind: 'full-untransferable', poolId: request.poolId } as const;
      return { kind: 'not-assigned', request: back, outcome: { kind: 'refused', refusal, why: 'the pool is full' } };
    }
    if (outcome.kind === 'full') {
      // The approver's choice is saved on the request: every card copy offers it, and the check
      // reminds and in the end expires it like an undecided request, counted from the approval.
      const seatChoice = { transferable: outcome.transferable, waitlist: opts.waitlist === true };
      const waiting =
        (await finishAssign(
          request,
          outcome,
          (x) => {
            const next: CourseRequest = { ...x, status: 'approved', seatChoice };
            delete next.remindedAt;
            return next;
          },
          (d) => [{ notice: changed(d), key: changedKey(d) }],
        )) ?? request;
      await audit({
        actor: approver,
        action: 'approved',
        outcome: 'done',
        ...factsOf(request),
        detail: 'the pool is full: next, the approver frees a seat or puts the request on the waitlist',
      });
      return { kind: 'full', request: waiting, ...seatChoice };
    }
    if (outcome.kind === 'unknown') {
      // The answer and the read-back were lost: the request stays 'assigning' with its intent open;
      // the check reads it back later and the approver and the requester are told then.
      await audit({
        actor: approver,
        action: 'approved',
        outcome: 'unknown',
        ...factsOf(request),
        detail: outcome.detail,
      });
      return { kind: 'not-assigned', request, outcome };
    }
    // A refusal or a clear failure puts the request back to pending: an approver can deny it or approve again.
    const why = outcome.why;
    const back =
      (await finishAssign(
        request,
        outcome,
        (x) => backToPending(x, why),
        () => [],
      )) ?? request;
    await audit({
      actor: approver,
      action: 'approved',
      outcome: outcome.kind === 'refused' ? 'refused' : outcome.kind,
      ...factsOf(request),
      detail: why,
    });
    return { kind: 'not-assigned', request: back, outcome };
  }

  /** Up to the write: the fresh read, the requester asked, and the request to 'assigning' with its intent. */
  async function begin(id: string, approver: string): Promise<DecideOutcome | { request: CourseRequest }> {
    const current = await store.get(id);
    if (!current) return { kind: 'not-found' };
    if (current.requester === approver) {
      await audit({
        actor: approver,
        action: 'approved',
        outcome: 'refused',
        ...factsOf(current),
        detail: 'nobody may decide their own request',
      });
      return { kind: 'own', request: current };
    }
    if (current.status === 'pending') {
      // Asked fresh, as the waitlist does: someone deactivated, made a guest or taken out of
      // REQUESTERS since asking gets no license; nothing is written and the approver hears why.
      const presence = await opts.presence?.(current.requester);
      if (presence && 'gone' in presence) {
        await audit({
          actor: approver,
          action: 'approved',
          outcome: 'refused',
          ...factsOf(current),
          detail: `the requester may no longer get a license: ${presence.gone}`,
        });
        return { kind: 'requester-gone', request: current, why: presence.gone };
      }
      if (presence && 'unknown' in presence) {
        return { kind: 'requester-unknown', request: current, why: presence.unknown };
      }
    }
    // The first decision wins: pending -> assigning with the write's intent, in one transaction.
    const at = stamp();
    const begun = await beginAssign(id, 'pending', approver, (x) => {
      const next = applyDecision(x, { kind: 'approve', by: approver, at });
      delete next.lastProblem;
      return next;
    });
    if (!begun.changed) return begun.request ? { kind: 'already', request: begun.request } : { kind: 'not-found' };
    return { request: begun.request };
  }

  async function deny(id: string, approver: string, reason: string | undefined): Promise<DecideOutcome> {
    const current = await store.get(id);
    if (!current) return { kind: 'not-found' };
    if (current.requester === approver) return { kind: 'own', request: current };
    const trimmed = reason?.trim();
    const why = trimmed ? cutReason(trimmed) : undefined;
    const result = await decideAndTell(id, {
      kind: 'deny',
      by: approver,
      at: stamp(),
      ...(why ? { reason: why } : {}),
    });
    if (!result.ok)
      return result.reason === 'not-found' ? { kind: 'not-found' } : { kind: 'already', request: result.request };
    await audit({ actor: approver, action: 'denied', outcome: 'done', ...factsOf(result.request) });
    return { kind: 'denied', request: result.request };
  }

  return {
    async approve(id, approver) {
      let begun: DecideOutcome | { request: CourseRequest };
      try {
        begun = await begin(id, approver);
      } catch (error) {
        // A request whose record cannot be read is said as such by the listener, not as a database away.
        if (error instanceof UnreadableRequestError) throw error;
        // Before the write: nothing was recorded and nothing was sent (the database did not answer).
        opts.logger.warn('an approval could not be recorded; nothing was sent', { request: id, error: String(error) });
        return { kind: 'not-recorded' };
      }
      if ('kind' in begun) return begun;
      return decided(begun.request, approver);
    },

    async deny(id, approver, reason) {
      try {
        return await deny(id, approver, reason);
      } catch (error) {
        if (error instanceof UnreadableRequestError) throw error;
        opts.logger.warn('a denial could not be recorded; nothing changed', { request: id, error: String(error) });
        return { kind: 'not-recorded' };
      }
    },

    async cancel(id, userId) {
      const current = await store.get(id);
      if (!current || current.requester !== userId) return { kind: 'not-yours' };
      // Undecided, or approved and waiting in its pool's line: cancelled in one transaction (a
      // waitlisted one leaves its line with the status change), from the status it has only, so a
      // seat being given to it meanwhile ('assigning') is never cancelled. The requester sees their
      // list change in place: no DM about it too; every card copy shows it.
      const cancel = { kind: 'cancel', by: userId, at: stamp() } as const;
      const result = await txn(async (trx, s) => {
        const swapped = await s.swap(id, ['pending', 'waitlisted'], (x) => applyDecision(x, cancel));
        if (swapped.changed) {
          await tell(trx, changed(swapped.request, { toldElsewhere: true }), changedKey(swapped.request));
        }
        return swapped;
      });
      if (!result.changed) {
        const now = result.request?.status ?? current.status;
        if (now === 'assigning') return { kind: 'assigning' };
        return { kind: 'decided', status: now === 'pending' ? 'just now' : now };
      }
      await audit({
        actor: userId,
        action: 'cancelled',
        outcome: 'done',
        ...factsOf(result.request),
        ...(current.status === 'waitlisted' ? { detail: 'left the waitlist' } : {}),
      });
      return { kind: 'cancelled', request: result.request };
    },
  };
}
