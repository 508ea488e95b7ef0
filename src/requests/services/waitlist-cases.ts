/**
 * A request and its pool's waitlist: the approver's "Add to the waitlist" (status and place in one
 * step, only from 'approved'), the waitlist's assign of the request first in line (waitlist-assign.ts), and a license admin taking a request out of the line.
 */
import { inScope } from '../../kernel/domain/scope.js';
import { currentScope } from '../../kernel/services/request-scope.js';
import { entryOfRequest } from '../domain/waitlist.js';
import type { RequestKernel } from './kernel.js';
import type { RequestService } from './types.js';
import { assignWaitlisted } from './waitlist-assign.js';

export function createWaitlistCases(
  k: RequestKernel,
): Pick<RequestService, 'toWaitlist' | 'assignWaitlisted' | 'removeFromWaitlist'> {
  const { opts, store, audit, stamp, txn, tell, changed, changedKey } = k;

  return {
    async toWaitlist(id, approver) {
      if (!opts.waitlist) return { kind: 'off' };
      // A request for a pool outside the approver's scope is, to them, one that does not exist.
      const asked = await store.get(id);
      if (asked && !inScope(currentScope(), asked.poolId)) return { kind: 'not-found' };
      // Status and place in one step, only from 'approved': a request whose license is being assigned
      // cannot join a line, and a double click queues it once.
      const joined = await txn(async (trx, s) => {
        const result = await s.joinLine(id, stamp());
        if (result.ok) await tell(trx, changed(result.request, { place: result.place }), changedKey(result.request));
        return result;
      });
      if (!joined.ok) {
        const r = joined.request;
        if (!r) return { kind: 'not-found' };
        if (r.status === 'assigning') return { kind: 'assigning' };
        if (r.status === 'waitlisted') {
          const place = await store.placeOf(id);
          return { kind: 'in-line', ...(place ? { place } : {}) };
        }
        return { kind: 'not-waiting', status: r.status };
      }
      await audit({
        actor: approver,
        action: 'waitlisted',
        outcome: 'done',
        poolId: joined.request.poolId,
        requester: joined.request.requester,
        requestId: id,
        courseTitle: joined.request.courseTitle,
        place: joined.place,
      });
      return { kind: 'joined', place: joined.place };
    },

    assignWaitlisted: (entry) => assignWaitlisted(k, entry),

    async removeFromWaitlist(id, admin) {
      const removed = await txn(async (trx, s) => {
        const before = await s.get(id);
        const result = await s.swap(id, ['waitlisted'], (x) => ({
          ...x,
          status: 'denied',
          decidedBy: admin,
          decidedAt: stamp(),
          denyReason: 'removed from the waitlist by a license admin',
        }));
        if (!result.changed || !before) return undefined;
        await tell(trx, changed(result.request), changedKey(result.request));
        return entryOfRequest(before);
      });
      if (removed) {
        await audit({
          actor: admin,
          action: 'waitlist-removed',
          outcome: 'done',
          poolId: removed.poolId,
          requester: removed.requester,
          requestId: removed.requestId,
          ...(removed.courseTitle ? { courseTitle: removed.courseTitle } : {}),
        });
      }
      return removed;
    },
  };
}
