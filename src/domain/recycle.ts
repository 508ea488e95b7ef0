/**
 * Which license a recycle ends. The API's own rule: the oldest active license of the pool, earliest
 * start; ties by lowest id (licensing-api.md, POST assign rule 4; the sandbox breaks ties the same
 * way). The manager may pick another active license of the pool instead. Pure: rules take `now`.
 */
import type { License } from './types.js';

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
