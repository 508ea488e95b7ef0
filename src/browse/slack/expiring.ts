/** `/licenses expiring [days]`: active licenses ending within the days (default 14), soonest first. */

import { MAX_EXPIRING_DAYS } from '../../kernel/blocks/nav.js';
import { type NavSubcommand, problem } from '../../kernel/slack/command-types.js';
import { extra, quote } from '../../kernel/slack/command-words.js';
import { buildExpiringMessage } from '../blocks/expiring.js';
import { DEFAULT_EXPIRING_DAYS } from '../domain/expiring.js';
import { listExpiringLicenses } from '../services/expiring.js';
import { answerRead } from './read.js';

export const expiring: NavSubcommand<'expiring'> = {
  name: 'expiring',
  view: 'expiring',
  usage: 'expiring [days]',
  summary: `active licenses ending within ${DEFAULT_EXPIRING_DAYS} days (or the days you give, 1 to ${MAX_EXPIRING_DAYS}), soonest first`,
  need: 'viewer',
  studentData: true,
  parse(words) {
    if (words.length > 1) return extra('expiring', words.slice(1));
    const [word] = words;
    if (word === undefined) return { view: 'expiring', days: DEFAULT_EXPIRING_DAYS, page: 1 };
    const days = /^\d{1,3}$/.test(word) ? Number(word) : Number.NaN;
    if (days >= 1 && days <= MAX_EXPIRING_DAYS) return { view: 'expiring', days, page: 1 };
    return problem(
      `${quote(word)} is not a number of days; give 1 to ${MAX_EXPIRING_DAYS}, as in \`/licenses expiring 30\`.`,
    );
  },
  run: (args, ctx) =>
    answerRead(ctx, 'expiring', {
      working: `reading licenses that end within ${args.days} day${args.days === 1 ? '' : 's'}`,
      subject: 'other',
      answer: async () => {
        const now = ctx.deps.now();
        const list = await listExpiringLicenses(ctx.deps.licensing, { days: args.days, now });
        return buildExpiringMessage({
          expiring: list,
          days: args.days,
          page: args.page,
          canChange: ctx.canChange,
          now,
        });
      },
    }),
};
