/** `/licenses show <licenseId>`: one license in full, with the change buttons the rules allow (admins). */

import type { NavSubcommand } from '../../kernel/slack/command-types.js';
import { extra, parseId } from '../../kernel/slack/command-words.js';
import { readProgress } from '../../progress/index.js';
import { buildLicenseMessage } from '../blocks/license.js';
import { getLicenseDetails } from '../services/licenses.js';
import { answerRead } from './read.js';

export const show: NavSubcommand<'show'> = {
  name: 'show',
  view: 'show',
  usage: 'show <licenseId>',
  summary: 'one license in full',
  need: 'viewer',
  studentData: true,
  parse(words) {
    if (words.length > 1) return extra('show', words.slice(1));
    const licenseId = parseId(words[0], 'license', '`/licenses show <licenseId>`');
    return typeof licenseId === 'string' ? { view: 'show', licenseId } : licenseId;
  },
  run: (args, ctx) =>
    answerRead(ctx, 'show', {
      working: 'reading the license',
      subject: 'license',
      answer: async () => {
        const details = await getLicenseDetails(ctx.deps.licensing, args.licenseId);
        // The license's progress as the daily pass recorded it (docs/progress.md).
        const progress = await readProgress(ctx.deps, [details.license.id]);
        return buildLicenseMessage({
          ...details,
          canChange: ctx.canChange,
          now: ctx.deps.now(),
          ...(progress ? { progress: progress.get(details.license.id) ?? null, thresholds: progress.thresholds } : {}),
        });
      },
    }),
};
