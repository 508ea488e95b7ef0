/** `/licenses courses`: the courses licenses were bought for, with seat totals, ten a page. */

import { buildPagerBlock, compact } from '../../kernel/blocks/common.js';
import { context, header, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { availabilityBar, escapeMrkdwn, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import { PAGE_SIZE } from '../../kernel/blocks/nav.js';
import { clampPage, pageCount, pageOf } from '../../kernel/blocks/page-label.js';
import { count, hasEnded } from '../../kernel/domain/count.js';
import type { Course } from '../../kernel/domain/types.js';

/**
 * The seats of the pools that still run, as `/licenses pools` counts them: an ended pool's unused
 * seats can never be assigned, so they are not "available". Ended pools are named, not counted.
 */
function seatsLine(course: Course, now: Date): string {
  const running = course.pools.filter((p) => !hasEnded(p, now));
  const ended = course.pools.length - running.length;
  if (course.pools.length > 0 && running.length === 0) {
    return `:no_entry: ${ended === 1 ? 'Its pool has' : `All ${ended} pools have`} ended: no seats to assign`;
  }
  // Without pool details, the course's own totals are all there is.
  const seats = course.pools.length === 0 ? [course] : running;
  const total = seats.reduce((sum, p) => sum + Math.max(0, p.licenses), 0);
  const assigned = seats.reduce((sum, p) => sum + Math.max(0, p.assignedLicenses), 0);
  const available = seats.reduce((sum, p) => sum + Math.max(0, p.availableLicenses), 0);
  const pools =
    ended > 0 ? `${count(running.length, 'pool')} running, ${ended} ended` : count(course.pools.length, 'pool');
  return `\`${availabilityBar(assigned, total)}\` *${available}* of ${count(total, 'seat')} available · ${assigned} assigned · ${pools}`;
}

export function buildCoursesMessage(courses: Course[], page: number, now: Date): SlackMessage {
  if (courses.length === 0) {
    const text = 'You hold no course licenses yet.';
    return { text, blocks: [header('Courses'), section(text)] };
  }
  const pages = pageCount(courses.length, PAGE_SIZE);
  const { current, missing } = clampPage(page, pages);
  const rows = courses
    .slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE)
    .map((c) =>
      section([`*${escapeTruncated(c.title, 200)}* · course \`${escapeMrkdwn(c.id)}\``, seatsLine(c, now)].join('\n')),
    );
  const pager = buildPagerBlock({
    ...(current > 1 ? { previous: { view: 'courses', page: current - 1 } } : {}),
    ...(current < pages ? { next: { view: 'courses', page: current + 1 } } : {}),
  });
  const summary = `${count(courses.length, 'course')} · ${pageOf(current, pages)}`;
  return {
    text: `${missing ? `${missing} ` : ''}Courses: ${summary}`,
    blocks: compact([
      missing ? section(`:information_source: ${missing}`) : undefined,
      header('Courses'),
      context(summary),
      ...rows,
      pager,
    ]),
  };
}
