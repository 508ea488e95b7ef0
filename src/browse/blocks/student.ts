/** `/licenses find <email | @user>`: a student's licenses, course progress and completion. */

import { compact } from '../../kernel/blocks/common.js';
import { ActionId } from '../../kernel/blocks/ids.js';
import { button, context, header, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { endText, statusText, studentText } from '../../kernel/blocks/license-text.js';
import { availabilityBar, dayText, escapeMrkdwn, escapeTruncated, truncate } from '../../kernel/blocks/mrkdwn.js';
import { encodeNav } from '../../kernel/blocks/nav.js';
import { percentText } from '../../kernel/blocks/percent.js';
import { count } from '../../kernel/domain/count.js';
import { licenseStatus } from '../../kernel/domain/license-status.js';
import type { StudentReport, StudentReportRow } from '../domain/student-report.js';

/** Courses shown at most; a student with more is pointed to `list`, which pages. */
export const STUDENT_ROWS_MAX = 20;

function progressText(row: StudentReportRow): string {
  if (row.completed) return `:white_check_mark: Completed ${dayText(row.completed)}`;
  if (row.progress === null) return 'progress not available';
  const pct = Math.round(Math.min(100, Math.max(0, row.progress)));
  return `\`${availabilityBar(pct, 100)}\` ${percentText(pct)} done`;
}

function rowText(row: StudentReportRow, now: Date): string {
  const status = statusText(licenseStatus(row, now));
  return [
    `*${escapeTruncated(row.title, 100)}* · pool \`${escapeMrkdwn(row.poolId)}\``,
    `${status} · ${endText(row.end, now)} · ${progressText(row)}`,
  ].join('\n');
}

export function buildStudentMessage(report: StudentReport, now: Date): SlackMessage {
  const shown = report.rows.slice(0, STUDENT_ROWS_MAX);
  const more = report.rows.length - shown.length;
  const rows = shown.map((row) =>
    section(
      rowText(row, now),
      button(ActionId.licenseDetails, 'Details', encodeNav({ view: 'show', licenseId: row.licenseId })),
    ),
  );
  const notes = [
    report.source === 'scan'
      ? 'This licensing service has no student lookup, so the licenses were scanned; progress is not available.'
      : undefined,
    more > 0 ? `…and ${count(more, 'more license')}; \`/licenses list all\` shows every license.` : undefined,
  ].filter((n): n is string => n !== undefined);
  return {
    text: `${escapeTruncated(report.name, 100)}: ${count(report.rows.length, 'license')}`,
    blocks: compact([
      header(truncate(`Student · ${report.name}`, 150)),
      section(`${studentText(report)} · student \`${escapeMrkdwn(report.id)}\``),
      ...(rows.length > 0 ? rows : [section('This student holds no licenses.')]),
      notes.length > 0 ? context(...notes) : undefined,
    ]),
  };
}

export function buildStudentNotFoundMessage(email: string): SlackMessage {
  const text = `No student has the e-mail ${escapeTruncated(email, 254)}. Check the spelling, or try \`/licenses students\`.`;
  return { text, blocks: [section(`:mag: ${text}`)] };
}
