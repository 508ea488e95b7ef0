/**
 * Is the requester of a waitlisted request still a full member of the workspace? Asked when a seat
 * frees up, which may be weeks after the approval (users.info, scope users:read). A deleted, unknown
 * or now guest account can never take the seat; a Slack error only means "not now".
 */
import type { webApi } from '@slack/bolt';
import type { RequesterPresence } from '../../services/requests/service.js';
import { slackNameOf } from '../resolve-user.js';

export function createRequesterPresence(client: () => webApi.WebClient): RequesterPresence {
  return async (userId) => {
    try {
      const { user } = await client().users.info({ user: userId });
      if (!user || user.deleted) return { gone: 'they are no longer in the Slack workspace' };
      if (user.is_restricted || user.is_ultra_restricted) return { gone: 'they are now a guest of the workspace' };
      return undefined;
    } catch (error) {
      const code = (error as { data?: { error?: unknown } }).data?.error;
      if (code === 'user_not_found') return { gone: 'they are no longer in the Slack workspace' };
      return { unknown: `Slack did not say who they are right now (${String(code ?? error)})` };
    }
  };
}

/** The member's Slack name (users.info: real name, else display name), or undefined when Slack does not say. */
export function createRequesterName(client: () => webApi.WebClient): (userId: string) => Promise<string | undefined> {
  return async (userId) => {
    try {
      return slackNameOf((await client().users.info({ user: userId })).user?.profile);
    } catch {
      return undefined;
    }
  };
}
