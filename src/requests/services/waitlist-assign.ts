/**
 * The waitlist's assign of the request first in line (it was approved already): the requester is
 * still here, then the seat goes to one request (waitlisted -> 'assigning' with the write's intent,
 * keeping its place), the same assign as an approval, and the outcome recorded: assigned, closed with
 * the reason when it can never take the seat (the seat goes to the next), or held in line.
 */
import { readBackAssign } from '../../kernel/services/writes/read-back.js';
import type { CourseRequest, RequestAssignOutcome } from '../domain/requests.js';
import type { WaitlistAssignOutcome, WaitlistEntry } from '../domain/waitlist.js';
import { DESK, type RequestKernel } from './kernel.js';

export async function assignWaitlisted(k: RequestKernel, entry: WaitlistEntry): Promise<WaitlistAssignOutcome> {
  const r = await k.store.get(entry.requestId);
  if (!r) return { kind: 'skipped', reason: 'the request no longer exists' };
  if (r.status === 'assigning') return { kind: 'held', reason: 'its license is being assigned already' };
  // Out of the line since the round read it (another replica's round, a cancel): a lost race, no failure.
  if (r.status !== 'waitlisted') return { kind: 'left', tookSeat: r.status === 'assigned' };
  const presence = await k.opts.presence?.(r.requester);
  if (presence && 'unknown' in presence) return { kind: 'held', reason: presence.unknown };
  if (presence && 'gone' in presence) return closeGone(k, r, presence.gone);
  const approver = r.decidedBy ?? entry.approver ?? DESK;
  // The seat goes to one request: waitlisted -> assigning (it keeps its place) with the intent.
  const begun = await k.beginAssign(r.id, 'waitlisted', approver, (x) => x);
  if (!begun.changed) {
    if (begun.request?.status === 'assigning') return { kind: 'held', reason: 'its license is being assigned already' };
    if (!begun.request) return { kind: 'skipped', reason: 'the request no longer exists' };
    // Another replica (or a cancel) took it out of the line while this one asked Slack about them.
    return { kind: 'left', tookSeat: begun.request.status === 'assigned' };
  }
  return recorded(k, begun.request, await k.assignOrUnknown(begun.request, approver));
}

/** The requester left the workspace: the request leaves the line closed, and the seat goes to the next. */
async function closeGone(k: RequestKernel, r: CourseRequest, gone: string): Promise<WaitlistAssignOutcome> {
  const closed = await k.txn(async (trx, s) => {
    const result = await s.swap(r.id, ['waitlisted'], (x) => k.closedSkipped(x, gone));
    if (!result.changed) return undefined;
    for (const { notice, key } of await k.skippedNotices(result.request, gone, r.decidedBy, s)) {
      await k.tell(trx, notice, key);
    }
    return result.request;
  });
  return closed ? { kind: 'skipped', reason: gone } : { kind: 'held', reason: 'the request changed meanwhile' };
}

async function recorded(
  k: RequestKernel,
  mine: CourseRequest,
  outcome: RequestAssignOutcome,
): Promise<WaitlistAssignOutcome> {
  switch (outcome.kind) {
    case 'assigned':
      return given(k, mine, outcome, outcome.licenseId, outcome.endDate);
    case 'refused': {
      // A license of this pool already held (an earlier assign whose answer was lost): the seat is theirs.
      const held = await readBackAssign(k.licensing, mine.poolId, mine.requesterEmail, 'interactive').catch(
        () => undefined,
      );
      if (held) return given(k, mine, { kind: 'assigned', licenseId: held.id, readBack: true }, held.id, held.end);
      const notices = await k.skippedNotices(mine, outcome.why, mine.decidedBy);
      await k.finishAssign(
        mine,
        outcome,
        (x) => k.closedSkipped(x, outcome.why),
        (d) => notices.map((n) => (n.notice.kind === 'request-changed' ? { ...n, key: k.changedKey(d) } : n)),
      );
      return { kind: 'skipped', reason: outcome.why };
    }
    case 'unknown':
      // Left 'assigning' with its intent open: the check reads it back; it keeps its place meanwhile.
      return { kind: 'held', reason: outcome.detail };
    case 'full':
    case 'failed':
      await k.finishAssign(
        mine,
        outcome,
        (x) => ({ ...x, status: 'waitlisted' }),
        () => [],
      );
      return { kind: 'held', reason: outcome.kind === 'full' ? 'the seat was taken in between' : outcome.why };
  }
}

/** The seat is theirs: assigned, its cards updated and the waitlist's DMs queued. */
async function given(
  k: RequestKernel,
  mine: CourseRequest,
  outcome: unknown,
  licenseId: string,
  endDate: string,
): Promise<WaitlistAssignOutcome> {
  await k.finishAssign(
    mine,
    outcome,
    (x) => ({ ...x, status: 'assigned', licenseId, endDate }),
    (d) => k.waitlistAssignedNotices(d, licenseId, endDate),
  );
  return { kind: 'assigned', licenseId, endDate };
}
