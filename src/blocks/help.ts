/** `/licenses help`: what the caller may do, by role, with examples; also the answer to bad input. */
import { compact } from './common.js';
import { context, header, type SlackMessage, section } from './kit.js';
import { escapeMrkdwn, escapeTruncated } from './mrkdwn.js';

export type HelpRole = 'admin' | 'viewer';

const LOOK = [
  '`/licenses pools [page]`: every pool with its free seats, validity and warnings',
  '`/licenses pool <poolId> [all]`: a pool and its licenses, 10 a page (`all` includes inactive ones)',
  '`/licenses list [all]`: every license, 10 a page',
  '`/licenses show <licenseId>`: one license in full',
  '`/licenses find <email | @user>`: a student’s licenses and course progress',
  '`/licenses students [page]`: students and their courses',
  '`/licenses courses`: courses with seat totals',
  '`/licenses me`: the licensing account, including the e-mail domains allowed for transferable licenses',
  '`/licenses export [poolId]`: every license (or one pool’s) as a CSV file, sent to you in a direct message',
];

const ADMIN_ONLY = [
  '`/licenses assign [poolId] [email | @user] [YYYY-MM-DD]`: give a student a seat (a form opens, prefilled with what you typed); a full transferable pool can free a seat after you confirm which license ends',
  '`/licenses extend <licenseId> [YYYY-MM-DD]`: change a license’s end date (+30 days, +90 days, pool end, or a date)',
  '`/licenses revoke <licenseId>`: end a license now, after a confirmation',
  'The global shortcut *Assign a course license* (⚡ in the message box) opens the same assign form',
  '`/licenses bulk`: assign many licenses at once from a pasted list, checked line by line before anything is written',
];

const REQUESTS = [
  '`/licenses request [course words | poolId]`: ask the license admins for a seat in a course (also *Request a course license* in ⚡, and *Request a course* on the Home tab); you are told each step by DM',
  '`/licenses requests`: your own course requests; one not yet decided can be cancelled',
];

const EXAMPLES =
  '_Examples:_ `/licenses pool 12`, `/licenses find ada@example.com`, `/licenses find @ada`, `/licenses list all`';

/** `reason` is plain text (it may quote what the user typed) and is escaped here. */
export function buildHelpView(role: HelpRole, reason?: string): SlackMessage {
  const roleLine =
    role === 'admin'
      ? 'You are a *license admin*: you can look at everything, and the pool and license views show buttons to assign, change end dates and revoke.'
      : 'You are a *license viewer*: you can look at everything; changes are for license admins.';
  const problem = reason === undefined ? undefined : escapeTruncated(reason, 500);
  return {
    text: problem ? `${problem} Try /licenses help.` : 'How to use /licenses',
    blocks: compact([
      problem ? section(`:warning: ${problem}`) : undefined,
      header('License Desk: /licenses'),
      section(roleLine),
      // The usage lines hold `<poolId>` and the like: as mrkdwn they must be escaped, or Slack reads links.
      section(LOOK.map((l) => `• ${escapeMrkdwn(l)}`).join('\n')),
      role === 'admin' ? section(ADMIN_ONLY.map((l) => `• ${escapeMrkdwn(l)}`).join('\n')) : undefined,
      section(REQUESTS.map((l) => `• ${escapeMrkdwn(l)}`).join('\n')),
      context(EXAMPLES),
    ]),
  };
}
