/** `/licenses students [page]`: students with their courses, ten a page. */

import { buildPagerBlock, compact } from '../../kernel/blocks/common.js';
import { context, header, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { studentText } from '../../kernel/blocks/license-text.js';
import { escapeTruncated, truncate } from '../../kernel/blocks/mrkdwn.js';
import { missingOpenPage, openPageLabel } from '../../kernel/blocks/page-label.js';
import { percentText } from '../../kernel/blocks/percent.js';
import { count } from '../../kernel/domain/count.js';
import type { Student } from '../../kernel/domain/types.js';

export interface StudentsMessageInput {
  students: Student[];
  page: number;
  hasNext: boolean;
}

/** Keeps a student's row well under the 3000-character section limit however many courses they hold. */
const COURSES_TEXT_MAX = 600;

function coursesText(student: Student): string {
  if (student.courses.length === 0) return 'no courses';
  const parts = student.courses.map((c) => {
    const done = c.completed ? ' ✓' : ` ${percentText(c.progress)}`;
    return `${truncate(c.title, 60)}${done}`;
  });
  return escapeTruncated(`${count(student.courses.length, 'course')}: ${parts.join(', ')}`, COURSES_TEXT_MAX);
}

export function buildStudentsMessage({ students, page, hasNext }: StudentsMessageInput): SlackMessage {
  const pastEnd = students.length === 0 && page > 1;
  const label = openPageLabel(page, students.length, hasNext);
  const pager = buildPagerBlock({
    ...(page > 1 ? { previous: { view: 'students', page: pastEnd ? 1 : page - 1 } } : {}),
    ...(hasNext ? { next: { view: 'students', page: page + 1 } } : {}),
  });
  const rows = students.map((s) => section(`${studentText(s)}\n${coursesText(s)}`));
  const empty = pastEnd ? missingOpenPage(page) : 'There are no students yet.';
  return {
    text: `Students, ${label}`,
    blocks: compact([
      header('Students'),
      context(
        `${label[0]?.toUpperCase()}${label.slice(1)} · \`/licenses find &lt;email&gt;\` shows one student in full`,
      ),
      ...(rows.length > 0 ? rows : [section(empty)]),
      pager,
    ]),
  };
}
