/** How a change names the license and the student in the sentences a person reads (escaped mrkdwn). */
import type { License, Pool } from '../domain/types.js';
import { dayText, escapeMrkdwn, escapeTruncated } from './mrkdwn.js';

/** "license `5001` of *Course* (pool `2003`)": the course by its title when the pool is known. */
export function licenseName(license: License, pool: Pool | undefined): string {
  const course = pool ? `*${escapeTruncated(pool.course.title, 200)}*` : `course \`${escapeMrkdwn(license.courseId)}\``;
  return `license \`${escapeMrkdwn(license.id)}\` of ${course} (pool \`${escapeMrkdwn(license.poolId)}\`)`;
}

export function licenseFacts(license: License, pool: Pool | undefined): string {
  return `${licenseName(license, pool)}, ends ${dayText(license.end)}`;
}

export function studentWords(student: { name?: string | undefined; email: string }): string {
  const name = student.name ? `*${escapeTruncated(student.name, 100)}* ` : '';
  return `${name}${escapeTruncated(student.email, 254)}`;
}
