/**
 * The revoke confirmation, for the command and the Revoke… button alike: the fresh read and rule
 * (services/revoke.ts), and, for a transferable pool, how many wait for its seats, so the
 * confirmation says where the seat will go.
 */

import type { SlackMessage } from '../blocks/kit.js';
import { buildRevokeCheckMessage } from '../blocks/revoke.js';
import { seatReturns } from '../domain/revocation.js';
import { checkRevoke } from '../services/revoke.js';
import type { AppDeps } from './deps.js';

export async function revokeConfirmation(deps: AppDeps, licenseId: string): Promise<SlackMessage> {
  const check = await checkRevoke(deps.licensing, licenseId, deps.now());
  const waiting =
    check.kind === 'revokable' && deps.waitlist && seatReturns(check.pool)
      ? await deps.waitlist.entries(check.license.poolId).then(
          (line) => line.length,
          () => undefined,
        )
      : undefined;
  return buildRevokeCheckMessage(check, waiting);
}
