/**
 * The daily alert messages, posted to ALERT_CHANNEL. A channel is not private, so
 * students are named, never their e-mails. Pure; one builder per alert group (services/alerts.ts).
 */

import { sectionsOf } from '../../home/index.js';
import { ActionId, alertLicenseBlockId, DeskActionId } from '../../kernel/blocks/ids.js';
import { actions, type Block, button, context, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { endText } from '../../kernel/blocks/license-text.js';
import { escapeMrkdwn, escapeTruncated, slackMoment } from '../../kernel/blocks/mrkdwn.js';
import { seatsText } from '../../kernel/blocks/pool-text.js';
import { canExtend } from '../../kernel/domain/license-status.js';
import type { Alert, AlertGroup } from '../domain/alerts.js';

/** Names listed for a pool that ends; the rest are counted. */
export const MAX_NAMES = 40;
const FOOTER = 'License Desk daily check · each condition is announced once';

type Of<K extends Alert['kind']> = Extract<Alert, { kind: K }>;

const poolName = (a: { pool: { course: { title: string }; id: string } }) =>
  `*${escapeTruncated(a.pool.course.title, 80)}* (pool \`${escapeMrkdwn(a.pool.id)}\`)`;

function capacityMessage(alerts: Of<'pool-capacity'>[]): SlackMessage {
  const lines = alerts.map(
    (a) =>
      `${a.level === 'full' ? ':red_circle: Full' : ':large_orange_circle: Nearly full'} · ${poolName(a)} · ${seatsText(a.pool)}`,
  );
  const text = `${alerts.length} pool${alerts.length === 1 ? ' is' : 's are'} full or nearly full`;
  return { text, blocks: [section(`*${text}*`), ...sectionsOf(lines), context(FOOTER)] };
}

function endingMessage(a: Of<'pool-ending'>, now: Date): SlackMessage {
  // Escaping can lengthen a name: stop by characters too, so the section stays under 3,000.
  const names: string[] = [];
  let used = 0;
  for (const s of a.students) {
    const name = escapeTruncated(s.name, 40);
    if (names.length >= MAX_NAMES || used + name.length > 2000) break;
    names.push(name);
    used += name.length + 2;
  }
  const more = a.students.length - names.length;
  const who =
    a.students.length === 0
      ? 'No student holds an active license from it.'
      : `${a.students.length} student${a.students.length === 1 ? '' : 's'} lose access then: ${names.join(', ')}${more > 0 ? ` and ${more} more` : ''}.`;
  const text = `Pool ${a.pool.id} (${a.pool.course.title}) ends within ${a.days} days`;
  return {
    text: escapeTruncated(text, 300),
    blocks: [
      section(`:hourglass_flowing_sand: ${poolName(a)} ${endText(a.pool.end, now)}: within ${a.days} days.\n${who}`),
      context(FOOTER),
    ],
  };
}

function licenseBlocks(a: Of<'license-ending'>, now: Date): Block[] {
  const l = a.license;
  const course = a.pool ? escapeTruncated(a.pool.course.title, 80) : `course ${escapeMrkdwn(l.courseId)}`;
  const buttons = [button(DeskActionId.alertLetEnd, 'Let it end', l.id)];
  // Extend only where the API would allow a later end (transferable pool, editable, ending before its
  // pool; one ending with its pool is told by the pool's alert): the end-date modal opens.
  if (canExtend(l, a.pool, now)) buttons.unshift(button(ActionId.licenseChangeEndDate, 'Extend', l.id, 'primary'));
  return [
    section(
      `*${escapeTruncated(l.student.name, 80)}* · ${course} · license \`${escapeMrkdwn(l.id)}\` · ${endText(l.end, now)}`,
    ),
    actions(buttons, alertLicenseBlockId(l.id)),
  ];
}

function licensesMessage(alerts: Of<'license-ending'>[], now: Date): SlackMessage {
  const text = `${alerts.length} license${alerts.length === 1 ? '' : 's'} end${alerts.length === 1 ? 's' : ''} within 7 days`;
  return {
    text,
    blocks: [section(`:calendar: *${text}*`), ...alerts.flatMap((a) => licenseBlocks(a, now)), context(FOOTER)],
  };
}

export function buildAlertMessage(group: AlertGroup, now: Date): SlackMessage {
  switch (group.kind) {
    case 'pool-capacity':
      return capacityMessage(group.alerts);
    case 'pool-ending':
      return endingMessage(group.alerts[0], now);
    case 'license-ending':
      return licensesMessage(group.alerts, now);
  }
}

/**
 * After "Let it end": the same message with that license's buttons replaced by who decided. The
 * blocks come from the clicked message (Slack sends them back); only our own block is touched.
 */
export function withLicenseSettled(blocks: readonly unknown[], licenseId: string, userId: string): unknown[] {
  const id = alertLicenseBlockId(licenseId);
  const who = /^[UW][A-Z0-9]{2,20}$/.test(userId) ? `<@${userId}>` : 'someone';
  return blocks.map((b) =>
    typeof b === 'object' && b !== null && (b as { block_id?: unknown }).block_id === id
      ? { ...context(`:white_check_mark: ${who} chose to let it end.`), block_id: id }
      : b,
  );
}

/**
 * The alert check run on demand found nothing that was not announced before: said to the person who
 * ran it, with when the last alerts went out (`lastAt`, ISO; shown in the reader's time zone).
 */
export function buildNothingNewMessage(lastAt: string | undefined): SlackMessage {
  const last = lastAt
    ? `The last alerts went out ${slackMoment(lastAt)}.`
    : 'No alert has gone out yet: no pool is full or about to end, and no license ends within 7 days.';
  const text = `The alert check found nothing new to announce. ${last}`;
  return { text, blocks: [section(`:white_check_mark: ${text}`), context(FOOTER)] };
}
