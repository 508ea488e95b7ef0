/**
 * Freeing a seat in a full transferable pool. The confirmation needs the pool's active licenses
 * (one request per 100) and the course progress of the default candidate (one GET /v1/student; per
 * candidate it would cost one request each, so the picker shows name and start only, and a license
 * the manager picks gets its progress read then, one request per pick).
 * The default goes through the API's own `recycle: true` (one atomic write); a chosen license is
 * revoked first and the seat then assigned, two writes, with the exact state told if the second fails.
 *
 * What the confirmation carries back (pool, student, the license named) is a hint: when it is
 * submitted, every rule is applied again to fresh reads (checkRecycle) and nothing is sent when one
 * fails. A Retry assign is checked the same way (checkRetryAssign).
 */

import type { License, Pool } from '../../kernel/domain/types.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import { errorSentence } from '../../kernel/services/error-text.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import { tracked } from '../../kernel/services/work-tracker.js';
import { type OpenWrite, openWrite, type RecycleIntentBody } from '../../kernel/services/writes/ledger.js';
import { WriteNotRecordedError } from '../../kernel/services/writes/not-recorded.js';
import { auditOf, studentFacts, type WriteOutcome } from '../../kernel/services/writes/outcome.js';
import { isFull } from '../domain/assignment.js';
import type { RecycleRefusal, RetryRefusal } from '../domain/change-refusal.js';
import {
  defaultRecycleCandidate,
  recycleCandidates,
  recycleLicenseProblem,
  recyclePoolProblem,
} from '../domain/recycle.js';
import { type AssignParams, assign, assignLicense, newcomerProblem } from './assign.js';
import type { ChangeContext } from './change-context.js';
import { revokeLicense } from './revoke.js';

/** Options in one static_select (platform.md section 5). */
export const MAX_CANDIDATES = 100;

export interface Progress {
  progress: number;
  completed: string | null;
}

export interface RecycleChoice {
  pool: Pool;
  /** Active licenses, oldest first, at most MAX_CANDIDATES. */
  candidates: License[];
  /** What `recycle: true` would end. */
  defaultLicense: License | undefined;
  /** Course progress of the default candidate, when the service told us. */
  defaultProgress: Progress | undefined;
}

export async function loadRecycleChoice(licensing: LicensingClient, poolId: string, now: Date): Promise<RecycleChoice> {
  const pool = await licensing.pools.get(poolId, { ...INTERACTIVE, fresh: true });
  const active = await licensing.pools.allLicenses(poolId, { includeInactive: false }, INTERACTIVE);
  const candidates = recycleCandidates(active, now).slice(0, MAX_CANDIDATES);
  const defaultLicense = defaultRecycleCandidate(active, now);
  const defaultProgress = defaultLicense ? await loadProgress(licensing, defaultLicense) : undefined;
  return { pool, candidates, defaultLicense, defaultProgress };
}

/**
 * The course progress of one license's student (one GET /v1/student), for the confirmation: the
 * default's when it opens, another license's when the manager picks it. Undefined when not told.
 */
export async function loadProgress(licensing: LicensingClient, license: License): Promise<Progress | undefined> {
  try {
    const student = await licensing.students.find({ email: license.student.email }, INTERACTIVE);
    const row = student.courses.find((c) => c.licenseId === license.id);
    return row ? { progress: row.progress, completed: row.completed } : undefined;
  } catch {
    // Progress is a courtesy: the confirmation still names the license without it.
    return undefined;
  }
}

export type { RecycleRefusal, RetryRefusal };

export type RecycleCheck =
  | { ok: true; pool: Pool; license: License }
  | { ok: false; refusal: RecycleRefusal; license?: License };

/** `chosen`: a license the manager picked; `named`: the default the confirmation showed (recycle: true). */
export type RecycleTarget = { chosen: string } | { named: string | undefined };

/**
 * Every rule of a recycle on reads made now, cheapest refusal first: the pool (fresh: full,
 * transferable, running), then the license that would end (GET /v1/license, never cached; or, for
 * the default, the pool's active licenses, fresh, and the API's pick among them), then the newcomer
 * (domain, end date, not enrolled yet). Read failures are thrown: nothing was sent.
 */
