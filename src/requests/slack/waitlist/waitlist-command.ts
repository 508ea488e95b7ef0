/** `/licenses waitlist [poolId]`: approved requests waiting for a seat in a full pool (runWaitlistCommand). */

import type { Subcommand } from '../../../kernel/slack/command-types.js';
import { parseOptionalPool } from '../../../kernel/slack/command-words.js';
import { runWaitlistCommand } from './command.js';

export const waitlist: Subcommand<{ poolId?: string }> = {
  name: 'waitlist',
  usage: 'waitlist [poolId]',
  summary:
    'approved requests waiting for a seat in a full pool, first come first served (admins can reorder and remove)',
  need: 'viewer',
  studentData: true,
  parse: (words) => parseOptionalPool('waitlist', words, '`/licenses waitlist <poolId>`'),
  run: (args, ctx) => runWaitlistCommand(ctx.deps, ctx.canChange, args.poolId, ctx.reply),
};
