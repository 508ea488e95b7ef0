/** `/licenses mine`: the member's own active licenses, found by their Slack e-mail (docs/learners.md). */
import { buildWorkingMessage } from '../../kernel/blocks/common.js';
import type { Subcommand } from '../../kernel/slack/command-types.js';
import { extra } from '../../kernel/slack/command-words.js';
import { createProgressStore } from '../../progress/index.js';
import { buildMyLicensesMessage } from '../blocks/learners.js';
import type { MineOutcome } from '../domain/learners.js';
import { myLicenses } from '../services/mine.js';
import { memberEmail } from './email.js';

export const mine: Subcommand<Record<string, never>> = {
  name: 'mine',
  usage: 'mine',
  summary:
    'your own licenses (found by your Slack e-mail): course, progress and end date, with Return my seat and Ask for more time',
  need: 'member',
  parse: (words) => (words.length > 0 ? extra('mine', words) : {}),
  async run(_args, ctx) {
    await ctx.reply.send(buildWorkingMessage('reading your licenses'));
    const found = await memberEmail(ctx.client, ctx.userId);
    const { deps } = ctx;
    const outcome: MineOutcome =
      'problem' in found
        ? { kind: 'no-email', sentence: found.problem }
        : await myLicenses(deps.licensing, deps.records ? createProgressStore(deps.records) : undefined, found.email);
    await ctx.reply.send(buildMyLicensesMessage(outcome, deps.now()));
  },
};
