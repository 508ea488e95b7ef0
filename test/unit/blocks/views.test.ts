import { describe, expect, it } from 'vitest';
import { helpMessage } from '../../../src/app/commands/index.js';
import { buildCoursesMessage } from '../../../src/browse/blocks/courses.js';
import { buildLicenseMessage } from '../../../src/browse/blocks/license.js';
import { buildLicenseListMessage } from '../../../src/browse/blocks/license-list.js';
import { buildMeMessage } from '../../../src/browse/blocks/me.js';
import { buildPoolLicensesMessage } from '../../../src/browse/blocks/pool-licenses.js';
import { buildPoolsMessage } from '../../../src/browse/blocks/pools.js';
import { buildStudentMessage } from '../../../src/browse/blocks/student.js';
import { buildStudentsMessage } from '../../../src/browse/blocks/students.js';
import { reportFromStudent } from '../../../src/browse/services/find-student.js';
import {
  buildErrorMessage,
  buildLockedMessage,
  SANDBOX_MARKER,
  withSandboxMarker,
} from '../../../src/kernel/blocks/common.js';
import { ActionId } from '../../../src/kernel/blocks/ids.js';
import type { SlackMessage } from '../../../src/kernel/blocks/kit.js';
import { checkBlockKitLimits } from '../../../src/kernel/blocks/limits.js';
import {
  allText,
  buttons,
  inDays,
  ME,
  makeCourse,
  makeLicense,
  makePool,
  makeStudent,
  makeStudentCourse,
  mrkdwnText,
  NOW,
} from '../../support/fixtures.js';

const NASTY = '<!channel> & <@U0BOSS0001> <https://evil.example|click> ';
const longTitle = (i: number) => `${NASTY}${'Advanced DAX & Modeling '.repeat(12)}${i}`.slice(0, 300);
const PINGS = /<!(channel|here|everyone)|<@U|<https?:/;

function expectClean(message: SlackMessage): void {
  expect(checkBlockKitLimits(message)).toEqual([]);
  expect(checkBlockKitLimits(withSandboxMarker(message, true))).toEqual([]);
  expect(mrkdwnText(message)).not.toMatch(PINGS);
}

describe('buildPoolsMessage', () => {
  const pools = Array.from({ length: 200 }, (_, i) =>
    makePool({ id: String(1000 + i), course: { id: `c${i}`, title: longTitle(i) } }),
  );

  it('pages 200 pools with 300-character hostile titles within every limit', () => {
    for (let page = 1; page <= 20; page++) {
      expectClean(buildPoolsMessage({ pools, page, canChange: true, now: NOW }));
    }
  });

  it('offers Next on the first page, Previous on the last, and clamps a stale page', () => {
    const first = buttons(buildPoolsMessage({ pools, page: 1, canChange: false, now: NOW }));
    expect(first.map((b) => b.action_id)).toContain(ActionId.navNext);
    expect(first.map((b) => b.action_id)).not.toContain(ActionId.navPrevious);
    const last = buildPoolsMessage({ pools, page: 99, canChange: false, now: NOW });
    expect(allText(last)).toContain('page 20 of 20');
    expect(buttons(last).find((b) => b.action_id === ActionId.navPrevious)?.value).toBe('{"v":"pools","n":19}');
  });

  it('shows Assign to admins only, with the pool id as value, and Licenses to everyone', () => {
    const admin = buttons(buildPoolsMessage({ pools: [makePool()], page: 1, canChange: true, now: NOW }));
    expect(admin).toContainEqual({ action_id: ActionId.poolAssign, text: 'Assign', value: '101' });
    const viewer = buttons(buildPoolsMessage({ pools: [makePool()], page: 1, canChange: false, now: NOW }));
    expect(viewer.map((b) => b.action_id)).toEqual([ActionId.poolLicenses]);
    expect(viewer[0]?.value).toBe('{"v":"pool","p":"101","n":1,"i":0}');
  });

  it('shows counts, a bar, transferability, the day with a relative hint, and warnings', () => {
    const text = allText(
      buildPoolsMessage({
        pools: [
          makePool({ id: '1', availableLicenses: 0, assignedLicenses: 50, end: inDays(21) }),
          makePool({ id: '2', transferable: false, end: inDays(-10) }),
        ],
        page: 1,
        canChange: true,
        now: NOW,
      }),
    );
    expect(text).toContain('*0* of 50 available · 50 assigned');
    expect(text).toContain('▰▰▰▰▰▰▰▰▰▰');
    // The calendar day as everyone reads it (the UTC day License Desk counts in).
    expect(text).toContain('Mar 22, 2026');
    expect(text).toContain('(ends in 3 weeks)');
    expect(text).toContain('Full: no seats left');
    expect(text).toContain('Ends within 30 days');
    expect(text).toContain('Not transferable');
    expect(text).toContain('Ended');
  });

  it('says so when there are no pools', () => {
    expect(allText(buildPoolsMessage({ pools: [], page: 1, canChange: true, now: NOW }))).toContain('no license pools');
  });
});

