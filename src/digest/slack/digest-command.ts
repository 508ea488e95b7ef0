/**
 * `/licenses digest`: the weekly digest now, to the asker only (admins and viewers), with the holders'
 * names (an ephemeral answer may carry them; docs/digest.md). Charts are a message block: when Slack
 * refuses them (a workspace without the block), the same digest is sent again without them.
 */

import { buildErrorMessage, buildNoticeMessage, buildWorkingMessage } from '../../kernel/blocks/common.js';
import type { Subcommand } from '../../kernel/slack/command-types.js';
import { extra } from '../../kernel/slack/command-words.js';
import { limitWait } from '../../kernel/slack/limit-wait.js';
import { presentErrorTo } from '../../kernel/slack/token-alarm.js';
import { buildDigestMessage, withoutCharts } from '../blocks/digest.js';
import { readDigest } from './digest.js';

export const digest: Subcommand<Record<string, never>> = {
  name: 'digest',
  usage: 'digest',
  summary: 'the weekly digest now, only to you: seats per course, progress, forecasts and the holders to follow up',
  need: 'viewer',
  studentData: true,
  parse: (words) => (words.length > 0 ? extra('digest', words) : {}),
  async run(_args, ctx) {
    const { deps } = ctx;
    if (!deps.records) {
      await ctx.reply.send(
        buildNoticeMessage(
          'The digest needs the records (a data directory or DATABASE_URL), which this process has not.',
        ),
      );
      return;
    }
    await ctx.reply.send(buildWorkingMessage('counting seats and progress', limitWait(ctx.deps)));
    let message: ReturnType<typeof buildDigestMessage>;
    try {
      const d = await readDigest(deps, deps.records, deps.now(), 'interactive');
      message = buildDigestMessage(d, { names: true, showHolders: false });
    } catch (error) {
      deps.logger.warn('read failed', { question: 'digest', error: String(error) });
      await ctx.reply.send(buildErrorMessage(await presentErrorTo(deps, ctx.client, ctx.canChange, error, 'other')));
      return;
    }
    if (await ctx.reply.sendCharts(message)) return;
    deps.logger.info('digest: charts refused, sent without them');
    await ctx.reply.send(withoutCharts(message));
  },
};
