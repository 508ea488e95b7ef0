/**
 * `/licenses history <email | @user | licenseId | poolId> [days]`: the audit entries about a student,
 * a member, a license or a pool, newest first, ten a page (Previous / Next), answered to the asker
 * only (student data). Export sends the whole history as a CSV file to the asker's DM, the way
 * `/licenses export` sends its file. Reads the audit table only (docs/history.md).
 */

import { answerRead } from '../../browse/index.js';
import { sendExportOrSay, uploadToDm, withSandboxComment } from '../../export/index.js';
import { buildErrorMessage, buildNoticeMessage, withSandboxMarker } from '../../kernel/blocks/common.js';
import type { SlackMessage } from '../../kernel/blocks/kit.js';
import { decodeNav, type NavTargetOf } from '../../kernel/blocks/nav.js';
import { MAX_HISTORY_DAYS } from '../../kernel/domain/history.js';
import { isId } from '../../kernel/domain/ids.js';
import { type NavSubcommand, type Problem, problem } from '../../kernel/slack/command-types.js';
import { extra, quote } from '../../kernel/slack/command-words.js';
import { BUTTON_GONE, type ClickArgs, onClick, refusalMessage } from '../../kernel/slack/gate.js';
import { createReplier, openExportDm } from '../../kernel/slack/reply.js';
import { resolveUserEmail, slackNameOf } from '../../kernel/slack/resolve-user.js';
import type { Surface } from '../../kernel/slack/state.js';
import { buildHistoryExportComment, buildHistoryMessage, historyExportSentText } from '../blocks/history.js';
import { exportHistory, readHistoryPage, sinceOf } from '../services/history.js';

type HistoryTarget = NavTargetOf<'history'>;

const EXAMPLES =
  'as in `/licenses history alberto.rossi@contoso.com`, `/licenses history @alberto.rossi 30`, `/licenses history 4001` (a license) or `/licenses history 2001 7` (a pool, the last 7 days)';

