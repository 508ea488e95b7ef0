/** `/licenses export [poolId]`: a CSV of the licenses, sent to the requester in a DM (runExport). */

import type { Subcommand } from '../../kernel/slack/command-types.js';
import { parseOptionalPool } from '../../kernel/slack/command-words.js';
import { runExport } from './export-file.js';

export const exportCsv: Subcommand<{ poolId?: string }> = {
  name: 'export',
  usage: 'export [poolId]',
  summary: 'every license (or one pool’s) as a CSV file, sent to you in a direct message',
  need: 'viewer',
  studentData: true,
  parse: (words) => parseOptionalPool('export', words, '`/licenses pool <poolId>`'),
  run: (args, ctx) => runExport(ctx.deps, ctx.client, ctx.userId, args.poolId, ctx.reply, ctx.canChange),
};
