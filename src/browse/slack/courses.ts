/** `/licenses courses`: courses with the seat totals of their running pools, ten a page. */

import type { NavSubcommand } from '../../kernel/slack/command-types.js';
import { extra } from '../../kernel/slack/command-words.js';
import { buildCoursesMessage } from '../blocks/courses.js';
import { listCourses } from '../services/account.js';
import { answerRead } from './read.js';

export const courses: NavSubcommand<'courses'> = {
  name: 'courses',
  view: 'courses',
  usage: 'courses',
  summary: 'courses with seat totals',
  need: 'viewer',
  parse: (words) => (words.length > 0 ? extra('courses', words) : { view: 'courses', page: 1 }),
  run: (args, ctx) =>
    answerRead(ctx, 'courses', {
      working: 'reading courses',
      subject: 'other',
      answer: async () => buildCoursesMessage(await listCourses(ctx.deps.licensing), args.page, ctx.deps.now()),
    }),
};
