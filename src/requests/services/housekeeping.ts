/**
 * The periodic check of course requests (check.ts runs it): reminders once, expiry of undecided and
 * of approved requests nobody found a seat for, the settles (settle.ts) and the pruning of decided
 * requests no longer needed.
 */
import { type CourseRequest, dueAction, escalationDue } from '../domain/requests.js';
import { DESK, type RequestKernel } from './kernel.js';
import type { RequestService } from './types.js';

export function createHousekeeping(
  k: RequestKernel,
  settles: { settleApproved(): Promise<number>; settleStuck(): Promise<number> },
): RequestService['check'] {
  const { opts, store, audit, factsOf, stamp, txn, tell, changed, changedKey, decideAndTell } = k;
  const { settleApproved, settleStuck } = settles;

  /** Approved for a full pool, and nobody freed a seat nor chose the waitlist in time: it expires. */
  async function expireApproved(r: CourseRequest): Promise<boolean> {
    const done = await txn(async (trx, s) => {
      const current = await s.get(r.id);
      if (current?.status !== 'approved' || current.decidedAt !== r.decidedAt) return undefined;
      const result = await s.swap(r.id, ['approved'], (x) => ({
        ...x,
        status: 'expired',
        noSeatFound: true,
        decidedAt: stamp(),
      }));
      if (!result.changed) return undefined;
      await tell(trx, changed(result.request), changedKey(result.request));
      return result.request;
    });
    if (!done) return false;
    await audit({
      actor: DESK,
      action: 'expired',
      outcome: 'done',
      ...factsOf(done),
      detail: 'approved, but no seat was found in time',
    });
    return true;
  }

  /** Decided requests no longer needed leave the store (their history is in the audit trail). */
  async function prune(): Promise<number> {
    try {
      return (await store.prune?.(opts.now())) ?? 0;
    } catch (error) {
      opts.logger.warn('could not prune decided course requests', { error: String(error) });
      return 0;
    }
  }

  return async function check() {
    const now = opts.now();
    let reminded = 0;
    let expired = 0;
    let escalated = 0;
    for (const r of await store.byStatus('approved')) {
      const due = dueAction(r, opts.timers, now);
      if (due === 'expire') {
        if (await expireApproved(r)) expired++;
      } else if (due === 'remind' && (await remindOnce(k, r, 'approved'))) {
        reminded++;
      }
    }
    for (const r of await store.byStatus('pending')) {
      const due = dueAction(r, opts.timers, now);
      if (due === 'expire') {
        const result = await decideAndTell(r.id, { kind: 'expire', at: now.toISOString() });
        if (!result.ok) continue;
        expired++;
        await audit({
          actor: DESK,
          action: 'expired',
          outcome: 'done',
          ...factsOf(result.request),
          detail: 'nobody decided in time',
        });
      } else {
        if (due === 'remind' && (await remindOnce(k, r, 'pending'))) reminded++;
        if (escalationDue(r, opts.timers, now) && (await escalateOnce(k, r))) escalated++;
      }
    }
    const settled = (await settleApproved()) + (await settleStuck());
    const pruned = await prune();
    return {
      reminded,
      expired,
      ...(escalated > 0 ? { escalated } : {}),
      ...(settled > 0 ? { settled } : {}),
      ...(pruned > 0 ? { pruned } : {}),
    };
  };
}

/** Once, even with several replicas running the check: only the one that sets remindedAt reminds. */
async function remindOnce(k: RequestKernel, r: CourseRequest, status: 'pending' | 'approved'): Promise<boolean> {
  const { stamp, txn, tell } = k;
  let mine = false;
  // The mark and the reminder's message in one transaction: a crash after it still reminds, once.
  return txn(async (trx, s) => {
    const result = await s.swap(r.id, [status], (x) => {
      if (x.remindedAt !== undefined) return x;
      mine = true;
      return { ...x, remindedAt: stamp() };
    });
    if (!result.changed || !mine) return false;
    const notice = { kind: 'request-reminder', requestId: r.id, status } as const;
    await tell(trx, notice, `request:${r.id}:reminder:${status}:${result.request.remindedAt}`);
    return true;
  });
}

/**
 * Undecided past REQUEST_ESCALATE_HOURS: escalated once, even with several replicas (only the one
 * that sets escalatedAt queues the notice, in the same transaction).
 */
async function escalateOnce(k: RequestKernel, r: CourseRequest): Promise<boolean> {
  const { stamp, txn, tell, audit, factsOf } = k;
  let mine = false;
  const done = await txn(async (trx, s) => {
    const result = await s.swap(r.id, ['pending'], (x) => {
      if (x.escalatedAt !== undefined) return x;
      mine = true;
      return { ...x, escalatedAt: stamp() };
    });
    if (!result.changed || !mine) return undefined;
    await tell(trx, { kind: 'request-escalated', requestId: r.id }, `request:${r.id}:escalated`);
    return result.request;
  });
  if (!done) return false;
  await audit({ actor: DESK, action: 'escalated', outcome: 'done', ...factsOf(done) });
  return true;
}
