/**
 * An approver's Approve and Deny. Approve: the first decision wins (pending -> 'extending' with the
 * write's intent, in one transaction on disk), then the admin's own end-date use case (the fresh
 * read and its rules, so a day past the pool's end is refused again; the PATCH; the read-back of an
 * unclear answer; the audit entry 'extend'), then the outcome recorded with the intent closed and the
 * messages queued. An unknown outcome stays 'extending' and is read back (settle.ts).
 */

import type { EndDateOutcome } from '../../changes/index.js';
import { changeLicenseEndDate } from '../../changes/index.js';
import { inScope } from '../../kernel/domain/scope.js';
import { errorSentence } from '../../kernel/services/error-text.js';
import { currentScope } from '../../kernel/services/request-scope.js';
import { cutReason, backToPending as undone } from '../../requests/index.js';
import { EXTENSION_INTENT, type ExtensionDecision, type ExtensionRequest } from '../domain/extensions.js';
import type { ExtensionKernel } from './kernel.js';

/** Plain words for an end date the fresh read refused (kept on the request, told to the approver). */
const REFUSED_WHY: Record<string, string> = {
  'after-pool-end': 'the day is after the pool ends',
  unchanged: 'the license already ends on that day',
  'not-transferable': 'the pool is not transferable, so its end dates cannot change',
  inactive: 'the license is no longer active',
  expired: 'the license has ended',
  'not-editable': 'the licensing service does not let this license change',
  'pool-unknown': 'its pool could not be read',
};

/** What the write came to: extended, not extended (why), or unknown (read back later). */
function resultOf(outcome: EndDateOutcome): { extended: true } | { extended: false; why: string } | 'unknown' {
  if (outcome.kind === 'unread') return { extended: false, why: errorSentence(outcome.error, 'license', 'admin') };
  if (outcome.kind === 'refused')
    return { extended: false, why: REFUSED_WHY[outcome.refusal.kind] ?? outcome.refusal.kind };
  const w = outcome.write;
  if (w.kind === 'done') return { extended: true };
  if (w.kind === 'unknown') return 'unknown';
  return { extended: false, why: errorSentence(w.error, 'license', 'admin') };
}

/** Back to pending after an approval that changed nothing: an approver may approve again or deny. */
export function backToPending(x: ExtensionRequest, why: string): ExtensionRequest {
  return undone(x, why, 'extending');
}

/**
 * Records the write's outcome in one transaction: the request's new state (only while it is still
 * 'extending' with this intent), the intent closed, the cards and (approved) the learner told.
 * Undefined when another settle came first.
 */
export async function finishExtend(
  k: ExtensionKernel,
  r: ExtensionRequest,
  result: { extended: true } | { extended: false; why: string },
  settled?: { approver: string },
): Promise<ExtensionRequest | undefined> {
  const intentId = r.extending?.intentId;
  try {
    return await k.txn(async (trx, s) => {
      const swapped = await s.swap(r.id, ['extending'], (x) => {
        if (x.extending?.intentId !== intentId) return x;
        if (!result.extended) return backToPending(x, result.why);
        const next: ExtensionRequest = { ...x, status: 'approved' };
        delete next.extending;
        delete next.lastProblem;
        return next;
      });
      if (!swapped.changed || swapped.request.status === 'extending') return undefined;
      const d = swapped.request;
      if (intentId) await k.opts.intents.close(trx, intentId, { extended: result.extended });
      // The learner hears an approval once; a write that did not happen only shows on the cards.
      await k.changed(trx, d, result.extended, intentId ? `:${intentId}` : '');
      if (settled) {
        const notice = {
          kind: 'extension-settled',
          extensionId: d.id,
          approver: settled.approver,
          extended: result.extended,
        } as const;
        await k.tell(trx, notice, `extension:${d.id}:settled:${intentId}`);
      }
      return d;
    });
  } catch (error) {
    // The write went out but its outcome was not recorded: the settler reads it back later.
    if (intentId) k.opts.settleLater?.(intentId);
    throw error;
  }
}

