/**
 * Revoking (DELETE /v1/license/{id}): when it is offered and what follows. Pure: rules take `now`.
 */
import type { License, Pool } from './types.js';

export type RevokeBlocker = 'not-revokable' | 'inactive' | 'expired';

export function revokeBlocker(
  license: Pick<License, 'active' | 'end' | 'revokable'>,
  now: Date,
): RevokeBlocker | undefined {
  if (!license.active) return 'inactive';
  const end = Date.parse(license.end);
  if (!Number.isNaN(end) && end <= now.getTime()) return 'expired';
  if (!license.revokable) return 'not-revokable';
  return undefined;
}

/** A transferable pool gets the seat back; an untransferable one never does (licensing-api.md). */
export function seatReturns(pool: Pick<Pool, 'transferable'> | undefined): boolean {
  return pool?.transferable === true;
}
