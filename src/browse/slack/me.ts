/** `/licenses me`: the licensing account. */

import type { Subcommand } from '../../kernel/slack/command-types.js';
import { extra } from '../../kernel/slack/command-words.js';
import { buildMeMessage } from '../blocks/me.js';
import { getMe } from '../services/account.js';
import { answerRead } from './read.js';

export const me: Subcommand<Record<string, never>> = {
  name: 'me',
  usage: 'me',
  summary: 'the licensing account, including the e-mail domains allowed for transferable licenses',
  need: 'viewer',
  parse: (words) => (words.length > 0 ? extra('me', words) : {}),
  run: (_args, ctx) =>
    answerRead(ctx, 'me', {
      working: 'reading your licensing account',
      subject: 'other',
      answer: async () => buildMeMessage(await getMe(ctx.deps.licensing)),
    }),
};
