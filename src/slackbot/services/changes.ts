/**
 * The Slackbot change tools' two steps (docs/slackbot.md). The preview reads fresh and applies the
 * same rules a click's confirmation does, and sends nothing; the confirm runs the very use case a
 * click runs (changes/ for assign, end date and revoke), so the intent, the audit entry and the
 * notices are the same, and the audit entry says it came through Slackbot.
 */
import {
  assign,
  type ChangeContext,
  changeLicenseEndDate,
  checkEndDateChange,
  checkRecycle,
  checkRevoke,
  defaultRecycleCandidate,
  type EndDateRefusal,
  poolBlocker,
  type RevokeCheck,
  type RevokeOutcome,
  recycleDefaultSeat,
  revoke,
} from '../../changes/index.js';
import type { License, Pool } from '../../kernel/domain/types.js';
import type { WriteReport } from '../../kernel/domain/writes/report.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import { errorSentence } from '../../kernel/services/error-text.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import { reportOf } from '../../kernel/services/writes/outcome.js';
import type { ExtendResult, RecycleResult } from '../domain/answers.js';

/** What the audit trail adds to every change made through Slackbot. */
export const VIA_SLACKBOT = 'via Slackbot';

/** The same audit trail, each entry marked as made through Slackbot. */
export function viaSlackbot(audit: AuditLog): AuditLog {
  return {
    record: (entry) =>
      audit.record({ ...entry, detail: entry.detail ? `${entry.detail}; ${VIA_SLACKBOT}` : VIA_SLACKBOT }),
    recent: (limit) => audit.recent(limit),
    flush: (ms) => audit.flush(ms),
    close: (ms) => audit.close(ms),
  };
}

export interface AssignAsk {
  poolId: string;
  email: string;
  name?: string | undefined;
  endDate?: string | undefined;
}

export type AssignCheck = { kind: 'ready'; pool: Pool; ask: AssignAsk } | { kind: 'refused'; sentence: string };

/** The pool read fresh and the rules a form applies before an assign (the licensing API applies them again). */
export async function checkAssign(licensing: LicensingClient, ask: AssignAsk, now: Date): Promise<AssignCheck> {
  let pool: Pool;
  try {
    pool = await licensing.pools.get(ask.poolId, INTERACTIVE);
  } catch (error) {
    return { kind: 'refused', sentence: errorSentence(error, 'pool', 'admin') };
  }
  const blocker = poolBlocker(pool, now);
  if (blocker === 'ended') return { kind: 'refused', sentence: `Pool ${pool.id} has ended: it gives no more seats.` };
  if (pool.availableLicenses <= 0) {
    return {
      kind: 'refused',
      sentence:
        blocker === 'full-untransferable'
          ? `Pool ${pool.id} is full and not transferable: no seat can be given.`
          : `Pool ${pool.id} is full: recycle a seat instead (recycle_seat).`,
    };
  }
  if (ask.endDate && Date.parse(ask.endDate) > Date.parse(pool.end)) {
    return {
      kind: 'refused',
      sentence: `The end date ${ask.endDate} is after pool ${pool.id} ends (${pool.end.slice(0, 10)}).`,
    };
  }
  return { kind: 'ready', pool, ask };
}

export async function confirmAssign(
  ctx: ChangeContext,
  actor: string,
  ask: AssignAsk,
): Promise<{ kind: 'refused'; sentence: string } | { kind: 'written'; pool: Pool; report: WriteReport<License> }> {
  const check = await checkAssign(ctx.licensing, ask, ctx.now());
  if (check.kind === 'refused') return check;
  const params = {
    poolId: ask.poolId,
    email: ask.email,
    ...(ask.name ? { name: ask.name } : {}),
    ...(ask.endDate ? { endDate: ask.endDate } : {}),
  };
  const write = await assign(ctx, { actor, params, pool: check.pool, action: 'assign' });
  return { kind: 'written', pool: check.pool, report: reportOf(write, 'pool') };
}

export type EndDateCheck =
  | { kind: 'ready'; license: License; pool: Pool | undefined }
  | { kind: 'unread'; sentence: string }
  | { kind: 'refused'; license: License; refusal: EndDateRefusal };

export async function checkExtend(
  licensing: LicensingClient,
  licenseId: string,
  endDate: string,
  now: Date,
): Promise<EndDateCheck> {
  try {
    const checked = await checkEndDateChange(licensing, licenseId, endDate, now);
    if (checked.refusal) return { kind: 'refused', license: checked.license, refusal: checked.refusal };
    return { kind: 'ready', license: checked.license, pool: checked.pool };
  } catch (error) {
    if (isLicensingError(error) && error.kind === 'not-found') {
      return { kind: 'unread', sentence: `There is no license ${licenseId}.` };
    }
    return { kind: 'unread', sentence: errorSentence(error, 'license', 'admin') };
  }
}

export async function confirmExtend(
  ctx: ChangeContext,
  actor: string,
  licenseId: string,
  endDate: string,
): Promise<ExtendResult> {
  const outcome = await changeLicenseEndDate(ctx, { actor, licenseId, endDate });
  if (outcome.kind === 'unread') return { kind: 'unread', sentence: errorSentence(outcome.error, 'license', 'admin') };
  if (outcome.kind === 'refused') return { kind: 'refused', refusal: outcome.refusal };
  return { kind: 'written', report: reportOf(outcome.write, 'license') };
}

export function previewRevoke(licensing: LicensingClient, licenseId: string, now: Date): Promise<RevokeCheck> {
  return checkRevoke(licensing, licenseId, now);
}

export function confirmRevoke(ctx: ChangeContext, actor: string, licenseId: string): Promise<RevokeOutcome> {
  return revoke(ctx, { actor, licenseId });
}

/** The recycle a confirmation would make: the pool full and transferable, the license `recycle: true` ends now. */
export async function previewRecycle(
  licensing: LicensingClient,
  ask: AssignAsk,
  now: Date,
): Promise<{ kind: 'ready'; pool: Pool; license: License } | RecycleResult> {
  try {
    // The license `recycle: true` would end now (the API's rule), then every rule of a recycle on it.
    const active = await licensing.pools.allLicenses(ask.poolId, { includeInactive: false }, INTERACTIVE);
    const named = defaultRecycleCandidate(active, now)?.id;
    const check = await checkRecycle(licensing, paramsOf(ask), { named }, now);
    if (!check.ok) return { kind: 'refused', refusal: check.refusal, licenseId: check.license?.id };
    return { kind: 'ready', pool: check.pool, license: check.license };
  } catch (error) {
    return { kind: 'unread', sentence: errorSentence(error, 'pool', 'admin') };
  }
}

const paramsOf = (ask: AssignAsk) => ({
  poolId: ask.poolId,
  email: ask.email,
  ...(ask.name ? { name: ask.name } : {}),
  ...(ask.endDate ? { endDate: ask.endDate } : {}),
});

/** The default recycle, sent only when the API's pick is still the license the preview named. */
export async function confirmRecycle(
  ctx: ChangeContext,
  actor: string,
  ask: AssignAsk,
  named: string | undefined,
): Promise<RecycleResult> {
  const outcome = await recycleDefaultSeat(ctx, { actor, params: paramsOf(ask), defaultLicenseId: named });
  if (outcome.kind === 'unread') return { kind: 'unread', sentence: errorSentence(outcome.error, 'pool', 'admin') };
  if (outcome.kind === 'refused') return { kind: 'refused', refusal: outcome.refusal, licenseId: outcome.license?.id };
  return { kind: 'written', report: reportOf(outcome.write, 'pool'), ended: outcome.pick, pool: outcome.pool };
}
