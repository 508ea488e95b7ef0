/** `/licenses pool <poolId> [all]`: the pool and its licenses, ten a page. */

import type { NavSubcommand } from '../../kernel/slack/command-types.js';
import { extra, parseId } from '../../kernel/slack/command-words.js';
import { readProgress } from '../../progress/index.js';
import { buildPoolLicensesMessage } from '../blocks/pool-licenses.js';
import { getPoolLicensesPage } from '../services/pools.js';
import { answerRead } from './read.js';

export const pool: NavSubcommand<'pool'> = {
  name: 'pool',
  view: 'pool',
  usage: 'pool <poolId> [all]',
  summary: 'a pool and its licenses, 10 a page (`all` includes inactive ones)',
  need: 'viewer',
  studentData: true,
  parse(words) {
    const wantsAll = words.length > 1 && words[words.length - 1]?.toLowerCase() === 'all';
    const more = words.slice(1, wantsAll ? -1 : undefined);
    if (more.length > 0) return extra('pool', more);
    const poolId = parseId(words[0], 'pool', '`/licenses pool <poolId>`');
    return typeof poolId === 'string' ? { view: 'pool', poolId, page: 1, includeInactive: wantsAll } : poolId;
  },
  run: (args, ctx) =>
    answerRead(ctx, 'pool', {
      working: 'reading the pool',
      subject: 'pool',
      answer: async () => {
        const page = await getPoolLicensesPage(ctx.deps.licensing, args.poolId, args.page, args.includeInactive);
        // Each holder's progress as the daily pass recorded it (docs/progress.md).
        const progress = await readProgress(
          ctx.deps,
          page.licenses.map((l) => l.id),
        );
        return buildPoolLicensesMessage({
          ...page,
          includeInactive: args.includeInactive,
          now: ctx.deps.now(),
          ...(progress ? { progress, thresholds: progress.thresholds } : {}),
        });
      },
    }),
};
