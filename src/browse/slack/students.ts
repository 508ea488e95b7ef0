/** `/licenses students [page]`: students and their courses, ten a page. */

import type { NavSubcommand } from '../../kernel/slack/command-types.js';
import { parsePagedView } from '../../kernel/slack/command-words.js';
import { buildStudentsMessage } from '../blocks/students.js';
import { getStudentsPage } from '../services/account.js';
import { answerRead } from './read.js';

export const students: NavSubcommand<'students'> = {
  name: 'students',
  view: 'students',
  usage: 'students [page]',
  summary: 'students and their courses',
  need: 'viewer',
  studentData: true,
  parse: (words) => parsePagedView('students', words),
  run: (args, ctx) =>
    answerRead(ctx, 'students', {
      working: 'reading students',
      subject: 'other',
      answer: async () => buildStudentsMessage(await getStudentsPage(ctx.deps.licensing, args.page)),
    }),
};
