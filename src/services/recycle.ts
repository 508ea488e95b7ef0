/**
 * Freeing a seat in a full transferable pool. The confirmation needs the pool's active licenses
 * (one request per 100) and the course progress of the default candidate (one GET /v1/student; per
 * candidate it would cost one request each, so the others show name, e-mail and start only).
 * The default goes through the API's own `recycle: true` (one atomic write); a chosen license is
 * revoked first and the seat then assigned, two writes, with the exact state told if the second fails.
 */
import { defaultRecycleCandidate, recycleCandidates } from '../domain/recycle.js';
import type { License, Pool } from '../domain/types.js';
import type { LicensingClient } from '../licensing/types.js';
import { type AssignParams, assignLicense } from './assign.js';
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

export type ChosenRecycleResult =
  /** The chosen license is not an active license of this pool (a stale or forged choice): nothing sent. */
  | { stage: 'check'; license: License | undefined }
  /** The revoke did not happen (or we cannot tell): no assign was sent. */
  | { stage: 'revoke'; license: License; outcome: WriteOutcome<License> }
  /** The revoke happened; `outcome` is the assign's. */
  | { stage: 'assign'; revoked: License; outcome: WriteOutcome<License> };

export async function recycleChosen(
  licensing: LicensingClient,
  chosenId: string,
  params: AssignParams,
): Promise<ChosenRecycleResult> {
  // Read first: the choice came from a form, and must be an active license of this very pool.
  const license = await licensing.licenses.get(chosenId, INTERACTIVE);
  if (license.poolId !== params.poolId || !license.active) return { stage: 'check', license };
  const revoked = await revokeLicense(licensing, license);
  if (revoked.kind !== 'done') return { stage: 'revoke', license, outcome: revoked };
  const outcome = await assignLicense(licensing, { ...params, recycle: false });
  return { stage: 'assign', revoked: revoked.value, outcome };
}
