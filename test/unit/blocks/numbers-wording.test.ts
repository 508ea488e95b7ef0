/**
 * Numbers and words a license manager reads: totals count only pools that still run, ended pools come
 * last without Assign, plurals agree with their numbers, every paged view names its page one way, and
 * a page past the end says so.
 */
import { describe, expect, it } from 'vitest';
import { helpMessage } from '../../../src/app/commands/index.js';
import { buildCoursesMessage } from '../../../src/browse/blocks/courses.js';
import { buildLicenseListMessage } from '../../../src/browse/blocks/license-list.js';
import { buildPoolLicensesMessage } from '../../../src/browse/blocks/pool-licenses.js';
import { buildPoolsMessage } from '../../../src/browse/blocks/pools.js';
import { buildStudentMessage } from '../../../src/browse/blocks/student.js';
import { buildStudentsMessage } from '../../../src/browse/blocks/students.js';
import { reportFromStudent } from '../../../src/browse/services/find-student.js';
import { ActionId } from '../../../src/kernel/blocks/ids.js';
import {
  allText,
  buttons,
  inDays,
  makeCourse,
  makeLicense,
  makePool,
  makeStudent,
  mrkdwnText,
  NOW,
} from '../../support/fixtures.js';

const running = makePool({ id: '201', course: { id: 'c1', title: 'A running course' }, licenses: 20 });
const ended = makePool({
  id: '202',
  // Sorts first by title: the builder, not the order given, must put it last.
  course: { id: 'c0', title: 'AAA ended course' },
  start: inDays(-400),
  end: inDays(-5),
  licenses: 10,
  assignedLicenses: 0,
  availableLicenses: 10,
});

describe('pools: totals, order and buttons', () => {
  const view = buildPoolsMessage({ pools: [ended, running], page: 1, canChange: true, now: NOW });

  it('counts seats of running pools only, and says how many pools ended', () => {
    const summary = allText(view);
    expect(summary).toContain('1 pool running, 1 ended · 12 of 20 seats available · page 1 of 1');
    expect(summary).not.toContain('of 30 seats');
  });

  it('lists the ended pool last and offers no Assign on it', () => {
    const text = mrkdwnText(view);
    expect(text.indexOf('pool `201`')).toBeLessThan(text.indexOf('pool `202`'));
    const assigns = buttons(view).filter((b) => b.action_id === ActionId.poolAssign);
    expect(assigns.map((b) => b.value)).toEqual(['201']);
    expect(buttons(view).filter((b) => b.action_id === ActionId.poolLicenses)).toHaveLength(2);
  });

  it('says "1 pool" and "1 seat", not "1 pools"', () => {
    const one = makePool({ licenses: 1, assignedLicenses: 0, availableLicenses: 1 });
    expect(allText(buildPoolsMessage({ pools: [one], page: 1, canChange: false, now: NOW }))).toContain(
      '1 pool · 1 of 1 seat available · page 1 of 1',
    );
  });

  it('a page past the end says so and shows the last page', () => {
    const view2 = buildPoolsMessage({ pools: [running], page: 2, canChange: false, now: NOW });
    expect(view2.text).toContain('There is no page 2: the list has 1 page.');
    expect(allText(view2)).toContain('page 1 of 1');
    expect(mrkdwnText(view2)).toContain('pool `201`');
  });
});

describe('courses: plurals and the page past the end', () => {
  it('says "1 course" and "1 pool"', () => {
    const text = allText(buildCoursesMessage([makeCourse()], 1, NOW));
    expect(text).toContain('1 course · page 1 of 1');
    expect(text).toContain('· 1 pool');
    expect(text).not.toMatch(/\b1 (courses|pools)\b/);
  });

  it('a course whose pools all ended offers no seats', () => {
    const pool = makeCourse().pools[0];
    if (!pool) throw new Error('fixture without a pool');
    const ended = { ...pool, end: inDays(-1), availableLicenses: 4 };
    const text = allText(buildCoursesMessage([makeCourse({ pools: [ended, { ...ended, id: 'p2' }] })], 1, NOW));
    expect(text).toContain('All 2 pools have ended: no seats to assign');
    expect(text).not.toContain('available');
  });

  it('a page past the end says so', () => {
    expect(buildCoursesMessage([makeCourse()], 3, NOW).text).toContain('There is no page 3: the list has 1 page.');
  });
});

describe('paged license and student lists name their page one way', () => {
  const ten = Array.from({ length: 10 }, (_, i) => makeLicense({ id: String(5000 + i) }));

  it('a pool\'s active licenses: "page X of Y" from the pool\'s assigned count', () => {
    const pool = makePool({ assignedLicenses: 38 });
    const view = buildPoolLicensesMessage({
      pool,
      licenses: ten,
      page: 2,
      hasNext: true,
      includeInactive: false,
      now: NOW,
    });
    expect(allText(view)).toContain('Showing active licenses · page 2 of 4');
    expect(allText(view)).not.toContain('10 a page');
  });

  it('inactive included (no total from the API): "page X, more after", and "page X of X" on the last', () => {
    const pool = makePool();
    const more = buildPoolLicensesMessage({
      pool,
      licenses: ten,
      page: 1,
      hasNext: true,
      includeInactive: true,
      now: NOW,
    });
    expect(allText(more)).toContain('page 1, more after');
    const last = buildPoolLicensesMessage({
      pool,
      licenses: ten.slice(0, 3),
      page: 3,
      hasNext: false,
      includeInactive: true,
      now: NOW,
    });
    expect(allText(last)).toContain('page 3 of 3');
  });

  it('list and students say the same, and a page past the end says so with a way back to page 1', () => {
    const list = buildLicenseListMessage({
      licenses: ten,
      poolsById: new Map(),
      page: 1,
      hasNext: true,
      includeInactive: false,
      now: NOW,
    });
    expect(allText(list)).toContain('Active licenses · page 1, more after');
    const students = buildStudentsMessage({ students: [makeStudent()], page: 1, hasNext: false });
    expect(allText(students)).toContain('Page 1 of 1');
    const past = buildStudentsMessage({ students: [], page: 4, hasNext: false });
    expect(allText(past)).toContain('There is no page 4: the list ends before it. Go back to page 1.');
    expect(buttons(past).find((b) => b.action_id === ActionId.navPrevious)?.value).toBe('{"v":"students","n":1}');
  });

  it('a student with one course says "1 course", and the student view "1 license"', () => {
    expect(allText(buildStudentsMessage({ students: [makeStudent()], page: 1, hasNext: false }))).toContain(
      '1 course:',
    );
    const report = reportFromStudent(makeStudent());
    expect(buildStudentMessage(report, NOW).text).toMatch(/: 1 license$/);
  });
});

describe('help', () => {
  it('escapes the placeholders of its usage lines, so Slack shows <poolId> instead of reading a link', () => {
    const text = mrkdwnText(helpMessage(true));
    expect(text).toContain('`/licenses pool &lt;poolId&gt; [all]`');
    expect(text).toContain('`/licenses find &lt;email | @user&gt;`');
    // Outside Slack's own sequences (<@U…>, <!date^…>, <https://…>), no raw angle bracket is left.
    expect(text.replace(/<(@[UW]|!date\^|https?:|mailto:)[^<>]*>/g, '')).not.toMatch(/[<>]/);
  });
});
