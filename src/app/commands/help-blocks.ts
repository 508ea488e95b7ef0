/**
 * `/licenses help`: what the caller may do, with examples; also the answer to bad input. The lines come
 * from the table of subcommands (src/app/commands/index.ts): usage and summary of each, the admin
 * ones only for someone who can change licenses, only the course requests for someone without a role
 * who may ask for a course.
 */
import { compact } from '../../kernel/blocks/common.js';
import { context, header, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { escapeMrkdwn, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';

/** One subcommand as help lists it. */
export interface HelpEntry {
  /** After `/licenses `, e.g. `pool <poolId> [all]`. */
  usage: string;
  summary: string;
  /**
   * `requester`: asking for a course, open to members who may request (REQUESTERS); `member`: one's own
   * licenses, open to every full member.
   */
  need: 'viewer' | 'admin' | 'requester' | 'member';
  /** False for an entry help does not list (help itself). */
  listed?: boolean;
}

const SHORTCUT = 'The global shortcut *Assign a course license* (⚡ in the message box) opens the same assign form';

const REQUEST_SHORTCUT =
  'The global shortcut *Request a course license* (⚡) and *Request a course* on the Home tab open the same request form';

/** Ids, people and courses the local demo has (README, "Demo data": pool 2001, license 4002, Alberto Rossi in its Slack). */
const EXAMPLES =
  '_Examples:_ `/licenses pool 2001`, `/licenses show 4002`, `/licenses find alberto.rossi@contoso.com`, `/licenses find @alberto.rossi`, `/licenses list all`, `/licenses history 4001 30`';

const line = (e: HelpEntry): string => `\`/licenses ${e.usage}\`: ${e.summary}`;

/** A bulleted list of usage lines: they hold `<poolId>` and the like, so as mrkdwn they are escaped. */
const bullets = (lines: readonly string[]) => section(lines.map((l) => `• ${escapeMrkdwn(l)}`).join('\n'));

/** The frame every help shares: the problem (escaped), the header, who you are, the lists, examples. */
function helpMessage(
  reason: string | undefined,
  who: string,
  lists: readonly (string[] | undefined)[],
  examples: string,
) {
  const problem = reason === undefined ? undefined : escapeTruncated(reason, 500);
  return {
    text: problem ? `${problem} Try /licenses help.` : 'How to use /licenses',
    blocks: compact([
      problem ? section(`:warning: ${problem}`) : undefined,
      header('License Desk: /licenses'),
      section(who),
      ...lists.map((l) => (l ? bullets(l) : undefined)),
      context(examples),
    ]),
  };
}

/** `reason` is plain text (it may quote what the user typed) and is escaped here. */
export function buildHelpMessage(entries: readonly HelpEntry[], canChange: boolean, reason?: string): SlackMessage {
  const listed = entries.filter((e) => e.listed !== false);
  const look = listed.filter((e) => e.need === 'viewer').map(line);
  const change = [...listed.filter((e) => e.need === 'admin').map(line), SHORTCUT];
  const ask = [...listed.filter((e) => e.need === 'requester' || e.need === 'member').map(line), REQUEST_SHORTCUT];
  const roleLine = canChange
    ? 'You are a *license admin*: you can look at everything, and the pool and license views show buttons to assign, change end dates and revoke.'
    : 'You are a *license viewer*: you can look at everything; changes are for license admins.';
  return helpMessage(reason, roleLine, [look, canChange ? change : undefined, ask], EXAMPLES);
}

/**
 * Help for someone without a role who may ask for a course: those lines only, and whom to ask for more.
 * `whoToAsk` is mrkdwn from the role resolver (mentions), so it is not escaped; `reason` is escaped.
 */
export function buildRequesterHelpMessage(
  entries: readonly HelpEntry[],
  whoToAsk: string,
  reason?: string,
): SlackMessage {
  const mayAsk = (e: HelpEntry) => e.listed !== false && (e.need === 'requester' || e.need === 'member');
  const ask = [...entries.filter(mayAsk).map(line), REQUEST_SHORTCUT];
  return helpMessage(
    reason,
    `You can ask the license admins for a seat in a course. Pools and licenses are for license viewers and admins: to see them, ask ${whoToAsk}.`,
    [ask],
    '_Examples:_ `/licenses request Mastering DAX`, `/licenses request 2001`, `/licenses requests`',
  );
}