const MENTION = /^<@([UW][A-Z0-9]{2,20})(?:\|[^>]*)?>$/;
const MAILTO = /^<mailto:([^|>]+)(?:\|[^>]*)?>$/;
const EMAIL = /^[^\s@<>"(),;:|]+@[^\s@<>"(),;:|]+\.[^\s@<>"(),;:|]{2,}$/;

/** Whose or what history: an e-mail, a member, or an id (looked for as a license and as a pool). */
export function parseHistorySubject(word: string): HistoryTarget['subject'] | Problem {
  const mention = MENTION.exec(word);
  if (mention?.[1]) return { kind: 'user', userId: mention[1] };
  if (word.startsWith('<!subteam^')) return problem(`That is a user group; please name one person, ${EXAMPLES}.`);
  const email = (MAILTO.exec(word)?.[1] ?? word).trim();
  if (email.includes('@') && !email.startsWith('@')) {
    return email.length <= 254 && EMAIL.test(email)
      ? { kind: 'email', email: email.toLowerCase() }
      : problem(`${quote(word)} is not an e-mail address; give a student's e-mail, ${EXAMPLES}.`);
  }
  if (word.startsWith('@')) {
    return problem(
      `Slack did not recognise ${quote(word)} as a member, so I can't tell who it is: pick the person from the list Slack suggests as you type @, or give their e-mail, ${EXAMPLES}.`,
    );
  }
  const id = word.replace(/^#/, '');
  if (isId(id)) return { kind: 'id', id };
  return problem(`${quote(word)} is neither an e-mail, a Slack member, nor a license or pool id; ${EXAMPLES}.`);
}

/** `[days]`: a positive whole number, at most MAX_HISTORY_DAYS. */
export function parseHistoryDays(word: string): number | Problem {
  const days = /^\d{1,6}$/.test(word) ? Number(word) : Number.NaN;
  if (days >= 1 && days <= MAX_HISTORY_DAYS) return days;
  return problem(
    `${quote(word)} is not a number of days: give a whole number from 1 to ${MAX_HISTORY_DAYS.toLocaleString('en')} (or leave it out for the whole history), as in \`/licenses history alberto.rossi@contoso.com 30\`.`,
  );
}

const NO_RECORDS =
  'The history is read from the records database, and this process has none; ask whoever runs License Desk.';

export const history: NavSubcommand<'history'> = {
  name: 'history',
  view: 'history',
  usage: 'history <email | @user | licenseId | poolId> [days]',
  summary: 'what was done about a student, member, license or pool (the audit trail), newest first',
  need: 'viewer',
  studentData: true,
  parse(words) {
    if (words[0] === undefined) return problem(`Please say whose history to show, ${EXAMPLES}.`);
    if (words.length > 2) return extra('history', words.slice(2));
    const subject = parseHistorySubject(words[0]);
    if ('problem' in subject) return subject;
    if (words[1] === undefined) return { view: 'history', subject, page: 1 };
    const days = parseHistoryDays(words[1]);
    if (typeof days !== 'number') return days;
    return { view: 'history', subject, days, page: 1 };
  },
  run: (target, ctx) =>
    answerRead(ctx, 'history', {
      working: 'reading the audit trail',
      subject: 'other',
      answer: async () => {
        const db = ctx.deps.records?.db;
        if (!db) return buildNoticeMessage(NO_RECORDS);
        let subject = target.subject;
        let emailProblem: string | undefined;
        // A member's e-mail is asked of Slack when the history is first shown; the buttons carry it on.
        const first = target.before === undefined && target.after === undefined && target.page === 1;
        if (subject.kind === 'user' && subject.email === undefined && first) {
          const resolved = await resolveUserEmail(ctx.client, subject.userId);
          if ('email' in resolved) subject = { ...subject, email: resolved.email.toLowerCase() };
          else emailProblem = `${resolved.problem} Shown: what they did and their course requests only.`;
        }
        const since = target.since ?? sinceOf(target.days, ctx.deps.now());
        const page = await readHistoryPage(db, {
          subject,
          ...(target.days !== undefined ? { days: target.days } : {}),
          ...(since ? { since } : {}),
          page: target.page,
          ...(target.before !== undefined ? { before: target.before } : {}),
          ...(target.after !== undefined ? { after: target.after } : {}),
          ...(emailProblem ? { emailProblem } : {}),
        });
        return buildHistoryMessage(page);
      },
    }),
};

/**
 * Export under a history: every entry (all pages) as a CSV file in the clicker's DM; the reply under
 * the history says where it went. A viewer may: the gate is asked again on the click.
 */
export function createHistoryExportHandler(s: Surface) {
  const { deps } = s;
  const tell = async ({ body, respond }: ClickArgs, verdict: Parameters<typeof refusalMessage>[0]) => {
    if (body.response_url) await createReplier(respond, deps, true).send(refusalMessage(verdict));
  };
  return onClick(s, { need: 'viewer', tell }, async ({ body, action, respond, client }) => {
    if (!body.response_url) return deps.logger.warn('history export click without response_url');
    // Each answer is a new ephemeral message under the history: replace_original would replace the
    // history itself (the message the button is in), so none is sent.
    const reply = {
      send: async (message: SlackMessage) => {
        try {
          await respond({
            response_type: 'ephemeral',
            replace_original: false,
            ...withSandboxMarker(message, deps.sandbox),
          });
        } catch (error) {
          deps.logger.error('respond failed', { error: String(error) });
        }
      },
    };
    const target = decodeNav(action.value);
    if (target?.view !== 'history') return reply.send(buildErrorMessage(BUTTON_GONE));
    const db = deps.records?.db;
    if (!db) return reply.send(buildNoticeMessage(NO_RECORDS));
    const userId = body.user.id;
    const channel = await openExportDm(deps, client, userId, reply, 'history export');
    if (channel === undefined) return;
    const since = target.since ?? sinceOf(target.days, deps.now());
    const query = {
      subject: target.subject,
      ...(target.days !== undefined ? { days: target.days } : {}),
      ...(since ? { since } : {}),
    };
    let result: Awaited<ReturnType<typeof exportHistory>>;
    try {
      result = await exportHistory(db, query, {
        now: deps.now(),
        // A name Slack cannot give now is left empty: the user id is in the file anyway.
        nameOf: async (actor) =>
          /^[UW][A-Z0-9]{2,20}$/.test(actor)
            ? slackNameOf((await client.users.info({ user: actor })).user?.profile)
            : undefined,
      });
    } catch (error) {
      deps.logger.warn('history export failed', { error: String(error) });
      return reply.send(
        buildErrorMessage('The audit trail could not be read just now, so nothing was sent; please try again.'),
      );
    }
    const sent = await sendExportOrSay(deps, reply, 'history export', result, async () => {
      const comment = withSandboxComment(
        buildHistoryExportComment(query.subject, query.days, result.rows),
        deps.sandbox,
      );
      await uploadToDm(client, channel, result, comment);
    });
    if (!sent) return;
    deps.logger.info('history export done', { rows: result.rows, bytes: result.bytes });
    await reply.send(buildNoticeMessage(historyExportSentText(result.rows, result.filename)));
  });
}
