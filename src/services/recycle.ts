/**
 * Freeing a seat in a full transferable pool. The confirmation needs the pool's active licenses
 * (one request per 100) and the course progress of the default candidate (one GET /v1/student; per
 * candidate it would cost one request each, so the others show name, e-mail and start only).
 * The default goes through the API's own `recycle: true` (one atomic write); a chosen license is
 * revoked first and the seat then assigned, two writes, with the exact state told if the second fails.
 *
 * What the confirmation carries back (pool, student, the license named) is a hint: when it is
 * submitted, every rule is applied again to fresh reads (checkRecycle) and nothing is sent when one
 * fails. A Retry assign is checked the same way (checkRetryAssign).
 */
import { isFull } from '../domain/assignment.js';
import {
  defaultRecycleCandidate,
  type RecycleProblem,
  recycleCandidates,
  recycleLicenseProblem,
  recyclePoolProblem,
} from '../domain/recycle.js';
import type { License, Pool } from '../domain/types.js';
import type { LicensingClient } from '../licensing/types.js';
import { type AssignParams, assignLicense, type NewcomerProblem, newcomerProblem } from './assign.js';
import { INTERACTIVE } from './interactive.js';
import { revokeLicense } from './revoke.js';
import type { WriteOutcome } from './write-outcome.js';

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
  let defaultProgress: Progress | undefined;
  if (defaultLicense) {
    try {
      const student = await licensing.students.find({ email: defaultLicense.student.email }, INTERACTIVE);
      const row = student.courses.find((c) => c.licenseId === defaultLicense.id);
      if (row) defaultProgress = { progress: row.progress, completed: row.completed };
    } catch {
      // Progress is a courtesy: the confirmation still names the license without it.
    }
  }
  return { pool, candidates, defaultLicense, defaultProgress };
}

/** Why nothing is sent for a recycle confirmation. */
export type RecycleRefusal =
  | RecycleProblem
  | NewcomerProblem
  /** The default: the API's rule would now end another license than the one the confirmation named. */
  | { kind: 'not-the-pick'; named: string | undefined; pick: License | undefined };

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

export async function recycleChosen(
  licensing: LicensingClient,
  chosenId: string,
  params: AssignParams,
  now: Date,
): Promise<ChosenRecycleResult> {
  const check = await checkRecycle(licensing, params, { chosen: chosenId }, now);
  if (!check.ok) return { stage: 'check', refusal: check.refusal, license: check.license };
  const license = check.license;
  const revoked = await revokeLicense(licensing, license);
  if (revoked.kind !== 'done') return { stage: 'revoke', license, outcome: revoked };
  const outcome = await assignLicense(licensing, { ...params, recycle: false });
  return { stage: 'assign', revoked: revoked.value, outcome, pool: check.pool };
}

/** Why a Retry assign sends nothing. */
export type RetryRefusal =
  /** The license said to have been revoked for this seat is still active, or of another pool. */
  | { kind: 'not-freed'; license: License }
  | { kind: 'pool-ended' }
  /** The freed seat was taken meanwhile. */
  | { kind: 'seat-taken' }
  | NewcomerProblem;

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