export async function checkRecycle(
  licensing: LicensingClient,
  params: AssignParams,
  target: RecycleTarget,
  now: Date,
): Promise<RecycleCheck> {
  const pool = await licensing.pools.get(params.poolId, { ...INTERACTIVE, fresh: true });
  const poolProblem = recyclePoolProblem(pool, now);
  if (poolProblem) return { ok: false, refusal: poolProblem };
  let license: License | undefined;
  if ('chosen' in target) {
    license = await licensing.licenses.get(target.chosen, INTERACTIVE);
  } else {
    const active = await licensing.pools.allLicenses(
      pool.id,
      { includeInactive: false },
      { ...INTERACTIVE, fresh: true },
    );
    license = defaultRecycleCandidate(active, now);
    if (!target.named || !license || license.id !== target.named) {
      return { ok: false, refusal: { kind: 'not-the-pick', named: target.named, pick: license } };
    }
  }
  const licenseProblem = recycleLicenseProblem(license, pool.id, now);
  if (licenseProblem) return { ok: false, refusal: licenseProblem, license };
  const newcomer = await newcomerProblem(licensing, pool, params, now);
  if (newcomer) return { ok: false, refusal: newcomer, license };
  return { ok: true, pool, license };
}

export type ChosenRecycleResult =
  /** A rule failed on the fresh reads (a stale or forged confirmation): nothing sent. */
  | { stage: 'check'; refusal: RecycleRefusal; license: License | undefined }
  /** The revoke did not happen (or we cannot tell): no assign was sent. */
  | { stage: 'revoke'; license: License; outcome: WriteOutcome<License> }
  /** The revoke happened; `outcome` is the assign's. */
  | { stage: 'assign'; revoked: License; outcome: WriteOutcome<License>; pool: Pool };

/**
 * `beforeWrite` runs once every rule passed, before the revoke is sent (it records the intent); when
 * it throws, nothing is sent and the revoke stage reports the failure.
 */
export async function recycleChosen(
  licensing: LicensingClient,
  chosenId: string,
  params: AssignParams,
  now: Date,
  beforeWrite?: (license: License, pool: Pool) => Promise<void>,
): Promise<ChosenRecycleResult> {
  const check = await checkRecycle(licensing, params, { chosen: chosenId }, now);
  if (!check.ok) return { stage: 'check', refusal: check.refusal, license: check.license };
  const license = check.license;
  try {
    await beforeWrite?.(license, check.pool);
  } catch (error) {
    const why = new WriteNotRecordedError('the intent of the recycle could not be recorded', { cause: error });
    return { stage: 'revoke', license, outcome: { kind: 'failed', error: why } };
  }
  const revoked = await revokeLicense(licensing, license);
  if (revoked.kind !== 'done') return { stage: 'revoke', license, outcome: revoked };
  const outcome = await assignLicense(licensing, { ...params, recycle: false });
  return { stage: 'assign', revoked: revoked.value, outcome, pool: check.pool };
}

/**
 * Retry assign after a recycle whose assign failed: the license named as revoked must be an inactive
 * license of the pool, the pool must still run and have a free seat, and the newcomer's rules hold.
 */
export async function checkRetryAssign(
  licensing: LicensingClient,
  params: AssignParams,
  revokedId: string,
  now: Date,
): Promise<{ refusal: RetryRefusal | undefined; pool?: Pool }> {
  const revoked = await licensing.licenses.get(revokedId, INTERACTIVE);
  if (revoked.poolId !== params.poolId || revoked.active) return { refusal: { kind: 'not-freed', license: revoked } };
  const pool = await licensing.pools.get(params.poolId, { ...INTERACTIVE, fresh: true });
  if (recyclePoolProblem(pool, now)?.kind === 'pool-ended') return { refusal: { kind: 'pool-ended' }, pool };
  if (isFull(pool)) return { refusal: { kind: 'seat-taken' }, pool };
  return { refusal: await newcomerProblem(licensing, pool, params, now), pool };
}

