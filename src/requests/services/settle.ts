/**
 * Settling a request's license write whose answer never came (a crash, a lost answer): the
 * requester's licenses in the pool are read back, never resent, and the request ends assigned, or
 * back where it came from (pending, in line, approved for a freed seat), the people told through the
 * outbox. Also what the periodic check settles: 'assigning' requests left too long, and approved
 * requests whose license came another way.
 */
import { readBackAssign } from '../../kernel/services/writes/read-back.js';
import type { RequestKernel } from './kernel.js';

export function createSettle(k: RequestKernel) {
  const {
    opts,
    store,
    licensing,
    intents,
    audit,
    factsOf,
    txn,
    tell,
    changed,
    changedKey,
    backToPending,
    finishAssign,
  } = k;

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
    const from = r.assigning.from;
    const by = r.assigning.by;
    if (found) {
      const done = await finishAssign(
        r,
        { kind: 'assigned', licenseId: found.id, readBack: true },
        (x) => ({ ...x, status: 'assigned', licenseId: found.id, endDate: found.end }),
        (d) =>
          from === 'waitlist'
            ? [
                { notice: changed(d, { toldElsewhere: true }), key: changedKey(d) },
                {
                  notice: { kind: 'waitlist-assigned', requestId: d.id, licenseId: found.id, endDate: found.end },
                  key: `request:${d.id}:waitlist-assigned`,
                },
              ]
            : [
                { notice: changed(d), key: changedKey(d) },
                {
                  notice: {
                    kind: 'approval-settled',
                    requestId: d.id,
                    approver: by,
                    assigned: true,
                    ...(from === 'seat' ? { seat: true } : {}),
                  },
                  key: `request:${d.id}:settled:${intentId}`,
                },
              ],
      );
      if (done) {
        await audit({
          actor: by,
          action: from === 'approval' ? 'approved' : 'assigned',
          outcome: 'done',
          ...factsOf(done),
          detail: 'settled by reading back after the answer was lost',
        });
      }
      return;
    }
    const why =
      'License Desk stopped (or lost the answer) before the license was assigned, and the licensing service shows none';
    const back = await finishAssign(
      r,
      { kind: 'not-assigned', readBack: true },
      (x) => {
        if (from === 'waitlist') return { ...x, status: 'waitlisted' };
        // A seat being freed for an approved request: still approved, its choice (free a seat, the waitlist) open again.
        if (from === 'seat') return { ...x, status: 'approved' };
        return backToPending(x, why);
      },
      (d) =>
        from === 'waitlist'
          ? []
          : from === 'seat'
            ? [
                {
                  notice: { kind: 'approval-settled', requestId: d.id, approver: by, assigned: false, why, seat: true },
                  key: `request:${d.id}:settled:${intentId}`,
                },
              ]
            : [
                // The cards offer Approve again; the requester, who never heard of the approval, is not told.
                { notice: changed(d, { toldElsewhere: true }), key: changedKey(d, `:${intentId}`) },
                {
                  notice: { kind: 'approval-settled', requestId: d.id, approver: by, assigned: false, why },
                  key: `request:${d.id}:settled:${intentId}`,
                },
              ],
    );
    if (back) {
      await audit({
        actor: by,
        action: from === 'approval' ? 'approved' : 'assigned',
        outcome: 'failed',
        ...factsOf(back),
        detail: why,
      });
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
