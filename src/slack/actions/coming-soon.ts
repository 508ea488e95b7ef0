/**
 * Assign, Change end date and Revoke are rendered now and wired in issue 5. Until then a click is
 * acknowledged (no 3-second 404) and answered in a new ephemeral message that leaves the view intact.
 */
import { buildAdminOnlyMessage, buildNoticeMessage } from '../../blocks/common.js';
import { createReplier, roleOrReply } from '../commands/reply.js';
import type { AppDeps } from '../deps.js';
import { ActionId } from '../ids.js';
import type { ButtonArgs } from './navigate.js';

const WHAT: Record<string, string> = {
  [ActionId.poolAssign]: 'Assigning licenses',
  [ActionId.licenseChangeEndDate]: 'Changing end dates',
  [ActionId.licenseRevoke]: 'Revoking licenses',
};

export function createComingSoonHandler(deps: AppDeps) {
  return async ({ ack, body, action, respond, client }: ButtonArgs): Promise<void> => {
    await ack();
    if (!body.response_url) return;
    const reply = createReplier(respond, deps, true);
    const role = await roleOrReply(deps, client, body.user.id, reply);
    if (role === undefined) return;
    if (role !== 'admin') return reply.send(buildAdminOnlyMessage(deps.roles.whoToAsk()));
    const what = WHAT[action.action_id] ?? 'This change';
    await reply.send(
      buildNoticeMessage(`${what} from Slack is coming soon; until then, please use the license web interface.`),
    );
  };
}
