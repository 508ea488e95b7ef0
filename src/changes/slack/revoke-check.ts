/**
 * The revoke confirmation, for the command and the Revoke… button alike: the fresh read and rule
 * (services/revoke.ts), and, for a transferable pool, how many wait for its seats, so the
 * confirmation says where the seat will go.
 */

import type { SlackMessage } from '../../kernel/blocks/kit.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { buildRevokeCheckMessage } from '../blocks/revoke.js';
import { type RevokeCheck, seatReturns } from '../domain/revocation.js';
import { checkRevoke } from '../services/revoke.js';

export async function revokeConfirmation(deps: AppDeps, licenseId: string): Promise<SlackMessage> {
  return (await revokeConfirmationOf(deps, licenseId)).message;
}

/** The check and its confirmation; `confirmActionId` for a "Revoke now" of its own (App Home's return). */
export async function revokeConfirmationOf(
  deps: AppDeps,
  licenseId: string,
  confirmActionId?: string,
): Promise<{ check: RevokeCheck; message: SlackMessage }> {
  const check = await checkRevoke(deps.licensing, licenseId, deps.now());
  const waiting =
    check.kind === 'revokable' && deps.waitlist && seatReturns(check.pool)
      ? await deps.waitlist.entries(check.license.poolId).then(
          (line) => line.length,
          () => undefined,
        )
      : undefined;
  const offerHours = deps.waitlist?.offers?.settings.hours;
  return { check, message: buildRevokeCheckMessage(check, waiting, confirmActionId, offerHours) };
}
