/** `/licenses pools [page]`: every pool with its free seats, validity and warnings. */

import type { NavSubcommand } from '../../kernel/slack/command-types.js';
import { parsePagedView } from '../../kernel/slack/command-words.js';
import { buildPoolsMessage } from '../blocks/pools.js';
import { listPools } from '../services/pools.js';
import { answerRead } from './read.js';

export const pools: NavSubcommand<'pools'> = {
  name: 'pools',
  view: 'pools',
  usage: 'pools [page]',
  summary: 'every pool with its free seats, validity and warnings',
  need: 'viewer',
  parse: (words) => parsePagedView('pools', words),
  run: (args, ctx) =>
    answerRead(ctx, 'pools', {
      working: 'reading pools',
      subject: 'other',
      answer: async () =>
        buildPoolsMessage({
          pools: await listPools(ctx.deps.licensing),
          page: args.page,
          canChange: ctx.canChange,
          now: ctx.deps.now(),
        }),
    }),
};
