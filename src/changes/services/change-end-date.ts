/** Changing a license's end date (PATCH /v1/license/{id}); an unclear answer is resolved by reading the license. */

import { getLicenseDetails } from '../../browse/index.js';
import { classifyNewEndDate, dayOf, endDateBlocker, today } from '../../kernel/domain/end-date.js';
import type { License, Pool } from '../../kernel/domain/types.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import { errorSentence } from '../../kernel/services/error-text.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import { tracked } from '../../kernel/services/work-tracker.js';
import { recordedWrite } from '../../kernel/services/writes/ledger.js';
import { auditOf, runWrite, studentFacts, type WriteOutcome } from '../../kernel/services/writes/outcome.js';
import type { EndDateRefusal } from '../domain/change-refusal.js';
import type { ChangeContext } from './change-context.js';

export function changeEndDate(
  licensing: LicensingClient,
  licenseId: string,
  day: string,
  now: Date,
): Promise<WriteOutcome<License>> {
  return runWrite(
    () => licensing.licenses.changeEndDate(licenseId, day, INTERACTIVE),
    async () => {
      const license = await licensing.licenses.get(licenseId, INTERACTIVE);
      // A past day ends the license (rule 3); a future one must show as its new end.
      const applied = day < today(now) ? !license.active : dayOf(license.end) === day;
      return applied ? license : undefined;
    },
  );
}

export type { EndDateRefusal };

/**
 * The PATCH rules on fresh reads (the license is never cached; its pool's transferability and end
 * do not change), for a license id and a day that came back from a form: the license must still be
 * changeable (endDateBlocker) and the day within the pool and a real change.
 */
export async function checkEndDateChange(
  licensing: LicensingClient,
  licenseId: string,
  day: string,
  now: Date,
): Promise<{ license: License; pool: Pool | undefined; refusal: EndDateRefusal | undefined }> {
  const { license, pool } = await getLicenseDetails(licensing, licenseId);
  const blocker = endDateBlocker(license, pool, now);
  if (blocker || !pool) return { license, pool, refusal: { kind: blocker ?? 'pool-unknown' } };
  const change = classifyNewEndDate(day, license, pool, now);
  if (change.kind === 'after-pool-end' || change.kind === 'unchanged') return { license, pool, refusal: change };
  return { license, pool, refusal: undefined };
}

export type EndDateOutcome =
  /** The fresh read failed: nothing was sent. */
  | { kind: 'unread'; error: unknown }
  /** A rule refused on the fresh read: nothing was sent. */
  | { kind: 'refused'; refusal: EndDateRefusal; license: License }
  /** The PATCH was sent; `past`: the day was in the past, so it ended the license now. */
  | { kind: 'written'; write: WriteOutcome<License>; license: License; pool: Pool | undefined; past: boolean };

export interface EndDateRequest {
  actor: string;
  licenseId: string;
  /** YYYY-MM-DD; a past day ends the license now (the caller had the person confirm it). */
  endDate: string;
}

/** The write's intent (docs/records.md, "Writes in flight"): what is sent, and what its audit entry needs. */
function endDateIntent(req: EndDateRequest, checked: Awaited<ReturnType<typeof checkEndDateChange>>, past: boolean) {
  const body = {
    licenseId: req.licenseId,
    endDate: req.endDate,
    past,
    license: checked.license,
    ...(checked.pool ? { courseTitle: checked.pool.course.title } : {}),
  };
  return { kind: 'end-date', owner: req.actor, subject: req.licenseId, poolId: checked.license.poolId, body } as const;
}

/**
 * Changes a license's end date, audited. The license id and the day came back from a form (hints,
 * never authority): the rules run on a fresh read first (checkEndDateChange), then the PATCH, the
 * read-back after an unclear answer, and the audit entry.
 */
export async function changeLicenseEndDate(ctx: ChangeContext, req: EndDateRequest): Promise<EndDateOutcome> {
  const now = ctx.now();
  const day = req.endDate;
  const base = {
    at: now.toISOString(),
    actor: req.actor,
    action: 'extend' as const,
    licenseId: req.licenseId,
    endDate: day,
  };
  let checked: Awaited<ReturnType<typeof checkEndDateChange>>;
  try {
    checked = await checkEndDateChange(ctx.licensing, req.licenseId, day, now);
  } catch (error) {
    const why = errorSentence(error, 'license', 'admin');
    await ctx.audit.record({ ...base, outcome: 'failed', detail: `could not re-check the license: ${why}` });
    return { kind: 'unread', error };
  }
  // The end the license had before: admins see what the new date replaced.
  const previousEndDate = dayOf(checked.license.end);
  const was = {
    ...studentFacts(checked.license),
    ...(checked.pool ? { courseTitle: checked.pool.course.title } : {}),
    ...(previousEndDate ? { previousEndDate } : {}),
    endDate: day,
  };
  if (checked.refusal) {
    const detail = `${checked.refusal.kind}: refused on a fresh read; nothing sent`;
    await ctx.audit.record({ ...base, ...was, outcome: 'refused', detail });
    return { kind: 'refused', refusal: checked.refusal, license: checked.license };
  }
  const past = day < today(now);
  const intent = endDateIntent(req, checked, past);
  const { write, open } = await tracked(ctx.work, 'write', `extend license ${req.licenseId}`, () =>
    recordedWrite(ctx.writes, intent, () => changeEndDate(ctx.licensing, req.licenseId, day, now)),
  );
  const license = write.kind === 'done' ? write.value : checked.license;
  const facts = {
    ...was,
    ...studentFacts(license),
    ...(past ? { detail: 'a day in the past: ends the license now' } : {}),
  };
  await ctx.audit.record(auditOf('extend', req.actor, write, facts, now, 'license'));
  await open.end(write);
  // An end moved to today or earlier ends the license now: its seat may be free for whoever waits.
  if (write.kind === 'done' && past) ctx.seats?.noticeSeat(checked.license.poolId);
  return { kind: 'written', write, license: checked.license, pool: checked.pool, past };
}
