/**
 * "Return my seat" (docs/learners.md): the license read fresh and checked against the e-mail Slack
 * shows for the person clicking (on every click: a forged or forwarded button changes nothing), a
 * transferable pool only, then the revoke use case an admin's revoke goes through (the intent recorded
 * before the DELETE, settled after a kill, audited as a return by its holder, the freed seat handed to
 * the waitlist's first in line).
 */
import { type ChangeContext, checkRevoke, revoke } from '../../changes/index.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import { isOwn, type ReturnCheck, type ReturnOutcome } from '../domain/learners.js';

export async function checkReturn(
  licensing: LicensingClient,
  licenseId: string,
  email: string,
  now: Date,
): Promise<ReturnCheck> {
  const check = await checkRevoke(licensing, licenseId, now);
  if (check.kind === 'unread') return { kind: 'unread', licenseId, sentence: check.sentence };
  const { license, pool } = check;
  // Someone else's license: nothing about it is told, not even its course.
  if (!isOwn(license, email)) return { kind: 'refused', licenseId, refusal: 'not-yours' };
  const courseTitle = pool ? { courseTitle: pool.course.title } : {};
  const blocker = check.kind === 'blocked' ? check.blocker : undefined;
  if (blocker === 'inactive' || blocker === 'expired')
    return { kind: 'refused', licenseId, refusal: blocker, ...courseTitle };
  // An untransferable pool's licenses are not revokable either: the pool is the reason worth telling.
  if (!pool?.transferable) return { kind: 'refused', licenseId, refusal: 'untransferable', ...courseTitle };
  if (blocker) return { kind: 'refused', licenseId, refusal: blocker, ...courseTitle };
  return { kind: 'returnable', license, pool };
}

export interface GiveBackRequest {
  /** The Slack user who clicked: the holder, as the check says. */
  actor: string;
  licenseId: string;
  /** Their e-mail as Slack shows it now. */
  email: string;
}

export async function giveBack(ctx: ChangeContext, req: GiveBackRequest): Promise<ReturnOutcome> {
  const now = ctx.now();
  const check = await checkReturn(ctx.licensing, req.licenseId, req.email, now);
  if (check.kind !== 'returnable') {
    if (check.kind === 'refused' && check.refusal === 'not-yours') {
      await ctx.audit.record({
        at: now.toISOString(),
        actor: req.actor,
        action: 'returned',
        outcome: 'refused',
        licenseId: req.licenseId,
        detail: 'not the license of the person who clicked; nothing sent',
      });
    }
    return check;
  }
  const outcome = await revoke(ctx, { actor: req.actor, licenseId: req.licenseId, as: { action: 'returned' } });
  const courseTitle = check.pool.course.title;
  switch (outcome.kind) {
    case 'unread':
      return { kind: 'unread', licenseId: req.licenseId, sentence: outcome.sentence };
    case 'blocked':
      return { kind: 'refused', licenseId: req.licenseId, refusal: outcome.blocker, courseTitle };
    case 'written':
      return {
        kind: 'written',
        license: outcome.license,
        courseTitle,
        write: outcome.write,
        seatGiven: outcome.seat?.kind === 'given',
      };
  }
}