/** The audit detail of a refusal: its rule, never the e-mail. */
export function refusalDetail(r: RecycleRefusal | RetryRefusal): string {
  const tail = 'refused on a fresh read; nothing sent';
  switch (r.kind) {
    case 'pool-not-full':
      return `pool not full (${r.available} free): ${tail}`;
    case 'license-other-pool':
      return `license of another pool (${r.licensePool}): ${tail}`;
    case 'not-the-pick':
      return `stale default: confirmation named ${r.named ?? 'none'}, the rule now picks ${r.pick?.id ?? 'none'}`;
    case 'not-freed':
      return `license ${r.license.id} did not free a seat of this pool: ${tail}`;
    case 'enrolled':
      return `student already enrolled (license ${r.license.id}): ${tail}`;
    default:
      return `${r.kind}: ${tail}`;
  }
}

/** Who is to get the seat, for the audit entries of a recycle (never the e-mail in a detail). */
function newcomerFacts(params: AssignParams) {
  return {
    poolId: params.poolId,
    studentEmail: params.email,
    ...(params.name ? { studentName: params.name } : {}),
  };
}

export type RecycleDefaultOutcome =
  /** A fresh read failed: nothing was sent. */
  | { kind: 'unread'; error: unknown }
  /** A rule refused on the fresh reads: nothing was sent. */
  | { kind: 'refused'; refusal: RecycleRefusal; license: License | undefined }
  /** `recycle: true` was sent; it ends `pick` when done. */
  | { kind: 'written'; write: WriteOutcome<License>; pick: License; pool: Pool };

/**
 * The default choice of a recycle confirmation, audited: `recycle: true` ends whatever the API's rule
 * picks at the time of the write, so the write is sent only when the rule still picks the license
 * the confirmation named (`defaultLicenseId`), after every rule ran on fresh reads (checkRecycle).
 */
export async function recycleDefaultSeat(
  ctx: ChangeContext,
  req: { actor: string; params: AssignParams; defaultLicenseId: string | undefined },
): Promise<RecycleDefaultOutcome> {
  const base = { at: ctx.now().toISOString(), actor: req.actor, action: 'recycle' as const };
  const facts = { ...base, ...newcomerFacts(req.params) };
  let check: RecycleCheck;
  try {
    check = await checkRecycle(ctx.licensing, req.params, { named: req.defaultLicenseId }, ctx.now());
  } catch (error) {
    const why = errorSentence(error, 'pool', 'admin');
    await ctx.audit.record({ ...facts, outcome: 'failed', detail: `could not re-check the recycle: ${why}` });
    return { kind: 'unread', error };
  }
  if (!check.ok) {
    const entry = { ...facts, outcome: 'refused' as const, detail: refusalDetail(check.refusal) };
    await ctx.audit.record(check.license ? { ...entry, licenseId: check.license.id } : entry);
    return { kind: 'refused', refusal: check.refusal, license: check.license };
  }
  const pick = check.license;
  const write = await assign(ctx, {
    actor: req.actor,
    params: { ...req.params, recycle: true },
    pool: check.pool,
    action: 'recycle',
    detail: `seat freed by ending license ${pick.id}, re-checked as the API's pick`,
  });
  return { kind: 'written', write, pick, pool: check.pool };
}

export type RecycleChosenOutcome =
  /** A fresh read failed: nothing was sent. */
  | { kind: 'unread'; error: unknown }
  /** A rule refused on the fresh reads (a stale or forged confirmation): nothing was sent. */
  | { kind: 'refused'; refusal: RecycleRefusal; license: License | undefined }
  /** The revoke did not happen (or nobody knows): no assign was sent. */
  | { kind: 'not-freed'; license: License; write: WriteOutcome<License> }
  /** The seat was freed (`revoked`); `write` is the assign's outcome. */
  | { kind: 'freed'; revoked: License; write: WriteOutcome<License>; pool: Pool };

/**
 * A license the manager chose to end for the newcomer, audited: every rule on fresh reads, the
 * revoke, then the assign (two writes, each audited); when the assign fails the seat stays free and
 * the outcome says so, so the caller can offer "Retry assign" (retryAssign).
 */
