/**
 * Which license a recycle ends. The API's own rule: the oldest active license of the pool, earliest
 * start; ties by lowest id (licensing-api.md, POST assign rule 4; the sandbox breaks ties the same
 * way). The manager may pick another active license of the pool instead. Pure: rules take `now`.
 */

import type { License, Pool } from '../../kernel/domain/types.js';
import { isFull } from './assignment.js';
import { revokeBlocker } from './revocation.js';

const compareIds = (a: string, b: string): number => {
  const [na, nb] = [Number(a), Number(b)];
  return Number.isFinite(na) && Number.isFinite(nb) && na !== nb ? na - nb : a.localeCompare(b);
};

function running(license: Pick<License, 'active' | 'end'>, now: Date): boolean {
  const end = Date.parse(license.end);
  return license.active && (Number.isNaN(end) || end > now.getTime());
}

/** The API's recycle order: earliest start first, ties by lowest id. */
export function recycleOrder(a: Pick<License, 'id' | 'start'>, b: Pick<License, 'id' | 'start'>): number {
  return Date.parse(a.start) - Date.parse(b.start) || compareIds(a.id, b.id);
}

/** Active licenses of the pool, oldest first: the first one is what `recycle: true` ends. */
export function recycleCandidates<T extends Pick<License, 'id' | 'active' | 'end' | 'start'>>(
  licenses: readonly T[],
  now: Date,
): T[] {
  return licenses.filter((l) => running(l, now)).sort(recycleOrder);
}

export function defaultRecycleCandidate<T extends Pick<License, 'id' | 'active' | 'end' | 'start'>>(
  licenses: readonly T[],
  now: Date,
): T | undefined {
  return recycleCandidates(licenses, now)[0];
}

/**
 * Why a seat must not be freed for a newcomer, from fresh reads at the moment of the write: the
 * confirmation's pool and license ids are only what a form carried back. Every rule of a recycle:
 * the pool still runs, is full (a free seat needs no license to end) and is transferable (an
 * untransferable pool never gets a seat back); the license is an active, revokable license of that
 * very pool. The newcomer's own rules (domain, end date, enrolment) are the assign's, checked beside.
 */
export type RecycleProblem =
  | { kind: 'pool-ended' }
  | { kind: 'pool-not-full'; available: number }
  | { kind: 'pool-not-transferable' }
  | { kind: 'license-other-pool'; licensePool: string }
  | { kind: 'license-inactive' | 'license-expired' | 'license-not-revokable' };

export function recyclePoolProblem(
  pool: Pick<Pool, 'end' | 'transferable' | 'availableLicenses'>,
  now: Date,
): RecycleProblem | undefined {
  const end = Date.parse(pool.end);
  if (!Number.isNaN(end) && end <= now.getTime()) return { kind: 'pool-ended' };
  if (!pool.transferable) return { kind: 'pool-not-transferable' };
  if (!isFull(pool)) return { kind: 'pool-not-full', available: pool.availableLicenses };
  return undefined;
}

export function recycleLicenseProblem(
  license: Pick<License, 'poolId' | 'active' | 'end' | 'revokable'>,
  poolId: string,
  now: Date,
): RecycleProblem | undefined {
  if (license.poolId !== poolId) return { kind: 'license-other-pool', licensePool: license.poolId };
  const blocker = revokeBlocker(license, now);
  return blocker ? { kind: `license-${blocker}` } : undefined;
}

export function recycleProblem(
  pool: Pick<Pool, 'id' | 'end' | 'transferable' | 'availableLicenses'>,
  license: Pick<License, 'poolId' | 'active' | 'end' | 'revokable'>,
  now: Date,
): RecycleProblem | undefined {
  return recyclePoolProblem(pool, now) ?? recycleLicenseProblem(license, pool.id, now);
}
