/**
 * May the requester still get a license? Asked when an admin approves and when the waitlist gives
 * them a seat, which may be days or weeks after they asked (users.info, scope users:read, asked
 * fresh; then REQUESTERS through the role resolver). A deleted, unknown or now guest account, or one
 * REQUESTERS no longer allows, can never take the seat; a Slack error only means "not now".
 */
import type { webApi } from '@slack/bolt';
import type { RoleResolver } from '../../kernel/slack/deps.js';
import { slackNameOf } from '../../kernel/slack/resolve-user.js';
import type { RequesterPresence } from '../services/service.js';

export function createRequesterPresence(
  client: webApi.WebClient,
  roles?: Pick<RoleResolver, 'mayRequest'>,
): RequesterPresence {
  return async (userId) => {
    try {
      const { user } = await client.users.info({ user: userId });
      if (!user || user.deleted) return { gone: 'they are no longer in the Slack workspace' };
      if (user.is_restricted || user.is_ultra_restricted) return { gone: 'they are now a guest of the workspace' };
      if (user.is_bot) return { gone: 'the account is a bot' };
    } catch (error) {
      const code = (error as { data?: { error?: unknown } }).data?.error;
      if (code === 'user_not_found') return { gone: 'they are no longer in the Slack workspace' };
      return { unknown: `Slack did not say who they are right now (${String(code ?? error)})` };
    }
    if (!roles?.mayRequest) return undefined;
    try {
      const may = await roles.mayRequest(client, userId);
      if (may === 'off') return { gone: 'course requests are turned off (REQUESTERS is empty)' };
      if (may === 'not-listed') return { gone: 'REQUESTERS no longer lists them' };
      if (may === 'not-member') return { gone: 'they are no longer a full member of the workspace' };
      return undefined;
    } catch (error) {
      return { unknown: `Slack did not say whether REQUESTERS lists them right now (${String(error)})` };
    }
  };
}

/** The member's Slack name (users.info: real name, else display name), or undefined when Slack does not say. */
export function createRequesterName(client: webApi.WebClient): (userId: string) => Promise<string | undefined> {
  return async (userId) => {
    try {
      return slackNameOf((await client.users.info({ user: userId })).user?.profile);
    } catch {
      return undefined;
    }
  };
}
