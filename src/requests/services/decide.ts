/**
 * An approver's Approve (approve.ts) and Deny, and the requester's Cancel: the first decision wins (a
 * conditional update from 'pending', or from 'waitlisted' for a Cancel); what changed is told through
 * the outbox, in the same transaction.
 */
import { inScope } from '../../kernel/domain/scope.js';
import { currentScope } from '../../kernel/services/request-scope.js';
import { applyDecision, cutReason, type DecideOutcome, UnreadableRequestError } from '../domain/requests.js';
import { approve } from './approve.js';
import type { RequestKernel } from './kernel.js';
import type { RequestService } from './types.js';

export function createDecisions(k: RequestKernel): Pick<RequestService, 'approve' | 'deny' | 'cancel'> {
  return {
    approve: (id, approver, forWhom) => approve(k, id, approver, forWhom),
    async deny(id, approver, reason, forWhom) {
      try {
        return await deny(k, id, approver, reason, forWhom);
      } catch (error) {
        if (error instanceof UnreadableRequestError) throw error;
        k.opts.logger.warn('a denial could not be recorded; nothing changed', { request: id, error: String(error) });
        return { kind: 'not-recorded' };
      }
    },
    cancel: (id, userId) => cancel(k, id, userId),
  };
}

async function deny(
  k: RequestKernel,
  id: string,
  approver: string,
  reason: string | undefined,
  forWhom?: string,
): Promise<DecideOutcome> {
  const current = await k.store.get(id);
  // A request for a pool outside the decider's scope is, to them, one that does not exist.
  if (!current || !inScope(currentScope(), current.poolId)) return { kind: 'not-found' };
  if (current.requester === approver) return { kind: 'own', request: current };
  const trimmed = reason?.trim();
  const why = trimmed ? cutReason(trimmed) : undefined;
  const result = await k.decideAndTell(id, {
    kind: 'deny',
    by: approver,
    at: k.stamp(),
    ...(why ? { reason: why } : {}),
    ...(forWhom ? { for: forWhom } : {}),
  });
  if (!result.ok)
    return result.reason === 'not-found' ? { kind: 'not-found' } : { kind: 'already', request: result.request };
  await k.audit({ actor: approver, action: 'denied', outcome: 'done', ...k.factsOf(result.request) });
  return { kind: 'denied', request: result.request };
}

async function cancel(k: RequestKernel, id: string, userId: string): ReturnType<RequestService['cancel']> {
  const current = await k.store.get(id);
  if (!current || current.requester !== userId) return { kind: 'not-yours' };
  // Undecided, or approved and waiting in its pool's line: cancelled in one transaction (a
  // waitlisted one leaves its line with the status change), from the status it has only, so a
  // seat being given to it meanwhile ('assigning') is never cancelled. The requester sees their
  // list change in place: no DM about it too; every card copy shows it.
  const decision = { kind: 'cancel', by: userId, at: k.stamp() } as const;
  const result = await k.txn(async (trx, s) => {
    const swapped = await s.swap(id, ['pending', 'waitlisted'], (x) => applyDecision(x, decision));
    if (swapped.changed) {
      await k.tell(trx, k.changed(swapped.request, { toldElsewhere: true }), k.changedKey(swapped.request));
    }
    return swapped;
  });
  if (!result.changed) {
    const now = result.request?.status ?? current.status;
    if (now === 'assigning') return { kind: 'assigning' };
    return { kind: 'decided', status: now === 'pending' ? 'just now' : now };
  }
  await k.audit({
    actor: userId,
    action: 'cancelled',
    outcome: 'done',
    ...k.factsOf(result.request),
    ...(current.status === 'waitlisted' ? { detail: 'left the waitlist' } : {}),
  });
  return { kind: 'cancelled', request: result.request };
}
