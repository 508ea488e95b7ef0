/** `/licenses export [poolId]`: a CSV of the licenses, sent to the requester in a DM (runExport). */

import type { Subcommand } from '../../kernel/slack/command-types.js';
import { extra, parseId } from '../../kernel/slack/command-words.js';
import { runExport } from './export-file.js';

export const exportCsv: Subcommand<{ poolId?: string }> = {
  name: 'export',
  usage: 'export [poolId]',
  summary: 'every license (or one pool’s) as a CSV file, sent to you in a direct message',
  need: 'viewer',
  studentData: true,
  parse(words) {
    if (words.length > 1) return extra('export', words.slice(1));
    if (words[0] === undefined) return {};
    const poolId = parseId(words[0], 'pool', '`/licenses pool <poolId>`');
    return typeof poolId === 'string' ? { poolId } : poolId;
  },
  run: (args, ctx) => runExport(ctx.deps, ctx.client, ctx.userId, args.poolId, ctx.reply, ctx.canChange),
};
