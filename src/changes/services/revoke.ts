/**
 * Revoking a license (DELETE /v1/license/{id}), as one use case: the fresh read, the rule, the write,
 * the read-back after an unclear answer and the audit entry. The caller words the typed outcome
 * (blocks/revoke.ts).
 */

import type { License, Pool } from '../../kernel/domain/types.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import { errorSentence } from '../../kernel/services/error-text.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import { tracked } from '../../kernel/services/work-tracker.js';
import { recordedWrite } from '../../kernel/services/writes/ledger.js';
import { auditOf, reportOf, runWrite, studentFacts, type WriteOutcome } from '../../kernel/services/writes/outcome.js';
import type { SeatHandOn } from '../../requests/index.js';
import { type RevokeCheck, type RevokeOutcome, revokeBlocker, seatReturns } from '../domain/revocation.js';
import type { ChangeContext } from './change-context.js';

export type { RevokeCheck, RevokeOutcome };

/** `before` is the license as read just before (for the answer and the audit: DELETE returns nothing). */
export function revokeLicense(licensing: LicensingClient, before: License): Promise<WriteOutcome<License>> {
  return runWrite(
    async () => {
      await licensing.licenses.revoke(before.id, INTERACTIVE);
      return { ...before, active: false };
    },
    async () => {
      const license = await licensing.licenses.get(before.id, INTERACTIVE);
      return license.active ? undefined : license;
    },
  );
}

/**
 * The license read fresh (licenses.get is never cached) with its pool, and the rule on it: what the
 * confirmation shows and what "Revoke now" checks again before it sends anything
 * (docs/change-checks.md). A pool that is gone (404) leaves the license worth naming.
 */
export async function checkRevoke(licensing: LicensingClient, licenseId: string, now: Date): Promise<RevokeCheck> {
  let license: License;
  let pool: Pool | undefined;
  try {
    license = await licensing.licenses.get(licenseId, INTERACTIVE);
    pool = await licensing.pools.get(license.poolId, INTERACTIVE).catch((error: unknown) => {
      if (isLicensingError(error) && error.kind === 'not-found') return undefined;
      throw error;
    });
  } catch (error) {
    return { kind: 'unread', licenseId, sentence: errorSentence(error, 'license', 'admin') };
  }
  const blocker = revokeBlocker(license, now);
  return blocker ? { kind: 'blocked', license, pool, blocker } : { kind: 'revokable', license, pool };
}

export interface RevokeRequest {
  /** The Slack user (or other caller) who asked, for the audit trail. */
  actor: string;
  licenseId: string;
  /**
   * What the audit trail calls the revoke when it is not an admin's: the automatic return of a
   * finished seat (services/auto-return.ts), with the day the course was completed, a leaver's seat
   * returned after the grace (src/leavers), or the holder's own return (src/learners). Kept in the
   * intent too, so that a revoke settled after a restart reads the same.
   */
  as?: RevokeAs;
}

/** The automatic return of a finished seat, a leaver's seat returned after the grace (src/leavers), or a seat given back by its holder (src/learners). */
export type RevokeAs =
  | { action: 'auto-returned'; completedOn: string }
  | { action: 'leaver-returned' }
  | { action: 'returned' };

/** Revokes `licenseId` once, audited; a license ended since the confirmation was shown sends nothing. */
export async function revoke(ctx: ChangeContext, { actor, licenseId, as }: RevokeRequest): Promise<RevokeOutcome> {
  const now = ctx.now();
  const at = now.toISOString();
  const action = as?.action ?? 'revoke';
  const asFacts = as && 'completedOn' in as ? { completedOn: as.completedOn } : {};
  const check = await checkRevoke(ctx.licensing, licenseId, now);
  if (check.kind === 'unread') {
    await ctx.audit.record({ at, actor, action, outcome: 'failed', licenseId, ...asFacts, detail: check.sentence });
    return check;
  }
  const { license, pool } = check;
  if (check.kind === 'blocked') {
    const facts = {
      ...studentFacts(license),
      ...asFacts,
      detail: `cannot be revoked (${check.blocker}); no DELETE sent`,
    };
    await ctx.audit.record({ at, actor, action, outcome: 'refused', ...facts });
    return check;
  }
  const courseTitle = pool ? { courseTitle: pool.course.title } : {};
  const { write, open } = await tracked(ctx.work, 'write', `revoke license ${license.id}`, () =>
    recordedWrite(
      ctx.writes,
      {
        kind: 'revoke',
        owner: actor,
        subject: license.id,
        poolId: license.poolId,
        body: { license, ...courseTitle, ...(as ? { as } : {}) },
      },
      () => revokeLicense(ctx.licensing, license),
    ),
  );
  const facts = { ...studentFacts(license), ...courseTitle, ...asFacts };
  await ctx.audit.record(auditOf(action, actor, write, facts, now, 'license'));
  await open.end(write);
  const seat = write.kind === 'done' ? await handOn(ctx, license.poolId, seatReturns(pool)) : undefined;
  return { kind: 'written', license, pool, write: reportOf(write, 'license'), ...(seat ? { seat } : {}) };
}

/**
 * A done revoke told the waitlist. A seat that came back is given to the first in line at once and
 * the answer says who got it; otherwise the waitlist is only told (it checks the pool itself).
 */
async function handOn(ctx: ChangeContext, poolId: string, returns: boolean): Promise<SeatHandOn | undefined> {
  if (!ctx.seats) return undefined;
  if (!returns || !ctx.seats.handOn) {
    ctx.seats.noticeSeat(poolId);
    return undefined;
  }
  try {
    return await ctx.seats.handOn(poolId);
  } catch {
    ctx.seats.noticeSeat(poolId);
    return undefined;
  }
}
