/** `/licenses courses`: the courses licenses were bought for, with seat totals, ten a page. */
import { count } from '../domain/count.js';
import type { Course } from '../domain/types.js';
import { buildPagerBlock, compact } from './common.js';
import { context, header, type SlackMessage, section } from './kit.js';
import { availabilityBar, escapeMrkdwn, escapeTruncated } from './mrkdwn.js';
import { PAGE_SIZE } from './nav.js';
import { clampPage, pageCount, pageOf } from './page-label.js';

export function buildCoursesView(courses: Course[], page: number): SlackMessage {
  if (courses.length === 0) {
    const text = 'You hold no course licenses yet.';
    return { text, blocks: [header('Courses'), section(text)] };
  }
  const pages = pageCount(courses.length, PAGE_SIZE);
  const { current, missing } = clampPage(page, pages);
  const rows = courses
    .slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE)
    .map((c) =>
      section(
        [
          `*${escapeTruncated(c.title, 200)}* · course \`${escapeMrkdwn(c.id)}\``,
          `\`${availabilityBar(c.assignedLicenses, c.licenses)}\` *${c.availableLicenses}* of ${count(c.licenses, 'seat')} available · ${c.assignedLicenses} assigned · ${count(c.pools.length, 'pool')}`,
        ].join('\n'),
      ),
    );
  const pager = buildPagerBlock({
    ...(current > 1 ? { previous: { v: 'courses', n: current - 1 } } : {}),
    ...(current < pages ? { next: { v: 'courses', n: current + 1 } } : {}),
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
