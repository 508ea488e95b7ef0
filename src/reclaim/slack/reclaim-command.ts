/**
 * `/licenses reclaim [poolId]`: the preview of a reclaim round ("still learning?", docs/reclaim.md):
 * who would be asked, who cannot be (not in Slack), who is left out, how many wait; it writes nothing.
 * Its Start buttons (src/slack/reclaim/) start the round.
 */
import { buildErrorMessage, buildNoticeMessage, buildWorkingMessage } from '../../kernel/blocks/common.js';
import type { Subcommand } from '../../kernel/slack/command-types.js';
import { parseOptionalPool } from '../../kernel/slack/command-words.js';
import { limitWait } from '../../kernel/slack/limit-wait.js';
import { presentError } from '../../kernel/slack/present.js';
import { slackUserByEmail } from '../../kernel/slack/resolve-user.js';
import { buildReclaimPreviewMessage, RECLAIM_OFF } from '../blocks/reclaim.js';

export const reclaim: Subcommand<{ poolId?: string }> = {
  name: 'reclaim',
  usage: 'reclaim [poolId]',
  summary: 'ask holders who stalled or never started whether they still want their seat (a preview first; admins only)',
  need: 'admin',
  parse: (words) => parseOptionalPool('reclaim', words, '`/licenses reclaim 2003`'),
  async run(args, ctx) {
    const service = ctx.deps.reclaim?.service;
    if (!service) return ctx.reply.send(buildNoticeMessage(RECLAIM_OFF));
    await ctx.reply.send(buildWorkingMessage('finding who stalled or never started', limitWait(ctx.deps)));
    try {
      const preview = await service.preview(args.poolId, (email) => slackUserByEmail(ctx.client, email));
      await ctx.reply.send(buildReclaimPreviewMessage(preview));
    } catch (error) {
      ctx.deps.logger.warn('reclaim preview failed', { error: String(error) });
      await ctx.reply.send(buildErrorMessage(presentError(error, 'pool')));
    }
  },
};
