/**
 * A request and its pool's waitlist: the approver's "Add to the waitlist" (status and place in one
 * step, only from 'approved'), the waitlist's assign of the request first in line (the same assign
 * as an approval, through 'assigning'), and a license admin taking a request out of the line.
 */
import { readBackAssign } from '../../kernel/services/read-back.js';
import { entryOfRequest } from '../domain/waitlist.js';
import { DESK, type RequestKernel } from './kernel.js';
import type { RequestService } from './types.js';

export function createWaitlistCases(
  k: RequestKernel,
): Pick<RequestService, 'toWaitlist' | 'assignWaitlisted' | 'removeFromWaitlist'> {
  const {
    opts,
    store,
    licensing,
    audit,
    stamp,
    txn,
    tell,
    changed,
    changedKey,
    beginAssign,
    finishAssign,
    assignOrUnknown,
    closedSkipped,
    skippedNotices,
  } = k;

  return {
    async toWaitlist(id, approver) {
      if (!opts.waitlist) return { kind: 'off' };
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

    async assignWaitlisted(entry) {
      const r = await store.get(entry.requestId);
      if (!r) return { kind: 'skipped', reason: 'the request no longer exists' };
      if (r.status === 'assigning') return { kind: 'held', reason: 'its license is being assigned already' };
      // Out of the line since the round read it (another replica's round, a cancel): a lost race, no failure.
      if (r.status !== 'waitlisted') return { kind: 'left', tookSeat: r.status === 'assigned' };
      const presence = await opts.presence?.(r.requester);
      if (presence && 'unknown' in presence) return { kind: 'held', reason: presence.unknown };
      if (presence && 'gone' in presence) {
        const gone = presence.gone;
        const closed = await txn(async (trx, s) => {
          const result = await s.swap(r.id, ['waitlisted'], (x) => closedSkipped(x, gone));
          if (!result.changed) return undefined;
          for (const { notice, key } of await skippedNotices(result.request, gone, r.decidedBy, s))
            await tell(trx, notice, key);
          return result.request;
        });
        return closed ? { kind: 'skipped', reason: gone } : { kind: 'held', reason: 'the request changed meanwhile' };
      }
      const approver = r.decidedBy ?? entry.approver ?? DESK;
      // The seat goes to one request: waitlisted -> assigning (it keeps its place) with the intent.
      const begun = await beginAssign(r.id, 'waitlisted', approver, (x) => x);
      if (!begun.changed) {
        if (begun.request?.status === 'assigning')
          return { kind: 'held', reason: 'its license is being assigned already' };
        if (!begun.request) return { kind: 'skipped', reason: 'the request no longer exists' };
        // Another replica (or a cancel) took it out of the line while this one asked Slack about them.
        return { kind: 'left', tookSeat: begun.request.status === 'assigned' };
      }
      const mine = begun.request;
      const outcome = await assignOrUnknown(mine, approver);
      switch (outcome.kind) {
        case 'assigned': {
          await finishAssign(
            mine,
            outcome,
            (x) => ({ ...x, status: 'assigned', licenseId: outcome.licenseId, endDate: outcome.endDate }),
            (d) => [
              { notice: changed(d, { toldElsewhere: true }), key: changedKey(d) },
              {
                notice: {
                  kind: 'waitlist-assigned',
                  requestId: d.id,
                  licenseId: outcome.licenseId,
                  endDate: outcome.endDate,
                },
                key: `request:${d.id}:waitlist-assigned`,
              },
            ],
          );
          return { kind: 'assigned', licenseId: outcome.licenseId, endDate: outcome.endDate };
        }
        case 'refused': {
          // A license of this pool already held (an earlier assign whose answer was lost): the seat is theirs.
          const held = await readBackAssign(licensing, mine.poolId, mine.requesterEmail, 'interactive').catch(
            () => undefined,
          );
          if (held) {
            await finishAssign(
              mine,
              { kind: 'assigned', licenseId: held.id, readBack: true },
              (x) => ({ ...x, status: 'assigned', licenseId: held.id, endDate: held.end }),
              (d) => [
                { notice: changed(d, { toldElsewhere: true }), key: changedKey(d) },
                {
                  notice: { kind: 'waitlist-assigned', requestId: d.id, licenseId: held.id, endDate: held.end },
                  key: `request:${d.id}:waitlist-assigned`,
                },
              ],
            );
            return { kind: 'assigned', licenseId: held.id, endDate: held.end };
          }
          const notices = await skippedNotices(mine, outcome.why, mine.decidedBy);
          await finishAssign(
            mine,
            outcome,
            (x) => closedSkipped(x, outcome.why),
            (d) => notices.map((n) => (n.notice.kind === 'request-changed' ? { ...n, key: changedKey(d) } : n)),
          );
          return { kind: 'skipped', reason: outcome.why };
        }
        case 'unknown':
          // Left 'assigning' with its intent open: the check reads it back; it keeps its place meanwhile.
          return { kind: 'held', reason: outcome.detail };
        case 'full':
        case 'failed': {
          await finishAssign(
            mine,
            outcome,
            (x) => ({ ...x, status: 'waitlisted' }),
            () => [],
          );
          return { kind: 'held', reason: outcome.kind === 'full' ? 'the seat was taken in between' : outcome.why };
        }
      }
    },

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
