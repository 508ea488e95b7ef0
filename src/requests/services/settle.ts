/**
 * Settling a request's license write whose answer never came (a crash, a lost answer): the
 * requester's licenses in the pool are read back, never resent, and the request ends assigned, or
 * back where it came from (pending, in line, approved for a freed seat), the people told through the
 * outbox. Also what the periodic check settles: 'assigning' requests left too long, and approved
 * requests whose license came another way.
 */

import type { License } from '../../kernel/domain/types.js';
import { readBackAssign } from '../../kernel/services/writes/read-back.js';
import type { CourseRequest, RequestNotice } from '../domain/requests.js';
import type { RequestKernel } from './kernel.js';

type From = 'approval' | 'waitlist' | 'seat';
type Notices = { notice: RequestNotice; key: string }[];

const NOT_ASSIGNED =
  'License Desk stopped (or lost the answer) before the license was assigned, and the licensing service shows none';

/** What a settled write that did assign queues: the waitlist's DMs, or the approver told of it. */
function foundNotices(k: RequestKernel, d: CourseRequest, from: From, by: string, intentId: string, found: License) {
  if (from === 'waitlist') return k.waitlistAssignedNotices(d, found.id, found.end);
  const settled: RequestNotice = {
    kind: 'approval-settled',
    requestId: d.id,
    approver: by,
    assigned: true,
    ...(from === 'seat' ? { seat: true } : {}),
  };
  return [
    { notice: k.changed(d), key: k.changedKey(d) },
    { notice: settled, key: `request:${d.id}:settled:${intentId}` },
  ];
}

/** Where a write that did not assign leaves the request: back in line, approved again, or pending. */
function backFrom(k: RequestKernel, x: CourseRequest, from: From): CourseRequest {
  if (from === 'waitlist') return { ...x, status: 'waitlisted' };
  // A seat being freed for an approved request: still approved, its choice (free a seat, the waitlist) open again.
  if (from === 'seat') return { ...x, status: 'approved' };
  return k.backToPending(x, NOT_ASSIGNED);
}

/** What a settled write that did not assign queues: nothing in line; the approver told otherwise. */
function backNotices(k: RequestKernel, d: CourseRequest, from: From, by: string, intentId: string): Notices {
  if (from === 'waitlist') return [];
  const key = `request:${d.id}:settled:${intentId}`;
  const why = NOT_ASSIGNED;
  if (from === 'seat') {
    return [
      { notice: { kind: 'approval-settled', requestId: d.id, approver: by, assigned: false, why, seat: true }, key },
    ];
  }
  return [
    // The cards offer Approve again; the requester, who never heard of the approval, is not told.
    { notice: k.changed(d, { toldElsewhere: true }), key: k.changedKey(d, `:${intentId}`) },
    { notice: { kind: 'approval-settled', requestId: d.id, approver: by, assigned: false, why }, key },
  ];
}

export function createSettle(k: RequestKernel) {
  const { opts, store, licensing, intents, audit, factsOf, txn, tell, changed, changedKey, finishAssign } = k;

  /**
   * The write's outcome read back (its answer never came): the requester holds an active license of
   * the pool, or not. Only read, never resent.
   */
  async function settleAssign(intentId: string, requestId: string | null): Promise<void> {
    const r = requestId ? await store.get(requestId) : undefined;
    if (r?.status !== 'assigning' || r.assigning?.intentId !== intentId) {
      // Nothing waits for it any more (recorded already): the intent only needs closing.
      await txn((trx) => intents.close(trx, intentId, { kind: 'nothing-waits' }));
      return;
    }
    const found = await readBackAssign(licensing, r.poolId, r.requesterEmail, 'background');
    const { from, by } = r.assigning;
    const action = from === 'approval' ? 'approved' : 'assigned';
    if (found) {
      const done = await finishAssign(
        r,
        { kind: 'assigned', licenseId: found.id, readBack: true },
        (x) => ({ ...x, status: 'assigned', licenseId: found.id, endDate: found.end }),
        (d) => foundNotices(k, d, from, by, intentId, found),
      );
      const detail = 'settled by reading back after the answer was lost';
      if (done) await audit({ actor: by, action, outcome: 'done', ...factsOf(done), detail });
      return;
    }
    const back = await finishAssign(
      r,
      { kind: 'not-assigned', readBack: true },
      (x) => backFrom(k, x, from),
      (d) => backNotices(k, d, from, by, intentId),
    );
    if (back) {
      await audit({ actor: by, action, outcome: 'failed', ...factsOf(back), detail: NOT_ASSIGNED });
      if (from === 'waitlist') opts.seatMayBeFree?.(back.poolId);
    }
  }

  /** Requests whose write has been running this long without an outcome are read back by the check. */
  const STUCK_MS = 2 * 60_000;

  /** 'assigning' requests of this process whose outcome stayed unknown: read back now. */
  async function settleStuck(): Promise<number> {
    let settled = 0;
    const cutoff = opts.now().getTime() - STUCK_MS;
    for (const r of await store.byStatus('assigning')) {
      if (!r.assigning || Date.parse(r.assigning.at) > cutoff) continue;
      try {
        await settleAssign(r.assigning.intentId, r.id);
        settled++;
      } catch (error) {
        opts.logger.warn('could not check a course request being assigned', { request: r.id, error: String(error) });
      }
    }
    return settled;
  }

  /**
   * An approved request waits for the approver's choice (recycle or waitlist). When the requester now
   * holds an active license from the pool (one read at background priority), the request is assigned
   * and everyone is told.
   */
  async function settleApproved(): Promise<number> {
    let settled = 0;
    for (const r of await store.byStatus('approved')) {
      let license: Awaited<ReturnType<typeof readBackAssign>>;
      try {
        license = await readBackAssign(licensing, r.poolId, r.requesterEmail, 'background');
      } catch (error) {
        opts.logger.warn('could not check an approved course request', { request: r.id, error: String(error) });
        continue;
      }
      if (!license) continue;
      const found = license;
      const done = await txn(async (trx, s) => {
        const result = await s.swap(r.id, ['approved'], (x) => ({
          ...x,
          status: 'assigned',
          licenseId: found.id,
          endDate: found.end,
        }));
        if (result.changed) await tell(trx, changed(result.request), changedKey(result.request));
        return result.changed;
      });
      if (done) settled++;
    }
    return settled;
  }

  return { settleAssign, settleStuck, settleApproved };
}
