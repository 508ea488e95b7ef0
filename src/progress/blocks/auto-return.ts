/**
 * The automatic return of finished seats in Block Kit (docs/progress.md): the holder's DM, and the
 * alert channel's one post a pass, which carries counts and pool ids only (no student).
 */

import { RequestActionId } from '../../kernel/blocks/ids.js';
import { actions, button, context, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { dayText, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import type { AutoReturnNotice, ReturnedInPool } from '../domain/auto-return.js';

type Returned = Extract<AutoReturnNotice, { kind: 'progress-returned' }>;

/** To the holder: the course, that it was completed, and how to ask for it again. */
export function buildSeatReturnedMessage(n: Returned): SlackMessage {
  const course = n.courseTitle ?? `the course of pool ${n.poolId}`;
  const when = dayText(n.completedOn);
  const done = !when
    ? 'you completed it'
    : n.completionSeen
      ? `we saw it completed on ${when}`
      : `you completed it on ${when}`;
  const t = `Your seat for ${course} was given back, since ${done}: well done! It can now go to someone who is waiting. Need the course again? Ask for it with a course request.`;
  const bold = n.courseTitle
    ? `*${escapeTruncated(n.courseTitle, 80)}*`
    : `the course of pool \`${escapeTruncated(n.poolId, 64)}\``;
  return {
    text: escapeTruncated(t, 300),
    blocks: [
      section(
        `:mortar_board: Your seat for ${bold} was given back, since ${done}: well done! It can now go to someone who is waiting.`,
      ),
      section('Need the course again? Ask for it with a course request.'),
      actions(
        [button(RequestActionId.openFor, 'Ask for it again', n.poolId)],
        `progress_return_${n.licenseId}`.slice(0, 255),
      ),
      context(`License Desk returns finished seats automatically (license \`${escapeTruncated(n.licenseId, 64)}\`).`),
    ],
  };
}

const poolCounts = (pools: readonly ReturnedInPool[]) =>
  pools
    .map((p) => {
      const pool = `pool \`${escapeTruncated(p.poolId, 64)}\``;
      return `${p.courseTitle ? `*${escapeTruncated(p.courseTitle, 80)}* (${pool})` : pool}: ${p.count}`;
    })
    .join(', ');

/** To the alert channel, once a pass: how many seats went back, per pool; no names, no e-mails. */
export function buildSeatsReturnedPost(n: Extract<AutoReturnNotice, { kind: 'progress-returns' }>): SlackMessage {
  const returned = n.pools.reduce((s, p) => s + p.count, 0);
  const head =
    returned > 0
      ? `Returned ${returned} seat${returned === 1 ? '' : 's'} of finished courses: ${poolCounts(n.pools.slice(0, 40))}${n.pools.length > 40 ? ` and ${n.pools.length - 40} more pools` : ''}.`
      : 'No seat of a finished course was returned this time.';
  const failed =
    n.failed > 0
      ? ` ${n.failed} return${n.failed === 1 ? '' : 's'} did not go through; the seats stay with their holders.`
      : '';
  const t = `${head}${failed} See /licenses history for each one.`;
  return {
    text: escapeTruncated(t.replace(/[`*]/g, ''), 600),
    blocks: [
      section(`:recycle: ${head}${failed}`),
      context('See `/licenses history` for each one (audited as License Desk, automatic return).'),
    ],
  };
}
