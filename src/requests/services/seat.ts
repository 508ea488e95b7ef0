/**
 * "Free a seat…" for an approved request of a full pool: approved -> 'assigning' with the write's
 * intent in one transaction (so the waitlist, Deny and Cancel are refused meanwhile), the admin's own
 * write use case (an assign, the API's recycle, a chosen license revoked then the seat assigned, a
 * retry), then the outcome recorded: assigned and the requester told through the outbox, approved
 * again, or, unknown, left 'assigning' for the read-back (settle.ts).
 */

import { type AssignParams, assign, recycleChosenSeat, recycleDefaultSeat, retryAssign } from '../../changes/index.js';
import type { License } from '../../kernel/domain/types.js';
import type { CourseRequest } from '../domain/requests.js';
import type { RequestKernel } from './kernel.js';
import type { FreeSeatOutcome, SeatFreeing, SeatWrite } from './types.js';

export function createSeatFreeing(k: RequestKernel) {
  const { opts, store, licensing, changed, changedKey, named, beginAssign, finishAssign } = k;

  /** What the seat freeing's write came to for the requester: their license, unknown, or none. */
  function landed(result: SeatWrite): License | 'unknown' | undefined {
    const write =
      result.kind === 'assign'
        ? result.write
        : result.kind === 'default' || result.kind === 'retry'
          ? result.outcome.kind === 'written'
            ? result.outcome.write
            : undefined
          : result.outcome.kind === 'freed'
            ? result.outcome.write
            : undefined;
    if (write?.kind === 'done') return write.value;
    return write?.kind === 'unknown' ? 'unknown' : undefined;
  }

  /** The admin's own use cases, with the request's intent as the record of the write (no second one). */
  async function seatWrite(params: AssignParams, r: CourseRequest, by: string, how: SeatFreeing): Promise<SeatWrite> {
    const seatCtx = { licensing, audit: opts.audit, now: opts.now, work: opts.work };
    switch (how.kind) {
      case 'assign': {
        const facts = { requester: r.requester, requestId: r.id };
        const write = await assign(seatCtx, { actor: by, params, pool: how.pool, action: 'assign', facts });
        return { kind: 'assign', write, pool: how.pool };
      }
      case 'default':
        return {
          kind: 'default',
          outcome: await recycleDefaultSeat(seatCtx, { actor: by, params, defaultLicenseId: how.named }),
        };
      case 'chosen':
        return {
          kind: 'chosen',
          outcome: await recycleChosenSeat(seatCtx, { actor: by, params, chosenLicenseId: how.licenseId }),
        };
      case 'retry':
        return {
          kind: 'retry',
          outcome: await retryAssign(seatCtx, { actor: by, params, revokedLicenseId: how.revokedLicenseId }),
        };
    }
  }

  async function freeSeat(id: string, approver: string, how: SeatFreeing): Promise<FreeSeatOutcome> {
    // approved -> assigning with the intent, in one transaction: a waitlist click, a second freeing,
    // Deny or Cancel meanwhile find it being assigned.
    const what =
      how.kind === 'chosen' ? { revoke: how.licenseId } : how.kind === 'retry' ? { revoked: how.revokedLicenseId } : {};
    const begun = await beginAssign(id, 'approved', approver, (x) => x, { seat: how.kind, ...what });
    if (!begun.changed) return begun.request ? { kind: 'not-waiting', request: begun.request } : { kind: 'not-found' };
    const r = await named(begun.request);
    const params: AssignParams = {
      poolId: r.poolId,
      email: r.requesterEmail,
      ...(r.requesterName ? { name: r.requesterName } : {}),
      ...(how.endDate ? { endDate: how.endDate } : {}),
    };
    let result: SeatWrite;
    try {
      result = await seatWrite(params, r, approver, how);
    } catch (error) {
      // Whether anything went out is not known: it stays 'assigning' with its intent open and is read back.
      opts.logger.warn('freeing a seat for a course request ended in an error; it is read back later', {
        request: id,
        error: String(error),
      });
      throw error;
    }
    const license = landed(result);
    if (license === 'unknown') return { kind: 'written', request: begun.request, params, result };
    const done = license
      ? await finishAssign(
          begun.request,
          { kind: 'assigned', licenseId: license.id },
          (x) => ({ ...x, status: 'assigned', licenseId: license.id, endDate: license.end }),
          (d) => [{ notice: changed(d), key: changedKey(d) }],
        )
      : await finishAssign(
          begun.request,
          { kind: 'not-assigned' },
          // Nothing assigned: approved again, its choice (free a seat, the waitlist) open as before.
          (x) => ({ ...x, status: 'approved' }),
          () => [],
        );
    const final = done ?? (await store.get(id)) ?? begun.request;
    return { kind: 'written', request: final, params, result };
  }

  return freeSeat;
}