async function begin(k: ExtensionKernel, id: string, approver: string): Promise<ExtensionDecision | ExtensionRequest> {
  const current = await k.opts.store.get(id);
  // An ask about a pool outside the decider's scope is, to them, one that does not exist.
  if (!current || !inScope(currentScope(), current.poolId)) return { kind: 'not-found' };
  if (current.requester === approver) return { kind: 'own', request: current };
  if (current.status !== 'pending') return { kind: 'already', request: current };
  const at = k.stamp();
  // The intent and the cards' "being changed" in the transaction that takes the decision, on disk.
  const begun = await k.opts.store.durableTransaction(async (trx, s) => {
    const swapped = await s.swap(id, ['pending'], async (x) => {
      const intentId = await k.opts.intents.open(trx, {
        kind: EXTENSION_INTENT,
        owner: approver,
        subject: id,
        poolId: x.poolId,
        body: { extensionId: id, licenseId: x.licenseId, endDate: x.endDate },
      });
      const next: ExtensionRequest = { ...x, status: 'extending', decidedBy: approver, decidedAt: at };
      return { ...next, extending: { intentId, by: approver, at } };
    });
    if (swapped.changed) await k.changed(trx, swapped.request, false, `:${swapped.request.extending?.intentId}`);
    return swapped;
  });
  k.opts.outbox.kick?.();
  if (!begun.changed) return begun.request ? { kind: 'already', request: begun.request } : { kind: 'not-found' };
  return begun.request;
}

export async function approve(k: ExtensionKernel, id: string, approver: string): Promise<ExtensionDecision> {
  let r: ExtensionDecision | ExtensionRequest;
  try {
    r = await begin(k, id, approver);
  } catch (error) {
    k.opts.logger.warn('an extension approval could not be recorded; nothing was sent', { error: String(error) });
    return { kind: 'not-recorded' };
  }
  if ('kind' in r) return r;
  const request = r;
  const ctx = { licensing: k.opts.licensing, audit: k.opts.audit, now: k.opts.now, work: k.opts.work };
  let result: ReturnType<typeof resultOf>;
  try {
    // The request's intent records this write: the use case opens none of its own (no ledger given).
    result = resultOf(
      await changeLicenseEndDate(ctx, { actor: approver, licenseId: request.licenseId, endDate: request.endDate }),
    );
  } catch (error) {
    k.opts.logger.warn('an extension write ended in an error; it is read back later', { error: String(error) });
    result = 'unknown';
  }
  if (result === 'unknown') return { kind: 'unknown', request };
  let done: ExtensionRequest | undefined;
  try {
    done = await finishExtend(k, request, result);
  } catch {
    return { kind: 'unknown', request };
  }
  const final = done ?? (await k.opts.store.get(id)) ?? request;
  if (!result.extended) {
    await k.audit(approver, 'approved', 'refused', final, `more time not given: ${result.why}`);
    return { kind: 'not-extended', request: final, why: result.why };
  }
  await k.audit(approver, 'approved', 'done', final, `more time given: until ${final.endDate}`);
  return { kind: 'approved', request: final };
}

export async function deny(
  k: ExtensionKernel,
  id: string,
  approver: string,
  reason: string | undefined,
): Promise<ExtensionDecision> {
  const current = await k.opts.store.get(id);
  // An ask about a pool outside the decider's scope is, to them, one that does not exist.
  if (!current || !inScope(currentScope(), current.poolId)) return { kind: 'not-found' };
  if (current.requester === approver) return { kind: 'own', request: current };
  const why = reason?.trim() ? cutReason(reason.trim()) : undefined;
  let result: Awaited<ReturnType<ExtensionKernel['opts']['store']['swap']>>;
  try {
    result = await k.txn(async (trx, s) => {
      const swapped = await s.swap(id, ['pending'], (x) => {
        const next: ExtensionRequest = { ...x, status: 'denied', decidedBy: approver, decidedAt: k.stamp() };
        if (why) next.denyReason = why;
        delete next.lastProblem;
        return next;
      });
      if (swapped.changed) await k.changed(trx, swapped.request, true);
      return swapped;
    });
  } catch (error) {
    k.opts.logger.warn('an extension denial could not be recorded; nothing changed', { error: String(error) });
    return { kind: 'not-recorded' };
  }
  if (!result.changed) return result.request ? { kind: 'already', request: result.request } : { kind: 'not-found' };
  await k.audit(approver, 'denied', 'done', result.request, 'more time denied');
  return { kind: 'denied', request: result.request };
}
