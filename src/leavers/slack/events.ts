/**
 * Slack's `user_change` event (scope users:read): a member deactivated (`user.deleted` true) puts
 * their licenses on hold; a member back (`deleted` false) while a hold waits cancels it. Every other
 * profile change finds no hold and does nothing. The e-mail comes from the event's profile, else from
 * users.info. A bot is never a holder.
 */
import type { AppDeps } from '../../kernel/slack/deps.js';
import { emailOfMember } from './lookup.js';
import type { LeaversFeature } from './start.js';

interface ChangedUser {
  id?: unknown;
  deleted?: unknown;
  is_bot?: unknown;
  profile?: { email?: unknown };
}

type UserChangeArgs = {
  event: { user?: unknown };
  client: Parameters<typeof emailOfMember>[0];
};

export function createUserChangeHandler(deps: AppDeps, leavers: LeaversFeature) {
  return async ({ event, client }: UserChangeArgs): Promise<void> => {
    if (!leavers.settings.on) return;
    const user = (typeof event.user === 'object' && event.user !== null ? event.user : {}) as ChangedUser;
    if (typeof user.id !== 'string' || user.is_bot === true) return;
    const slackUser = user.id;
    const fromProfile =
      typeof user.profile?.email === 'string' && user.profile.email !== '' ? user.profile.email : undefined;
    if (user.deleted === true) {
      const email =
        fromProfile ??
        (await emailOfMember(client, slackUser).catch((error: unknown) => {
          deps.logger.warn('leavers: users.info failed for a deactivated member', {
            user: slackUser,
            error: String(error),
          });
          return undefined;
        }));
      await leavers.deactivated({ email, slackUser });
      return;
    }
    // A profile change of an active member: only a hold still waiting makes it a reactivation.
    const email = fromProfile ?? (await leavers.emailOfHeld(slackUser));
    if (email) await leavers.reactivated({ email, slackUser });
  };
}
