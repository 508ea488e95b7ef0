/**
 * `/licenses assign [poolId] [email | @user] [YYYY-MM-DD]`: opens the assign form, prefilled with what
 * was given, in any order, each at most once (runChangeCommand).
 */

import { ID_PATTERN, ID_RULE } from '../../kernel/domain/ids.js';
import { problem, type Subcommand } from '../../kernel/slack/command-types.js';
import { type FindTarget, parseDate, parseFindTarget, quote } from '../../kernel/slack/command-words.js';
import { runChangeCommand } from './change.js';
import type { ChangeCommand } from './change-command.js';
import { auditRefusedChange } from './change-refusal.js';

type Assign = Extract<ChangeCommand, { kind: 'assign' }>;

const DATE_LIKE = /^\d{4}-\d{1,2}-\d{1,2}$/;

function looksLikePerson(word: string): boolean {
  return word.includes('@') || word.startsWith('<@') || word.startsWith('<mailto:') || word.startsWith('<!');
}

export const assign: Subcommand<Assign> = {
  name: 'assign',
  usage: 'assign [poolId] [email | @user] [YYYY-MM-DD]',
  summary:
    'give a student a seat (a form opens, prefilled with what you typed); a full transferable pool can free a seat after you confirm which license ends',
  need: 'admin',
  parse(words) {
    if (words.length > 3) return problem('`assign` takes at most a pool id, an e-mail or @member, and an end date.');
    const out: { kind: 'assign'; poolId?: string; student?: FindTarget; endDate?: string } = { kind: 'assign' };
    for (const word of words) {
      if (DATE_LIKE.test(word)) {
        const d = parseDate(word);
        if (typeof d !== 'string') return d;
        if (out.endDate) return problem('Please give one end date only.');
        out.endDate = d;
      } else if (looksLikePerson(word)) {
        const target = parseFindTarget(word);
        if ('problem' in target) return target;
        if (out.student) return problem('Please name one student only.');
        out.student = target;
      } else {
        const id = word.replace(/^#/, '');
        // With the pool already given, a word that is not a number was most likely meant as the student.
        if (out.poolId && !/^\d+$/.test(id)) {
          return problem(
            `${quote(word)} is not an e-mail address, an @member or a YYYY-MM-DD date (the pool is \`${out.poolId}\`).`,
          );
        }
        if (!ID_PATTERN.test(id)) return problem(`${quote(word)} is not a pool id; ids are ${ID_RULE}.`);
        if (out.poolId) return problem('Please give one pool id only.');
        out.poolId = id;
      }
    }
    return out;
  },
  run: (args, ctx) => runChangeCommand(args, ctx),
  refused: auditRefusedChange,
};
