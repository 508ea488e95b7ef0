/**
 * The words of `/licenses <text>`: splitting, quoting back, and the small parsers several subcommands
 * share (ids, pages, a person, a date). Pure and total: any text (odd Unicode, 3,000 characters,
 * mentions, Slack's auto-linked e-mails) gives a value or one sentence on what was wrong. With
 * should_escape on, Slack sends mentions as `<@U…|name>` and e-mails as `<mailto:a@b.c|a@b.c>`
 * (docs/platform.md section 1.2).
 */
import { MAX_PAGE } from '../blocks/nav.js';
import { parseDay } from '../domain/end-date.js';
import { ID_PATTERN, ID_RULE } from '../domain/ids.js';
import { type Problem, problem } from './command-types.js';

export type FindTarget = { email: string } | { userId: string };

/** Longer than any real command: answered with help, not parsed. */
export const MAX_TEXT = 500;
const EMAIL = /^[^\s@<>"(),;:|]+@[^\s@<>"(),;:|]+\.[^\s@<>"(),;:|]{2,}$/;
const MENTION = /^<@([UW][A-Z0-9]{2,20})(?:\|[^>]*)?>$/;
const MAILTO = /^<mailto:([^|>]+)(?:\|[^>]*)?>$/;

/** A word quoted back to the user: short and free of control characters (builders escape it). */
export function quote(word: string): string {
  const clean = Array.from(word.replace(/\p{Cc}/gu, ''))
    .slice(0, 40)
    .join('');
  return `“${clean}${Array.from(word).length > 40 ? '…' : ''}”`;
}

/** NFKC folds full-width letters and odd spaces; zero-width characters would hide inside ids. */
export function normalize(text: string): string[] {
  const folded = text.normalize('NFKC').replace(/[\u200B-\u200D\u2060\uFEFF]/g, '');
  return folded.split(/\s+/u).filter((w) => w !== '');
}

/** "`pool` does not take “102”." */
export function extra(name: string, words: string[]): Problem {
  return problem(`\`${name}\` does not take ${quote(words.join(' '))}.`);
}

/** A pool or license id (a leading # is dropped); `usage` is the example named when it is missing. */
export function parseId(word: string | undefined, what: 'pool' | 'license', usage: string): string | Problem {
  if (word === undefined) return problem(`Please give a ${what} id, as in ${usage}.`);
  const id = word.replace(/^#/, '');
  return ID_PATTERN.test(id) ? id : problem(`${quote(word)} is not a ${what} id; ids are ${ID_RULE}.`);
}

/** `[poolId]`: no word, or one pool id (`usage` is the example named when the word is not one). */
export function parseOptionalPool(name: string, words: string[], usage: string): { poolId?: string } | Problem {
  if (words.length > 1) return extra(name, words.slice(1));
  if (words[0] === undefined) return {};
  const poolId = parseId(words[0], 'pool', usage);
  return typeof poolId === 'string' ? { poolId } : poolId;
}

/** An optional page number, 1 when absent. */
export function parsePage(word: string | undefined): number | Problem {
  if (word === undefined) return 1;
  const page = /^\d{1,6}$/.test(word) ? Number(word) : Number.NaN;
  if (page >= 1 && page <= MAX_PAGE) return page;
  return problem(`${quote(word)} is not a page number.`);
}

/** `<view> [page]`, for a view that takes nothing but a page number: `{ view, page }`. */
export function parsePagedView<V extends string>(view: V, words: string[]): { view: V; page: number } | Problem {
  if (words.length > 1) return extra(view, words.slice(1));
  const page = parsePage(words[0]);
  return typeof page === 'number' ? { view, page } : page;
}

/** A person: an e-mail (auto-linked or not) or a Slack member mention. */
export function parseFindTarget(word: string): FindTarget | Problem {
  const mention = MENTION.exec(word);
  if (mention?.[1]) return { userId: mention[1] };
  const email = (MAILTO.exec(word)?.[1] ?? word).trim();
  if (email.length <= 254 && EMAIL.test(email)) return { email };
  if (word.startsWith('<!subteam^')) return problem('That is a user group; please name one person or an e-mail.');
  if (word.startsWith('@')) {
    // Slack turns a member it recognises into <@U…|name>, so a bare @name names nobody Slack knows. Looking
    // names up ourselves (users.list) would page through the whole workspace and could pick the wrong one
    // of two people with one display name: say what works instead.
    return problem(
      `Slack did not recognise ${quote(word)} as a member, so I can't tell who it is: pick the person from the list Slack suggests as you type @, or give their e-mail, as in \`/licenses find alberto.rossi@contoso.com\`.`,
    );
  }
  return problem(`${quote(word)} is neither an e-mail address nor a Slack member.`);
}

/** A YYYY-MM-DD date that exists. */
export function parseDate(word: string): string | Problem {
  return parseDay(word) ?? problem(`${quote(word)} is not a date; write it as YYYY-MM-DD, e.g. 2026-09-30.`);
}
