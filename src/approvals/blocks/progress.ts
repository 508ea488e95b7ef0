/**
 * The admin's DM about a bulk decision: one message updated as it goes (counts so far), and at the end
 * what each request came to that was not done, with why. Pure.
 */
import { context, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { escapeTruncated, truncate } from '../../kernel/blocks/mrkdwn.js';
import { count } from '../../kernel/domain/count.js';
import { countOf, type DecisionLine, type Tally } from '../domain/plan.js';

/** The lines listed by name at the end: at most this many, then "and N more". */
const LISTED = 30;

function countsLine(tally: Tally): string {
  const parts =
    tally.kind === 'approve'
      ? [
          `${countOf(tally, 'assigned')} assigned`,
          `${countOf(tally, 'waitlisted')} put on the waitlist`,
          `${countOf(tally, 'awaiting-seat')} waiting for a free seat on their cards`,
        ]
      : [`${countOf(tally, 'denied')} denied`];
  parts.push(
    `${countOf(tally, 'skipped')} skipped (decided meanwhile)`,
    `${countOf(tally, 'failed')} failed`,
    `${countOf(tally, 'unknown')} being read back`,
  );
  return parts.join(' · ');
}

function lineText(l: DecisionLine): string {
  const who = l.requester ? `<@${l.requester}>` : 'a request';
  const course = l.courseTitle ? ` — ${escapeTruncated(l.courseTitle, 80)}` : '';
  return `• ${who}${course}: ${escapeTruncated(l.why ?? l.result, 200)}`;
}

export function buildDecideManyMessage(tally: Tally): SlackMessage {
  const verb = tally.kind === 'approve' ? 'Approving' : 'Denying';
  const done = tally.lines.length;
  const head =
    tally.ended === 'done'
      ? `:white_check_mark: ${tally.kind === 'approve' ? 'Approved' : 'Denied'} selected: ${done} of ${count(tally.total, 'request')} decided.`
      : tally.ended === 'stopped'
        ? `:warning: ${verb} selected stopped after ${done} of ${count(tally.total, 'request')}: License Desk restarted. The rest are still waiting in \`/licenses approvals\`.`
        : `:hourglass_flowing_sand: ${verb} ${count(tally.total, 'request')}, oldest first: ${done} done so far.`;
  const notDone = tally.lines.filter((l) => l.result === 'failed' || l.result === 'skipped' || l.result === 'unknown');
  const listed = tally.ended ? notDone.slice(0, LISTED) : [];
  const more = tally.ended && notDone.length > LISTED ? `…and ${notDone.length - LISTED} more.` : '';
  const details = [...listed.map(lineText), more].filter(Boolean).join('\n');
  return {
    text: truncate(`${head} ${countsLine(tally)}`, 3000),
    blocks: [
      section(head),
      context(countsLine(tally)),
      ...(details ? [section(truncate(`*Not done:*\n${details}`, 3000))] : []),
    ],
  };
}