describe('buildPoolLicensesMessage and buildLicenseListMessage', () => {
  const licenses = Array.from({ length: 10 }, (_, i) =>
    makeLicense({
      id: String(5000 + i),
      student: { id: 's', name: `${NASTY}${'x'.repeat(300)}`, email: `a&b${i}@x.com` },
    }),
  );

  it('escapes student names and keeps a full page within limits', () => {
    const view = buildPoolLicensesMessage({
      pool: makePool({ course: { id: 'c', title: longTitle(1).repeat(10) } }),
      licenses,
      page: 2,
      hasNext: true,
      includeInactive: false,
      now: NOW,
    });
    expectClean(view);
    expect(allText(view)).toContain('&lt;!channel&gt; &amp;');
    const ids = buttons(view).map((b) => b.action_id);
    expect(ids.filter((id) => id === ActionId.licenseDetails)).toHaveLength(10);
    expect(ids).toEqual(expect.arrayContaining([ActionId.navPrevious, ActionId.navNext, ActionId.navToggleInactive]));
  });

  it('keeps page state in the buttons and flips the inactive switch', () => {
    const b = buttons(
      buildPoolLicensesMessage({
        pool: makePool(),
        licenses,
        page: 1,
        hasNext: false,
        includeInactive: true,
        now: NOW,
      }),
    );
    expect(b.map((x) => x.action_id)).not.toContain(ActionId.navNext);
    expect(b.find((x) => x.action_id === ActionId.navToggleInactive)).toMatchObject({
      text: 'Active only',
      value: '{"v":"pool","p":"101","n":1,"i":0}',
    });
  });

  it('lists licenses of every course with their course titles', () => {
    const view = buildLicenseListMessage({
      licenses,
      poolsById: new Map([['101', makePool()]]),
      page: 1,
      hasNext: true,
      includeInactive: false,
      now: NOW,
    });
    expectClean(view);
    expect(allText(view)).toContain('Power BI Fundamentals');
    expect(buttons(view).find((b) => b.action_id === ActionId.navNext)?.value).toBe('{"v":"list","n":2,"i":0}');
  });
});

