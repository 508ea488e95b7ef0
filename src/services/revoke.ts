/**
 * Revoking a license (DELETE /v1/license/{id}), as one use case: the fresh read, the rule, the write,
 * the read-back after an unclear answer and the audit entry. The caller words the typed outcome.
 */
import { type RevokeBlocker, revokeBlocker } from '../domain/revocation.js';
import type { License, Pool } from '../domain/types.js';
import type { LicensingClient } from '../licensing/types.js';
import { auditOf, studentFacts } from './audit-facts.js';
import type { ChangeContext } from './change-context.js';
import { errorSentence } from './error-text.js';
import { INTERACTIVE } from './interactive.js';
import { getLicenseDetails } from './licenses.js';
import { tracked } from './work-tracker.js';
import { runWrite, type WriteOutcome } from './write-outcome.js';

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

export type RevokeOutcome =
  /** The fresh read failed: nothing was sent. */
  | { kind: 'unread'; licenseId: string; error: unknown }
  /** The rule refused on the fresh read (ended, expired, not revokable): nothing was sent. */
  | { kind: 'blocked'; license: License; pool: Pool | undefined; blocker: RevokeBlocker }
  /** The DELETE was sent: done, refused, failed or unknown, as the write says. */
  | { kind: 'written'; license: License; pool: Pool | undefined; write: WriteOutcome<License> };

export interface RevokeRequest {
  /** The Slack user (or other caller) who asked, for the audit trail. */
  actor: string;
  licenseId: string;
}

/**
 * Revokes `licenseId` once, audited. licenses.get is never cached, so a license ended since the
 * confirmation was shown is caught by the rule and nothing is sent (docs/change-checks.md).
 */
export async function revoke(ctx: ChangeContext, { actor, licenseId }: RevokeRequest): Promise<RevokeOutcome> {
  const now = ctx.now();
  const at = now.toISOString();
  let details: Awaited<ReturnType<typeof getLicenseDetails>>;
  try {
    details = await getLicenseDetails(ctx.licensing, licenseId);
  } catch (error) {
    const detail = errorSentence(error, 'license', 'admin');
    await ctx.audit.record({ at, actor, action: 'revoke', outcome: 'failed', licenseId, detail });
    return { kind: 'unread', licenseId, error };
  }
  const { license, pool } = details;
  const blocker = revokeBlocker(license, now);
  if (blocker) {
    const facts = { ...studentFacts(license), detail: `cannot be revoked (${blocker}); no DELETE sent` };
    await ctx.audit.record({ at, actor, action: 'revoke', outcome: 'refused', ...facts });
    return { kind: 'blocked', license, pool, blocker };
  }
  const write = await tracked(ctx.work, 'write', `revoke license ${license.id}`, () =>
    revokeLicense(ctx.licensing, license),
  );
  const facts = { ...studentFacts(license), ...(pool ? { courseTitle: pool.course.title } : {}) };
  await ctx.audit.record(auditOf('revoke', actor, write, facts, now, 'license'));
  if (write.kind === 'done') ctx.seats?.noticeSeat(license.poolId);
  return { kind: 'written', license, pool, write };
}
