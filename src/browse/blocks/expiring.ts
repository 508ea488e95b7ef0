/**
 * `/licenses expiring [days]`: active licenses ending within the days asked, soonest first, ten a page,
 * each with its student, course, pool and end; admins get Extend where a later end is possible (a
 * license that already ends with its pool says so instead).
 */

import { buildPagerBlock, compact } from '../../kernel/blocks/common.js';
import { ActionId } from '../../kernel/blocks/ids.js';
import { type Block, button, context, header, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { studentText } from '../../kernel/blocks/license-text.js';
import { dayText, escapeMrkdwn, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import { PAGE_SIZE } from '../../kernel/blocks/nav.js';
import { clampPage, pageCount, pageOf } from '../../kernel/blocks/page-label.js';
import { count } from '../../kernel/domain/count.js';
import { canChangeEndDate, canExtend } from '../../kernel/domain/license-status.js';
import { inDaysText } from '../../kernel/domain/relative-time.js';
import type { ExpiringLicense } from '../domain/expiring.js';

export interface ExpiringMessageInput {
  /** Every license ending within `days`, soonest first (the whole list: this builder pages it). */
  expiring: readonly ExpiringLicense[];
  days: number;
  /** 1-based; a page past the end shows the last page and says so. */
  page: number;
  canChange: boolean;
  now: Date;
}

/** "ends today", "ends tomorrow", "ends in 5 days": the words of every view's day count (`inDaysText`). */
export function endsInText(daysLeft: number): string {
  return `ends ${inDaysText(daysLeft)}`;
}

function row({ license, pool, daysLeft }: ExpiringLicense, canChange: boolean, now: Date): Block {
  const course = pool ? escapeTruncated(pool.course.title, 80) : `course \`${escapeMrkdwn(license.courseId)}\``;
  const extendable = canChange && canExtend(license, pool, now);
  const withPool = canChange && !extendable && canChangeEndDate(license, pool, now);
  const text = [
    `${studentText(license.student)} · ${course}`,
    `*${endsInText(daysLeft)}* (${dayText(license.end)}) · pool \`${escapeMrkdwn(license.poolId)}\` · license \`${escapeMrkdwn(license.id)}\``,
    ...(withPool ? ['_Ends with its pool, so it cannot be extended._'] : []),
  ].join('\n');
  return section(text, extendable ? button(ActionId.licenseChangeEndDate, 'Extend', license.id) : undefined);
}

export function buildExpiringMessage({ expiring, days, page, canChange, now }: ExpiringMessageInput): SlackMessage {
  const title = `Licenses ending within ${count(days, 'day')}`;
  if (expiring.length === 0) {
    const text = `Nothing ends soon: no active license ends within the next ${count(days, 'day')}.`;
    return { text, blocks: [header(title), section(`:white_check_mark: ${text}`)] };
  }
  const pages = pageCount(expiring.length, PAGE_SIZE);
  const { current, missing } = clampPage(page, pages);
  const shown = expiring.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const summary = `${count(expiring.length, 'active license')} · soonest first · ${pageOf(current, pages)}`;
  const pager = buildPagerBlock({
    ...(current > 1 ? { previous: { view: 'expiring', days, page: current - 1 } } : {}),
    ...(current < pages ? { next: { view: 'expiring', days, page: current + 1 } } : {}),
  });
  return {
    text: `${missing ? `${missing} ` : ''}${title}: ${summary}`,
    blocks: compact([
      missing ? section(`:information_source: ${missing}`) : undefined,
      header(title),
      context(summary),
      ...shown.map((r) => row(r, canChange, now)),
      pager,
    ]),
  };
}