describe('buildLicenseMessage', () => {
  const ids = (m: SlackMessage) => buttons(m).map((b) => b.action_id);

  it('gives admins Change end date and Revoke on a running license of a transferable pool', () => {
    const view = buildLicenseMessage({ license: makeLicense(), pool: makePool(), canChange: true, now: NOW });
    expectClean(view);
    expect(ids(view)).toEqual([ActionId.licenseChangeEndDate, ActionId.poolLicenses, ActionId.licenseRevoke]);
    expect(buttons(view).find((b) => b.action_id === ActionId.licenseRevoke)?.value).toBe('5001');
  });

  it('gives viewers no change buttons', () => {
    const view = buildLicenseMessage({ license: makeLicense(), pool: makePool(), canChange: false, now: NOW });
    expect(ids(view)).toEqual([ActionId.poolLicenses]);
  });

  it('follows the flags and the rules, and says why a change is missing', () => {
    const untransferable = buildLicenseMessage({
      license: makeLicense({ revokable: false }),
      pool: makePool({ transferable: false }),
      canChange: true,
      now: NOW,
    });
    expect(ids(untransferable)).toEqual([ActionId.poolLicenses]);
    expect(allText(untransferable)).toContain('the pool is not transferable');
    const expired = buildLicenseMessage({
      license: makeLicense({ end: inDays(-1) }),
      pool: makePool(),
      canChange: true,
      now: NOW,
    });
    expect(ids(expired)).toEqual([ActionId.poolLicenses]);
    expect(allText(expired)).toContain('Expired');
  });

  it('shows status, dates and the escaped student', () => {
    const view = buildLicenseMessage({
      license: makeLicense({ end: inDays(3), student: { id: '1', name: '<!channel> & Co', email: 'c@x.com' } }),
      pool: makePool(),
      canChange: true,
      now: NOW,
    });
    const text = allText(view);
    expect(text).toContain('Ending soon');
    expect(text).toContain('&lt;!channel&gt; &amp; Co');
    expect(text).toMatch(/\*Start\*\n[A-Z][a-z]{2} \d{1,2}, \d{4}/);
  });
});

describe('student, students, courses, me, help', () => {
  it('shows a student with progress and completion, within limits for 100 courses', () => {
    const base = makeStudent({ name: NASTY });
    const courses = Array.from({ length: 100 }, (_, i) => ({
      ...makeStudentCourse(),
      licenseId: String(i),
      title: longTitle(i),
      completed: i % 2 ? inDays(-2) : null,
    }));
    const view = buildStudentMessage(reportFromStudent({ ...base, courses }), NOW);
    expectClean(view);
    const text = allText(view);
    expect(text).toContain('42 % done');
    expect(text).toContain('Completed');
    expect(text).toContain('and 80 more');
  });

  it('pages students and truncates their course lists', () => {
    const students = Array.from({ length: 10 }, (_, i) =>
      makeStudent({
        id: String(i),
        name: NASTY,
        courses: Array.from({ length: 50 }, () => makeStudentCourse({ title: longTitle(i) })),
      }),
    );
    const view = buildStudentsMessage({ students, page: 3, hasNext: true });
    expectClean(view);
    expect(buttons(view).map((b) => b.value)).toEqual(['{"v":"students","n":2}', '{"v":"students","n":4}']);
  });

  it('pages 200 courses', () => {
    const courses = Array.from({ length: 200 }, (_, i) => makeCourse({ id: String(i), title: longTitle(i) }));
    for (const page of [1, 10, 20]) expectClean(buildCoursesMessage(courses, page, NOW));
  });

  it('shows the account with its allowed domains, escaped and bounded', () => {
    const view = buildMeMessage({
      ...ME,
      allowedDomainsForTransferableLicenses: ['<!here>.com', ...Array(900).fill('x.com')],
    });
    expectClean(view);
    expect(allText(buildMeMessage(ME))).toContain('contoso.com, fabrikam.com');
  });

  it('shows help by role, with the reason escaped and bounded', () => {
    const admin = helpMessage(true, `I don't know “<!channel>${'x'.repeat(3000)}”.`);
    expectClean(admin);
    expect(allText(admin)).toContain('license admin');
    expect(allText(helpMessage(false))).toContain('license viewer');
    expect(allText(helpMessage(false))).toContain('/licenses find');
  });

  it('puts a visible sandbox marker on top and keeps messages valid', () => {
    const marked = withSandboxMarker(buildErrorMessage('boom <b>'), true);
    expect(allText(marked.blocks[0])).toBe(SANDBOX_MARKER);
    expect(marked.text).toContain('Sandbox');
    expect(withSandboxMarker(buildLockedMessage('No access: ask <@U1>.'), false).blocks).toHaveLength(1);
  });
});
