/** `/licenses waitlist [poolId]`: approved requests waiting for a seat in a full pool (runWaitlistCommand). */

import type { Subcommand } from '../../../kernel/slack/command-types.js';
import { extra, parseId } from '../../../kernel/slack/command-words.js';
import { runWaitlistCommand } from './command.js';

export const waitlist: Subcommand<{ poolId?: string }> = {
  name: 'waitlist',
  usage: 'waitlist [poolId]',
  summary:
    'approved requests waiting for a seat in a full pool, first come first served (admins can reorder and remove)',
  need: 'viewer',
  studentData: true,
  parse(words) {
    if (words.length > 1) return extra('waitlist', words.slice(1));
    if (words[0] === undefined) return {};
    const poolId = parseId(words[0], 'pool', '`/licenses waitlist <poolId>`');
    return typeof poolId === 'string' ? { poolId } : poolId;
  },
  run: (args, ctx) => runWaitlistCommand(ctx.deps, ctx.canChange, args.poolId, ctx.reply),
};
