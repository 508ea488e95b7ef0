/**
 * `/licenses <text>` -> a typed command, or help with one sentence on what was wrong. Pure, total:
 * any text (odd Unicode, 3,000 characters, mentions, Slack's auto-linked e-mails) gives an answer.
 * With should_escape on, Slack sends mentions as `<@U…|name>` and e-mails as `<mailto:a@b.c|a@b.c>`
 * (docs/platform.md section 1.2).
 */
import type { NavTarget } from '../blocks/nav.js';
import { ID_PATTERN, ID_RULE } from '../domain/ids.js';
import { type ChangeCommand, parseAssign, parseExtend, parseRevoke } from './parse-change.js';
import { parseWaitlist, type WaitlistCommand } from './waitlist/command.js';

export type FindTarget = { email: string } | { userId: string };

export type LicensesCommand =
  | { kind: 'help'; reason?: string }
  | { kind: 'view'; target: NavTarget }
  | { kind: 'me' }
  | { kind: 'find'; target: FindTarget }
  | { kind: 'bulk' }
  | { kind: 'export'; poolId?: string }
  | WaitlistCommand
  | ChangeCommand;

/** Longer than any real command: answered with help, not parsed. */
export const MAX_TEXT = 500;
const MAX_PAGE = 10_000;
const EMAIL = /^[^\s@<>"(),;:|]+@[^\s@<>"(),;:|]+\.[^\s@<>"(),;:|]{2,}$/;
const MENTION = /^<@([UW][A-Z0-9]{2,20})(?:\|[^>]*)?>$/;
const MAILTO = /^<mailto:([^|>]+)(?:\|[^>]*)?>$/;

const help = (reason: string): LicensesCommand => ({ kind: 'help', reason });

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

function parseId(word: string | undefined, what: 'pool' | 'license'): string | { reason: string } {
  const usage = what === 'pool' ? '`/licenses pool <poolId>`' : '`/licenses show <licenseId>`';
  if (word === undefined) return { reason: `Please give a ${what} id, as in ${usage}.` };
  const id = word.replace(/^#/, '');
  return ID_PATTERN.test(id) ? id : { reason: `${quote(word)} is not a ${what} id; ids are ${ID_RULE}.` };
}

function parsePage(word: string | undefined): number | { reason: string } {
  if (word === undefined) return 1;
  const page = /^\d{1,6}$/.test(word) ? Number(word) : Number.NaN;
  if (page >= 1 && page <= MAX_PAGE) return page;
  return { reason: `${quote(word)} is not a page number.` };
}

export function parseFindTarget(word: string): FindTarget | { reason: string } {
  const mention = MENTION.exec(word);
  if (mention?.[1]) return { userId: mention[1] };
  const email = (MAILTO.exec(word)?.[1] ?? word).trim();
  if (email.length <= 254 && EMAIL.test(email)) return { email };
  if (word.startsWith('<!subteam^')) return { reason: 'That is a user group; please name one person or an e-mail.' };
  if (word.startsWith('@')) {
    return {
      // Slack turns a member it recognises into <@U…|name>, so a bare @name names nobody Slack knows. Looking
      // names up ourselves (users.list) would page through the whole workspace and could pick the wrong one
      // of two people with one display name: say what works instead.
      reason: `Slack did not recognise ${quote(word)} as a member, so I can't tell who it is: pick the person from the list Slack suggests as you type @, or give their e-mail, as in \`/licenses find ada@example.com\`.`,
    };
  }
  return { reason: `${quote(word)} is neither an e-mail address nor a Slack member.` };
}

function extra(sub: string, words: string[]): LicensesCommand {
  return help(`\`${sub}\` does not take ${quote(words.join(' '))}.`);
}

export function parseCommand(text: string): LicensesCommand {
  if (Array.from(text).length > MAX_TEXT) return help('That was far longer than any /licenses command.');
  const [first, ...rest] = normalize(text);
  if (first === undefined) return { kind: 'help' };
  const sub = first.toLowerCase();
  const wantsAll = rest[rest.length - 1]?.toLowerCase() === 'all';
  switch (sub) {
    case 'help':
    case '?':
      return { kind: 'help' };
    case 'pools': {
      if (rest.length > 1) return extra(sub, rest.slice(1));
      const page = parsePage(rest[0]);
      return typeof page === 'number' ? { kind: 'view', target: { v: 'pools', n: page } } : help(page.reason);
    }
    case 'pool': {
      const more = rest.slice(1, wantsAll ? -1 : undefined);
      if (more.length > 0) return extra(sub, more);
      const id = parseId(rest[0], 'pool');
      if (typeof id !== 'string') return help(id.reason);
      return { kind: 'view', target: { v: 'pool', p: id, n: 1, i: wantsAll && rest.length > 1 ? 1 : 0 } };
    }
    case 'list': {
      const more = rest.slice(0, wantsAll ? -1 : undefined);
      if (more.length > 0) return extra(sub, more);
      return { kind: 'view', target: { v: 'list', n: 1, i: wantsAll ? 1 : 0 } };
    }
    case 'show': {
      if (rest.length > 1) return extra(sub, rest.slice(1));
      const id = parseId(rest[0], 'license');
      return typeof id === 'string' ? { kind: 'view', target: { v: 'show', l: id } } : help(id.reason);
    }
    case 'find': {
      if (rest[0] === undefined) return help('Please say whom to find, as in `/licenses find ada@example.com`.');
      if (rest.length > 1) return extra(sub, rest.slice(1));
      const target = parseFindTarget(rest[0]);
      return 'reason' in target ? help(target.reason) : { kind: 'find', target };
    }
    case 'students': {
      if (rest.length > 1) return extra(sub, rest.slice(1));
      const page = parsePage(rest[0]);
      return typeof page === 'number' ? { kind: 'view', target: { v: 'students', n: page } } : help(page.reason);
    }
    case 'courses':
      return rest.length > 0 ? extra(sub, rest) : { kind: 'view', target: { v: 'courses', n: 1 } };
    case 'me':
      return rest.length > 0 ? extra(sub, rest) : { kind: 'me' };
    case 'bulk':
      return rest.length > 0 ? extra(sub, rest) : { kind: 'bulk' };
    case 'export': {
      if (rest.length > 1) return extra(sub, rest.slice(1));
      if (rest[0] === undefined) return { kind: 'export' };
      const id = parseId(rest[0], 'pool');
      return typeof id === 'string' ? { kind: 'export', poolId: id } : help(id.reason);
    }
    case 'waitlist':
      return parseWaitlist(rest);
    case 'assign':
      return parseAssign(rest);
    case 'extend':
      return parseExtend(rest);
    case 'revoke':
      return parseRevoke(rest);
    default:
      return help(`I don't know ${quote(first)}.`);
  }
}
