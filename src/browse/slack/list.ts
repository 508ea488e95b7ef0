/** `/licenses list [all]`: every license with its course, ten a page. */

import type { NavSubcommand } from '../../kernel/slack/command-types.js';
import { extra } from '../../kernel/slack/command-words.js';
import { buildLicenseListMessage } from '../blocks/license-list.js';
import { getLicensesPage } from '../services/pools.js';
import { answerRead } from './read.js';

export const list: NavSubcommand<'list'> = {
  name: 'list',
  view: 'list',
  usage: 'list [all]',
  summary: 'every license, 10 a page',
  need: 'viewer',
  studentData: true,
  parse(words) {
    const wantsAll = words[words.length - 1]?.toLowerCase() === 'all';
    const more = words.slice(0, wantsAll ? -1 : undefined);
    if (more.length > 0) return extra('list', more);
    return { view: 'list', page: 1, includeInactive: wantsAll };
  },
  run: (args, ctx) =>
    answerRead(ctx, 'list', {
      working: 'reading licenses',
      subject: 'other',
      answer: async () => {
        const page = await getLicensesPage(ctx.deps.licensing, args.page, args.includeInactive);
        return buildLicenseListMessage({ ...page, includeInactive: args.includeInactive, now: ctx.deps.now() });
      },
    }),
};
