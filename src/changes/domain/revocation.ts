/**
 * Revoking (DELETE /v1/license/{id}): when it is offered and what follows. Pure: rules take `now`.
 */
import type { License, Pool } from '../../kernel/domain/types.js';
import type { WriteReport } from '../../kernel/domain/writes/report.js';
import type { SeatHandOn } from '../../requests/index.js';

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

/** The fresh read a revoke starts from, with the rule applied (services/revoke.ts `checkRevoke`). */
export type RevokeCheck =
  /** The read failed: `sentence` says why, plain text; nothing was sent. */
  | { kind: 'unread'; licenseId: string; sentence: string }
  /** The rule refuses (ended, expired, not revokable): nothing is sent. */
  | { kind: 'blocked'; license: License; pool: Pool | undefined; blocker: RevokeBlocker }
  | { kind: 'revokable'; license: License; pool: Pool | undefined };

/** What became of "Revoke now" (services/revoke.ts `revoke`), for blocks/revoke.ts to word. */
export type RevokeOutcome =
  | Exclude<RevokeCheck, { kind: 'revokable' }>
  /** The DELETE was sent: done, refused, failed or unknown, as the report says. */
  | {
      kind: 'written';
      license: License;
      pool: Pool | undefined;
      write: WriteReport<License>;
      /** Where the freed seat went, when a waitlist was asked (a done revoke in a transferable pool). */
      seat?: SeatHandOn;
    };
