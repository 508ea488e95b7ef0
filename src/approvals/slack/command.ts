/** `/licenses approvals`: the course requests waiting in the admin's pools, to approve or deny many at once. */
import { buildNoticeMessage } from '../../kernel/blocks/common.js';
import type { Subcommand } from '../../kernel/slack/command-types.js';
import { extra } from '../../kernel/slack/command-words.js';
import { openApprovals } from './list.js';

export const approvals: Subcommand<Record<string, never>> = {
  name: 'approvals',
  usage: 'approvals',
  summary:
    'the course requests waiting in your pools, oldest first with each pool’s free seats: tick many, then approve or deny them at once',
  need: 'admin',
  studentData: true,
  parse: (words) => (words.length > 0 ? extra('approvals', words) : {}),
  async run(_args, ctx) {
    const opened = await openApprovals(ctx.deps, ctx.client, ctx.command.trigger_id, ctx.userId);
    if (!opened) await ctx.reply.send(buildNoticeMessage('Slack did not open the list in time; please try again.'));
  },
};