export async function recycleChosenSeat(
  ctx: ChangeContext,
  req: { actor: string; params: AssignParams; chosenLicenseId: string },
): Promise<RecycleChosenOutcome> {
  const { actor, params } = req;
  let result: ChosenRecycleResult;
  let open: OpenWrite | undefined;
  const record = async (license: License, pool: Pool) => {
    const body: RecycleIntentBody = { revoke: license, params, courseTitle: pool.course.title };
    open = await openWrite(ctx.writes, { kind: 'recycle', owner: actor, subject: params.email, poolId: pool.id, body });
  };
  try {
    result = await tracked(ctx.work, 'write', `recycle in pool ${params.poolId}`, () =>
      recycleChosen(ctx.licensing, req.chosenLicenseId, params, ctx.now(), record),
    );
  } catch (error) {
    await ctx.audit.record({
      at: ctx.now().toISOString(),
      actor,
      action: 'recycle',
      outcome: 'failed',
      poolId: params.poolId,
      studentEmail: params.email,
      detail: `could not read license ${req.chosenLicenseId}: ${errorSentence(error, 'license', 'admin')}`,
    });
    return { kind: 'unread', error };
  }
  const now = ctx.now();
  const facts = newcomerFacts(params);
  if (result.stage === 'check') {
    const license = result.license ? { licenseId: result.license.id } : {};
    const entry = { at: now.toISOString(), actor, action: 'recycle' as const, outcome: 'refused' as const };
    await ctx.audit.record({ ...entry, ...facts, ...license, detail: refusalDetail(result.refusal) });
    return { kind: 'refused', refusal: result.refusal, license: result.license };
  }
  if (result.stage === 'revoke') {
    await ctx.audit.record(auditOf('revoke', actor, result.outcome, studentFacts(result.license), now, 'license'));
    await open?.end(result.outcome, { revoked: result.outcome.kind === 'done' });
    return { kind: 'not-freed', license: result.license, write: result.outcome };
  }
  const { revoked, outcome: write } = result;
  const done = { kind: 'done', value: revoked, checked: false } as const;
  await ctx.audit.record(auditOf('revoke', actor, done, studentFacts(revoked), now, 'license'));
  const entry = auditOf(
    'recycle',
    actor,
    write,
    { ...facts, detail: `seat freed by revoking license ${revoked.id}` },
    now,
    'pool',
  );
  await ctx.audit.record(write.kind === 'done' ? { ...entry, licenseId: write.value.id } : entry);
  await open?.end(write, { revoked: true });
  return { kind: 'freed', revoked, write, pool: result.pool };
}

export type RetryOutcome =
  | { kind: 'unread'; error: unknown }
  | { kind: 'refused'; refusal: RetryRefusal }
  | { kind: 'written'; write: WriteOutcome<License>; pool: Pool | undefined };

/**
 * "Retry assign" after a recycle whose assign failed once the seat was freed, audited: the license
 * named as revoked, the pool's free seat and the newcomer's rules are read again (checkRetryAssign)
 * and nothing is sent when one fails.
 */
export async function retryAssign(
  ctx: ChangeContext,
  req: { actor: string; params: AssignParams; revokedLicenseId: string },
): Promise<RetryOutcome> {
  const { actor, params } = req;
  const facts = { at: ctx.now().toISOString(), actor, action: 'recycle' as const, ...newcomerFacts(params) };
  let refusal: RetryRefusal | undefined;
  let pool: Pool | undefined;
  try {
    ({ refusal, pool } = await checkRetryAssign(ctx.licensing, params, req.revokedLicenseId, ctx.now()));
  } catch (error) {
    const why = errorSentence(error, 'pool', 'admin');
    await ctx.audit.record({ ...facts, outcome: 'failed', detail: `could not re-check the retry: ${why}` });
    return { kind: 'unread', error };
  }
  if (refusal) {
    await ctx.audit.record({ ...facts, outcome: 'refused', detail: refusalDetail(refusal) });
    return { kind: 'refused', refusal };
  }
  const detail = `retry after revoking license ${req.revokedLicenseId}`;
  const write = await assign(ctx, { actor, params, pool, action: 'recycle', detail });
  return { kind: 'written', write, pool };
}
