/** `/licenses bulk`: the bulk-assign modal (openBulkModal), opened with the command's trigger_id. */
import { buildNoticeMessage } from '../../kernel/blocks/common.js';
import type { Subcommand } from '../../kernel/slack/command-types.js';
import { extra } from '../../kernel/slack/command-words.js';
import { refusalMessage } from '../../kernel/slack/gate.js';
import { openBulkModal } from './open.js';

export const bulk: Subcommand<Record<string, never>> = {
  name: 'bulk',
  usage: 'bulk',
  summary: 'assign many licenses at once from a pasted list, checked line by line before anything is written',
  need: 'admin',
  parse: (words) => (words.length > 0 ? extra('bulk', words) : {}),
  async run(_args, ctx) {
    const opened = await openBulkModal(ctx.deps, ctx.client, ctx.command.trigger_id, ctx.userId);
    if (opened) {
      await ctx.reply.send(opened.refused ? refusalMessage(opened.refused) : buildNoticeMessage(opened.sentence));
    }
  },
};
