/** `/licenses find <email | @user>`: a student's licenses and course progress (one API request). */
import { buildNoticeMessage } from '../../kernel/blocks/common.js';
import { problem, type Subcommand } from '../../kernel/slack/command-types.js';
import { extra, type FindTarget, parseFindTarget } from '../../kernel/slack/command-words.js';
import { resolveUserEmail } from '../../kernel/slack/resolve-user.js';
import { buildStudentMessage, buildStudentNotFoundMessage } from '../blocks/student.js';
import { findStudent } from '../services/find-student.js';
import { answerRead } from './read.js';

export const find: Subcommand<FindTarget> = {
  name: 'find',
  usage: 'find <email | @user>',
  summary: 'a student’s licenses and course progress',
  need: 'viewer',
  studentData: true,
  parse(words) {
    if (words[0] === undefined)
      return problem('Please say whom to find, as in `/licenses find alberto.rossi@contoso.com`.');
    if (words.length > 1) return extra('find', words.slice(1));
    return parseFindTarget(words[0]);
  },
  run: (target, ctx) =>
    answerRead(ctx, 'find', {
      working: 'looking for the student',
      subject: 'student',
      answer: async () => {
        let email: string;
        if ('userId' in target) {
          const resolved = await resolveUserEmail(ctx.client, target.userId);
          if ('problem' in resolved) return buildNoticeMessage(resolved.problem);
          email = resolved.email;
        } else {
          email = target.email;
        }
        const result = await findStudent(ctx.deps.licensing, email);
        return result.found
          ? buildStudentMessage(result.report, ctx.deps.now())
          : buildStudentNotFoundMessage(result.email);
      },
    }),
};
