/**
 * The change subcommands of `/licenses`. Pure and total like parse.ts:
 *   assign [poolId] [email | @user] [YYYY-MM-DD]   (any order; each at most once; all optional: they prefill the form)
 *   extend <licenseId> [YYYY-MM-DD]
 *   revoke <licenseId>
 */
import { parseDay } from '../domain/end-date.js';
import { ID_PATTERN, ID_RULE } from '../domain/ids.js';
import { type FindTarget, parseFindTarget, quote } from './parse.js';

export type ChangeCommand =
  | { kind: 'assign'; poolId?: string; student?: FindTarget; endDate?: string }
  | { kind: 'extend'; licenseId: string; endDate?: string }
  | { kind: 'revoke'; licenseId: string };

export type ChangeParse = ChangeCommand | { kind: 'help'; reason: string };

const DATE_LIKE = /^\d{4}-\d{1,2}-\d{1,2}$/;

const help = (reason: string): ChangeParse => ({ kind: 'help', reason });

function date(word: string): string | { reason: string } {
  return parseDay(word) ?? { reason: `${quote(word)} is not a date; write it as YYYY-MM-DD, e.g. 2026-09-30.` };
}

function looksLikePerson(word: string): boolean {
  return word.includes('@') || word.startsWith('<@') || word.startsWith('<mailto:') || word.startsWith('<!');
}

export function parseAssign(words: string[]): ChangeParse {
  if (words.length > 3) return help('`assign` takes at most a pool id, an e-mail or @member, and an end date.');
  const out: { kind: 'assign'; poolId?: string; student?: FindTarget; endDate?: string } = { kind: 'assign' };
  for (const word of words) {
    if (DATE_LIKE.test(word)) {
      const d = date(word);
      if (typeof d !== 'string') return help(d.reason);
      if (out.endDate) return help('Please give one end date only.');
      out.endDate = d;
    } else if (looksLikePerson(word)) {
      const target = parseFindTarget(word);
      if ('reason' in target) return help(target.reason);
      if (out.student) return help('Please name one student only.');
      out.student = target;
    } else {
      const id = word.replace(/^#/, '');
      // With the pool already given, a word that is not a number was most likely meant as the student.
      if (out.poolId && !/^\d+$/.test(id)) {
        return help(
          `${quote(word)} is not an e-mail address, an @member or a YYYY-MM-DD date (the pool is \`${out.poolId}\`).`,
        );
      }
      if (!ID_PATTERN.test(id)) return help(`${quote(word)} is not a pool id; ids are ${ID_RULE}.`);
      if (out.poolId) return help('Please give one pool id only.');
      out.poolId = id;
    }
  }
  return out;
}

function licenseId(word: string | undefined, usage: string): string | { reason: string } {
  if (word === undefined) return { reason: `Please give a license id, as in ${usage}.` };
  const id = word.replace(/^#/, '');
  return ID_PATTERN.test(id) ? id : { reason: `${quote(word)} is not a license id; ids are ${ID_RULE}.` };
}

export function parseExtend(words: string[]): ChangeParse {
  const [first, second, ...more] = words;
  if (more.length > 0) return help(`\`extend\` does not take ${quote(more.join(' '))}.`);
  const id = licenseId(first, '`/licenses extend 4001 2026-09-30`');
  if (typeof id !== 'string') return help(id.reason);
  if (second === undefined) return { kind: 'extend', licenseId: id };
  const d = date(second);
  return typeof d === 'string' ? { kind: 'extend', licenseId: id, endDate: d } : help(d.reason);
}

export function parseRevoke(words: string[]): ChangeParse {
  const [first, ...more] = words;
  if (more.length > 0) return help(`\`revoke\` does not take ${quote(more.join(' '))}.`);
  const id = licenseId(first, '`/licenses revoke 4001`');
  return typeof id === 'string' ? { kind: 'revoke', licenseId: id } : help(id.reason);
}
