/** How a license reads in mrkdwn: its status with an emoji, its student, its dates. */
import { type LicenseStatus, licenseStatus } from '../domain/license-status.js';
import { relativeHint } from '../domain/relative-time.js';
import type { License } from '../domain/types.js';
import { escapeMrkdwn, escapeTruncated, slackDate } from './mrkdwn.js';

const STATUS_TEXT: Record<LicenseStatus, string> = {
  active: ':large_green_circle: Active',
  'ending-soon': ':large_yellow_circle: Ending soon',
  expired: ':red_circle: Expired',
  inactive: ':white_circle: Inactive',
};

export function statusText(status: LicenseStatus): string {
  return STATUS_TEXT[status];
}

export function endText(end: string, now: Date): string {
  const hint = relativeHint(end, now);
  const verb = Date.parse(end) <= now.getTime() ? 'ended' : 'ends';
  return `${verb} ${slackDate(end)}${hint ? ` (${hint})` : ''}`;
}

export function studentText(student: { name: string; email: string }): string {
  return `*${escapeTruncated(student.name, 100)}* ${escapeTruncated(student.email, 254)}`;
}

/** One row of a license list; `courseTitle` is given where the list mixes courses. */
export function licenseRowText(license: License, now: Date, courseTitle?: string): string {
  const status = licenseStatus(license, now);
  const course = courseTitle === undefined ? '' : ` · ${escapeTruncated(courseTitle, 80)}`;
  return [
    `${studentText(license.student)}${course}`,
    `${statusText(status)} · ${endText(license.end, now)} · license \`${escapeMrkdwn(license.id)}\``,
  ].join('\n');
}
