/** How a license reads in mrkdwn: its status with an emoji, its student, its dates. */
import { type LicenseStatus, licenseStatus } from '../domain/license-status.js';
import { relativeHint } from '../domain/relative-time.js';
import type { License } from '../domain/types.js';
import { dayText, escapeMrkdwn, escapeTruncated } from './mrkdwn.js';

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
  return `${verb} ${dayText(end)}${hint ? ` (${hint})` : ''}`;
}

/** Where the licensing service sent no student name (licensing/schemas.ts reads it as ''). */
export const NO_NAME = ':warning: _no name from the service_';

/** The student's name as mrkdwn, or the flag that the service sent none. */
export function studentNameText(name: string, max = 100): string {
  return name.trim() === '' ? NO_NAME : escapeTruncated(name, max);
}

export function studentText(student: { name: string; email: string }): string {
  const name = student.name.trim() === '' ? NO_NAME : `*${escapeTruncated(student.name, 100)}*`;
  return `${name} ${escapeTruncated(student.email, 254)}`;
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
