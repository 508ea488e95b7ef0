/**
 * `/licenses assign | extend | revoke`, once the gate let an admin through (the table's entries need
 * 'admin'; a refused attempt is audited there). assign and
 * extend open their modal with the command's trigger_id (ack, role, views.open, then the reads);
 * revoke answers with a confirmation message.
 */
import type { webApi } from '@slack/bolt';
import { buildNoticeMessage, buildWorkingMessage } from '../../kernel/blocks/common.js';
import { channelOf } from '../../kernel/blocks/values.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { limitWait } from '../../kernel/slack/limit-wait.js';
import type { Replier } from '../../kernel/slack/reply.js';
import type { AppState } from '../../kernel/slack/state.js';
import type { ChangeCommand } from './change-command.js';
import { openAssignModal, openExtendModal } from './open-modal.js';
import { revokeConfirmation } from './revoke-check.js';

export interface ChangeCommandContext {
  deps: AppDeps;
  state: AppState;
  client: webApi.WebClient;
  reply: Replier;
  command: { user_id: string; channel_id: string; trigger_id: string };
}

const NOT_OPENED = 'Slack did not let me open the form in time; please run the command again.';

export async function runChangeCommand(cmd: ChangeCommand, ctx: ChangeCommandContext): Promise<void> {
  const { deps, client, command, reply } = ctx;
  const surface = { deps, state: ctx.state };
  const open = { triggerId: command.trigger_id, channelId: channelOf(command.channel_id) };
  if (cmd.kind === 'revoke') {
    await reply.send(buildWorkingMessage('reading the license', limitWait(deps)));
    return reply.send(await revokeConfirmation(deps, cmd.licenseId));
  }
  const opened =
    cmd.kind === 'assign'
      ? await openAssignModal(surface, client, open, {
          ...(cmd.poolId ? { poolId: cmd.poolId } : {}),
          ...(cmd.student && 'email' in cmd.student ? { email: cmd.student.email } : {}),
          ...(cmd.student && 'userId' in cmd.student ? { userId: cmd.student.userId } : {}),
          ...(cmd.endDate ? { endDate: cmd.endDate } : {}),
        })
      : await openExtendModal(surface, client, open, cmd.licenseId, cmd.endDate);
  if (!opened) await reply.send(buildNoticeMessage(NOT_OPENED));
}
